//! Masks secrets on stdin with the built-in rules and says on stderr how many were
//! masked: `cargo run -p standup-redact --example mask < build.log > shareable.log`.
//!
//! The whole input is masked at once, so a secret that spans lines (a PEM private key)
//! is found as well.

use std::io::{Read as _, Write as _};

fn main() -> std::io::Result<()> {
    let mut input = Vec::new();
    std::io::stdin().lock().read_to_end(&mut input)?;
    // Bytes that are not UTF-8 become replacement characters rather than an error.
    let text = String::from_utf8_lossy(&input);
    let (masked, count) = redact::Redactor::builtin().redact(&text);
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(masked.as_bytes())?;
    stdout.flush()?;
    writeln!(std::io::stderr(), "mask: {count} secret(s) masked")
}
