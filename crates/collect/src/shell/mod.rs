//! Shell histories.
