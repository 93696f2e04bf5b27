//! The words and numbers of a conversation and of tool names, as the grounding checks
//! compare them.

use std::collections::HashSet;

use serde_json::Value;

/// The most distinct words of a conversation the checks compare (a long tool result is
/// mostly not what a call's values come from).
const MAX_WORDS: usize = 4_096;

/// How much of a conversation's text, in bytes, a value written without spaces is looked
/// for in.
const MAX_TEXT: usize = 64 * 1024;

/// Words of tool names that say what kind of thing a tool does, not which.
const GENERIC: &[&str] = &[
    "add",
    "all",
    "and",
    "by",
    "calculate",
    "calculator",
    "check",
    "compute",
    "create",
    "data",
    "delete",
    "details",
    "fetch",
    "find",
    "for",
    "function",
    "get",
    "info",
    "list",
    "lookup",
    "make",
    "new",
    "of",
    "remove",
    "run",
    "search",
    "set",
    "show",
    "the",
    "to",
    "tool",
    "update",
];

/// The words of the namespace of a tool's name as its server spells it: what stands
/// before its last `.`, `/` or `:` (`home` of `home.set_lights`); none for a plain name.
pub(super) fn namespace_words(server: &str) -> Vec<String> {
    match server.rfind(['.', '/', ':']) {
        Some(end) => name_words(&server[..end]),
        None => Vec::new(),
    }
}

/// The words of a tool's name that say which tool it is: `math.gcd` → `math`, `gcd`;
/// `HassTurnOn` → `hass`, `turn`; words under three letters (`on`, `up`, `in`: every
/// sentence has them) and generic verbs and nouns (`get`, `list`) left out.
pub(super) fn name_words(name: &str) -> Vec<String> {
    let mut split = String::new();
    let mut previous = ' ';
    for c in name.chars() {
        if c.is_uppercase() && previous.is_lowercase() {
            split.push(' ');
        }
        split.push(c);
        previous = c;
    }
    words(&split)
        .into_iter()
        .filter(|w| w.chars().count() >= 3 && !GENERIC.contains(&w.as_str()))
        .collect()
}

/// Two words are the same when equal, or, both of four letters or more, when one begins
/// the other (`triangle` and `triangles`, `convert` and `converter`).
pub(super) fn same_word(a: &str, b: &str) -> bool {
    if a.chars().count() < 4 || b.chars().count() < 4 {
        a == b
    } else {
        a.starts_with(b) || b.starts_with(a)
    }
}

/// The strings and numbers of a value, booleans and nulls left out.
pub(super) fn leaves(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::String(s) if !s.trim().is_empty() => out.push(value.clone()),
        Value::Number(_) => out.push(value.clone()),
        Value::Array(items) => items.iter().for_each(|v| leaves(v, out)),
        Value::Object(map) => map.values().for_each(|v| leaves(v, out)),
        _ => {}
    }
}

/// The distinct words of text in the order they first appear, at most [`MAX_WORDS`] of
/// them: what is cut is what the text holds last.
pub(super) fn words_bounded(text: &str) -> Vec<String> {
    first_seen(words(text))
}

/// Each of `items` once, in the order they first appear, at most [`MAX_WORDS`] of them.
fn first_seen(items: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut seen = HashSet::new();
    items
        .into_iter()
        .filter(|item| seen.insert(item.clone()))
        .take(MAX_WORDS)
        .collect()
}

/// The start of `text`, at most [`MAX_TEXT`] bytes of it (cut between two chars),
/// lowercased as [`words`] are.
pub(super) fn text_bounded(text: &str) -> String {
    text[..text.floor_char_boundary(MAX_TEXT)].to_lowercase()
}

/// Whether a word is written in a script that puts no spaces between words (Chinese,
/// Japanese, Thai, Lao, Khmer, Myanmar, Tibetan): to [`words`], a sentence of such a
/// script is one word ("明天上海天气怎么样"), so a value in it is looked for as a part of
/// the text instead ("上海").
pub(super) fn unspaced(word: &str) -> bool {
    word.chars().any(|c| {
        matches!(
            u32::from(c),
            0x0E00..=0x0FFF // Thai, Lao, Tibetan
                | 0x1000..=0x109F // Myanmar
                | 0x1780..=0x17FF // Khmer
                | 0x3040..=0x30FF // Hiragana, Katakana
                | 0x31F0..=0x31FF // Katakana phonetic extensions
                | 0x3400..=0x4DBF // CJK unified ideographs, extension A
                | 0x4E00..=0x9FFF // CJK unified ideographs
                | 0xF900..=0xFAFF // CJK compatibility ideographs
                | 0xFF66..=0xFF9F // Halfwidth katakana
                | 0x20000..=0x3134F // CJK unified ideographs, extensions B to G
        )
    })
}

/// The initials of two to four words in a row within one phrase (`au` of "in
/// astronomical units"; never across a mark or a line, so that two sentences or two
/// messages make none together), each once in the order they first appear, at most
/// [`MAX_WORDS`] of them.
pub(super) fn initials(text: &str) -> Vec<String> {
    let all = text
        .split(|c: char| !(c.is_alphanumeric() || c == ' ' || c == '\t'))
        .flat_map(|phrase| {
            let firsts: Vec<Option<char>> = words(phrase)
                .iter()
                .map(|w| w.chars().next().filter(|c| c.is_alphabetic()))
                .collect();
            (2..=4)
                .flat_map(|n| {
                    firsts
                        .windows(n)
                        .filter_map(|window| window.iter().copied().collect::<Option<String>>())
                        .collect::<Vec<_>>()
                })
                .collect::<Vec<_>>()
        });
    first_seen(all)
}

/// Lowercase words of letters and digits.
pub(super) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The numbers written in digits (`3.5`, `250,000`, `-4`; a percentage also as its
/// fraction, `4.5%` as `0.045`), the small ones written in words (`two`, `twelve`), the
/// counts a year that words of frequency stand for (`quarterly` is 4), and the counts
/// that words of time and quantity hold (an `hour` is 60 minutes, a `week` 7 days, a
/// `dozen` 12).
pub(super) fn numbers(text: &str) -> Vec<f64> {
    const COUNTS: [(&str, &[f64]); 17] = [
        ("daily", &[365.0]),
        ("weekly", &[52.0]),
        ("monthly", &[12.0]),
        ("quarterly", &[4.0]),
        ("yearly", &[1.0]),
        ("annually", &[1.0]),
        ("twice", &[2.0]),
        ("thrice", &[3.0]),
        ("hour", &[60.0]),
        ("day", &[24.0]),
        ("week", &[7.0]),
        ("fortnight", &[14.0]),
        ("year", &[12.0, 365.0]),
        ("dozen", &[12.0]),
        ("couple", &[2.0]),
        ("pair", &[2.0]),
        ("half", &[0.5]),
    ];

    const SMALL: [&str; 21] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    let mut out = Vec::new();
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut Vec<f64>, percent: bool| {
        let trimmed = digits.trim_end_matches(['.', ',']);
        if let Ok(n) = trimmed.replace(',', "").parse::<f64>() {
            out.push(n);
            if percent {
                out.push(n / 100.0);
            }
        }
        digits.clear();
    };
    let mut previous = ' ';
    for c in text.chars() {
        let sign = c == '-' && digits.is_empty() && !previous.is_alphanumeric();
        if c.is_ascii_digit() || sign || (!digits.is_empty() && (c == '.' || c == ',')) {
            digits.push(c);
        } else if !digits.is_empty() {
            flush(&mut digits, &mut out, c == '%');
        }
        previous = c;
    }
    if !digits.is_empty() {
        flush(&mut digits, &mut out, false);
    }
    for word in words(text) {
        if let Some(n) = SMALL.iter().position(|w| *w == word) {
            out.push(n as f64);
        }
        if let Some((_, counts)) = COUNTS.iter().find(|(w, _)| *w == word) {
            out.extend_from_slice(counts);
        }
    }
    out
}
