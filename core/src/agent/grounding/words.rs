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
pub(super) const GENERIC: &[&str] = &[
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
/// fraction, `4.5%` as `0.045`), those written in words (`two`, `twenty-five`, `a
/// thousand`, see [`numbers_in_words`]), the
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
    let words = words(text);
    out.extend(numbers_in_words(&words).into_iter().map(f64::from));
    for word in &words {
        if let Some((_, counts)) = COUNTS.iter().find(|(w, _)| w == word) {
            out.extend_from_slice(counts);
        }
    }
    out
}

/// The numbers from zero to nineteen, each at its value.
const UNITS: [&str; 20] = [
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
];

/// The tens from twenty to ninety.
const TENS: [&str; 8] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

/// The numbers written in words among `words` (as [`words`] splits them, so that
/// `twenty-five` is `twenty`, `five`), each run of number words that makes one number read
/// as that number: `seven`, `twenty five`, `a hundred and five`, `nineteen hundred
/// eighty-four`, `two thousand three hundred`; below a million. Two numbers that make no
/// number together (`two three`) are read apart.
fn numbers_in_words(words: &[String]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(rest) = words.get(at..).filter(|rest| !rest.is_empty()) {
        match number_at(rest) {
            Some((n, used)) => {
                out.push(n);
                at += used;
            }
            None => at += 1,
        }
    }
    out
}

/// The number written in words at the start of `words`, and how many words it takes:
/// `[hundreds] [thousand [and] [hundreds below a thousand]]`, where `a thousand` is one.
fn number_at(words: &[String]) -> Option<(u32, usize)> {
    let (count, used) = up_to_hundreds(words).or_else(|| one_as_a(words, "thousand"))?;
    if !(1..1000).contains(&count) || !is(words, used, "thousand") {
        return Some((count, used));
    }
    let used = used + 1;
    let rest = and_then(words, used, up_to_hundreds).filter(|(rest, _)| *rest < 1000);
    Some(match rest {
        Some((rest, more)) => (count * 1000 + rest, used + more),
        None => (count * 1000, used),
    })
}

/// The number below ten thousand written at the start of `words` (hundreds and what
/// follows them), and how many words it takes: `[below a hundred] [hundred [and] [below a hundred]]`, where `a hundred` is
/// one and `nineteen hundred` is 1900.
fn up_to_hundreds(words: &[String]) -> Option<(u32, usize)> {
    let (count, used) = below_hundred(words).or_else(|| one_as_a(words, "hundred"))?;
    if !(1..100).contains(&count) || !is(words, used, "hundred") {
        return Some((count, used));
    }
    let used = used + 1;
    Some(match and_then(words, used, below_hundred) {
        Some((rest, more)) => (count * 100 + rest, used + more),
        None => (count * 100, used),
    })
}

/// The number below a hundred written at the start of `words`, and how many words it
/// takes: a unit or a teen (`seven`, `twelve`), or tens and a unit (`twenty`, `twenty
/// five`).
fn below_hundred(words: &[String]) -> Option<(u32, usize)> {
    let position = |table: &[&str], word: Option<&String>| {
        let word = word?;
        table
            .iter()
            .position(|w| w == word)
            .and_then(|n| u32::try_from(n).ok())
    };
    if let Some(unit) = position(&UNITS, words.first()) {
        return Some((unit, 1));
    }
    let tens = 20 + 10 * position(&TENS, words.first())?;
    Some(match position(&UNITS, words.get(1)) {
        Some(unit @ 1..=9) => (tens + unit, 2),
        _ => (tens, 1),
    })
}

/// `a hundred`, `a thousand`: the count one, of the word `a`, before `scale`.
fn one_as_a(words: &[String], scale: &str) -> Option<(u32, usize)> {
    (is(words, 0, "a") && is(words, 1, scale)).then_some((1, 1))
}

/// What `read` reads at `at` in `words`, or after an `and` there (`a hundred and five`).
fn and_then(
    words: &[String],
    at: usize,
    read: impl Fn(&[String]) -> Option<(u32, usize)>,
) -> Option<(u32, usize)> {
    let and = usize::from(is(words, at, "and"));
    let (n, used) = read(words.get(at + and..)?)?;
    Some((n, and + used))
}

/// Whether the word at `at` is `word`.
fn is(words: &[String], at: usize, word: &str) -> bool {
    words.get(at).is_some_and(|w| w == word)
}

/// Whether a name is written the way functions are named, not as a phrase or a value:
/// one ASCII identifier beginning with a letter, and either one word in lower case
/// (`wine`) or joined from several: by `_` (`cancel_subscription`), in camel case
/// beginning in lower case (`getDayOfWeek`) or with two capitals inside (`HassTurnOn`),
/// or by `.` or `-` between parts that begin in lower case (`chemistry.boiling_point`).
/// `Road Trip`, `Chardonnay`, `ETF`, `YouTube`, `COVID-19`, `A-100`, `Lisbon.` and `上海`
/// are not: a model that writes a value of the request or its own answer where the name
/// goes has not named a function.
pub(super) fn names_a_function(name: &str) -> bool {
    let identifier = name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
    if !identifier {
        return false;
    }
    let one_lower_word = name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    let humps = name
        .chars()
        .zip(name.chars().skip(1))
        .filter(|(a, b)| a.is_ascii_lowercase() && b.is_ascii_uppercase())
        .count();
    let camel = humps > 0 && (name.starts_with(|c: char| c.is_ascii_lowercase()) || humps >= 2);
    let dotted = name.contains(['.', '-'])
        && name
            .split(['.', '-'])
            .all(|part| part.starts_with(|c: char| c.is_ascii_lowercase()));
    one_lower_word || name.contains('_') || camel || dotted
}

/// The start of `text` up to the end of its sentence, clause or bracket: a `;`, a `)`, a
/// line break, or a `.` followed by a space or by nothing. A `.` inside a word or number
/// goes on (`0.5`, `example.com`, `U.S.A`), so `default 0.5. Use…` ends after `0.5`.
/// What a description states (a default, an example) is read up to here.
pub(super) fn sentence(text: &str) -> &str {
    let mut end = text.len();
    for (i, c) in text.char_indices() {
        let next = text[i + c.len_utf8()..].chars().next();
        let stop = match c {
            ')' | ';' | '\n' => true,
            '.' => next.is_none_or(char::is_whitespace),
            _ => false,
        };
        if stop {
            end = i;
            break;
        }
    }
    &text[..end]
}

#[cfg(test)]
mod tests;
