//! Project tasks: `cargo xtask ci`, `cargo xtask demo`.

fn main() {}
