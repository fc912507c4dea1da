//! Claude Code's tool output taken out of a transcript line before serde reads it.
//!
//! Nearly all the bytes of a transcript are the output of its tools, sent back as the
//! `content` of `tool_result` blocks in user records, and the reader never looks at it
//! (only an error's output, for its exit code). serde_json still walks every byte of it,
//! stopping at each escape: on transcripts of code a backslash comes every 18 bytes.
//! [`without_tool_output`] finds those values with a block-wise scan (the quotes, the
//! backslashes and the control characters of 64 bytes at a time as bit masks, the escaped
//! characters told by carries, as simdjson does; SSE2 through `safe_arch` on x86-64, a
//! byte loop elsewhere), checks each one as serde would, and copies the line with each
//! one emptied. The reader parses the copy and falls back to the line itself whenever
//! the copy does not parse, so an error names the line's own column.
//!
//! Why the copy reads as the line does: a string is taken out only where the reader
//! skips it whatever it holds (a main-chain user message's blocks, `Text`'s blocks and
//! `exit_statuses` all pass over a `content` once the block's `type` said
//! `tool_result`, unless `is_error` is there and not `false`; the record's
//! `toolUseResult`, where Claude Code writes the output again, is passed over whole);
//! each one is checked by serde's own rules (no control character, valid escapes) and,
//! where the copy's message was kept raw (serde checks a `RawValue` as UTF-8 whole), as
//! UTF-8 ([`Copy::taken_out_is_utf8`]), so the copy is valid exactly where the line is;
//! and emptying a string changes no other token. The property tests in `claude.rs`
//! hold the parse of the copy to the parse of the line.

use std::sync::LazyLock;

use memchr::memmem::Finder;

use super::scan::{skip_space, skip_value_with};

/// The shortest output taken out (chosen, not tuned: serde skips a short string
/// cheaply, and each copy is one more pass over the line).
const MIN_CUT: usize = 256;

/// A line with the output of its tool results emptied.
pub(super) struct Copy {
    bytes: Vec<u8>,
    /// Where the outputs were in the line (the text between the quotes).
    cuts: Vec<(usize, usize)>,
}

impl Copy {
    /// The line as copied.
    pub(super) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Whether what was taken out of `line` is valid UTF-8: serde checks a message it
    /// keeps raw (a `RawValue`) as UTF-8 whole, so a copy whose message was kept raw
    /// stands for the line only then. Checked when needed only: it costs as much as
    /// finding the outputs.
    pub(super) fn taken_out_is_utf8(&self, line: &[u8]) -> bool {
        self.cuts.iter().all(|(start, end)| std::str::from_utf8(&line[*start..*end]).is_ok())
    }
}

/// The line with the output of its tool results emptied (`"content":""`), or `None`
/// when there is nothing worth taking out or the line is not the shape looked for (then
/// the line itself is parsed).
pub(super) fn without_tool_output(line: &[u8]) -> Option<Copy> {
    without_output_from(line, MIN_CUT)
}

/// [`without_tool_output`], taking out outputs of `min` bytes and more (the tests take
/// out the short ones of the recordings too).
pub(super) fn without_output_from(line: &[u8], min: usize) -> Option<Copy> {
    // Only a line that names a tool result can hold one: the others (assistant replies,
    // most of the rest) are not walked, since serde reads them whole anyway. Both names
    // are matched as written by the walk too, so this never passes over one it would cut.
    static RESULT: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"tool_result\""));
    static AGAIN: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"toolUseResult\""));
    if RESULT.find(line).is_none() && AGAIN.find(line).is_none() {
        return None;
    }
    let mut cuts = Vec::new();
    walk_record(line, &mut cuts, min)?;
    if cuts.is_empty() {
        return None;
    }
    let removed: usize = cuts.iter().map(|(start, end)| end - start).sum();
    let mut bytes = Vec::with_capacity(line.len() - removed);
    let mut at = 0;
    for (start, end) in &cuts {
        bytes.extend_from_slice(&line[at..*start]);
        at = *end;
    }
    bytes.extend_from_slice(&line[at..]);
    Some(Copy { bytes, cuts })
}

/// Walks the top-level object, descending into `message`; `None` when it is not a
/// well-formed object as far as the walk goes, or `message` comes twice.
fn walk_record(line: &[u8], cuts: &mut Vec<(usize, usize)>, min: usize) -> Option<()> {
    let mut messages = 0;
    walk_object(line, skip_space(line, 0), |line, key, at| {
        if key == b"message" {
            messages += 1;
            if messages > 1 {
                return None;
            }
            if line.get(at) == Some(&b'{') {
                return walk_message(line, at, cuts, min);
            }
        }
        if key == b"toolUseResult" {
            return skip_taking_out(line, at, cuts, min);
        }
        skip_value(line, at)
    })?;
    Some(())
}

/// [`skip_value`], noting every string of `min` bytes and more in the value: Claude Code
/// writes a tool's output a second time in the record's `toolUseResult`, which the
/// reader passes over whole.
fn skip_taking_out(
    line: &[u8],
    at: usize,
    cuts: &mut Vec<(usize, usize)>,
    min: usize,
) -> Option<usize> {
    skip_value_with(line, at, |line, start| {
        let end = string_end(line, start)?;
        if end - start >= min {
            cuts.push((start, end));
        }
        Some(end)
    })
}

/// Walks a message object, descending into its `content` when it is a list of blocks.
fn walk_message(
    line: &[u8],
    at: usize,
    cuts: &mut Vec<(usize, usize)>,
    min: usize,
) -> Option<usize> {
    let mut contents = 0;
    walk_object(line, at, |line, key, at| {
        if key == b"content" {
            contents += 1;
            if contents > 1 {
                return None;
            }
            if line.get(at) == Some(&b'[') {
                return walk_blocks(line, at, cuts, min);
            }
        }
        skip_value(line, at)
    })
}

/// Walks a list of content blocks, noting the output each `tool_result` block holds.
fn walk_blocks(
    line: &[u8],
    at: usize,
    cuts: &mut Vec<(usize, usize)>,
    min: usize,
) -> Option<usize> {
    let mut at = skip_space(line, at + 1);
    if line.get(at) == Some(&b']') {
        return Some(at + 1);
    }
    loop {
        at = if line.get(at) == Some(&b'{') {
            walk_block(line, at, cuts, min)?
        } else {
            skip_value(line, at)?
        };
        at = skip_space(line, at);
        match line.get(at)? {
            b',' => at = skip_space(line, at + 1),
            b']' => return Some(at + 1),
            _ => return None,
        }
    }
}

/// Walks one content block: its `content` string is noted when the block's `type` said
/// `tool_result` before it, `is_error` is absent or `false`, none of the four fields the
/// reader looks at comes twice, no key is written with escapes, and it is `min` bytes or
/// more.
fn walk_block(line: &[u8], at: usize, cuts: &mut Vec<(usize, usize)>, min: usize) -> Option<usize> {
    let mut seen = [0u8; 4];
    let mut tool_result = false;
    let mut error = false;
    let mut output = None;
    let mut escaped_key = false;
    let end = walk_object(line, at, |line, key, at| {
        let field = match key {
            b"type" => 0,
            b"tool_use_id" => 1,
            b"is_error" => 2,
            b"content" => 3,
            // A key written with escapes may be one of the four (`is_\u0065rror`).
            _ if key.contains(&b'\\') => {
                escaped_key = true;
                return skip_value(line, at);
            }
            _ => return skip_value(line, at),
        };
        seen[field] += 1;
        let end = skip_value(line, at)?;
        match field {
            0 => tool_result = &line[at..end] == b"\"tool_result\"",
            2 => error = &line[at..end] != b"false",
            3 if tool_result && line[at] == b'"' => output = Some((at + 1, end - 1)),
            _ => {}
        }
        Some(end)
    })?;
    if let Some((start, stop)) = output {
        if !error && !escaped_key && seen.iter().all(|count| *count <= 1) && stop - start >= min {
            cuts.push((start, stop));
        }
    }
    Some(end)
}

/// Walks the object that opens at `at` (a `{`), handing each member's key (as written,
/// unescaped or not) and the index of its value to `member`, which returns the index
/// after the value; returns the index after the object.
fn walk_object(
    line: &[u8],
    at: usize,
    mut member: impl FnMut(&[u8], &[u8], usize) -> Option<usize>,
) -> Option<usize> {
    if line.get(at) != Some(&b'{') {
        return None;
    }
    let mut at = skip_space(line, at + 1);
    if line.get(at) == Some(&b'}') {
        return Some(at + 1);
    }
    loop {
        if line.get(at) != Some(&b'"') {
            return None;
        }
        let end = string_end(line, at + 1)?;
        let key = &line[at + 1..end];
        at = skip_space(line, end + 1);
        if line.get(at) != Some(&b':') {
            return None;
        }
        at = skip_space(line, member(line, key, skip_space(line, at + 1))?);
        match line.get(at)? {
            b',' => at = skip_space(line, at + 1),
            b'}' => return Some(at + 1),
            _ => return None,
        }
    }
}

/// The index after the JSON value that starts at `at`, its strings checked as serde
/// would ([`string_end`]).
fn skip_value(bytes: &[u8], at: usize) -> Option<usize> {
    skip_value_with(bytes, at, string_end)
}

/// What serde_json accepts after a backslash (`u` then wants four hex digits).
#[cfg_attr(
    all(target_arch = "x86_64", not(test)),
    expect(dead_code, reason = "the SSE2 masks spell it out")
)]
const ESCAPES: &[u8] = b"\"\\/bfnrtu";

/// The index of the quote that closes the string whose text starts at `at`, when the
/// text is what serde_json accepts: no control character (below U+0020), every escape
/// one of [`ESCAPES`], a `\u` followed by four hex digits. `None` otherwise, or when
/// the string is not closed. Not UTF-8 checked: serde does not check a string it skips.
pub(super) fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut block: [u8; 64];
    // Whether the first byte of the next block is escaped (a backslash ended this one).
    let mut carry = 0u64;
    let mut at = at;
    loop {
        let chunk: &[u8; 64] = if let Some(chunk) = bytes.get(at..at + 64) {
            chunk.try_into().ok()?
        } else {
            let rest = bytes.get(at..).filter(|rest| !rest.is_empty())?;
            block = [b' '; 64];
            block[..rest.len()].copy_from_slice(rest);
            &block
        };
        let masks = Masks::of(chunk);
        let after_backslash = escaped(masks.backslash, &mut carry);
        let quotes = masks.quote & !after_backslash;
        // The bytes before the closing quote (all of them when it is further on).
        let inside = if quotes == 0 { u64::MAX } else { (quotes & quotes.wrapping_neg()) - 1 };
        if masks.control & inside != 0 {
            return None;
        }
        let in_text = after_backslash & inside;
        // Most escapes are `\"`, `\\` and `\n`: the other kinds are looked at only when
        // some escape is none of these.
        if in_text & !(masks.quote | masks.backslash | masks.newline) != 0 {
            let (valid, unicode) = escape_masks(chunk);
            if in_text & !valid != 0 {
                return None;
            }
            let mut unicode = in_text & unicode;
            while unicode != 0 {
                let index = at + unicode.trailing_zeros() as usize;
                unicode &= unicode - 1;
                let digits = bytes.get(index + 1..index + 5)?;
                if !digits.iter().all(u8::is_ascii_hexdigit) {
                    return None;
                }
            }
        }
        if quotes != 0 {
            // A quote of the line's own: the padding after its end holds none.
            return Some(at + quotes.trailing_zeros() as usize);
        }
        at += 64;
    }
}

/// The characters escaped by a backslash in a block whose backslashes are `backslash`
/// (simdjson's `find_escaped_branchless`): a run of backslashes escapes the character
/// after it when it is odd. `carry` says whether the block's first byte is escaped, and
/// is set for the next block.
#[inline]
fn escaped(backslash: u64, carry: &mut u64) -> u64 {
    const EVEN: u64 = 0x5555_5555_5555_5555;
    let backslash = backslash & !*carry;
    let follows_escape = (backslash << 1) | *carry;
    let odd_starts = backslash & !EVEN & !follows_escape;
    let (even_starts, overflow) = odd_starts.overflowing_add(backslash);
    *carry = u64::from(overflow);
    (EVEN ^ (even_starts << 1)) & follows_escape
}

/// One bit per byte of a 64-byte block.
#[cfg_attr(test, derive(Debug, PartialEq, Eq))]
struct Masks {
    quote: u64,
    backslash: u64,
    /// The letter `n` (of `\n`).
    newline: u64,
    /// Below U+0020.
    control: u64,
}

#[cfg(target_arch = "x86_64")]
mod masks {
    use safe_arch::{
        bitor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i, m128i, min_u8_m128i,
        move_mask_i8_m128i, set_splat_i8_m128i,
    };

    /// The 16 lanes of `chunk` from `lane * 16`.
    #[inline]
    fn lanes(chunk: &[u8; 64], lane: usize) -> m128i {
        let bytes: &[u8; 16] = chunk[lane * 16..lane * 16 + 16].try_into().expect("16 bytes");
        load_unaligned_m128i(bytes)
    }

    /// The bits of the lanes equal to `byte`.
    #[inline]
    fn equal(lanes: m128i, byte: u8) -> m128i {
        cmp_eq_mask_i8_m128i(lanes, set_splat_i8_m128i(i8::from_ne_bytes([byte])))
    }

    /// A 16-bit lane mask, placed at `lane` in a 64-bit one.
    #[inline]
    fn place(mask: m128i, lane: usize) -> u64 {
        u64::from(move_mask_i8_m128i(mask).unsigned_abs() & 0xffff) << (lane * 16)
    }

    impl super::Masks {
        #[inline]
        pub(super) fn of(chunk: &[u8; 64]) -> super::Masks {
            let mut masks = super::Masks { quote: 0, backslash: 0, newline: 0, control: 0 };
            let below_space = set_splat_i8_m128i(0x1f);
            for lane in 0..4 {
                let bytes = lanes(chunk, lane);
                masks.quote |= place(equal(bytes, b'"'), lane);
                masks.backslash |= place(equal(bytes, b'\\'), lane);
                masks.newline |= place(equal(bytes, b'n'), lane);
                let low = cmp_eq_mask_i8_m128i(min_u8_m128i(bytes, below_space), bytes);
                masks.control |= place(low, lane);
            }
            masks
        }
    }

    /// The bytes that may follow a backslash ([`super::ESCAPES`]), and the `u`s.
    #[inline]
    pub(super) fn escape_masks(chunk: &[u8; 64]) -> (u64, u64) {
        let (mut valid, mut unicode) = (0, 0);
        for lane in 0..4 {
            let bytes = lanes(chunk, lane);
            let unicode_lanes = equal(bytes, b'u');
            let any = bitor_m128i(
                bitor_m128i(
                    bitor_m128i(equal(bytes, b'"'), equal(bytes, b'\\')),
                    bitor_m128i(equal(bytes, b'/'), equal(bytes, b'b')),
                ),
                bitor_m128i(
                    bitor_m128i(equal(bytes, b'f'), equal(bytes, b'n')),
                    bitor_m128i(bitor_m128i(equal(bytes, b'r'), equal(bytes, b't')), unicode_lanes),
                ),
            );
            valid |= place(any, lane);
            unicode |= place(unicode_lanes, lane);
        }
        (valid, unicode)
    }
}

/// The masks a byte at a time: what every target but x86-64 uses, and what the tests hold
/// the SSE2 masks to.
#[cfg(any(test, not(target_arch = "x86_64")))]
mod portable {
    /// [`super::Masks`] of `chunk`.
    #[inline]
    pub(super) fn masks(chunk: &[u8; 64]) -> super::Masks {
        let mut masks = super::Masks { quote: 0, backslash: 0, newline: 0, control: 0 };
        for (index, byte) in chunk.iter().enumerate() {
            masks.quote |= u64::from(*byte == b'"') << index;
            masks.newline |= u64::from(*byte == b'n') << index;
            masks.backslash |= u64::from(*byte == b'\\') << index;
            masks.control |= u64::from(*byte < 0x20) << index;
        }
        masks
    }

    /// The bytes that may follow a backslash ([`super::ESCAPES`]), and the `u`s.
    #[inline]
    pub(super) fn escape_masks(chunk: &[u8; 64]) -> (u64, u64) {
        let (mut valid, mut unicode) = (0, 0);
        for (index, byte) in chunk.iter().enumerate() {
            valid |= u64::from(super::ESCAPES.contains(byte)) << index;
            unicode |= u64::from(*byte == b'u') << index;
        }
        (valid, unicode)
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod masks {
    impl super::Masks {
        #[inline]
        pub(super) fn of(chunk: &[u8; 64]) -> super::Masks {
            super::portable::masks(chunk)
        }
    }

    pub(super) use super::portable::escape_masks;
}

use masks::escape_masks;

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{Masks, escape_masks, portable, string_end, without_tool_output};

    /// serde's verdict on the string whose text is `text`: the index of its closing
    /// quote in `"text` when serde skips it, found by parsing each prefix ending at a
    /// quote (the first that parses is the string).
    fn serde_end(bytes: &[u8]) -> Option<usize> {
        memchr::memchr_iter(b'"', &bytes[1..])
            .map(|index| index + 1)
            .find(|end| serde_json::from_slice::<serde::de::IgnoredAny>(&bytes[..=*end]).is_ok())
    }

    #[test]
    fn string_ends_as_serde_reads_them() {
        let cases: &[&[u8]] = &[
            br#""plain""#,
            br#""esc \" quote" tail""#,
            br#""two \\" tail""#,
            br#""three \\\" more" x""#,
            b"\"ctl \x01 byte\"",
            br#""bad \x escape""#,
            br#""uni \u00e9 ok""#,
            br#""uni \u00g9 bad""#,
            br#""short \u12"#,
            br#""unclosed"#,
            br#""\"#,
        ];
        for case in cases {
            assert_eq!(string_end(case, 1), serde_end(case), "{}", String::from_utf8_lossy(case));
        }
        // Across the 64-byte blocks: a run of backslashes ending one block.
        for run in 0..6 {
            for pad in 55..70 {
                let mut text = vec![b'"'];
                text.extend(std::iter::repeat_n(b'a', pad));
                text.extend(std::iter::repeat_n(b'\\', run));
                text.extend_from_slice(br#"" tail" end"#);
                assert_eq!(string_end(&text, 1), serde_end(&text), "run {run} pad {pad}");
            }
        }
    }

    /// Text made of the bytes that matter to a string's end, in runs that cross blocks.
    fn text() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            4 => "[a-z ]{1,70}".prop_map(String::into_bytes),
            2 => prop::collection::vec(Just(b'\\'), 1..5),
            2 => Just(b"\"".to_vec()),
            1 => Just(b"\\u00e9".to_vec()),
            1 => Just(b"\\u0".to_vec()),
            1 => Just(vec![b'\n']),
            1 => Just(vec![0x1f]),
            1 => Just("é".as_bytes().to_vec()),
            1 => Just(vec![0xff]),
            1 => "[bfnrtux/]".prop_map(String::into_bytes),
        ];
        prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4_000))]

        /// On any bytes, the block scan finds the end serde finds, or refuses as it does.
        #[test]
        fn string_end_agrees_with_serde(body in text()) {
            let mut bytes = vec![b'"'];
            bytes.extend_from_slice(&body);
            prop_assert_eq!(string_end(&bytes, 1), serde_end(&bytes));
        }
    }

    /// The copy [`without_tool_output`] makes of `line`, as text.
    fn cut(line: &str) -> Option<String> {
        without_tool_output(line.as_bytes())
            .map(|out| String::from_utf8(out.bytes().to_vec()).unwrap())
    }

    #[test]
    fn only_a_tool_result_s_output_is_taken_out() {
        let long = "x\\\"y ".repeat(100);
        let line = format!(
            r#"{{"type":"user","message":{{"role":"user","content":[{{"tool_use_id":"t","type":"tool_result","content":"{long}","is_error":false}}]}},"uuid":"u"}}"#
        );
        assert_eq!(
            cut(&line).as_deref(),
            Some(
                r#"{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t","type":"tool_result","content":"","is_error":false}]},"uuid":"u"}"#
            )
        );
        // Other keys in the block (plainly written) change nothing.
        let extra = line.replace("\"is_error\":false", "\"cache_control\":{\"type\":\"x\"}");
        assert!(cut(&extra).is_some_and(|copy| copy.contains(r#""content":"","cache_control""#)));
        // An error's output holds its exit code.
        assert_eq!(cut(&line.replace("\"is_error\":false", "\"is_error\":true")), None);
        // `type` after `content`: the content was read as text.
        let late =
            format!(r#"{{"message":{{"content":[{{"content":"{long}","type":"tool_result"}}]}}}}"#);
        assert_eq!(cut(&late), None);
        // Text blocks, and short outputs, stay.
        let text = format!(r#"{{"message":{{"content":[{{"type":"text","text":"{long}"}}]}}}}"#);
        assert_eq!(cut(&text), None);
        let short = r#"{"message":{"content":[{"type":"tool_result","content":"ok"}]}}"#;
        assert_eq!(cut(short), None);
        // However far into the line the short one is.
        let far = format!(
            r#"{{"message":{{"content":[{{"type":"text","text":"{long}"}},{{"type":"tool_result","content":"ok"}}]}}}}"#
        );
        assert_eq!(cut(&far), None);
        // Two `content`s in a block, or two messages: left to serde.
        let twice = format!(
            r#"{{"message":{{"content":[{{"type":"tool_result","content":"{long}","content":"b"}}]}}}}"#
        );
        assert_eq!(cut(&twice), None);
        let two_messages = format!(
            r#"{{"message":{{"content":[{{"type":"tool_result","content":"{long}"}}]}},"message":1}}"#
        );
        assert_eq!(cut(&two_messages), None);
        // The output again in `toolUseResult`, at any depth.
        let again = format!(
            r#"{{"type":"user","toolUseResult":{{"stdout":"{long}","n":[1,{{"k":"{long}"}}],"stderr":""}},"uuid":"u"}}"#
        );
        assert_eq!(
            cut(&again).as_deref(),
            Some(
                r#"{"type":"user","toolUseResult":{"stdout":"","n":[1,{"k":""}],"stderr":""},"uuid":"u"}"#
            )
        );
        // An `is_error` spelled with an escape is still `is_error` to serde.
        let spelled = line.replace("\"is_error\":false", "\"is_\\u0065rror\":true");
        assert_eq!(cut(&spelled), None);
        // An invalid escape in the output: the line is parsed as it is (and fails there).
        let invalid = line.replace("x\\\"y", "x\\qy");
        assert_eq!(cut(&invalid), None);
    }

    /// Where the walk steps over a separator, an empty list or an empty object, and
    /// goes on to the next output: every output is taken out (a wrong step would
    /// decline the copy, and the line would be parsed whole, the same but slower).
    #[test]
    fn every_output_is_taken_out_past_spaces_empty_values_and_other_blocks() {
        let long = "out ".repeat(80);
        // Spaces around every token, an empty block, then two outputs.
        let spaced = format!(
            r#"{{ "type" : "user" , "message" : {{ "content" : [ {{ }} , {{ "type" : "tool_result" , "content" : "{long}" }} , {{ "type" : "tool_result" , "content" : "{long}" }} ] }} }}"#
        );
        assert_eq!(
            cut(&spaced).as_deref(),
            Some(
                r#"{ "type" : "user" , "message" : { "content" : [ { } , { "type" : "tool_result" , "content" : "" } , { "type" : "tool_result" , "content" : "" } ] } }"#
            )
        );
        // An empty list of blocks, and the output again in `toolUseResult` after it.
        let empty =
            format!(r#"{{"message":{{"content":[ ]}},"toolUseResult":{{"stdout":"{long}"}}}}"#);
        assert_eq!(
            cut(&empty).as_deref(),
            Some(r#"{"message":{"content":[ ]},"toolUseResult":{"stdout":""}}"#)
        );
    }

    /// A field the reader looks at written twice (the message's `content`, a block's
    /// `tool_use_id`): the strict parse refuses such a message, so the copy is declined
    /// and the line is left to serde.
    #[test]
    fn a_field_written_twice_leaves_the_line_to_serde() {
        let long = "out ".repeat(80);
        let block = format!(r#"{{"type":"tool_result","content":"{long}"}}"#);
        let once = format!(r#"{{"message":{{"content":[{block}]}}}}"#);
        assert!(cut(&once).is_some());
        let contents = format!(r#"{{"message":{{"content":[{block}],"content":[]}}}}"#);
        assert_eq!(cut(&contents), None);
        let ids = format!(
            r#"{{"message":{{"content":[{{"tool_use_id":"a","type":"tool_result","tool_use_id":"b","content":"{long}"}}]}}}}"#
        );
        assert_eq!(cut(&ids), None);
    }

    /// The SSE2 masks of x86-64 are the byte loop's, which every other target uses (and
    /// no test ran before), on every byte value at every place of a block.
    #[test]
    fn the_masks_are_the_byte_loop_s() {
        let chunks = (0..=255u8).flat_map(|value| {
            let runs: [u8; 64] = std::array::from_fn(|index| {
                value.wrapping_add(u8::try_from(index * 7 % 256).expect("below 256"))
            });
            [[value; 64], runs]
        });
        for chunk in chunks {
            assert_eq!(Masks::of(&chunk), portable::masks(&chunk), "{chunk:?}");
            assert_eq!(escape_masks(&chunk), portable::escape_masks(&chunk), "{chunk:?}");
        }
    }

    /// Whether what was taken out is UTF-8, which a copy whose message is kept raw needs.
    #[test]
    fn the_outputs_taken_out_are_checked_as_utf8() {
        let line = |output: &[u8]| {
            let mut line = br#"{"message":{"content":[{"type":"tool_result","content":""#.to_vec();
            line.extend_from_slice(output);
            line.extend_from_slice(br#""}]}}"#);
            line
        };
        let text = line("é ".repeat(200).as_bytes());
        let copy = without_tool_output(&text).expect("an output to take out");
        assert!(copy.taken_out_is_utf8(&text));
        let mut bytes = "é ".repeat(200).into_bytes();
        bytes[1] = 0xff;
        let broken = line(&bytes);
        let copy = without_tool_output(&broken).expect("an output to take out");
        assert!(!copy.taken_out_is_utf8(&broken));
    }
}
