//! Field types that never fail on an unexpected shape, and that copy as little as
//! possible.
//!
//! The agents' record formats change from version to version; a field that holds an
//! object where a string was expected must not turn a good line into a malformed one.
//! Each type here takes the value it expects and skips anything else (an unexpected
//! object or array is walked by the parser but never stored).

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use jiff::Timestamp;
use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// Skips the rest of a sequence.
fn drain_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

/// Skips the rest of a map.
fn drain_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

/// A string field, borrowed from the line when it has no escapes; `None` when missing or
/// not a string.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct LStr<'a>(pub(crate) Option<Cow<'a, str>>);

impl LStr<'_> {
    /// The string, when there is a non-empty one.
    pub(crate) fn get(&self) -> Option<&str> {
        self.0.as_deref().filter(|value| !value.is_empty())
    }

    /// Whether the field is exactly this string.
    pub(crate) fn is(&self, expected: &str) -> bool {
        self.0.as_deref() == Some(expected)
    }

    /// The string as an RFC 3339 timestamp (the agents write UTC with `Z`).
    pub(crate) fn timestamp(&self) -> Option<Timestamp> {
        self.get().and_then(|value| value.parse().ok())
    }

    /// The string, owned.
    pub(crate) fn into_owned(self) -> Option<String> {
        self.0.map(Cow::into_owned).filter(|value| !value.is_empty())
    }
}

struct LStrVisitor<'a>(PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for LStrVisitor<'a> {
    type Value = LStr<'a>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_borrowed_str<E>(self, value: &'de str) -> Result<Self::Value, E> {
        Ok(LStr(Some(Cow::Borrowed(value))))
    }

    fn visit_str<E>(self, value: &str) -> Result<Self::Value, E> {
        Ok(LStr(Some(Cow::Owned(value.to_owned()))))
    }

    fn visit_string<E>(self, value: String) -> Result<Self::Value, E> {
        Ok(LStr(Some(Cow::Owned(value))))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(LStr(None))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(LStr(None))
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(LStr(None))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(LStr(None))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(LStr(None))
    }

    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(LStr(None))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        LStr::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        drain_seq(seq)?;
        Ok(LStr(None))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        drain_map(map)?;
        Ok(LStr(None))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for LStr<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(LStrVisitor(PhantomData))
    }
}

/// An owned [`LStr`], for documents parsed from a stream (which cannot lend strings).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct OStr(pub(crate) LStr<'static>);

impl<'de> Deserialize<'de> for OStr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = LStr::<'de>::deserialize(deserializer)?;
        Ok(OStr(LStr(value.0.map(|text| Cow::Owned(text.into_owned())))))
    }
}

/// A boolean field: `true` only for a JSON `true`.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LBool(pub(crate) bool);

/// A number field: `None` when missing or not a number.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub(crate) struct LNum(pub(crate) Option<f64>);

impl LNum {
    /// The number as a whole number, when it is one that fits.
    pub(crate) fn as_i64(self) -> Option<i64> {
        // The casts are guarded: only finite whole values inside the i64 range pass.
        #[expect(clippy::cast_possible_truncation, reason = "range and fraction checked first")]
        self.0
            .filter(|value| value.is_finite() && value.fract() == 0.0 && value.abs() < 9.0e18)
            .map(|value| value as i64)
    }
}

/// Which scalar a [`ScalarVisitor`] keeps.
#[derive(Clone, Copy)]
enum Scalar {
    Bool,
    Num,
}

/// What a [`ScalarVisitor`] found.
enum Found {
    Bool(bool),
    Num(f64),
    Other,
}

struct ScalarVisitor(Scalar);

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Found;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Found, E> {
        Ok(match self.0 {
            Scalar::Bool => Found::Bool(value),
            Scalar::Num => Found::Other,
        })
    }

    #[expect(clippy::cast_precision_loss, reason = "epoch milliseconds fit in an f64 exactly")]
    fn visit_i64<E>(self, value: i64) -> Result<Found, E> {
        Ok(match self.0 {
            Scalar::Num => Found::Num(value as f64),
            Scalar::Bool => Found::Other,
        })
    }

    #[expect(clippy::cast_precision_loss, reason = "epoch milliseconds fit in an f64 exactly")]
    fn visit_u64<E>(self, value: u64) -> Result<Found, E> {
        Ok(match self.0 {
            Scalar::Num => Found::Num(value as f64),
            Scalar::Bool => Found::Other,
        })
    }

    fn visit_f64<E>(self, value: f64) -> Result<Found, E> {
        Ok(match self.0 {
            Scalar::Num => Found::Num(value),
            Scalar::Bool => Found::Other,
        })
    }

    fn visit_str<E>(self, _: &str) -> Result<Found, E> {
        Ok(Found::Other)
    }

    fn visit_unit<E>(self) -> Result<Found, E> {
        Ok(Found::Other)
    }

    fn visit_none<E>(self) -> Result<Found, E> {
        Ok(Found::Other)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Found, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Found, A::Error> {
        drain_seq(seq)?;
        Ok(Found::Other)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Found, A::Error> {
        drain_map(map)?;
        Ok(Found::Other)
    }
}

impl<'de> Deserialize<'de> for LBool {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(LBool(matches!(
            deserializer.deserialize_any(ScalarVisitor(Scalar::Bool))?,
            Found::Bool(true)
        )))
    }
}

impl<'de> Deserialize<'de> for LNum {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match deserializer.deserialize_any(ScalarVisitor(Scalar::Num))? {
            Found::Num(value) => LNum(Some(value)),
            Found::Bool(_) | Found::Other => LNum(None),
        })
    }
}

/// How many characters of a message's text are kept: enough for an 80-character title.
pub(crate) const TEXT_CAP_CHARS: usize = 200;

/// The text of a message, in any of the shapes the agents write: a string, a content
/// block or part (`{"type": "text", "text": …}`, `{"text": …}`), a message
/// (`{"role": …, "content": …}`), or a list of these.
///
/// Whitespace is collapsed on the way in and only the first [`TEXT_CAP_CHARS`]
/// characters are kept, so a pasted log costs a scan, not a copy. Also notes whether
/// the content holds a `tool_result` block (a tool's output sent back as a user record).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
#[expect(clippy::struct_excessive_bools, reason = "independent facts noted in one pass")]
pub(crate) struct Text {
    /// The collapsed, capped text.
    pub(crate) value: String,
    /// Whether a `tool_result` block was seen.
    pub(crate) tool_result: bool,
    /// Whether some value was present at all (a string, block, or list).
    pub(crate) present: bool,
    /// Whether an injected block was removed (see [`Text::from_json_stripping`]).
    pub(crate) stripped: bool,
    chars: usize,
    pending_space: bool,
    /// Whether injected blocks are removed from each string before it is kept.
    strip: bool,
}

impl Text {
    /// Appends a piece of text, collapsing whitespace, up to the cap.
    fn push_str(&mut self, piece: &str) {
        for character in piece.chars() {
            if self.chars >= TEXT_CAP_CHARS {
                return;
            }
            if character.is_whitespace() {
                self.pending_space = !self.value.is_empty();
                continue;
            }
            if self.pending_space {
                self.value.push(' ');
                self.chars += 1;
                self.pending_space = false;
                if self.chars >= TEXT_CAP_CHARS {
                    return;
                }
            }
            self.value.push(character);
            self.chars += 1;
        }
    }

    /// Separates two parts with a space (collapsed like any other whitespace).
    fn separate(&mut self) {
        self.pending_space = !self.value.is_empty();
    }

    /// Appends a string value: whole, or without its injected blocks when stripping.
    fn push_value(&mut self, value: &str) {
        if !self.strip {
            self.push_str(value);
            return;
        }
        let mut rest = value;
        while !rest.is_empty() {
            let Some((start, tag)) = next_injected(rest) else {
                self.push_str(rest);
                return;
            };
            self.push_str(&rest[..start]);
            self.stripped = true;
            let after_open = &rest[start + tag.len() + 2..];
            let close = format!("</{tag}>");
            match after_open.find(&close) {
                Some(end) => {
                    // The block's end separates what came before it from what follows.
                    self.separate();
                    rest = &after_open[end + close.len()..];
                }
                // An unclosed block runs to the end of the string.
                None => return,
            }
        }
    }

    /// Parses a message's text (any shape [`Text`] takes) with the blocks a client
    /// injects into a user record removed: `<ide_opened_file>`, `<ide_selection>`,
    /// `<ide_diagnostics>` (Claude Code's IDE extensions), `<system-reminder>` (hooks
    /// and the client itself) and the older `<user-prompt-submit-hook>`. What is left is what the person typed.
    pub(crate) fn from_json_stripping(json: &str) -> Result<Text, serde_json::Error> {
        let mut deserializer = serde_json::Deserializer::from_str(json);
        let text = Stripping.deserialize(&mut deserializer)?;
        deserializer.end()?;
        Ok(text)
    }
}

/// Reads a [`Text`] as [`Text::from_json_stripping`] does, from inside a larger value:
/// a record's message decoded where the parser finds it rather than scanned past first.
pub(crate) struct Stripping;

impl<'de> DeserializeSeed<'de> for Stripping {
    type Value = Text;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Text, D::Error> {
        let mut text = Text { strip: true, ..Text::default() };
        TextSeed(&mut text).deserialize(deserializer)?;
        Ok(text)
    }
}

/// The tags of the blocks [`Text::from_json_stripping`] removes.
const INJECTED_TAGS: [&str; 5] = [
    "ide_opened_file",
    "ide_selection",
    "ide_diagnostics",
    "system-reminder",
    // Older Claude Code versions wrapped a `UserPromptSubmit` hook's output so.
    "user-prompt-submit-hook",
];

/// The byte offset and tag of the first injected block's opening tag in `text`.
fn next_injected(text: &str) -> Option<(usize, &'static str)> {
    let mut from = 0;
    while let Some(offset) = text[from..].find('<') {
        let start = from + offset;
        let after = &text[start + 1..];
        if let Some(tag) = INJECTED_TAGS
            .iter()
            .find(|tag| after.starts_with(**tag) && after[tag.len()..].starts_with('>'))
        {
            return Some((start, tag));
        }
        from = start + 1;
    }
    None
}

struct TextSeed<'t>(&'t mut Text);

impl<'de> DeserializeSeed<'de> for TextSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TextSeed<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_str<E>(self, value: &str) -> Result<(), E> {
        self.0.present = true;
        self.0.separate();
        self.0.push_value(value);
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.present = true;
        while seq.next_element_seed(TextSeed(&mut *self.0))?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.0.present = true;
        // A tool's output, or text past the cap, is skipped rather than parsed: the
        // parser then only looks for the closing quote.
        let mut tool_result = false;
        while let Some(key) = map.next_key::<LStr<'de>>()? {
            match key.0.as_deref() {
                Some("text" | "content") if !tool_result && self.0.chars < TEXT_CAP_CHARS => {
                    map.next_value_seed(TextSeed(&mut *self.0))?;
                }
                Some("type") => {
                    if map.next_value::<LStr<'de>>()?.is("tool_result") {
                        tool_result = true;
                        self.0.tool_result = true;
                    }
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut text = Text::default();
        TextSeed(&mut text).deserialize(deserializer)?;
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct Probe<'a> {
        #[serde(borrow)]
        name: LStr<'a>,
        flag: LBool,
        number: LNum,
        message: Text,
    }

    fn probe(json: &str) -> Probe<'_> {
        serde_json::from_str(json).expect("probe line parses")
    }

    #[test]
    fn unexpected_shapes_are_skipped_not_errors() {
        let parsed =
            probe(r#"{"name": {"a": [1, 2]}, "flag": "yes", "number": "12", "message": 7}"#);
        assert_eq!(parsed.name.get(), None);
        assert!(!parsed.flag.0);
        assert_eq!(parsed.number.0, None);
        assert_eq!(parsed.message.value, "");
    }

    #[test]
    fn strings_without_escapes_are_borrowed() {
        let parsed = probe(r#"{"name": "plain", "flag": true, "number": 1700000000123}"#);
        assert!(matches!(parsed.name.0, Some(Cow::Borrowed("plain"))));
        assert!(parsed.flag.0);
        assert_eq!(parsed.number.as_i64(), Some(1_700_000_000_123));
        let escaped = probe(r#"{"name": "tab\there"}"#);
        assert_eq!(escaped.name.get(), Some("tab\there"));
    }

    #[test]
    fn text_collects_blocks_and_collapses_whitespace() {
        let parsed = probe(
            r#"{"message": {"role": "user", "content": [{"type": "image", "source": {"data": "AAAA"}}, {"type": "text", "text": "  fix\n\n the   parser "}, {"text": "now"}]}}"#,
        );
        assert_eq!(parsed.message.value, "fix the parser now");
        assert!(!parsed.message.tool_result);
    }

    #[test]
    fn text_notes_tool_results_without_copying_their_output() {
        let parsed = probe(
            r#"{"message": {"content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}}"#,
        );
        assert!(parsed.message.tool_result);
    }

    #[test]
    fn stripping_keeps_what_was_typed() {
        let text = Text::from_json_stripping(
            r#"{"role": "user", "content": [{"type": "text", "text": "<ide_opened_file>The user opened the file /p/src/main.rs in the IDE. This may or may not be related to the current task.</ide_opened_file>"}, {"type": "text", "text": "<ide_selection>The user selected the lines 3 to 9 from /p/a.rs:\nfn a() {}\n</ide_selection>"}, {"type": "text", "text": "fix the <b>parser</b>\n<system-reminder>\nhook said hi\n</system-reminder>\nplease"}]}"#,
        )
        .expect("parses");
        assert_eq!(text.value, "fix the <b>parser</b> please");
        assert!(text.stripped);
        let hook = Text::from_json_stripping(
            r#""run the tests<user-prompt-submit-hook>branch: main</user-prompt-submit-hook>""#,
        )
        .expect("parses");
        assert_eq!(hook.value, "run the tests");
        let only_blocks = Text::from_json_stripping(
            r#"[{"type": "text", "text": "<ide_diagnostics>2 errors</ide_diagnostics>"}, {"type": "text", "text": "<system-reminder>unclosed"}]"#,
        )
        .expect("parses");
        assert_eq!(only_blocks.value, "");
        assert!(only_blocks.stripped);
        let plain =
            Text::from_json_stripping(r#""a <ide_selection without a close""#).expect("parses");
        assert_eq!(plain.value, "a <ide_selection without a close");
        assert!(!plain.stripped);
    }

    #[test]
    fn blocks_before_a_long_prompt_do_not_use_up_the_cap() {
        let selection = "code ".repeat(400);
        let json = format!(
            r#"[{{"type": "text", "text": "<ide_selection>{selection}</ide_selection>"}}, {{"type": "text", "text": "explain this"}}]"#
        );
        assert_eq!(Text::from_json_stripping(&json).expect("parses").value, "explain this");
    }

    #[test]
    fn text_is_capped() {
        let long = "word ".repeat(500);
        let line = format!(r#"{{"message": "{long}"}}"#);
        let parsed = probe(&line);
        assert_eq!(parsed.message.value.chars().count(), TEXT_CAP_CHARS);
    }
}
