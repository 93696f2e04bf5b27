//! A value written with formatting separators between its own characters:
//! `+47 912 34 567`, `+1 (415) 555-0134`, `DE89 3704 0044 0532 0130 00`, `U2 8315`.
//!
//! Removing them changes no character the model chose, so coercion takes this reading
//! where the value then fits its pattern (`coerce/separators.rs`), and the advice of a
//! pattern violation offers it where coercion is off (`near_match.rs`). What counts as a
//! separator is narrow, because a mark between digits may be part of the value: a single
//! `.` is a decimal point and a `,` a thousands mark (`1.5` is never `15`, `1,000` never
//! `1000`), a `-` before a number is its sign, and words between numbers make text, not a
//! formatted code.

/// Values longer than this are not read: a phone, an account or a card number is shorter.
pub(crate) const MAX_CHARS: usize = 64;

/// Two groups joined by one `-` or `/` with fewer digits than this are a range or a
/// fraction (`10-20`, `1/2`), not a number written in groups (`555-0134`).
const MIN_DIGITS_OF_A_PAIR: usize = 7;

/// `found` without the separators between its characters, where it is a value written
/// in groups: `+47 912 34 567` → `+4791234567`, `(415) 555-0134` → `4155550134`.
///
/// After trimming, a separator is a run of spaces with at most one mark (`-`, `/`, or `.`
/// where the value has two dots or more), and brackets around a group of digits (`(415)`;
/// not `(0)`, a trunk prefix that is dropped, not kept); each run stands between two
/// letters or digits, save the bracket opening the value. None when nothing is removed;
/// when a run stands anywhere else (`-5`, `+ 47`); when a bracket encloses anything else,
/// or the value holds a `,` or a single `.`; when fewer than half the characters left are
/// digits; when a group is a word (three letters or more: `call 555 0134`); and for two
/// groups of digits joined by one `-` or `/` with fewer than seven digits (`10-20`).
pub(crate) fn without_separators(found: &str) -> Option<String> {
    let chars: Vec<char> = found.trim().chars().collect();
    if chars.len() > MAX_CHARS || chars.contains(&',') {
        return None;
    }
    let dots = chars.iter().filter(|&&c| c == '.').count();
    if dots == 1 {
        return None;
    }
    let brackets = bracketed_groups(&chars)?;
    let is_separator = |i: usize| matches!(chars[i], ' ' | '-' | '/' | '.') || brackets[i];
    let mut kept = String::new();
    let mut groups: Vec<String> = vec![String::new()];
    let mut runs: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !is_separator(i) {
            kept.push(chars[i]);
            groups.last_mut()?.push(chars[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && is_separator(i) {
            i += 1;
        }
        let run: String = chars[start..i].iter().collect();
        let between = start > 0
            && chars[start - 1].is_ascii_alphanumeric()
            && chars.get(i).is_some_and(char::is_ascii_alphanumeric);
        let opening = start == 0 && run == "(";
        if !(between || opening) || !well_formed(&run) {
            return None;
        }
        runs.push(run);
        if !opening {
            groups.push(String::new());
        }
    }
    let digits = kept.chars().filter(char::is_ascii_digit).count();
    let word = |g: &String| g.len() >= 3 && g.chars().all(|c| c.is_ascii_alphabetic());
    let digit_group = |g: &String| !g.is_empty() && g.chars().all(|c| c.is_ascii_digit());
    let range = matches!(runs.as_slice(), [run] if matches!(run.trim(), "-" | "/"))
        && groups.iter().all(digit_group)
        && digits < MIN_DIGITS_OF_A_PAIR;
    let read = !runs.is_empty()
        && digits * 2 >= kept.chars().count()
        && !groups.iter().any(word)
        && !range;
    read.then_some(kept)
}

/// Which characters are the brackets of a group of digits (`(415)`), if every bracket
/// is one: a bracket around anything else (`(approx)`, `(0)`, one left open) means
/// something, and the value is not read.
fn bracketed_groups(chars: &[char]) -> Option<Vec<bool>> {
    let mut brackets = vec![false; chars.len()];
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '(' => {
                let len = chars[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
                let close = i + 1 + len;
                let zeros = chars[i + 1..close].iter().all(|&c| c == '0');
                if len == 0 || zeros || chars.get(close) != Some(&')') {
                    return None;
                }
                brackets[i] = true;
                brackets[close] = true;
                i = close + 1;
            }
            ')' => return None,
            _ => i += 1,
        }
    }
    Some(brackets)
}

/// A run of separators: spaces and at most one mark, with a closing bracket only at its
/// start and an opening one only at its end (`) `, ` (`, ` - `).
fn well_formed(run: &str) -> bool {
    let inner = run.strip_prefix(')').unwrap_or(run);
    let inner = inner.strip_suffix('(').unwrap_or(inner);
    let marks = inner.chars().filter(|&c| c != ' ').count();
    marks <= 1 && !inner.contains(['(', ')'])
}

#[cfg(test)]
mod tests {
    use super::without_separators as read;

    #[test]
    fn numbers_written_in_groups() {
        for (found, kept) in [
            ("+47 912 34 567", "+4791234567"),
            ("+1 (415) 555-0134", "+14155550134"),
            ("(415) 555-0134", "4155550134"),
            ("415.555.0134", "4155550134"),
            ("+49 30 1234567", "+49301234567"),
            ("  0171 / 234 56 78 ", "01712345678"),
            ("DE89 3704 0044 0532 0130 00", "DE89370400440532013000"),
            ("4111-1111-1111-1111", "4111111111111111"),
            ("U2 8315", "U28315"),
            ("10 115", "10115"),
            ("555-0134", "5550134"),
        ] {
            assert_eq!(read(found).as_deref(), Some(kept), "{found:?}");
        }
    }

    #[test]
    fn marks_that_belong_to_the_value_are_never_separators() {
        for found in [
            "1.5",          // a decimal point
            "1,000",        // a thousands mark
            "1 000,50",     // a decimal comma
            "12 345.67",    // a single dot: a decimal point still
            "-5",           // a sign
            "- 5 5",        // a sign, then a space
            "+ 47 912",     // a separator after the sign, not between characters
            "555 0134.",    // a mark at the end
            "10-20",        // a range
            "1/2",          // a fraction
            "+49 (0)30 12", // a trunk prefix, dropped rather than kept
            "(approx) 12 34",
            "12 (34",
            "12) 34",
            "12 -- 34",
            "12 - / 34",
        ] {
            assert_eq!(read(found), None, "{found:?}");
        }
    }

    #[test]
    fn text_is_not_a_value_in_groups() {
        // A word among the groups: text, whatever the share of digits.
        assert_eq!(read("call 555 0134"), None);
        assert_eq!(read("tel 555 0134"), None);
        // Mostly letters.
        assert_eq!(read("AB CD 1"), None);
        assert_eq!(read("Lisbon LIS"), None);
    }

    #[test]
    fn nothing_when_nothing_is_removed() {
        assert_eq!(read("+4791234567"), None);
        assert_eq!(read("12345"), None);
        assert_eq!(read(""), None);
    }

    #[test]
    fn long_values_are_not_read() {
        let long = "12 ".repeat(30);
        assert_eq!(read(&long), None);
    }
}
