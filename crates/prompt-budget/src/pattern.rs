//! Path patterns: JSON pointers (RFC 6901) whose segments may be `*`.

use serde_json::Value;

use crate::Error;

/// One segment of a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Segment {
    /// Matches an object key equal to it, or an array index spelled the same way.
    Literal(String),
    /// Matches every key of an object and every index of an array.
    Any,
}

/// One step of a concrete path into a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// An object key.
    Key(String),
    /// An array index.
    Index(usize),
}

/// A parsed pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pattern {
    pub(crate) text: String,
    pub(crate) segments: Vec<Segment>,
}

impl Pattern {
    /// Parses `""` (the root) or `/seg/seg/...`, where `~1` is `/`, `~0` is `~` and a segment
    /// that is exactly `*` is a wildcard.
    pub(crate) fn parse(text: &str) -> Result<Pattern, Error> {
        let invalid = |reason| Error::InvalidPattern { pattern: text.to_owned(), reason };
        if text.is_empty() {
            return Ok(Pattern { text: String::new(), segments: Vec::new() });
        }
        let Some(rest) = text.strip_prefix('/') else {
            return Err(invalid("it must be empty or start with `/`"));
        };
        let mut segments = Vec::new();
        for raw in rest.split('/') {
            if raw == "*" {
                segments.push(Segment::Any);
                continue;
            }
            let mut segment = String::with_capacity(raw.len());
            let mut chars = raw.chars();
            while let Some(c) = chars.next() {
                if c == '~' {
                    match chars.next() {
                        Some('0') => segment.push('~'),
                        Some('1') => segment.push('/'),
                        _ => return Err(invalid("`~` must be followed by `0` or `1`")),
                    }
                } else {
                    segment.push(c);
                }
            }
            segments.push(Segment::Literal(segment));
        }
        Ok(Pattern { text: text.to_owned(), segments })
    }

    /// Whether `self` is a proper prefix of `other`, segment by segment.
    pub(crate) fn is_proper_prefix_of(&self, other: &Pattern) -> bool {
        self.segments.len() < other.segments.len()
            && self.segments.iter().zip(&other.segments).all(|(a, b)| a == b)
    }

    /// Every concrete path the pattern matches in `value`, in document order (object keys in
    /// the map's iteration order, array elements by index). When `last_is_key` is set, the
    /// final segment only matches object keys.
    pub(crate) fn matches(&self, value: &Value, last_is_key: bool) -> Vec<Vec<Step>> {
        let mut found = Vec::new();
        let mut path = Vec::with_capacity(self.segments.len());
        collect(value, &self.segments, last_is_key, &mut path, &mut found);
        found
    }
}

fn collect(
    value: &Value,
    segments: &[Segment],
    last_is_key: bool,
    path: &mut Vec<Step>,
    found: &mut Vec<Vec<Step>>,
) {
    let Some((segment, rest)) = segments.split_first() else {
        found.push(path.clone());
        return;
    };
    let arrays_allowed = !(last_is_key && rest.is_empty());
    match (value, segment) {
        (Value::Object(map), Segment::Any) => {
            for (key, child) in map {
                path.push(Step::Key(key.clone()));
                collect(child, rest, last_is_key, path, found);
                path.pop();
            }
        }
        (Value::Object(map), Segment::Literal(key)) => {
            if let Some(child) = map.get(key) {
                path.push(Step::Key(key.clone()));
                collect(child, rest, last_is_key, path, found);
                path.pop();
            }
        }
        (Value::Array(items), Segment::Any) if arrays_allowed => {
            for (index, child) in items.iter().enumerate() {
                path.push(Step::Index(index));
                collect(child, rest, last_is_key, path, found);
                path.pop();
            }
        }
        (Value::Array(items), Segment::Literal(text)) if arrays_allowed => {
            // RFC 6901: an index is `0` or digits without a leading zero.
            let canonical = text == "0" || (!text.starts_with('0') && !text.is_empty());
            let index = text.parse::<usize>().ok().filter(|_| canonical);
            if let Some((index, child)) = index.and_then(|index| Some((index, items.get(index)?))) {
                path.push(Step::Index(index));
                collect(child, rest, last_is_key, path, found);
                path.pop();
            }
        }
        _ => {}
    }
}

/// The value at a concrete path, if it is still there.
pub(crate) fn get_mut<'a>(value: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |value, step| match (value, step) {
        (Value::Object(map), Step::Key(key)) => map.get_mut(key),
        (Value::Array(items), Step::Index(index)) => items.get_mut(*index),
        _ => None,
    })
}
