//! Cleans stdin of terminal escape sequences and control, bidi and invisible characters:
//! `cargo run -p standup-sanitize --example clean < typescript > readable.txt`.

use std::io::{Read as _, Write as _};

fn main() -> std::io::Result<()> {
    let mut input = Vec::new();
    std::io::stdin().lock().read_to_end(&mut input)?;
    let text = String::from_utf8_lossy(&input);
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(sanitize::clean(&text).as_bytes())?;
    stdout.flush()
}
