//! Grounding (DESIGN §8.7a): checks a model's reply against the payload it was given.
//!
//! Deterministic and language-aware. Per sentence: numbers, identifier-like tokens, quoted
//! text, URLs, e-mail addresses and paths must occur in the payload, and most content words
//! must too (by stem; Japanese by its Latin tokens and by character bigrams of its kana and
//! kanji). Over the whole reply: the language, prose rather than code, markup or a JSON
//! dump, no degenerate repetition, no echo of the instructions, and enough supported
//! sentences left. The word lists are data files in `data/`.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use serde_json::Value;

use crate::Lang;

/// English function words (`data/function_words_en.txt`).
const FUNCTION_WORDS_EN: &str = include_str!("../data/function_words_en.txt");
/// Common English work words (`data/work_words_en.txt`).
const WORK_WORDS_EN: &str = include_str!("../data/work_words_en.txt");
/// Common Japanese work words and function words (`data/work_words_ja.txt`).
const WORK_WORDS_JA: &str = include_str!("../data/work_words_ja.txt");

/// A run of this many Latin words repeated three times is degenerate repetition.
const REPEAT_WORDS: usize = 6;
/// The same for text with kana or kanji: this many characters (spaces left out).
const REPEAT_CHARS: usize = 16;
/// A run of this many words of the instructions in the reply is an echo.
const ECHO_WORDS: usize = 8;
/// The same for Japanese instructions: this many kana or kanji characters.
const ECHO_CHARS: usize = 16;

/// The English stop stems: function words and work words, stemmed.
pub(crate) static EN_STOP: LazyLock<HashSet<String>> = LazyLock::new(|| {
    FUNCTION_WORDS_EN
        .lines()
        .chain(WORK_WORDS_EN.lines())
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(stem)
        .collect()
});

/// The same words as written (not stemmed).
pub(crate) static EN_STOP_WORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    FUNCTION_WORDS_EN
        .lines()
        .chain(WORK_WORDS_EN.lines())
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect()
});

/// The Japanese stop words, longest first (so that the longest match is taken out).
static JA_STOP: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut words: Vec<&str> = WORK_WORDS_JA
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect();
    words.sort_by_key(|word| std::cmp::Reverse(word.chars().count()));
    words
});

/// What a payload says, in the forms the checks compare with.
#[derive(Debug, Default)]
pub(crate) struct Facts {
    /// Every number, normalized (`1204`, `3.5`, `27`).
    numbers: HashSet<String>,
    /// Every string and key, verbatim, one per line.
    text: String,
    /// The same, lowercased with full-width forms folded.
    folded: String,
    /// The stems of every Latin word.
    stems: HashSet<String>,
    /// Every pair of adjacent kana or kanji characters.
    bigrams: HashSet<(char, char)>,
    /// The evidence ids.
    pub(crate) ids: HashSet<String>,
    /// The payload's items, projects and totals, for the binding checks.
    pub(crate) index: crate::binding::Index,
}

impl Facts {
    /// The facts of a payload.
    pub(crate) fn of(payload: &Value) -> Facts {
        let mut facts = Facts::default();
        facts.walk(payload, None);
        facts.folded = fold(&facts.text).to_lowercase();
        facts.index = crate::binding::Index::of(payload);
        facts
    }

    fn walk(&mut self, value: &Value, key: Option<&str>) {
        match value {
            Value::Object(map) => {
                for (key, value) in map {
                    self.text.push_str(key);
                    self.text.push('\n');
                    self.add_words(&fold(key));
                    self.walk(value, Some(key));
                }
            }
            Value::Array(items) => items.iter().for_each(|item| self.walk(item, key)),
            Value::String(text) => {
                self.text.push_str(text);
                self.text.push('\n');
                let folded = fold(text);
                self.add_words(&folded);
                if key == Some("id") {
                    // Ids are evidence, not facts: the digits of a hash or a session id are
                    // no number the model may quote.
                    self.ids.insert(text.clone());
                    return;
                }
                for number in numbers_in(&folded) {
                    self.numbers.insert(number);
                }
            }
            Value::Number(number) => {
                let number = number.to_string();
                self.text.push_str(&number);
                self.text.push('\n');
                if let Some(number) = normalize_number(&number) {
                    self.numbers.insert(number);
                }
            }
            Value::Bool(_) | Value::Null => {}
        }
    }

    /// The stems and kana/kanji bigrams of already folded text.
    fn add_words(&mut self, folded: &str) {
        for word in folded.split(|c: char| !c.is_alphanumeric()).filter(|word| !word.is_empty()) {
            if word.bytes().any(|byte| byte.is_ascii_alphabetic()) {
                self.stems.insert(stem(word));
            }
        }
        if folded.is_ascii() {
            return;
        }
        let mut previous = None;
        for c in folded.chars() {
            if let Some(before) = previous.filter(|&before| is_cjk(before) && is_cjk(c)) {
                self.bigrams.insert((before, c));
            }
            previous = Some(c);
        }
    }

    fn has_number(&self, token: &str) -> bool {
        normalize_number(token).is_some_and(|number| self.numbers.contains(&number))
    }
}

/// Why a sentence was dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum SentenceFault {
    /// A number that is not among the payload's numbers.
    Number,
    /// An identifier-like token the payload does not hold.
    Identifier,
    /// A URL, e-mail address or path the payload does not hold verbatim.
    Url,
    /// Quoted or backticked text the payload does not hold.
    Quote,
    /// Most content words are not in the payload.
    Unsupported,
    /// A structured sentence that cites no evidence id.
    NoEvidence,
    /// A structured sentence citing an id the payload does not hold.
    UnknownEvidence,
    /// A project, agent or word that belongs to other items than the ones the sentence
    /// cites or names.
    Attribution,
    /// A count next to its unit that is not the count of what the sentence names.
    Count,
    /// A denial or absence the data contradicts or cannot check.
    Negation,
    /// A comparison with other days, a trend or a habit the one window cannot hold.
    Scope,
    /// An outcome (passing, deployed, merged…) the data does not show.
    Outcome,
    /// A ticket key the payload does not hold, or not in what the sentence cites.
    Ticket,
}

impl SentenceFault {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            SentenceFault::Number => "number",
            SentenceFault::Identifier => "identifier",
            SentenceFault::Url => "url",
            SentenceFault::Quote => "quote",
            SentenceFault::Unsupported => "unsupported",
            SentenceFault::NoEvidence => "no_evidence",
            SentenceFault::UnknownEvidence => "unknown_evidence",
            SentenceFault::Attribution => "attribution",
            SentenceFault::Count => "count",
            SentenceFault::Negation => "negation",
            SentenceFault::Scope => "scope",
            SentenceFault::Outcome => "outcome",
            SentenceFault::Ticket => "ticket",
        }
    }
}

/// Why a whole reply was rejected (worded by `render`).
pub(crate) use report_model::Rejection;

/// Splits text into sentences: after `.`, `!` or `?` followed by a space or the end, after
/// `。`, `！`, `？` and at every newline. Each sentence keeps its end mark; none is empty.
pub(crate) fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((idx, c)) = chars.next() {
        let next = chars.peek().map(|&(_, next)| next);
        let end = match c {
            '\n' => Some(idx),
            '。' | '！' | '？' => Some(idx + c.len_utf8()),
            '.' | '!' | '?' if next.is_none_or(char::is_whitespace) => Some(idx + c.len_utf8()),
            _ => None,
        };
        if let Some(end) = end {
            let piece = text[start..end].trim();
            if !piece.is_empty() {
                out.push(piece);
            }
            start = end;
        }
    }
    let piece = text[start..].trim();
    if !piece.is_empty() {
        out.push(piece);
    }
    out
}

/// The faults of one sentence against `facts`; `lexical` also runs the content-word check.
pub(crate) fn check_sentence(sentence: &str, facts: &Facts, lexical: bool) -> Vec<SentenceFault> {
    let folded = fold(sentence);
    let mut faults = Vec::new();
    let mut fault = |fault: SentenceFault| {
        if !faults.contains(&fault) {
            faults.push(fault);
        }
    };
    // Quoted and backticked text.
    let mut rest = folded.clone();
    for (open, close) in [('`', '`'), ('"', '"'), ('“', '”')] {
        let mut out = String::with_capacity(rest.len());
        let mut remaining = rest.as_str();
        while let Some(start) = remaining.find(open) {
            let after = &remaining[start + open.len_utf8()..];
            let Some(end) = after.find(close) else { break };
            let quoted = after[..end].trim();
            if !quoted.is_empty() && !facts.folded.contains(&quoted.to_lowercase()) {
                fault(SentenceFault::Quote);
            }
            out.push_str(&remaining[..start]);
            out.push(' ');
            out.push_str(&after[..end]);
            out.push(' ');
            remaining = &after[end + close.len_utf8()..];
        }
        out.push_str(remaining);
        rest = out;
    }
    let mut content = 0_usize;
    let mut supported = 0_usize;
    for token in latin_tokens(&rest) {
        match classify(token) {
            Token::Url => {
                // Verbatim, but a full-width form in the payload counts (the token is folded,
                // and folding leaves its characters as they are).
                if !fold(&facts.text).contains(token) {
                    fault(SentenceFault::Url);
                }
            }
            Token::Number => {
                if !number_parts(token).iter().all(|part| facts.has_number(part)) {
                    fault(SentenceFault::Number);
                }
            }
            Token::Identifier => {
                if !facts.folded.contains(&token.to_lowercase()) {
                    fault(SentenceFault::Identifier);
                }
            }
            Token::Words => {
                let whole = token.to_lowercase();
                let known = facts.folded.contains(&whole);
                for word in whole.split(['-', '\'', '’']).filter(|word| word.len() > 1) {
                    let stemmed = stem(word);
                    if EN_STOP.contains(&stemmed) {
                        continue;
                    }
                    content += 1;
                    if known || facts.stems.contains(&stemmed) {
                        supported += 1;
                    }
                }
            }
            Token::Other => {}
        }
    }
    for unit in cjk_units(&folded) {
        content += 1;
        let chars: Vec<char> = unit.chars().collect();
        if chars.windows(2).any(|pair| facts.bigrams.contains(&(pair[0], pair[1]))) {
            supported += 1;
        }
    }
    if lexical && supported * 2 < content {
        fault(SentenceFault::Unsupported);
    }
    faults.sort();
    faults
}

/// The whole-reply checks that look at the text alone: structure, language, repetition
/// and an echo of the instructions. `capped` says the text was cut at the output cap.
pub(crate) fn check_reply(
    text: &str,
    lang: Lang,
    capped: bool,
    instructions: &[&str],
) -> Option<Rejection> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Some(Rejection::Empty);
    }
    if looks_like_json(trimmed) {
        return Some(Rejection::JsonDump);
    }
    if let Some(rejection) = structure(text) {
        return Some(rejection);
    }
    if wrong_language(trimmed, lang) {
        return Some(Rejection::WrongLanguage);
    }
    if repeats(trimmed, capped) {
        return Some(Rejection::Repetition);
    }
    if echoes(trimmed, instructions) {
        return Some(Rejection::InstructionEcho);
    }
    None
}

/// A JSON object or array, or text that is mostly `"key": value` pairs.
fn looks_like_json(text: &str) -> bool {
    if (text.starts_with('{') || text.starts_with('['))
        && serde_json::from_str::<Value>(text).is_ok()
    {
        return true;
    }
    if text.starts_with('{') && text.contains("\":") {
        return true;
    }
    text.matches("\":").count() >= 3
}

/// Code or block markup instead of prose.
fn structure(text: &str) -> Option<Rejection> {
    let mut code_like_lines = 0;
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        let body = line.trim_start();
        if body.starts_with("```")
            || body.starts_with("~~~")
            || line.starts_with('\t')
            || indent >= 4
        {
            return Some(Rejection::Code);
        }
        if body.ends_with('{') || body.ends_with(';') || body == "}" || body.starts_with("});") {
            code_like_lines += 1;
        }
        let heading = body.trim_start_matches('#');
        let hashes = body.len() - heading.len();
        let ordered = body.trim_start_matches(|c: char| c.is_ascii_digit());
        let digits = body.len() - ordered.len();
        let marker = (1..=6).contains(&hashes) && (heading.is_empty() || heading.starts_with(' '))
            || ["- ", "* ", "+ ", "• ", "> "].iter().any(|marker| body.starts_with(marker))
            || body == "-"
            || body == ">"
            || (digits > 0
                && digits < 10
                && (ordered.starts_with(". ") || ordered.starts_with(") ")))
            || body.starts_with('|')
            || body.matches('|').count() >= 2
            || (body.len() >= 3 && body.chars().all(|c| c == '=' || c == '-' || c == ' '))
            || body.starts_with('<');
        if marker {
            return Some(Rejection::Markup);
        }
    }
    (code_like_lines >= 2).then_some(Rejection::Code)
}

/// A `ja` report needs a kana/kanji majority, an `en` report must not have one (each Latin
/// word and each kana or kanji character counts one).
fn wrong_language(text: &str, lang: Lang) -> bool {
    let cjk = text.chars().filter(|&c| is_cjk(c)).count();
    let latin =
        latin_tokens(text).filter(|token| token.chars().any(|c| c.is_ascii_alphabetic())).count();
    match lang {
        Lang::Ja => cjk <= latin,
        Lang::En => cjk > latin,
    }
}

/// The Latin words of `text`, lowercased, and its characters without spaces.
fn words_and_chars(text: &str) -> (Vec<String>, Vec<char>) {
    let words = text
        .split(|c: char| !c.is_alphanumeric() || is_cjk(c))
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect();
    let chars = text.chars().filter(|c| !c.is_whitespace()).collect();
    (words, chars)
}

/// A run of 6 words (or 16 characters of Japanese) occurring three times, or the output cap
/// reached inside a run that occurred before.
fn repeats(text: &str, capped: bool) -> bool {
    let text = text.trim_end_matches('…');
    let (words, chars) = words_and_chars(text);
    let has_cjk = chars.iter().any(|&c| is_cjk(c));
    let word_grams = count_grams(&words, REPEAT_WORDS);
    if word_grams.values().any(|&n| n >= 3) {
        return true;
    }
    let char_grams = if has_cjk { count_grams(&chars, REPEAT_CHARS) } else { HashMap::new() };
    if char_grams.values().any(|&n| n >= 3) {
        return true;
    }
    if capped {
        let last_words = words.len().checked_sub(REPEAT_WORDS).map(|start| &words[start..]);
        if last_words.is_some_and(|gram| word_grams.get(gram).is_some_and(|&n| n >= 2)) {
            return true;
        }
        let last_chars = chars.len().checked_sub(REPEAT_CHARS).map(|start| &chars[start..]);
        if last_chars.is_some_and(|gram| char_grams.get(gram).is_some_and(|&n| n >= 2)) {
            return true;
        }
    }
    false
}

fn count_grams<T: std::hash::Hash + Eq>(items: &[T], n: usize) -> HashMap<&[T], usize> {
    let mut counts = HashMap::new();
    if items.len() >= n {
        for gram in items.windows(n) {
            *counts.entry(gram).or_insert(0) += 1;
        }
    }
    counts
}

/// Any 8-word run (or 16 kana/kanji characters in a row) of the instructions.
fn echoes(text: &str, instructions: &[&str]) -> bool {
    let (words, _) = words_and_chars(text);
    let cjk: Vec<char> = text.chars().filter(|&c| is_cjk(c)).collect();
    let reply_words: HashSet<&[String]> = words.windows(ECHO_WORDS).collect();
    let reply_chars: HashSet<&[char]> = cjk.windows(ECHO_CHARS).collect();
    for instruction in instructions {
        let (prompt_words, _) = words_and_chars(instruction);
        if prompt_words.windows(ECHO_WORDS).any(|gram| reply_words.contains(gram)) {
            return true;
        }
        let prompt_cjk: Vec<char> = instruction.chars().filter(|&c| is_cjk(c)).collect();
        if prompt_cjk.windows(ECHO_CHARS).any(|gram| reply_chars.contains(gram)) {
            return true;
        }
    }
    false
}

/// What a Latin-script token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Token {
    Url,
    Number,
    Identifier,
    Words,
    Other,
}

/// The whitespace- and CJK-separated tokens of folded text, with surrounding punctuation
/// trimmed.
pub(crate) fn latin_tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || is_cjk(c) || is_cjk_punctuation(c))
        .map(|token| {
            let token =
                token.trim_start_matches(['(', '[', '{', '\'', '‘', '«', '<', '*', '#', '~']);
            token.trim_end_matches([
                '.', ',', ';', ':', '!', '?', ')', ']', '}', '\'', '’', '»', '>', '…', '*', '~',
            ])
        })
        .filter(|token| !token.is_empty())
}

pub(crate) fn classify(token: &str) -> Token {
    let has_digit = token.chars().any(|c| c.is_ascii_digit());
    let has_letter = token.chars().any(char::is_alphabetic);
    if token.contains("://") || token.starts_with("www.") {
        return Token::Url;
    }
    if token.starts_with('/') && token.len() > 1
        || token.starts_with("~/")
        || token.starts_with("./")
        || token.starts_with("../")
    {
        return Token::Url;
    }
    if let Some((user, domain)) = token.split_once('@') {
        if !user.is_empty() && domain.contains('.') && !domain.starts_with('.') {
            return Token::Url;
        }
    }
    if has_digit && !has_letter {
        let numeric = token.trim_start_matches(['+', '-', '−', '±']).trim_end_matches('%');
        if numeric.chars().all(|c| c.is_ascii_digit() || ",._:/-".contains(c)) {
            return Token::Number;
        }
        return Token::Identifier;
    }
    if has_digit {
        // Ordinals (`2nd`) are numbers.
        let digits = token.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let suffix = &token[digits.len()..];
        if digits.chars().all(|c| c.is_ascii_digit())
            && ["st", "nd", "rd", "th"].contains(&suffix.to_ascii_lowercase().as_str())
        {
            return Token::Number;
        }
        return Token::Identifier;
    }
    if !has_letter {
        return Token::Other;
    }
    let chars: Vec<char> = token.chars().collect();
    let joined = chars
        .windows(3)
        .any(|w| w[0].is_alphanumeric() && "_/.:@".contains(w[1]) && w[2].is_alphanumeric());
    if joined {
        // `e.g`, `i.e`: single letters joined by dots are abbreviations, not identifiers.
        let abbreviation = token.split('.').all(|part| part.chars().count() <= 1);
        return if abbreviation { Token::Other } else { Token::Identifier };
    }
    if !chars.iter().any(char::is_ascii_alphabetic) {
        // Letters, none of them Latin (Cyrillic, Hangul…): not content words.
        return Token::Other;
    }
    Token::Words
}

/// The number values a numeric token stands for: `1,204` is one, `2026-11-27` and `10:30`
/// are their parts, `3rd` is 3.
fn number_parts(token: &str) -> Vec<String> {
    let token = token.trim_start_matches(['+', '±']).trim_end_matches('%');
    let token = token.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let token = token.strip_prefix(['-', '−']).unwrap_or(token);
    let thousands = {
        let integer = token.split('.').next().unwrap_or("");
        let groups: Vec<&str> = integer.split(',').collect();
        groups.len() > 1
            && (1..=3).contains(&groups[0].len())
            && groups[1..].iter().all(|group| group.len() == 3)
    };
    if thousands {
        return vec![token.replace(',', "")];
    }
    token
        .split(['-', '−', ':', '/', ',', '_'])
        .filter(|part| !part.is_empty())
        .flat_map(|part| {
            // `1.2.3` is three numbers, `3.5` one.
            if part.matches('.').count() > 1 {
                part.split('.').map(str::to_owned).collect::<Vec<_>>()
            } else {
                vec![part.trim_end_matches('.').to_owned()]
            }
        })
        .filter(|part| !part.is_empty())
        .collect()
}

/// The numbers inside a string of the payload: every digit run, and decimals as such.
fn numbers_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut idx = 0;
    while idx < chars.len() {
        if !chars[idx].is_ascii_digit() {
            idx += 1;
            continue;
        }
        let start = idx;
        while idx < chars.len()
            && (chars[idx].is_ascii_digit()
                || chars[idx] == ',' && chars.get(idx + 1).is_some_and(char::is_ascii_digit))
        {
            idx += 1;
        }
        let integer: String = chars[start..idx].iter().collect();
        for part in integer.split(',') {
            out.extend(normalize_number(part));
        }
        out.extend(normalize_number(&integer.replace(',', "")));
        if chars.get(idx) == Some(&'.') && chars.get(idx + 1).is_some_and(char::is_ascii_digit) {
            let mut end = idx + 1;
            while end < chars.len() && chars[end].is_ascii_digit() {
                end += 1;
            }
            let decimal: String = chars[start..end].iter().filter(|&&c| c != ',').collect();
            out.extend(normalize_number(&decimal));
        }
    }
    out
}

/// A number as digits without sign, leading zeros or trailing decimal zeros.
pub(crate) fn normalize_number(text: &str) -> Option<String> {
    let text = text.trim().trim_start_matches(['+', '-', '−']);
    let (integer, fraction) = text.split_once('.').unwrap_or((text, ""));
    if integer.is_empty() && fraction.is_empty()
        || !integer.chars().all(|c| c.is_ascii_digit())
        || !fraction.chars().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let integer = integer.trim_start_matches('0');
    let integer = if integer.is_empty() { "0" } else { integer };
    let fraction = fraction.trim_end_matches('0');
    Some(if fraction.is_empty() { integer.to_owned() } else { format!("{integer}.{fraction}") })
}

/// The content units of the Japanese parts of `text`: runs of kanji and runs of katakana,
/// with the stop words taken out, of two characters or more.
pub(crate) fn cjk_units(text: &str) -> Vec<String> {
    let mut units = Vec::new();
    let mut run = String::new();
    let mut kind = None;
    let flush = |run: &mut String, units: &mut Vec<String>| {
        if run.is_empty() {
            return;
        }
        let mut rest = std::mem::take(run);
        for word in JA_STOP.iter() {
            if rest.contains(word) {
                rest = rest.replace(word, " ");
            }
        }
        units.extend(rest.split(' ').filter(|unit| unit.chars().count() >= 2).map(str::to_owned));
    };
    for c in text.chars() {
        let this = if is_kanji(c) {
            Some(1)
        } else if is_katakana(c) {
            Some(2)
        } else {
            None
        };
        if this != kind {
            flush(&mut run, &mut units);
            kind = this;
        }
        if this.is_some() {
            run.push(c);
        }
    }
    flush(&mut run, &mut units);
    units
}

/// A small suffix-stripping stemmer: `investigated` ~ `Investigate`, `rounded` ~ `round`,
/// `validates` ~ `validate`, `committed` ~ `commit`, `studies` ~ `study`.
pub(crate) fn stem(word: &str) -> String {
    const SUFFIXES: [(&str, &str); 12] = [
        ("ational", "ate"),
        ("ations", "ate"),
        ("ation", "ate"),
        ("ies", "i"),
        ("ied", "i"),
        ("ings", ""),
        ("ing", ""),
        ("edly", ""),
        ("ers", ""),
        ("er", ""),
        ("ed", ""),
        ("ly", ""),
    ];
    let mut word = word.to_lowercase();
    if let Some(base) = word.strip_suffix("'s").or_else(|| word.strip_suffix("’s")) {
        word = base.to_owned();
    }
    let mut stripped = false;
    for (suffix, replacement) in SUFFIXES {
        if let Some(base) = word.strip_suffix(suffix) {
            if base.chars().count() >= 3 {
                word = format!("{base}{replacement}");
                stripped = true;
                break;
            }
        }
    }
    if !stripped && word.ends_with('s') && !word.ends_with("ss") && word.chars().count() > 3 {
        word.pop();
    }
    if word.ends_with('e') && word.chars().count() > 3 {
        word.pop();
    }
    if word.ends_with('y') && word.chars().count() > 3 {
        word.pop();
        word.push('i');
    }
    let mut chars: Vec<char> = word.chars().collect();
    if chars.len() > 3
        && chars[chars.len() - 1] == chars[chars.len() - 2]
        && chars[chars.len() - 1].is_ascii_alphabetic()
    {
        chars.pop();
    }
    chars.into_iter().collect()
}

/// Full-width ASCII forms as ASCII, the ideographic space as a space, the minus sign as `-`.
pub(crate) fn fold(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            '\u{2212}' => '-',
            other => other,
        })
        .collect()
}

fn is_kanji(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}' | '々')
}

fn is_katakana(c: char) -> bool {
    matches!(c, '\u{30A1}'..='\u{30FA}' | 'ー' | '\u{31F0}'..='\u{31FF}' | '\u{FF66}'..='\u{FF9F}')
}

fn is_hiragana(c: char) -> bool {
    matches!(c, '\u{3041}'..='\u{309F}')
}

/// Kana or kanji.
pub(crate) fn is_cjk(c: char) -> bool {
    is_kanji(c) || is_katakana(c) || is_hiragana(c)
}

fn is_cjk_punctuation(c: char) -> bool {
    matches!(c, '\u{3001}'..='\u{303F}' | '\u{30FB}' | '\u{FF0C}' | '\u{FF0E}')
}

#[cfg(test)]
mod tests;
