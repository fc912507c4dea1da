//! The readers over the files the real agents wrote (fixtures/agents/<agent>/<version>/), against each recording's expectations.
