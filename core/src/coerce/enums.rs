//! An enum value followed by prose or dressed in Markdown: `"positive - warm tone"`,
//! `**HIGH**`, `` `in_progress` (started Monday) ``.

use serde_json::Value;

/// The words of a text: its runs of letters and digits, in lower case; at most `limit`.
fn words(text: &str, limit: usize) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(limit)
        .map(str::to_lowercase)
        .collect()
}

/// How many of `words`, from `start`, spell `value` (its letters and digits in lower case)
/// once joined, if some do.
fn spelled_at(words: &[String], start: usize, value: &str) -> Option<usize> {
    let mut joined = String::new();
    for (n, word) in words[start..].iter().enumerate() {
        joined.push_str(word);
        if joined.len() >= value.len() {
            return (joined == value).then_some(n + 1);
        }
        if !value.starts_with(joined.as_str()) {
            return None;
        }
    }
    None
}

/// The one allowed value a text names, read as a model writes it with commentary: the
/// text starts with the value (past Markdown and punctuation), as whole words, and no
/// other allowed value appears in it as whole words. `"not positive"` names nothing (it
/// does not start with a value) and neither does `"positive or negative"` (two values).
///
/// Texts longer than a short sentence are not read: a value buried in a paragraph is no
/// longer a value followed by a note.
pub(super) fn named_in_prose<'v>(text: &str, allowed: &'v [Value]) -> Option<&'v str> {
    const MAX_WORDS: usize = 24;
    let words = words(text, MAX_WORDS + 1);
    if words.is_empty() || words.len() > MAX_WORDS {
        return None;
    }
    let spelled: Vec<(&str, String)> = allowed
        .iter()
        .filter_map(Value::as_str)
        .map(|v| (v, words_of(v)))
        .filter(|(_, letters)| !letters.is_empty())
        .collect();
    let mut first = None;
    for (value, letters) in &spelled {
        if spelled_at(&words, 0, letters).is_some() {
            if first.is_some() {
                return None;
            }
            first = Some((*value, letters));
        }
    }
    let (value, letters) = first?;
    // Any other value written anywhere in the text makes the reading a guess.
    let elsewhere = spelled.iter().any(|(_, other_letters)| {
        other_letters != letters
            && (0..words.len()).any(|start| spelled_at(&words, start, other_letters).is_some())
    });
    (!elsewhere).then_some(value)
}

/// The letters and digits of an allowed value, in lower case: `"in_progress"` and
/// `"InProgress"` both give `inprogress`.
fn words_of(value: &str) -> String {
    value
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::named_in_prose;

    #[test]
    fn a_value_at_the_start_of_a_note_is_read() {
        let allowed = [json!("positive"), json!("negative"), json!("neutral")];
        let named = |text| named_in_prose(text, &allowed);
        assert_eq!(named("positive - warm tone"), Some("positive"));
        assert_eq!(named("**Negative**"), Some("negative"));
        assert_eq!(named("Neutral (the review is balanced)"), Some("neutral"));
        assert_eq!(named("`positive`."), Some("positive"));
        // Not at the start, two values, a longer word, a paragraph.
        assert_eq!(named("not positive"), None);
        assert_eq!(named("positive or negative"), None);
        assert_eq!(named("positively"), None);
        assert_eq!(named(&format!("positive {}", "word ".repeat(30))), None);
    }

    #[test]
    fn values_of_several_words_and_prefixes_of_each_other() {
        let allowed = [json!("in_progress"), json!("in"), json!("done")];
        let named = |text| named_in_prose(text, &allowed);
        // Both `in` and `in_progress` start the text: either may be meant.
        assert_eq!(named("In progress - since Monday"), None);
        assert_eq!(named("done, shipped"), Some("done"));
        let allowed = [json!("high"), json!("highest")];
        assert_eq!(named_in_prose("HIGHEST!", &allowed), Some("highest"));
        assert_eq!(named_in_prose("**HIGH** priority", &allowed), Some("high"));
    }
}
