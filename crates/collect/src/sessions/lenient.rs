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

    /// The string as an RFC 3339 timestamp, the field being `key`: `Ok(None)` when it is
    /// missing, empty or not a string, [`NotATime`] when it is a string that is no time.
    pub(crate) fn time(&self, key: &'static str) -> Result<Option<Timestamp>, NotATime> {
        match self.get() {
            None => Ok(None),
            Some(value) => value.parse().map(Some).map_err(|_| NotATime(key)),
        }
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

/// A record's time field (`key`) that is there but holds no time of the form its agent
/// writes: the record cannot be placed, and is skipped with a warning naming the field
/// (`unreadable_times`), never silently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NotATime(pub(crate) &'static str);

/// A time as read, for a record that is still read without one (its other fields count):
/// the time, and `Err` when the field held no time, to be given back once the record is
/// read (so that it is warned about).
pub(crate) fn or_undated(
    time: Result<Option<Timestamp>, NotATime>,
) -> (Option<Timestamp>, Result<(), NotATime>) {
    match time {
        Ok(time) => (time, Ok(())),
        Err(error) => (None, Err(error)),
    }
}

/// A database row's time column (`column`), as the number SQLite holds: an integer or a
/// real, or a text that is one (a column keeps the text it was given when the text is no
/// number, whatever its declared type). `Ok(None)` for NULL, or a column the row lacks;
/// [`NotATime`] for any other value (a text that is no number, a blob): the row cannot be
/// placed, and its reader warns about it instead of failing the whole database.
pub(crate) fn sql_number(
    row: &rusqlite::Row<'_>,
    column: &'static str,
) -> Result<Option<f64>, NotATime> {
    use rusqlite::types::ValueRef;
    match row.get_ref(column) {
        Err(_) | Ok(ValueRef::Null) => Ok(None),
        #[expect(clippy::cast_precision_loss, reason = "epoch milliseconds fit a mantissa")]
        Ok(ValueRef::Integer(value)) => Ok(Some(value as f64)),
        Ok(ValueRef::Real(value)) if value.is_finite() => Ok(Some(value)),
        Ok(ValueRef::Text(text)) => std::str::from_utf8(text)
            .ok()
            .and_then(|text| text.trim().parse::<f64>().ok())
            .filter(|value| value.is_finite())
            .map(Some)
            .ok_or(NotATime(column)),
        Ok(ValueRef::Real(_) | ValueRef::Blob(_)) => Err(NotATime(column)),
    }
}

/// A boolean field: `true` only for a JSON `true`.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LBool(pub(crate) bool);

/// A number field: `None` when missing or not a number.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub(crate) struct LNum(pub(crate) Option<f64>);

impl LNum {
    /// The number as a time in epoch milliseconds, when it is one.
    pub(crate) fn millis(self) -> Option<Timestamp> {
        self.as_i64().and_then(|millis| Timestamp::from_millisecond(millis).ok())
    }

    /// The number as a time in epoch milliseconds, the field being `key`: `Ok(None)` when
    /// it is missing or not a number, [`NotATime`] when it is a number that is no such time.
    pub(crate) fn millis_time(self, key: &'static str) -> Result<Option<Timestamp>, NotATime> {
        match self.0 {
            None => Ok(None),
            Some(_) => self.millis().map(Some).ok_or(NotATime(key)),
        }
    }

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
    Null,
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
        Ok(Found::Null)
    }

    fn visit_none<E>(self) -> Result<Found, E> {
        Ok(Found::Null)
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
            Found::Bool(_) | Found::Null | Found::Other => LNum(None),
        })
    }
}

/// A time field in epoch milliseconds: the number, and whether something else than a
/// number or `null` was there (a string, an object), which is no time.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub(crate) struct LMillis {
    number: LNum,
    other: bool,
}

impl LMillis {
    /// The time, the field being `key`: `Ok(None)` when it is missing or `null`,
    /// [`NotATime`] when it holds anything but a number that is such a time.
    pub(crate) fn time(self, key: &'static str) -> Result<Option<Timestamp>, NotATime> {
        if self.other { Err(NotATime(key)) } else { self.number.millis_time(key) }
    }
}

impl<'de> Deserialize<'de> for LMillis {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match deserializer.deserialize_any(ScalarVisitor(Scalar::Num))? {
            Found::Num(value) => LMillis { number: LNum(Some(value)), other: false },
            Found::Null => LMillis::default(),
            Found::Bool(_) | Found::Other => LMillis { number: LNum(None), other: true },
        })
    }
}

/// A list of objects, each read as `T`; anything else where the list or one of its
/// elements should be (a string, a number, a nested list) is skipped instead of failing
/// the record, and noted in `other`. `null` or a missing field is an empty list.
#[derive(Debug)]
pub(crate) struct Objects<T> {
    /// The elements that were objects, in order.
    pub(crate) items: Vec<T>,
    /// Whether some value was not an object (or the whole was not a list).
    pub(crate) other: bool,
}

impl<T> Default for Objects<T> {
    fn default() -> Self {
        Objects { items: Vec::new(), other: false }
    }
}

/// What [`Objects`] and [`Object`] make of a value that is not the one they expect.
macro_rules! skip_scalars {
    ($value:expr) => {
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok($value)
        }

        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($value)
        }

        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($value)
        }

        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($value)
        }

        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok($value)
        }
    };
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Objects<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjectsVisitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectsVisitor<T> {
            type Value = Objects<T>;

            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("any JSON value")
            }

            skip_scalars!(Objects { items: Vec::new(), other: true });

            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Objects::default())
            }

            fn visit_none<E>(self) -> Result<Self::Value, E> {
                Ok(Objects::default())
            }

            fn visit_some<D: Deserializer<'de>>(self, inner: D) -> Result<Self::Value, D::Error> {
                Objects::deserialize(inner)
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                drain_map(map)?;
                Ok(Objects { items: Vec::new(), other: true })
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut objects = Objects::default();
                while let Some(Object(item)) = seq.next_element::<Object<T>>()? {
                    match item {
                        Some(item) => objects.items.push(item),
                        None => objects.other = true,
                    }
                }
                Ok(objects)
            }
        }

        deserializer.deserialize_any(ObjectsVisitor(PhantomData))
    }
}

/// One element of [`Objects`], or a field that should hold one object: `T` when it is an
/// object, else `None` (a field of another shape is skipped, not an error).
pub(crate) struct Object<T>(pub(crate) Option<T>);

impl<T> Default for Object<T> {
    fn default() -> Self {
        Object(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjectVisitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
            type Value = Object<T>;

            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("any JSON value")
            }

            skip_scalars!(Object(None));

            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Object(None))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                drain_seq(seq)?;
                Ok(Object(None))
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(|item| Object(Some(item)))
            }
        }

        deserializer.deserialize_any(ObjectVisitor(PhantomData))
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
        TextSeed::plain(&mut text).deserialize(deserializer)?;
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

/// Where a value sits in a user message, for [`Results`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    /// The message itself.
    Message,
    /// The message's `content`.
    Content,
    /// An element of the message's `content` list: a content block.
    Block,
    /// Anywhere else.
    Other,
}

/// The content blocks of a user message, met while its text is read
/// ([`StrippingWithResults`]): what a strict parse of the message as
/// `{"content": [{"type", "tool_use_id", "is_error", "content"}, …]}` gives, without a
/// second pass over the tools' output. A block's `content` is skipped, not kept: where
/// it is needed (a `tool_result` that is an error, whose text says the exit code) or the
/// shape is one the strict parse reads oddly (a list where a struct was expected),
/// `two_passes` says that the message must be read the strict way instead.
#[derive(Debug, Default)]
pub(crate) struct Results<'de> {
    /// The blocks of the `content` list, in order (their `content` left out).
    pub(crate) blocks: Vec<ResultBlock<'de>>,
    /// The message has a shape the strict parse fails on (not an object, `content` twice
    /// or not a list, an element that is not an object, a block field twice): no block
    /// counts.
    pub(crate) other_shape: bool,
    /// The blocks alone do not tell the answer: parse the message the strict way.
    pub(crate) two_passes: bool,
}

/// One block of a user message's `content` list (also parsed on its own, strictly, where
/// a message is read in two passes).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ResultBlock<'a> {
    /// `type`.
    #[serde(rename = "type", borrow)]
    pub(crate) kind: LStr<'a>,
    /// `tool_use_id`.
    #[serde(borrow)]
    pub(crate) tool_use_id: LStr<'a>,
    /// `is_error`.
    pub(crate) is_error: LBool,
    /// `content`, as written.
    #[serde(borrow)]
    pub(crate) content: Option<&'a serde_json::value::RawValue>,
}

impl Results<'_> {
    /// The blocks, unless the message's shape makes the strict parse fail.
    pub(crate) fn blocks(&self) -> &[ResultBlock<'_>] {
        if self.other_shape { &[] } else { &self.blocks }
    }
}

/// [`Stripping`], also noting the message's content blocks in a [`Results`] as it goes,
/// so that the line is read once.
pub(crate) struct StrippingWithResults<'r, 'de>(pub(crate) &'r mut Results<'de>);

impl<'de> DeserializeSeed<'de> for StrippingWithResults<'_, 'de> {
    type Value = Text;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Text, D::Error> {
        let mut text = Text { strip: true, ..Text::default() };
        TextSeed { text: &mut text, results: Some(self.0), level: Level::Message }
            .deserialize(deserializer)?;
        Ok(text)
    }
}

/// Reads any value into a [`Text`]; with `results`, also notes the content blocks of the
/// message it reads (see [`Results`]), `level` saying where the value sits.
struct TextSeed<'t, 'de> {
    text: &'t mut Text,
    results: Option<&'t mut Results<'de>>,
    level: Level,
}

impl<'t, 'de> TextSeed<'t, 'de> {
    /// A seed for plain text, no blocks noted.
    fn plain(text: &'t mut Text) -> TextSeed<'t, 'de> {
        TextSeed { text, results: None, level: Level::Other }
    }

    /// A seed for a value inside this one, at `level` (blocks are noted only along
    /// message → content → block).
    fn child(&mut self, level: Level) -> TextSeed<'_, 'de> {
        TextSeed { text: &mut *self.text, results: self.results.as_deref_mut(), level }
    }

    /// Notes that the value has a shape the strict parse fails on, where it matters.
    fn other_shape(&mut self) {
        if self.level != Level::Other {
            if let Some(results) = self.results.as_deref_mut() {
                results.other_shape = true;
            }
        }
    }

    /// A content block, its fields noted in `results` as the text is read.
    fn block<A: MapAccess<'de>>(
        &mut self,
        mut map: A,
        results: &mut Results<'de>,
    ) -> Result<(), A::Error> {
        let mut block = ResultBlock::default();
        // Once a `type` said so, as in `visit_map`.
        let mut tool_result = false;
        let mut seen = [false; 4];
        let mut content = false;
        let mut once = |field: usize, results: &mut Results<'de>| {
            results.other_shape |= std::mem::replace(&mut seen[field], true);
        };
        while let Some(key) = map.next_key::<LStr<'de>>()? {
            match key.0.as_deref() {
                Some("type") => {
                    once(0, results);
                    block.kind = map.next_value()?;
                    if block.kind.is("tool_result") {
                        tool_result = true;
                        self.text.tool_result = true;
                    }
                }
                Some("tool_use_id") => {
                    once(1, results);
                    block.tool_use_id = map.next_value()?;
                }
                Some("is_error") => {
                    once(2, results);
                    block.is_error = map.next_value()?;
                }
                Some("content") => {
                    once(3, results);
                    content = true;
                    // Text unless the block said it was a tool's output, as in `visit_map`.
                    if !tool_result && self.text.chars < TEXT_CAP_CHARS {
                        map.next_value_seed(TextSeed::plain(&mut *self.text))?;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Some("text") if !tool_result && self.text.chars < TEXT_CAP_CHARS => {
                    map.next_value_seed(TextSeed::plain(&mut *self.text))?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        // An error's exit code is in its output, which was skipped.
        results.two_passes |= content && block.kind.is("tool_result") && block.is_error.0;
        results.blocks.push(block);
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for TextSeed<'_, 'de> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TextSeed<'_, 'de> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_str<E>(mut self, value: &str) -> Result<(), E> {
        self.other_shape();
        self.text.present = true;
        self.text.separate();
        self.text.push_value(value);
        Ok(())
    }

    fn visit_bool<E>(mut self, _: bool) -> Result<(), E> {
        self.other_shape();
        Ok(())
    }

    fn visit_i64<E>(mut self, _: i64) -> Result<(), E> {
        self.other_shape();
        Ok(())
    }

    fn visit_u64<E>(mut self, _: u64) -> Result<(), E> {
        self.other_shape();
        Ok(())
    }

    fn visit_f64<E>(mut self, _: f64) -> Result<(), E> {
        self.other_shape();
        Ok(())
    }

    fn visit_unit<E>(mut self) -> Result<(), E> {
        // A `content` of `null` is no list, and no block: nothing to undo.
        if self.level != Level::Content {
            self.other_shape();
        }
        Ok(())
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        self.text.present = true;
        match self.level {
            Level::Content => while seq.next_element_seed(self.child(Level::Block))?.is_some() {},
            // A strict parse takes a list for a struct's fields in order (a message's one
            // field, `content`; a block's four): left to it.
            Level::Message | Level::Block => {
                if let Some(results) = self.results.as_deref_mut() {
                    results.two_passes = true;
                }
                while seq.next_element_seed(self.child(Level::Other))?.is_some() {}
            }
            Level::Other => while seq.next_element_seed(self.child(Level::Other))?.is_some() {},
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        self.text.present = true;
        if self.level == Level::Block {
            if let Some(results) = self.results.take() {
                return self.block(map, results);
            }
        }
        if self.level == Level::Content {
            self.other_shape();
        }
        let message = self.level == Level::Message && self.results.is_some();
        let mut content_seen = false;
        // A tool's output, or text past the cap, is skipped rather than parsed: the
        // parser then only looks for the closing quote.
        let mut tool_result = false;
        while let Some(key) = map.next_key::<LStr<'de>>()? {
            match key.0.as_deref() {
                // The message's content is read whatever the cap, for its blocks; past
                // the cap (or after a `tool_result` type) into a text thrown away, so
                // that the text is what skipping it gives.
                Some("content") if message => {
                    if std::mem::replace(&mut content_seen, true) {
                        self.other_shape();
                    }
                    if !tool_result && self.text.chars < TEXT_CAP_CHARS {
                        map.next_value_seed(self.child(Level::Content))?;
                    } else {
                        let mut thrown_away = Text::default();
                        let results = self.results.as_deref_mut();
                        let seed =
                            TextSeed { text: &mut thrown_away, results, level: Level::Content };
                        map.next_value_seed(seed)?;
                    }
                }
                Some("text" | "content") if !tool_result && self.text.chars < TEXT_CAP_CHARS => {
                    map.next_value_seed(self.child(Level::Other))?;
                }
                Some("type") => {
                    if map.next_value::<LStr<'de>>()?.is("tool_result") {
                        tool_result = true;
                        self.text.tool_result = true;
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
        TextSeed::plain(&mut text).deserialize(deserializer)?;
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database's time column: a number in any storage class SQLite has for one is read,
    /// NULL or a column the row lacks is no time, anything else names the column.
    #[test]
    fn a_time_column_is_a_number_whatever_sqlite_stored_it_as() {
        let conn = rusqlite::Connection::open_in_memory().expect("database");
        let read = |value: &str| {
            conn.query_row(&format!("SELECT {value} AS at"), [], |row| {
                Ok((sql_number(row, "at"), sql_number(row, "gone")))
            })
            .expect("a row")
        };
        for (value, expected) in [
            ("1772442000", Ok(Some(1_772_442_000.0))),
            ("1772442000.25", Ok(Some(1_772_442_000.25))),
            ("' 1772442000 '", Ok(Some(1_772_442_000.0))),
            ("NULL", Ok(None)),
            ("'yesterday'", Err(NotATime("at"))),
            ("''", Err(NotATime("at"))),
            ("'inf'", Err(NotATime("at"))),
            // A real overflowing to infinity, which SQLite stores as such.
            ("9e999", Err(NotATime("at"))),
            ("x'31'", Err(NotATime("at"))),
        ] {
            assert_eq!(read(value), (expected, Ok(None)), "{value}");
        }
    }

    /// A time field: missing, empty or `null` is no time and no fault; anything else that
    /// is not a time of the field's form is [`NotATime`] naming the field.
    #[test]
    fn a_time_field_tells_a_missing_time_from_one_that_is_no_time() {
        let text = |json: &str| serde_json::from_str::<LStr>(json).expect("any value").time("at");
        let millis =
            |json: &str| serde_json::from_str::<LMillis>(json).expect("any value").time("at");
        let when: Timestamp = "2026-01-01T00:00:00Z".parse().expect("time");
        assert_eq!(text(r#""2026-01-01T00:00:00Z""#), Ok(Some(when)));
        for absent in ["null", r#""""#, "1", "{}"] {
            assert_eq!(text(absent), Ok(None), "{absent}");
        }
        assert_eq!(text(r#""yesterday""#), Err(NotATime("at")));
        assert_eq!(millis("1767225600000"), Ok(Some(when)));
        assert_eq!(millis("null"), Ok(None));
        for bad in [r#""1767225600000""#, r#""yesterday""#, "1.5", "1e300", "{}", "true"] {
            assert_eq!(millis(bad), Err(NotATime("at")), "{bad}");
        }
        assert_eq!(or_undated(Ok(Some(when))), (Some(when), Ok(())));
        assert_eq!(or_undated(Err(NotATime("at"))), (None, Err(NotATime("at"))));
    }

    /// A record holding a list of objects, and a field after it.
    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct Listing {
        list: Objects<Item>,
        after: OStr,
    }

    #[derive(Deserialize, Default, Debug, PartialEq)]
    #[serde(default)]
    struct Item {
        x: LNum,
    }

    #[test]
    fn objects_keep_the_objects_and_note_anything_else() {
        let read = |json: &str| {
            let listing: Listing = serde_json::from_str(json).unwrap();
            let xs: Vec<Option<i64>> =
                listing.list.items.iter().map(|item| item.x.as_i64()).collect();
            (xs, listing.list.other, listing.after.0.get().map(str::to_owned))
        };
        let after = Some("ok".to_owned());
        assert_eq!(
            read(r#"{"list":[{"x":1},"s",[1,[2]],{"x":2},null,3,true],"after":"ok"}"#),
            (vec![Some(1), Some(2)], true, after.clone())
        );
        assert_eq!(read(r#"{"list":[],"after":"ok"}"#), (vec![], false, after.clone()));
        assert_eq!(read(r#"{"list":null,"after":"ok"}"#), (vec![], false, after.clone()));
        assert_eq!(read(r#"{"after":"ok"}"#), (vec![], false, after.clone()));
        // Not a list: skipped whole, and what follows is still read.
        for other in [r#"{"x":1,"y":{"z":[]}}"#, r#""text""#, "12", "-1", "1.5", "false"] {
            let json = format!(r#"{{"list":{other},"after":"ok"}}"#);
            assert_eq!(read(&json), (vec![], true, after.clone()), "{json}");
        }
    }

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
