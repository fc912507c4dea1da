//! Byte scans of JSON that skip serde on hot paths, and generated JSON lines that check
//! them against serde (the readers' property tests).

/// A string value found by [`top_level_string`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct RawString<'a> {
    /// The value as written, quotes included.
    pub(super) quoted: &'a [u8],
    /// Whether it holds an escape (`\"`, `\u00e9`…): then `quoted` must be decoded.
    pub(super) escaped: bool,
}

impl<'a> RawString<'a> {
    /// The bytes between the quotes (the text itself when not [`escaped`](Self::escaped)).
    pub(super) fn inner(&self) -> &'a [u8] {
        &self.quoted[1..self.quoted.len() - 1]
    }

    /// The text, decoded when it holds escapes; `None` when it is not valid UTF-8 or not
    /// a valid JSON string.
    pub(super) fn text(&self) -> Option<std::borrow::Cow<'a, str>> {
        if self.escaped {
            serde_json::from_slice::<String>(self.quoted).ok().map(std::borrow::Cow::Owned)
        } else {
            std::str::from_utf8(self.inner()).ok().map(std::borrow::Cow::Borrowed)
        }
    }
}

/// The value of `key` in the JSON object `object` at its top level, when it is a string,
/// found by walking the object's tokens without decoding them: strings are skipped with
/// `memchr`, nested objects and arrays by counting brackets outside strings, so a `key`
/// deeper down or inside a string is never taken. Stops at the key: a writer that puts it
/// first makes this cheap. `None` when the top level has no such key, its value is not a
/// string, or the text is not a well-formed object up to there (the caller then parses the
/// line in full, or does without). A key written with escapes is not recognised.
pub(super) fn top_level_string<'a>(object: &'a [u8], key: &[u8]) -> Option<RawString<'a>> {
    let mut at = skip_space(object, 0);
    if object.get(at) != Some(&b'{') {
        return None;
    }
    at = skip_space(object, at + 1);
    loop {
        if object.get(at) != Some(&b'"') {
            // `}` (no such key), or not JSON.
            return None;
        }
        let (end, escaped) = string_end(object, at + 1)?;
        let name = &object[at + 1..end];
        at = skip_space(object, end + 1);
        if object.get(at) != Some(&b':') {
            return None;
        }
        at = skip_space(object, at + 1);
        if !escaped && name == key {
            if object.get(at) != Some(&b'"') {
                return None;
            }
            let (end, escaped) = string_end(object, at + 1)?;
            return Some(RawString { quoted: &object[at..=end], escaped });
        }
        at = skip_space(object, skip_value(object, at)?);
        if object.get(at) != Some(&b',') {
            return None;
        }
        at = skip_space(object, at + 1);
    }
}

/// The index after JSON whitespace from `at`.
pub(super) fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(|byte| matches!(byte, b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// The index of the quote that closes the string whose text starts at `at`, and whether
/// the string holds an escape.
fn string_end(bytes: &[u8], mut at: usize) -> Option<(usize, bool)> {
    let mut escaped = false;
    loop {
        let found = at + memchr::memchr2(b'"', b'\\', bytes.get(at..)?)?;
        if bytes[found] == b'"' {
            return Some((found, escaped));
        }
        escaped = true;
        // The escaped character (a `\uXXXX`'s hex digits need no care).
        at = found + 2;
    }
}

/// The index after the JSON value that starts at `at`.
fn skip_value(bytes: &[u8], at: usize) -> Option<usize> {
    skip_value_with(bytes, at, |bytes, at| Some(string_end(bytes, at)?.0))
}

/// The index after the JSON value that starts at `at`, the end of each string in it (the
/// index of its closing quote, from the index after its opening one) told by `end`:
/// nested objects and arrays are skipped by counting brackets outside strings, numbers
/// and literals up to the next delimiter, none of it checked.
pub(super) fn skip_value_with(
    bytes: &[u8],
    at: usize,
    mut end: impl FnMut(&[u8], usize) -> Option<usize>,
) -> Option<usize> {
    match bytes.get(at)? {
        b'"' => Some(end(bytes, at + 1)? + 1),
        b'{' | b'[' => {
            let mut depth = 0_usize;
            let mut at = at;
            loop {
                match bytes.get(at)? {
                    b'"' => at = end(bytes, at + 1)?,
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(at + 1);
                        }
                    }
                    _ => {}
                }
                at += 1;
            }
        }
        _ => {
            // A number, `true`, `false` or `null`: up to the next delimiter.
            let rest = &bytes[at..];
            let length = rest
                .iter()
                .position(|byte| matches!(byte, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                .unwrap_or(rest.len());
            (length > 0).then_some(at + length)
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::arbitrary;
    use super::top_level_string;

    #[test]
    fn only_the_top_level_key_is_taken() {
        let found = |line: &str| {
            top_level_string(line.as_bytes(), b"k").map(|raw| raw.text().unwrap().into_owned())
        };
        assert_eq!(found(r#"{"a":{"k":"inner"},"k":"outer"}"#).as_deref(), Some("outer"));
        assert_eq!(found(r#"{"a":[{"k":"x"}],"b":""k":"y""}"#), None);
        assert_eq!(found(r#" { "a" : 1 , "k" : "spé" } "#).as_deref(), Some("spé"));
        assert_eq!(found(r#"{"k":5}"#), None);
        assert_eq!(found(r#"{"a":"unclosed"#), None);
        // A member without a value is no JSON (serde refuses the line): nothing after it
        // is taken.
        assert_eq!(found(r#"{"a":,"k":"after"}"#), None);
        assert_eq!(found(r#"{"a":1,"k":"after"}"#).as_deref(), Some("after"));
        assert_eq!(found("[\"k\"]"), None);
        assert_eq!(found(""), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        /// On any generated object, the scan finds what serde finds at the top level
        /// (unless the key is written with escapes, which the scan does not read).
        #[test]
        fn agrees_with_serde((fields, line) in arbitrary::line("model")) {
            let value: serde_json::Value = serde_json::from_str(&line).unwrap();
            let expected = value.get("model").and_then(serde_json::Value::as_str);
            let found = top_level_string(line.as_bytes(), b"model");
            let found = found.map(|raw| raw.text().expect("a JSON string decodes"));
            let plain_key = fields.iter().any(|(key, _)| key.text == "model" && !key.escaped);
            if found.is_some() || plain_key {
                prop_assert_eq!(found.as_deref(), expected, "{}", line);
            }
        }

        /// Cut anywhere, a line never panics the scan.
        #[test]
        fn a_cut_line_never_panics((_, line) in arbitrary::line("model"), cut in any::<proptest::sample::Index>()) {
            let bytes = line.as_bytes();
            let _ = top_level_string(&bytes[..cut.index(bytes.len() + 1)], b"model");
        }
    }
}

#[cfg(test)]
pub(super) mod arbitrary {
    //! JSON lines as a writer might produce them: random key order, escapes (`\"`, `\\`,
    //! `\u00e9`, every character as `\uXXXX`), non-ASCII text, whitespace between tokens,
    //! nested objects that hold the same key deeper, strings that look like a key.

    use std::fmt::Write as _;

    use proptest::prelude::*;

    /// A JSON string: its text, and whether it is written with every character that is
    /// not an ASCII letter or digit as a `\uXXXX` escape.
    #[derive(Debug, Clone)]
    pub(crate) struct Str {
        pub(crate) text: String,
        pub(crate) escaped: bool,
    }

    /// A JSON value.
    #[derive(Debug, Clone)]
    pub(crate) enum Json {
        Null,
        Bool(bool),
        Number(i64),
        Str(Str),
        Array(Vec<Json>),
        Object(Vec<(Str, Json)>),
    }

    /// Keys the lines use, the scanned ones among them.
    const KEYS: [&str; 10] = [
        "sessionId",
        "model",
        "display",
        "content",
        "type",
        "message",
        "pastedContents",
        "project",
        "id",
        "model\"",
    ];

    /// Texts that try to fool a scan: keys and values inside strings, escapes, braces.
    const TRICKY: [&str; 8] = [
        "\"sessionId\":\"fake\"",
        "\"model\":\"fake\"",
        ",\"sessionId\":\"fake\"}",
        "\\",
        "\"}",
        "{\"model\":\"x\"}",
        "<synthetic>",
        "",
    ];

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z0-9-]{1,12}",
            "[a-zA-Z0-9 \"\\\\/:,{}\\[\\]é日本😀\t\n\u{7f}\u{1}-]{0,16}",
            proptest::sample::select(&TRICKY[..]).prop_map(str::to_owned),
        ]
    }

    pub(crate) fn string() -> impl Strategy<Value = Str> {
        (text(), proptest::bool::weighted(0.2)).prop_map(|(text, escaped)| Str { text, escaped })
    }

    fn key() -> impl Strategy<Value = Str> {
        (proptest::sample::select(&KEYS[..]), proptest::bool::weighted(0.1))
            .prop_map(|(text, escaped)| Str { text: text.to_owned(), escaped })
    }

    /// Any JSON value, objects nested up to a few levels deep.
    pub(crate) fn value() -> impl Strategy<Value = Json> {
        let leaf = prop_oneof![
            Just(Json::Null),
            any::<bool>().prop_map(Json::Bool),
            any::<i64>().prop_map(Json::Number),
            string().prop_map(Json::Str),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Json::Array),
                proptest::collection::vec((key(), inner), 0..4)
                    .prop_map(|fields| Json::Object(unique(fields))),
            ]
        })
    }

    /// A top-level object whose `key` is `target` (when given) at a random place among
    /// other fields, written with `space` between tokens.
    pub(crate) fn line(key: &'static str) -> impl Strategy<Value = (Vec<(Str, Json)>, String)> {
        let target = prop_oneof![
            3 => string().prop_map(Json::Str),
            1 => value(),
        ];
        (
            proptest::collection::vec((self::key(), value()), 0..5),
            proptest::option::weighted(0.8, (target, proptest::bool::weighted(0.1))),
            any::<proptest::sample::Index>(),
            proptest::sample::select(&["", " ", "\t", " \t "][..]),
        )
            .prop_map(move |(fields, target, place, space)| {
                let mut fields: Vec<(Str, Json)> =
                    unique(fields).into_iter().filter(|(name, _)| name.text != key).collect();
                if let Some((value, escaped)) = target {
                    let at = place.index(fields.len() + 1);
                    fields.insert(at, (Str { text: key.to_owned(), escaped }, value));
                }
                let mut text = String::new();
                write(&mut text, &Json::Object(fields.clone()), space);
                (fields, text)
            })
    }

    /// Keeps the first field of each key (JSON objects with repeated keys are left aside).
    fn unique(fields: Vec<(Str, Json)>) -> Vec<(Str, Json)> {
        let mut seen = Vec::new();
        fields
            .into_iter()
            .filter(|(name, _)| {
                let new = !seen.contains(&name.text);
                seen.push(name.text.clone());
                new
            })
            .collect()
    }

    /// Writes `value` as JSON text with `space` between every two tokens.
    pub(crate) fn write(out: &mut String, value: &Json, space: &str) {
        match value {
            Json::Null => out.push_str("null"),
            Json::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
            Json::Number(number) => {
                let _ = write!(out, "{number}");
            }
            Json::Str(string) => write_str(out, string),
            Json::Array(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push_str(space);
                        out.push(',');
                    }
                    out.push_str(space);
                    write(out, item, space);
                }
                out.push_str(space);
                out.push(']');
            }
            Json::Object(fields) => {
                out.push('{');
                for (index, (name, item)) in fields.iter().enumerate() {
                    if index > 0 {
                        out.push_str(space);
                        out.push(',');
                    }
                    out.push_str(space);
                    write_str(out, name);
                    out.push_str(space);
                    out.push(':');
                    out.push_str(space);
                    write(out, item, space);
                }
                out.push_str(space);
                out.push('}');
            }
        }
    }

    fn write_str(out: &mut String, string: &Str) {
        if !string.escaped {
            out.push_str(&serde_json::to_string(&string.text).unwrap());
            return;
        }
        out.push('"');
        for character in string.text.chars() {
            if character.is_ascii_alphanumeric() {
                out.push(character);
            } else {
                let mut units = [0; 2];
                for unit in character.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
        }
        out.push('"');
    }
}
