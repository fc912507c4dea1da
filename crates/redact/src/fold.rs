//! Folding look-alike characters to the ASCII they imitate, so that `pаssword` (with a
//! Cyrillic `а`) or a full-width `ｇｈｐ＿…` token meet the rules.
//!
//! Every folded character is one character (one for one, so a match in the folded text
//! maps back onto the original characters): the full-width forms U+FF01–U+FF5E and the
//! ideographic space, as NFKC folds them; the mathematical alphanumeric symbols
//! (`𝐩𝐚𝐬𝐬`, `𝚝𝚘𝚔𝚎𝚗`), likewise; and the Cyrillic and Greek letters that look like Latin
//! ones (a small map after Unicode's `confusables.txt`, Latin look-alikes only).

/// Cyrillic and Greek letters drawn like a Latin letter, and that letter. Sorted by the
/// first element.
const CONFUSABLES: &[(char, char)] = &[
    ('\u{0261}', 'g'), // ɡ LATIN SMALL LETTER SCRIPT G
    ('\u{0391}', 'A'),
    ('\u{0392}', 'B'),
    ('\u{0395}', 'E'),
    ('\u{0396}', 'Z'),
    ('\u{0397}', 'H'),
    ('\u{0399}', 'I'),
    ('\u{039a}', 'K'),
    ('\u{039c}', 'M'),
    ('\u{039d}', 'N'),
    ('\u{039f}', 'O'),
    ('\u{03a1}', 'P'),
    ('\u{03a4}', 'T'),
    ('\u{03a5}', 'Y'),
    ('\u{03a7}', 'X'),
    ('\u{03b1}', 'a'),
    ('\u{03b9}', 'i'),
    ('\u{03ba}', 'k'),
    ('\u{03bd}', 'v'),
    ('\u{03bf}', 'o'),
    ('\u{03c1}', 'p'),
    ('\u{03c5}', 'u'),
    ('\u{0405}', 'S'),
    ('\u{0406}', 'I'),
    ('\u{0408}', 'J'),
    ('\u{0410}', 'A'),
    ('\u{0412}', 'B'),
    ('\u{0415}', 'E'),
    ('\u{041a}', 'K'),
    ('\u{041c}', 'M'),
    ('\u{041d}', 'H'),
    ('\u{041e}', 'O'),
    ('\u{0420}', 'P'),
    ('\u{0421}', 'C'),
    ('\u{0422}', 'T'),
    ('\u{0423}', 'Y'),
    ('\u{0425}', 'X'),
    ('\u{0430}', 'a'),
    ('\u{0435}', 'e'),
    ('\u{043e}', 'o'),
    ('\u{0440}', 'p'),
    ('\u{0441}', 'c'),
    ('\u{0443}', 'y'),
    ('\u{0445}', 'x'),
    ('\u{0455}', 's'),
    ('\u{0456}', 'i'),
    ('\u{0458}', 'j'),
    ('\u{04bb}', 'h'),
    ('\u{04cf}', 'l'),
    ('\u{0501}', 'd'),
    ('\u{051a}', 'Q'),
    ('\u{051b}', 'q'),
    ('\u{051c}', 'W'),
    ('\u{051d}', 'w'),
];

/// The ASCII character `c` imitates, if any.
pub(crate) fn fold_char(c: char) -> Option<char> {
    let code = u32::from(c);
    let ascii = |offset: u32| char::from_u32(offset);
    match code {
        0..=0x7f => None,
        // Full-width ASCII.
        0xff01..=0xff5e => ascii(code - 0xfee0),
        0x3000 => Some(' '),
        // Mathematical alphanumeric symbols: 13 styles of A–Z a–z, then digits.
        0x1d400..=0x1d6a3 => {
            let letter = (code - 0x1d400) % 52;
            ascii(if letter < 26 {
                u32::from(b'A') + letter
            } else {
                u32::from(b'a') + letter - 26
            })
        }
        0x1d7ce..=0x1d7ff => ascii(u32::from(b'0') + (code - 0x1d7ce) % 10),
        _ => CONFUSABLES
            .binary_search_by_key(&c, |&(from, _)| from)
            .ok()
            .map(|idx| CONFUSABLES[idx].1),
    }
}

/// `text` with its look-alike characters folded, or `None` when it has none.
pub(crate) fn fold(text: &str) -> Option<String> {
    if text.is_ascii() {
        return None;
    }
    let first = text.char_indices().find(|&(_, c)| fold_char(c).is_some())?.0;
    let mut folded = String::with_capacity(text.len());
    folded.push_str(&text[..first]);
    folded.extend(text[first..].chars().map(|c| fold_char(c).unwrap_or(c)));
    Some(folded)
}

#[cfg(test)]
mod tests {
    use super::{CONFUSABLES, fold, fold_char};

    #[test]
    fn the_map_is_sorted_and_folds_to_ascii_letters() {
        assert!(CONFUSABLES.windows(2).all(|pair| pair[0].0 < pair[1].0));
        assert!(CONFUSABLES.iter().all(|&(from, to)| !from.is_ascii() && to.is_ascii_alphabetic()));
    }

    #[test]
    fn folds() {
        assert_eq!(fold("plain"), None);
        assert_eq!(fold("日本語のテキスト"), None);
        assert_eq!(fold("p\u{430}ssword").as_deref(), Some("password"));
        assert_eq!(fold("\u{ff47}\u{ff48}\u{ff50}\u{ff3f}x").as_deref(), Some("ghp_x"));
        assert_eq!(fold("日本\u{ff1a}\u{3000}x").as_deref(), Some("日本: x"));
        assert_eq!(fold("\u{1d429}\u{1d41a}\u{1d42c}\u{1d42c}").as_deref(), Some("pass"));
        assert_eq!(fold("\u{1d7ce}\u{1d7d7}\u{1d7ff}").as_deref(), Some("099"));
        assert_eq!(fold_char('\u{1d400}'), Some('A'));
        assert_eq!(fold_char('\u{1d433}'), Some('z'));
        assert_eq!(fold_char('\u{ff5e}'), Some('~'));
        assert_eq!(fold_char('\u{ff5f}'), None);
        assert_eq!(fold_char('\u{ff00}'), None);
        assert_eq!(fold_char('é'), None);
        assert_eq!(fold_char('\u{ff01}'), Some('!'));
        assert_eq!(fold_char('\u{1d6a3}'), Some('z'));
        assert_eq!(fold_char('\u{1d419}'), Some('Z'));
        assert_eq!(fold_char('\u{1d5a0}'), Some('A'));
        assert_eq!(fold_char('\u{1d5a1}'), Some('B'));
        assert_eq!(fold_char('\u{1d6a4}'), None);
        assert_eq!(fold_char('\u{1d7cd}'), None);
        assert_eq!(fold_char('\u{3001}'), None);
        assert_eq!(fold_char('\u{430}'), Some('a'));
        assert_eq!(fold_char('\u{431}'), None);
    }
}
