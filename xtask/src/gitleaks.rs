//! `cargo xtask gitleaks-table --src <gitleaks checkout> --out <file.json>`: extracts the
//! examples of gitleaks' rules (each rule's true positives `tps` and false positives
//! `fps` in `cmd/generate/config/rules/*.go`) into a JSON table, which the redact
//! crate's test `tests/it/gitleaks.rs` measures the built-in rules against.
//!
//! Nothing of gitleaks is kept in this repository: the table is built from a checkout
//! given on the command line (see `crates/redact/README.md` for the pinned commit).
//!
//! The Go files are read with a small tokenizer and an evaluator of the expressions the
//! rule files use to build their examples: string literals (raw and interpreted), `+`,
//! `[]string{…}`, `map[string]string{…}` (the values), `append(…)`, `fmt.Sprintf` with
//! `%s`, the pattern helpers (`utils.Hex("32")`, …), `secrets.NewSecret(regex)` (a
//! random string matching the regex, from a fixed seed, so the table is the same on
//! every run), `utils.GenerateSampleSecret(s)` (the 26 shapes gitleaks writes a secret
//! in), `newPlausibleSecret`, and variables assigned in the function or at package
//! level. An example built any other way (a loop, a helper function) is counted as
//! skipped, with the reason, in the table's `skipped` list.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use regex_syntax::hir::{Class, Hir, HirKind};
use serde_json::json;

/// The gitleaks commit the figures in `crates/redact/README.md` were measured at.
pub(crate) const PINNED_COMMIT: &str = "b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b";

/// gitleaks' source as Debian's archive serves it (the `orig` tarball of the trixie
/// package): a package registry CI reaches, unlike GitHub. Pinned by its SHA-256.
pub(crate) const DEBIAN_URL: &str =
    "http://deb.debian.org/debian/pool/main/g/gitleaks/gitleaks_8.16.0.orig.tar.gz";
pub(crate) const DEBIAN_SHA256: &str =
    "71aace87a76d966a918031588a63127303b375085a39d5b8d2af02105f2118d8";
/// The folder the tarball unpacks to.
const DEBIAN_DIR: &str = "gitleaks-8.16.0";

/// The task's entry point.
pub(crate) fn run(root: &Path, args: &[String]) -> anyhow::Result<()> {
    let mut src: Option<PathBuf> = None;
    let mut out: Option<PathBuf> = None;
    let mut commit: Option<String> = None;
    let mut measure = false;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--src" => src = iter.next().map(PathBuf::from),
            "--out" => out = iter.next().map(PathBuf::from),
            "--commit" => commit = iter.next().cloned(),
            "--measure" => measure = true,
            "--debian" => return debian(root),
            other => {
                bail!(
                    "unknown argument `{other}` (expected --debian, or --src DIR --out FILE [--commit SHA] [--measure])"
                )
            }
        }
    }
    let (Some(src), Some(out)) = (src, out) else {
        bail!(
            "usage: cargo xtask gitleaks-table --src <gitleaks checkout> --out <file.json> [--commit SHA] [--measure]"
        );
    };
    let commit = commit.or_else(|| git_head(&src));
    if commit.as_deref().is_some_and(|commit| commit != PINNED_COMMIT) {
        eprintln!("note: the checkout is not at the pinned commit {PINNED_COMMIT}");
    }
    let table = build_table(&src, commit.as_deref())?;
    fs_err::write(&out, serde_json::to_string_pretty(&table)? + "\n")?;
    eprintln!(
        "wrote {}: {} rules, {} true positives, {} false positives, {} skipped",
        out.display(),
        table["rules"].as_array().map_or(0, Vec::len),
        table["n_tps"],
        table["n_fps"],
        table["skipped"].as_array().map_or(0, Vec::len),
    );
    if measure {
        crate::gitleaks_measure::measure(&table)?;
    }
    Ok(())
}

/// `--debian`: fetches the pinned tarball into `target/gitleaks` (3 tries, short
/// timeouts; kept there for the next run), checks its SHA-256, unpacks it, builds the
/// table and measures it with the gates. When the archive cannot be fetched at all, says
/// `gitleaks table NOT RUN: <why>` and succeeds: a network outage does not fail CI. A
/// tarball whose hash differs fails (the pin no longer holds).
pub(crate) fn debian(root: &Path) -> anyhow::Result<()> {
    let dir = root.join("target").join("gitleaks");
    let tarball = match fetch_pinned(&dir, DEBIAN_URL, DEBIAN_SHA256)? {
        Ok(tarball) => tarball,
        Err(why) => {
            eprintln!("gitleaks table NOT RUN: {why}");
            return Ok(());
        }
    };
    let src = dir.join(DEBIAN_DIR);
    if src.exists() {
        fs_err::remove_dir_all(&src)?;
    }
    let status = std::process::Command::new("tar")
        .arg("-xzf")
        .arg(&tarball)
        .arg("-C")
        .arg(&dir)
        .status()
        .context("running tar")?;
    anyhow::ensure!(status.success(), "tar -xzf {} failed ({status})", tarball.display());
    let table =
        build_table(&src, Some(&format!("8.16.0 (Debian orig tarball, sha256 {DEBIAN_SHA256})")))?;
    let out = dir.join("table.json");
    fs_err::write(&out, serde_json::to_string_pretty(&table)? + "\n")?;
    eprintln!(
        "gitleaks table: {} rules, {} true positives, {} false positives, {} skipped ({})",
        table["rules"].as_array().map_or(0, Vec::len),
        table["n_tps"],
        table["n_fps"],
        table["skipped"].as_array().map_or(0, Vec::len),
        out.display(),
    );
    crate::gitleaks_measure::measure(&table)
}

/// The file at `url`, in `dir` under its own name, as long as its SHA-256 is `sha256`:
/// the copy already there when it matches, else a fresh download. `Ok(Err(why))` when it
/// cannot be fetched; an error when what was fetched does not match.
fn fetch_pinned(dir: &Path, url: &str, sha256: &str) -> anyhow::Result<Result<PathBuf, String>> {
    fs_err::create_dir_all(dir)?;
    let tarball = dir.join(url.rsplit('/').next().unwrap_or("download"));
    if fs_err::read(&tarball).is_ok_and(|bytes| sha256_hex(&bytes) == sha256) {
        return Ok(Ok(tarball));
    }
    if let Err(why) = download(url, &tarball) {
        return Ok(Err(why));
    }
    let bytes = fs_err::read(&tarball)?;
    let digest = sha256_hex(&bytes);
    if digest != sha256 {
        let _ = fs_err::remove_file(&tarball);
        bail!("{url}: SHA-256 {digest} ({} bytes), expected {sha256}", bytes.len());
    }
    Ok(Ok(tarball))
}

/// Fetches `url` into `path` with curl: 3 tries, 10 s to connect, 60 s in all each.
fn download(url: &str, path: &Path) -> Result<(), String> {
    let partial = path.with_extension("part");
    let mut why = String::new();
    for attempt in 1..=3 {
        let output = std::process::Command::new("curl")
            .args(["--fail", "--silent", "--show-error", "--location"])
            .args(["--connect-timeout", "10", "--max-time", "60", "--output"])
            .arg(&partial)
            .arg(url)
            .output();
        match output {
            Err(error) => return Err(format!("cannot run curl ({error})")),
            Ok(output) if output.status.success() => {
                return fs_err::rename(&partial, path).map_err(|error| error.to_string());
            }
            Ok(output) => {
                why = format!(
                    "{url}: curl failed {attempt} times ({}: {})",
                    output.status,
                    String::from_utf8_lossy(&output.stderr).trim()
                );
            }
        }
        if attempt < 3 {
            std::thread::sleep(std::time::Duration::from_secs(2));
        }
    }
    let _ = fs_err::remove_file(&partial);
    Err(why)
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    use std::fmt::Write as _;
    sha2::Sha256::digest(bytes).iter().fold(String::new(), |mut hex, byte| {
        let _ = write!(hex, "{byte:02x}");
        hex
    })
}

fn git_head(src: &Path) -> Option<String> {
    let output =
        std::process::Command::new("git").arg("-C").arg(src).args(["rev-parse", "HEAD"]).output();
    let output = output.ok().filter(|output| output.status.success())?;
    Some(String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// Reads every rule file under `src` and builds the table.
pub(crate) fn build_table(src: &Path, commit: Option<&str>) -> anyhow::Result<serde_json::Value> {
    let dir = src.join("cmd/generate/config/rules");
    let mut files: Vec<PathBuf> = fs_err::read_dir(&dir)
        .with_context(|| format!("{} is not a gitleaks checkout", src.display()))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "go"))
        .collect();
    files.sort();
    let mut parsed = Vec::new();
    let mut skipped = Vec::new();
    for path in &files {
        let name =
            path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        // A file the tokenizer cannot read is a counted note, not the end of the table.
        match fs_err::read_to_string(path)
            .map_err(anyhow::Error::from)
            .and_then(|text| tokenize(&text))
        {
            Ok(tokens) => parsed.push((name, tokens)),
            Err(error) => {
                skipped.push(json!({"file": name, "what": "file", "reason": format!("{error:#}")}));
            }
        }
    }
    // Package-level variables first (`DefaultStopWords`, shared keyword lists).
    let mut globals = Env::default();
    for (_, tokens) in &parsed {
        package_vars(tokens, &mut globals);
    }
    let mut rules = Vec::new();
    let (mut true_positives, mut false_positives) = (0, 0);
    for (name, tokens) in &parsed {
        for function in rule_functions(tokens) {
            let extracted = extract_rule(&function, &globals);
            let Some(id) = extracted.id else { continue };
            let examples = |items: &[Item], what: &str, skipped: &mut Vec<serde_json::Value>| {
                let mut out = Vec::new();
                for item in items {
                    match item {
                        Item::Sample(sample) => out.push(match &sample.secret {
                            Some(secret) => json!({"text": sample.text, "secret": secret}),
                            None => json!({"text": sample.text}),
                        }),
                        Item::Skipped(reason) => skipped.push(
                            json!({"rule": id, "file": name, "what": what, "reason": reason}),
                        ),
                    }
                }
                out
            };
            let tps = examples(&extracted.tps, "tp", &mut skipped);
            let fps = examples(&extracted.fps, "fp", &mut skipped);
            true_positives += tps.len();
            false_positives += fps.len();
            rules.push(
                json!({"id": id, "file": name, "function": function.name, "tps": tps, "fps": fps}),
            );
        }
    }
    // gitleaks' whole default ruleset, to tell the false positives of one rule that
    // another rule reports from those the whole ruleset leaves alone.
    let config = fs_err::read_to_string(src.join("config/gitleaks.toml")).ok();
    Ok(json!({
        "source": "github.com/gitleaks/gitleaks cmd/generate/config/rules/*.go",
        "gitleaks_toml": config,
        "commit": commit,
        "n_tps": true_positives,
        "n_fps": false_positives,
        "rules": rules,
        "skipped": skipped,
    }))
}

// ---------------------------------------------------------------------------------------
// Tokens.

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    Num(String),
    Punct(&'static str),
    /// A line break (Go ends statements there).
    Newline,
    Other(char),
}

const PUNCTS: &[&str] = &[
    "...", ":=", "+=", "==", "!=", "&&", "||", "<-", "<=", ">=", "++", "--", "(", ")", "{", "}",
    "[", "]", ",", ".", ":", ";", "+", "=", "*", "&", "!", "-", "<", ">", "/", "%", "|", "^",
];

fn tokenize(text: &str) -> anyhow::Result<Vec<Tok>> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut idx = 0;
    while idx < text.len() {
        let c = text[idx..].chars().next().unwrap_or(' ');
        if c == '\n' {
            tokens.push(Tok::Newline);
            idx += 1;
        } else if c.is_whitespace() {
            idx += c.len_utf8();
        } else if text[idx..].starts_with("//") {
            idx = text[idx..].find('\n').map_or(text.len(), |end| idx + end);
        } else if text[idx..].starts_with("/*") {
            let end = text[idx + 2..].find("*/").context("unterminated comment")?;
            if text[idx..idx + 2 + end].contains('\n') {
                tokens.push(Tok::Newline);
            }
            idx += 2 + end + 2;
        } else if c == '`' {
            let end = text[idx + 1..].find('`').context("unterminated raw string")?;
            tokens.push(Tok::Str(text[idx + 1..idx + 1 + end].replace('\r', "")));
            idx += end + 2;
        } else if c == '"' || c == '\'' {
            let (value, len) = interpreted(&text[idx..], c)?;
            tokens.push(if c == '"' { Tok::Str(value) } else { Tok::Num(value) });
            idx += len;
        } else if c.is_alphabetic() || c == '_' {
            let len = text[idx..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(text.len() - idx);
            tokens.push(Tok::Ident(text[idx..idx + len].to_owned()));
            idx += len;
        } else if c.is_ascii_digit() {
            let len = text[idx..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_'))
                .unwrap_or(text.len() - idx);
            tokens.push(Tok::Num(text[idx..idx + len].to_owned()));
            idx += len;
        } else if let Some(punct) =
            PUNCTS.iter().find(|punct| bytes[idx..].starts_with(punct.as_bytes()))
        {
            tokens.push(Tok::Punct(punct));
            idx += punct.len();
        } else {
            tokens.push(Tok::Other(c));
            idx += c.len_utf8();
        }
    }
    Ok(tokens)
}

/// Decodes a Go interpreted string (or rune) literal at the start of `text`, quoted by
/// `quote`: the value and the literal's length in bytes.
fn interpreted(text: &str, quote: char) -> anyhow::Result<(String, usize)> {
    let mut out = String::new();
    let mut chars = text.char_indices().skip(1);
    while let Some((at, c)) = chars.next() {
        if c == quote {
            return Ok((out, at + 1));
        }
        if c == '\n' {
            bail!("newline in a string literal");
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let (_, escape) = chars.next().context("unterminated escape")?;
        let mut hex = |n: usize| -> anyhow::Result<u32> {
            let digits: String = (0..n).filter_map(|_| chars.next().map(|(_, c)| c)).collect();
            u32::from_str_radix(&digits, 16).context("bad escape")
        };
        match escape {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'v' => out.push('\u{b}'),
            '\\' | '"' | '\'' => out.push(escape),
            'x' => out.push(char::from_u32(hex(2)?).unwrap_or('\u{fffd}')),
            'u' => out.push(char::from_u32(hex(4)?).unwrap_or('\u{fffd}')),
            'U' => out.push(char::from_u32(hex(8)?).unwrap_or('\u{fffd}')),
            '0'..='7' => {
                let digits: String = std::iter::once(escape)
                    .chain((0..2).filter_map(|_| chars.next().map(|(_, c)| c)))
                    .collect();
                out.push(char::from_u32(u32::from_str_radix(&digits, 8)?).unwrap_or('\u{fffd}'));
            }
            other => bail!("unknown escape \\{other}"),
        }
    }
    bail!("unterminated string literal")
}

// ---------------------------------------------------------------------------------------
// Functions and statements.

struct Function<'a> {
    name: String,
    body: &'a [Tok],
}

/// The tokens between the bracket at `open` and the one just before `end` (as
/// [`matching`] gives it); empty when the brackets do not close.
fn inside(tokens: &[Tok], open: usize, end: usize) -> &[Tok] {
    tokens.get(open + 1..end.saturating_sub(1)).unwrap_or_default()
}

/// The index just past the bracket matching the one at `open`.
fn matching(tokens: &[Tok], open: usize) -> usize {
    let mut depth = 0_usize;
    for (idx, token) in tokens.iter().enumerate().skip(open) {
        match token {
            Tok::Punct("(" | "{" | "[") => depth += 1,
            Tok::Punct(")" | "}" | "]") => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return idx + 1;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

/// The functions that return `*config.Rule`.
fn rule_functions(tokens: &[Tok]) -> Vec<Function<'_>> {
    let mut functions = Vec::new();
    let mut idx = 0;
    while idx < tokens.len() {
        if tokens[idx] == Tok::Ident("func".to_owned()) {
            if let Some(Tok::Ident(name)) = tokens.get(idx + 1) {
                // The body starts at the first `{` after the signature.
                let Some(open) =
                    tokens[idx..].iter().position(|t| *t == Tok::Punct("{")).map(|at| idx + at)
                else {
                    break;
                };
                let signature = &tokens[idx..open];
                let returns_rule = signature.windows(3).any(|w| {
                    w[0] == Tok::Ident("config".to_owned())
                        && w[1] == Tok::Punct(".")
                        && w[2] == Tok::Ident("Rule".to_owned())
                });
                let end = matching(tokens, open);
                if returns_rule {
                    functions
                        .push(Function { name: name.clone(), body: inside(tokens, open, end) });
                }
                idx = end;
                continue;
            }
        }
        idx += 1;
    }
    functions
}

/// Evaluates the package-level `var NAME = …` and `var ( NAME = … )` declarations.
fn package_vars(tokens: &[Tok], env: &mut Env) {
    let mut idx = 0;
    while idx < tokens.len() {
        match &tokens[idx] {
            Tok::Ident(word) if word == "func" => {
                let Some(open) = tokens[idx..].iter().position(|t| *t == Tok::Punct("{")) else {
                    return;
                };
                idx = matching(tokens, idx + open);
            }
            Tok::Ident(word) if word == "var" => {
                if tokens.get(idx + 1) == Some(&Tok::Punct("(")) {
                    let end = matching(tokens, idx + 1);
                    assignments(inside(tokens, idx + 1, end), env, true);
                    idx = end;
                } else {
                    let end = statement_end(tokens, idx + 1);
                    assignments(&tokens[idx + 1..end], env, true);
                    idx = end;
                }
            }
            _ => idx += 1,
        }
    }
}

/// The end of the statement starting at `start`: the first newline or `;` outside
/// brackets (a newline after `+`, `,` or an opening bracket continues it).
fn statement_end(tokens: &[Tok], start: usize) -> usize {
    let mut depth = 0_usize;
    let mut idx = start;
    while idx < tokens.len() {
        match &tokens[idx] {
            Tok::Punct("(" | "{" | "[") => depth += 1,
            Tok::Punct(")" | "}" | "]") => {
                if depth == 0 {
                    return idx;
                }
                depth -= 1;
            }
            Tok::Newline | Tok::Punct(";") if depth == 0 => {
                let continued = idx > start
                    && matches!(
                        tokens[idx - 1],
                        Tok::Punct("+" | "," | "(" | "{" | "[" | "=" | ":=" | "||" | "&&")
                    );
                if !continued {
                    return idx;
                }
            }
            _ => {}
        }
        idx += 1;
    }
    tokens.len()
}

/// Evaluates the assignments `NAME := expr`, `NAME = expr` and `var NAME [type] = expr`
/// at the top level of `tokens` (not inside nested blocks), into `env`.
fn assignments(tokens: &[Tok], env: &mut Env, declarations: bool) {
    let mut idx = 0;
    let mut at_start = true;
    while idx < tokens.len() {
        let token = &tokens[idx];
        if matches!(token, Tok::Newline | Tok::Punct(";")) {
            at_start = true;
            idx += 1;
            continue;
        }
        if at_start {
            at_start = false;
            let mut name_at = idx;
            if *token == Tok::Ident("var".to_owned())
                && tokens.get(idx + 1) == Some(&Tok::Punct("("))
            {
                // `var ( NAME = … )`
                let end = matching(tokens, idx + 1);
                assignments(inside(tokens, idx + 1, end), env, true);
                idx = end;
                continue;
            }
            if *token == Tok::Ident("var".to_owned()) {
                name_at += 1;
            }
            if let Some(Tok::Ident(name)) = tokens.get(name_at) {
                // `NAME :=`, `NAME =`, `NAME TYPE =` (declarations only).
                let mut op_at = name_at + 1;
                if declarations || name_at > idx {
                    while let Some(Tok::Ident(_) | Tok::Punct("[" | "]" | "." | "*")) =
                        tokens.get(op_at)
                    {
                        op_at += 1;
                    }
                }
                if matches!(tokens.get(op_at), Some(Tok::Punct(":=" | "="))) {
                    let end = statement_end(tokens, op_at + 1);
                    let value = Parser { tokens: &tokens[op_at + 1..end], at: 0, env }.expr_all();
                    env.vars.insert(name.clone(), value);
                    idx = end;
                    continue;
                }
            }
        }
        if let Tok::Punct("(" | "{" | "[") = token {
            idx = matching(tokens, idx);
            continue;
        }
        idx += 1;
    }
}

struct Extracted {
    id: Option<String>,
    tps: Vec<Item>,
    fps: Vec<Item>,
}

fn extract_rule(function: &Function<'_>, globals: &Env) -> Extracted {
    let body = function.body;
    let id = body.windows(3).find_map(|w| match w {
        [Tok::Ident(field), Tok::Punct(":"), Tok::Str(id)] if field == "RuleID" => Some(id.clone()),
        _ => None,
    });
    let mut env = Env { vars: globals.vars.clone(), seed: id.as_deref().map_or(0, fnv) };
    // Statements at the top of the body; `tps = append(tps, …)` updates in order.
    assignments(body, &mut env, false);
    // `return utils.Validate(r, TPS, FPS)` or `utils.ValidateWithPaths(…)`; before the
    // helpers moved to `utils` (gitleaks 8.16), `return validate(r, TPS, FPS)`. The index
    // of the call's `(`.
    let call = body.windows(4).enumerate().find_map(|(at, w)| match w {
        [Tok::Ident(utils), Tok::Punct("."), Tok::Ident(name), Tok::Punct("(")]
            if utils == "utils" && (name == "Validate" || name == "ValidateWithPaths") =>
        {
            Some(at + 3)
        }
        [Tok::Ident(name), Tok::Punct("("), ..]
            if name == "validate" && (at == 0 || body[at - 1] != Tok::Punct(".")) =>
        {
            Some(at + 1)
        }
        _ => None,
    });
    let mut tps = Vec::new();
    let mut fps = Vec::new();
    if let Some(open) = call {
        let end = matching(body, open);
        let args = split_args(body.get(open + 1..end.saturating_sub(1)).unwrap_or_default());
        let mut list = |arg: Option<&&[Tok]>| -> Vec<Item> {
            match arg {
                Some(&[Tok::Ident(nil)]) if nil == "nil" => Vec::new(),
                Some(arg) => {
                    let value = Parser { tokens: arg, at: 0, env: &mut env }.expr_all();
                    value.into_items()
                }
                None => vec![Item::Skipped("no argument".to_owned())],
            }
        };
        tps = list(args.get(1));
        fps = list(args.get(2));
    } else if id.is_some() {
        tps.push(Item::Skipped("the rule is not validated with examples".to_owned()));
    }
    Extracted { id, tps, fps }
}

/// The comma-separated arguments of a call (without the parentheses).
fn split_args(tokens: &[Tok]) -> Vec<&[Tok]> {
    let mut args = Vec::new();
    let mut start = 0;
    let mut depth = 0_usize;
    for (idx, token) in tokens.iter().enumerate() {
        match token {
            Tok::Punct("(" | "{" | "[") => depth += 1,
            Tok::Punct(")" | "}" | "]") => depth = depth.saturating_sub(1),
            Tok::Punct(",") if depth == 0 => {
                args.push(trim(&tokens[start..idx]));
                start = idx + 1;
            }
            _ => {}
        }
    }
    let last = trim(&tokens[start..]);
    if !last.is_empty() {
        args.push(last);
    }
    args
}

fn trim(mut tokens: &[Tok]) -> &[Tok] {
    while let [Tok::Newline, rest @ ..] = tokens {
        tokens = rest;
    }
    while let [rest @ .., Tok::Newline] = tokens {
        tokens = rest;
    }
    tokens
}

// ---------------------------------------------------------------------------------------
// Values.

#[derive(Debug, Clone)]
struct Sample {
    text: String,
    /// The secret in `text`, when the example was generated around it.
    secret: Option<String>,
}

#[derive(Debug, Clone)]
enum Item {
    Sample(Sample),
    Skipped(String),
}

#[derive(Debug, Clone)]
enum Value {
    Str(String),
    List(Vec<Item>),
    Unknown(String),
}

impl Value {
    fn into_items(self) -> Vec<Item> {
        match self {
            Value::Str(text) => vec![Item::Sample(Sample { text, secret: None })],
            Value::List(items) => items,
            Value::Unknown(reason) => vec![Item::Skipped(reason)],
        }
    }
}

#[derive(Debug, Clone, Default)]
struct Env {
    vars: HashMap<String, Value>,
    /// The state of the random generator of `secrets.NewSecret`.
    seed: u64,
}

impl Env {
    fn next_random(&mut self) -> u64 {
        // splitmix64
        self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next_random() % (n.max(1) as u64)).unwrap_or(0)
    }
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

struct Parser<'a, 'e> {
    tokens: &'a [Tok],
    at: usize,
    env: &'e mut Env,
}

impl Parser<'_, '_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens[self.at..].iter().find(|token| **token != Tok::Newline)
    }

    fn next(&mut self) -> Option<Tok> {
        while let Some(token) = self.tokens.get(self.at) {
            self.at += 1;
            if *token != Tok::Newline {
                return Some(token.clone());
            }
        }
        None
    }

    fn eat(&mut self, punct: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Punct(p)) if *p == punct) {
            self.next();
            true
        } else {
            false
        }
    }

    /// The whole token slice as one expression.
    fn expr_all(&mut self) -> Value {
        let value = self.expr();
        if self.peek().is_some() && !matches!(value, Value::Unknown(_)) {
            return Value::Unknown(format!("unsupported expression near {:?}", self.peek()));
        }
        value
    }

    fn expr(&mut self) -> Value {
        let mut value = self.primary();
        while self.eat("+") {
            let right = self.primary();
            value = match (value, right) {
                (Value::Str(left), Value::Str(right)) => Value::Str(left + &right),
                (Value::Unknown(reason), _) | (_, Value::Unknown(reason)) => Value::Unknown(reason),
                _ => Value::Unknown("`+` of a list".to_owned()),
            };
        }
        value
    }

    /// Comma-separated expressions up to the closing `close`, with a trailing `...`
    /// marking a spread.
    fn list_until(&mut self, close: &str) -> Vec<(Value, bool)> {
        let mut values = Vec::new();
        loop {
            if self.eat(close) {
                return values;
            }
            let value = self.expr();
            let spread = self.eat("...");
            values.push((value, spread));
            if !self.eat(",") {
                if !self.eat(close) {
                    values.push((Value::Unknown(format!("expected `{close}`")), false));
                    // Skip to the end.
                    self.at = self.tokens.len();
                }
                return values;
            }
        }
    }

    fn primary(&mut self) -> Value {
        let Some(token) = self.next() else {
            return Value::Unknown("missing expression".to_owned());
        };
        match token {
            Tok::Str(text) => Value::Str(text),
            Tok::Punct("(") => {
                let value = self.expr();
                if self.eat(")") { value } else { Value::Unknown("unclosed `(`".to_owned()) }
            }
            Tok::Punct("[") => {
                // `[]byte(…)`, `[]string{…}`
                if !self.eat("]") {
                    return Value::Unknown("unsupported composite literal".to_owned());
                }
                if matches!(self.peek(), Some(Tok::Ident(t)) if t == "byte") {
                    self.next();
                    if !self.eat("(") {
                        return Value::Unknown("unsupported conversion".to_owned());
                    }
                    let value = self.expr();
                    return if self.eat(")") {
                        value
                    } else {
                        Value::Unknown("unclosed `(`".to_owned())
                    };
                }
                if matches!(self.next(), Some(Tok::Ident(t)) if t == "string") && self.eat("{") {
                    let items = self.list_until("}");
                    Value::List(
                        items.into_iter().flat_map(|(value, _)| value.into_items()).collect(),
                    )
                } else {
                    Value::Unknown("unsupported composite literal".to_owned())
                }
            }
            Tok::Ident(name) if name == "map" => {
                // `map[string]string{ key: value, … }`: the values.
                while !matches!(self.peek(), Some(Tok::Punct("{")) | None) {
                    self.next();
                }
                if !self.eat("{") {
                    return Value::Unknown("unsupported map".to_owned());
                }
                let mut items = Vec::new();
                loop {
                    if self.eat("}") {
                        break;
                    }
                    let _key = self.expr();
                    if !self.eat(":") {
                        return Value::Unknown("unsupported map literal".to_owned());
                    }
                    items.extend(self.expr().into_items());
                    if !self.eat(",") {
                        if !self.eat("}") {
                            return Value::Unknown("unsupported map literal".to_owned());
                        }
                        break;
                    }
                }
                Value::List(items)
            }
            Tok::Ident(name) => {
                let mut path = name;
                while self.eat(".") {
                    match self.next() {
                        Some(Tok::Ident(part)) => {
                            path.push('.');
                            path.push_str(&part);
                        }
                        other => return Value::Unknown(format!("unsupported selector {other:?}")),
                    }
                }
                if self.eat("(") {
                    let args = self.list_until(")");
                    self.call(&path, &args)
                } else {
                    self.env
                        .vars
                        .get(&path)
                        .cloned()
                        .unwrap_or_else(|| Value::Unknown(format!("unknown variable `{path}`")))
                }
            }
            other => Value::Unknown(format!("unsupported token {other:?}")),
        }
    }

    fn call(&mut self, function: &str, args: &[(Value, bool)]) -> Value {
        let strs: Vec<Option<&str>> = args
            .iter()
            .map(|(value, _)| match value {
                Value::Str(text) => Some(text.as_str()),
                _ => None,
            })
            .collect();
        let first_unknown = args.iter().find_map(|(value, _)| match value {
            Value::Unknown(reason) => Some(reason.clone()),
            _ => None,
        });
        let size = |idx: usize| strs.get(idx).copied().flatten();
        let function = canonical(function);
        let pattern = |class: &str| size(0).map(|n| Value::Str(format!("{class}{{{n}}}")));
        let value = match function.as_str() {
            "utils.Numeric" => pattern("[0-9]"),
            "utils.Hex" => pattern("[a-f0-9]"),
            "utils.AlphaNumeric" => pattern("[a-z0-9]"),
            "utils.AlphaNumericExtendedShort" => pattern("[a-z0-9_-]"),
            "utils.AlphaNumericExtended" => pattern(r"[a-z0-9=_\-]"),
            "utils.AlphaNumericExtendedLong" => pattern(r"[a-z0-9\/=_\+\-]"),
            "utils.Hex8_4_4_4_12" => Some(Value::Str(
                "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}".to_owned(),
            )),
            "secrets.NewSecret" => size(0).map(|regex| self.generate(regex, false)),
            "newPlausibleSecret" => size(0).map(|regex| self.generate(regex, true)),
            "utils.GenerateSampleSecret" => match (size(0), size(1)) {
                (Some(id), Some(secret)) => Some(Value::List(vec![Item::Sample(Sample {
                    text: format!("{id}_api_token = \"{secret}\""),
                    secret: Some(secret.to_owned()),
                })])),
                _ => None,
            },
            "utils.GenerateSampleSecrets" => match (size(0), size(1)) {
                (Some(id), Some(secret)) => Some(Value::List(sample_secrets(id, secret))),
                _ => None,
            },
            "fmt.Sprintf" => size(0).and_then(|format| {
                let mut out = String::new();
                let mut rest = strs[1..].iter();
                let mut chars = format.chars();
                while let Some(c) = chars.next() {
                    if c != '%' {
                        out.push(c);
                        continue;
                    }
                    match chars.next() {
                        Some('s' | 'v' | 'd') => out.push_str(rest.next().copied().flatten()?),
                        Some('%') => out.push('%'),
                        _ => return None,
                    }
                }
                Some(Value::Str(out))
            }),
            "append" => {
                let mut items = Vec::new();
                for (value, _spread) in args.iter().cloned() {
                    items.extend(value.into_items());
                }
                Some(Value::List(items))
            }
            "base64.StdEncoding.EncodeToString" | "b64.StdEncoding.EncodeToString" => {
                size(0).map(|text| Value::Str(base64(text.as_bytes(), false, true)))
            }
            "base64.RawStdEncoding.EncodeToString" | "b64.RawStdEncoding.EncodeToString" => {
                size(0).map(|text| Value::Str(base64(text.as_bytes(), false, false)))
            }
            "base64.URLEncoding.EncodeToString" | "b64.URLEncoding.EncodeToString" => {
                size(0).map(|text| Value::Str(base64(text.as_bytes(), true, true)))
            }
            "base64.RawURLEncoding.EncodeToString" | "b64.RawURLEncoding.EncodeToString" => {
                size(0).map(|text| Value::Str(base64(text.as_bytes(), true, false)))
            }
            "strings.Repeat" => match (size(0), args.get(1)) {
                (Some(text), Some((Value::Str(n), _))) => {
                    n.parse().ok().map(|n| Value::Str(text.repeat(n)))
                }
                _ => None,
            },
            _ => return Value::Unknown(format!("unsupported call `{function}`")),
        };
        value.unwrap_or_else(|| {
            Value::Unknown(
                first_unknown.unwrap_or_else(|| format!("unsupported arguments to `{function}`")),
            )
        })
    }

    /// A random string matching `regex` (Go syntax, read by `regex-syntax`), as
    /// `secrets.NewSecret` makes one; `plausible`: retried until it holds a digit 1-9 and
    /// none of gitleaks' stop words, as `newPlausibleSecret` does.
    fn generate(&mut self, regex: &str, plausible: bool) -> Value {
        let Ok(hir) = regex_syntax::ParserBuilder::new().build().parse(regex) else {
            return Value::Unknown(format!("regex the generator cannot read: {regex}"));
        };
        let stopwords: Vec<String> = match self.env.vars.get("DefaultStopWords") {
            Some(Value::List(items)) => items
                .iter()
                .filter_map(|item| match item {
                    Item::Sample(sample) => Some(sample.text.to_lowercase()),
                    Item::Skipped(_) => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        for _ in 0..1000 {
            let mut out = String::new();
            gen_hir(&hir, self.env, &mut out);
            let good = !plausible
                || (out.contains(|c: char| ('1'..='9').contains(&c))
                    && !stopwords.iter().any(|word| out.to_lowercase().contains(word.as_str())));
            if good {
                return Value::Str(out);
            }
        }
        Value::Unknown("no plausible secret in 1000 tries".to_owned())
    }
}

/// Appends a random match of `hir` to `out`. Classes pick printable ASCII when they
/// have any; unbounded repetitions repeat at most once more than their minimum, as
/// gitleaks' generator (`reggen` with limit 1).
fn gen_hir(hir: &Hir, env: &mut Env, out: &mut String) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(literal) => out.push_str(&String::from_utf8_lossy(&literal.0)),
        HirKind::Class(Class::Unicode(class)) => {
            let ranges: Vec<(u32, u32)> = class
                .ranges()
                .iter()
                .map(|range| (u32::from(range.start()), u32::from(range.end())))
                .collect();
            let printable: Vec<(u32, u32)> = ranges
                .iter()
                .filter_map(|&(start, end)| {
                    let (start, end) = (start.max(0x21), end.min(0x7e));
                    (start <= end).then_some((start, end))
                })
                .collect();
            let pool = if printable.is_empty() { ranges } else { printable };
            let total: u32 = pool.iter().map(|(start, end)| end - start + 1).sum();
            let mut pick = u32::try_from(env.below(total as usize)).unwrap_or(0);
            for (start, end) in pool {
                if pick <= end - start {
                    out.push(char::from_u32(start + pick).unwrap_or('x'));
                    return;
                }
                pick -= end - start + 1;
            }
        }
        HirKind::Class(Class::Bytes(class)) => {
            if let Some(range) = class.ranges().first() {
                out.push(char::from(range.start()));
            }
        }
        HirKind::Repetition(repetition) => {
            let min = repetition.min as usize;
            let max = repetition.max.map_or(min + 1, |max| max as usize);
            let n = min + env.below(max - min + 1);
            for _ in 0..n {
                gen_hir(&repetition.sub, env, out);
            }
        }
        HirKind::Capture(capture) => gen_hir(&capture.sub, env, out),
        HirKind::Concat(hirs) => {
            for sub in hirs {
                gen_hir(sub, env, out);
            }
        }
        HirKind::Alternation(hirs) => {
            let pick = env.below(hirs.len());
            gen_hir(&hirs[pick], env, out);
        }
    }
}

/// The name of a helper of the rule files as the newer layout (`utils.X`) spells it: until
/// gitleaks 8.16 the helpers were unexported functions of the `rules` package
/// (`generateSampleSecret`, `numeric`, `hex8_4_4_4_12`, …).
fn canonical(function: &str) -> String {
    const UNQUALIFIED: [&str; 9] = [
        "generateSampleSecret",
        "generateSampleSecrets",
        "numeric",
        "hex",
        "alphaNumeric",
        "alphaNumericExtendedShort",
        "alphaNumericExtended",
        "alphaNumericExtendedLong",
        "hex8_4_4_4_12",
    ];
    if UNQUALIFIED.contains(&function) {
        let mut chars = function.chars();
        let first = chars.next().map(|c| c.to_ascii_uppercase()).unwrap_or_default();
        format!("utils.{first}{}", chars.as_str())
    } else {
        function.to_owned()
    }
}

/// `bytes` in base64, with the URL-safe alphabet or the standard one, padded or not.
fn base64(bytes: &[u8], url: bool, pad: bool) -> String {
    let alphabet: &[u8] = if url {
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    } else {
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    };
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0_u32, |n, (idx, &byte)| n | u32::from(byte) << (16 - 8 * idx));
        for idx in 0..=chunk.len() {
            out.push(char::from(alphabet[((n >> (18 - 6 * idx)) & 63) as usize]));
        }
        if pad {
            for _ in chunk.len()..3 {
                out.push('=');
            }
        }
    }
    out
}

/// The shapes `utils.GenerateSampleSecrets` writes a secret in (gitleaks issue 1222),
/// in the order of their names.
fn sample_secrets(identifier: &str, secret: &str) -> Vec<Item> {
    let shapes: BTreeMap<&str, &str> = [
        ("ini - quoted1", "{i}Token=\"{s}\""),
        ("ini - quoted2", "{i}Token = \"{s}\""),
        ("ini - unquoted1", "{i}Token={s}"),
        ("ini - unquoted2", "{i}Token = {s}"),
        ("json - string", "{\n    \"{i}_token\": \"{s}\"\n}"),
        (
            "json - escaped newline in string",
            "{\"config.ini\": \"{I}_TOKEN={s}\\nBACKUP_ENABLED=true\"}",
        ),
        ("xml - element multiline", "<{i}Token>\n    {s}\n</{i}Token>"),
        ("yaml - singleline - unquoted", "{i}_token: {s}"),
        ("yaml - singleline - single quote", "{i}_token: '{s}'"),
        ("yaml - singleline - double quote", "{i}_token: \"{s}\""),
        ("C#", "string {i}Token = \"{s}\";"),
        ("go - normal", "var {i}Token string = \"{s}\""),
        ("go - short", "{i}Token := \"{s}\""),
        ("go - backticks", "{i}Token := `{s}`"),
        ("java", "String {i}Token = \"{s}\";"),
        ("kotlin - notype", "var {i}Token = \"{s}\""),
        ("php - string concat", "${i}Token .= \"{s}\""),
        ("python - single quote", "{i}Token = '{s}'"),
        ("python - double quote", "{i}Token = \"{s}\""),
        ("misc - comma operator", "System.setProperty(\"{I}_TOKEN\", \"{s}\")"),
        ("logstash", "  \"{i}Token\" => \"{s}\""),
        ("make - recursive assignment", "{i}_TOKEN = \"{s}\""),
        ("make - simple assignment", "{i}_TOKEN := \"{s}\""),
        ("make - shell assignment", "{i}_TOKEN ::= \"{s}\""),
        ("make - evaluated shell assignment", "{i}_TOKEN :::= \"{s}\""),
        ("make - conditional assignment", "{i}_TOKEN ?= \"{s}\""),
    ]
    .into_iter()
    .collect();
    let upper = identifier.to_uppercase();
    shapes
        .values()
        .map(|shape| {
            // One pass, as Go's strings.Replacer: a secret holding `{i}` stays as it is.
            let mut text = String::new();
            let mut rest = *shape;
            while let Some(at) = rest.find('{') {
                text.push_str(&rest[..at]);
                rest = &rest[at..];
                if let Some(tail) = rest.strip_prefix("{i}") {
                    text.push_str(identifier);
                    rest = tail;
                } else if let Some(tail) = rest.strip_prefix("{I}") {
                    text.push_str(&upper);
                    rest = tail;
                } else if let Some(tail) = rest.strip_prefix("{s}") {
                    text.push_str(secret);
                    rest = tail;
                } else {
                    text.push('{');
                    rest = &rest[1..];
                }
            }
            text.push_str(rest);
            Item::Sample(Sample { text, secret: Some(secret.to_owned()) })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{build_table, fetch_pinned, sha256_hex};

    #[test]
    fn the_pinned_download_is_checked_cached_and_reported_when_unreachable() {
        let dir = tempfile::tempdir().unwrap();
        let served = dir.path().join("served");
        std::fs::create_dir(&served).unwrap();
        let source = served.join("pkg.orig.tar.gz");
        std::fs::write(&source, b"the tarball").unwrap();
        let url = format!("file://{}", source.display());
        let sha = sha256_hex(b"the tarball");
        let cache = dir.path().join("cache");
        // Fetched and checked.
        let fetched = fetch_pinned(&cache, &url, &sha).unwrap().unwrap();
        assert_eq!(std::fs::read(&fetched).unwrap(), b"the tarball");
        // Kept: the source gone, the copy is used.
        std::fs::remove_file(&source).unwrap();
        assert_eq!(fetch_pinned(&cache, &url, &sha).unwrap().unwrap(), fetched);
        // Unreachable: the reason, not an error.
        let why = fetch_pinned(&dir.path().join("other"), &url, &sha).unwrap().unwrap_err();
        assert!(why.contains("curl failed 3 times"), "{why}");
        // Another file under the pinned name: an error, and nothing kept.
        std::fs::write(&source, b"a different tarball").unwrap();
        let other = dir.path().join("third");
        let error = fetch_pinned(&other, &url, &sha).unwrap_err().to_string();
        assert!(error.contains(&format!("expected {sha}")), "{error}");
        assert!(!other.join("pkg.orig.tar.gz").exists());
    }

    /// A gitleaks tree with the given rule files (name, Go source).
    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let rules = dir.path().join("cmd/generate/config/rules");
        std::fs::create_dir_all(&rules).unwrap();
        for (name, text) in files {
            std::fs::write(rules.join(name), text).unwrap();
        }
        dir
    }

    fn texts(rule: &serde_json::Value, what: &str) -> Vec<String> {
        rule[what]
            .as_array()
            .unwrap()
            .iter()
            .map(|sample| sample["text"].as_str().unwrap().to_owned())
            .collect()
    }

    #[test]
    fn reads_the_8_16_layout_with_unexported_helpers() {
        // gitleaks 8.16: `validate`, `generateSampleSecret`, `numeric` in package `rules`.
        let dir = tree(&[(
            "acme.go",
            r#"package rules

func AcmeKey() *config.Rule {
	r := config.Rule{
		RuleID: "acme-key",
	}
	key := secrets.NewSecret(numeric("4") + ":" + hex("6"))
	tps := []string{
		generateSampleSecret("acme", key),
		`acme: ` + key,
	}
	fps := []string{"acme_api_token = \"0000\""}
	return validate(r, tps, fps)
}
"#,
        )]);
        let table = build_table(dir.path(), None).unwrap();
        let rule = &table["rules"][0];
        assert_eq!(rule["id"], "acme-key");
        let tps = texts(rule, "tps");
        assert_eq!(tps.len(), 2, "{tps:?}");
        let key = tps[1].strip_prefix("acme: ").unwrap();
        assert!(regex::Regex::new("^[0-9]{4}:[a-f0-9]{6}$").unwrap().is_match(key), "{key}");
        assert_eq!(tps[0], format!("acme_api_token = \"{key}\""));
        assert_eq!(texts(rule, "fps"), ["acme_api_token = \"0000\""]);
        assert_eq!(table["skipped"].as_array().unwrap().len(), 0);
    }

    #[test]
    fn reads_the_utils_layout() {
        let dir = tree(&[(
            "acme.go",
            r#"package rules

func AcmeKey() *config.Rule {
	r := config.Rule{RuleID: "acme-key"}
	tps := utils.GenerateSampleSecrets("acme", "s3cr3t")
	tps = append(tps, "acme "+utils.Hex("2"))
	return utils.Validate(r, tps, nil)
}
"#,
        )]);
        let table = build_table(dir.path(), None).unwrap();
        let tps = texts(&table["rules"][0], "tps");
        assert_eq!(tps.len(), 27);
        assert!(tps.contains(&"acmeToken := \"s3cr3t\"".to_owned()), "{tps:?}");
        assert_eq!(tps[26], "acme [a-f0-9]{2}");
    }

    #[test]
    fn unknown_constructs_and_broken_files_are_counted_notes() {
        let dir = tree(&[
            (
                "loop.go",
                r#"package rules

func Looped() *config.Rule {
	r := config.Rule{RuleID: "looped"}
	tps := makeExamples("x")
	return utils.Validate(r, tps, []string{"a", strings.ToUpper("b")})
}
"#,
            ),
            ("broken.go", "package rules\n\nvar s = `never closed\n"),
            ("unbalanced.go", "package rules\nvar (\nfunc X() *config.Rule {"),
        ]);
        let table = build_table(dir.path(), None).unwrap();
        let skipped = table["skipped"].as_array().unwrap();
        let reasons: Vec<String> =
            skipped.iter().map(|note| note["reason"].as_str().unwrap().to_owned()).collect();
        assert!(
            reasons.iter().any(|reason| reason.contains("unsupported call `makeExamples`")),
            "{reasons:?}"
        );
        assert!(
            reasons.iter().any(|reason| reason.contains("unterminated raw string")),
            "{reasons:?}"
        );
        let rule = &table["rules"][0];
        assert_eq!(rule["id"], "looped");
        assert_eq!(texts(rule, "fps"), ["a"]);
    }
}
