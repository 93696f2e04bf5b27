//! An enum value written as its abbreviation: `"ml"` for `milliliter`, `"kg"` for
//! `kilogram`, `"tbsp"` for `tablespoon`.
//!
//! The danger is a word in its own right read as a value whose letters it happens to
//! have in order: `"no"` is not `normal`, `"on"` is not `online`, `"tea"` is not
//! `teaspoon`. Whether a text is a word cannot be told from its letters, save one way:
//! an English word has a vowel (a `y` after the first letter counts: `my`, `fly`), and
//! the few that have none are interjections (`hmm`, `shh`), listed below. Units and the
//! like are abbreviated to consonants (`ml`, `kg`, `km`, `tbsp`, `hr`, `pc`), so these are
//! read; an abbreviation with a vowel (`min`, `sec`, `avg`) may be a word the model meant
//! as itself (`pie` for `piece`, `mile` for `milliliter`), so it is not: the model hears
//! which values are allowed, with the one it may have meant.

use serde_json::Value;

/// Abbreviations this long at most are read: units and the like (`ml`, `tbsp`), not words.
const MAX_ABBREVIATION: usize = 5;

/// The English words without a vowel: interjections. Those that are also abbreviations
/// of their own (`mm` for millimeter, `hm`, `sh`) are not words here.
const WORDS_WITHOUT_VOWELS: &[&str] = &[
    "brr", "brrr", "bzz", "crwth", "cwm", "grr", "grrr", "hmm", "hmmm", "hmph", "mmm", "mmmm",
    "nth", "pfft", "pht", "psst", "pssst", "pst", "shh", "shhh", "tsk", "zzz", "zzzz",
];

/// The one allowed value `text` abbreviates: two to five letters (a final `.` aside)
/// and no vowel among them, the first of them the value's first, all of them in the
/// value in order (`ml` for `milliliter`, `tbsp` for `tablespoon`). None when two values
/// fit (`tsp`: `teaspoon` and `tablespoon`), when one letter is all there is (`g`), when
/// the text is longer, or when it may be a word (`no`, `min`, `hmm`).
pub(super) fn abbreviated<'v>(text: &str, allowed: &'v [Value]) -> Option<&'v str> {
    let short = text.trim().trim_end_matches('.').to_ascii_lowercase();
    if !(2..=MAX_ABBREVIATION).contains(&short.len())
        || !short.bytes().all(|b| b.is_ascii_alphabetic())
        || may_be_a_word(&short)
    {
        return None;
    }
    let mut fits = allowed.iter().filter_map(Value::as_str).filter(|value| {
        let value = value.to_lowercase();
        value.len() > short.len() && crate::suggest::abbreviates(&short, &value)
    });
    let only = fits.next()?;
    fits.next().is_none().then_some(only)
}

/// Whether `short` (lower-case ASCII letters) may be an English word: it has a vowel
/// (`a`, `e`, `i`, `o`, `u`, or a `y` after the first letter: the `y` of `yd` is a
/// consonant), or it is one of the words without one.
fn may_be_a_word(short: &str) -> bool {
    let vowel = short
        .bytes()
        .enumerate()
        .any(|(at, b)| matches!(b, b'a' | b'e' | b'i' | b'o' | b'u') || (b == b'y' && at > 0));
    vowel || WORDS_WITHOUT_VOWELS.contains(&short)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_words_without_vowels_are_lower_case_and_short_enough_to_be_read() {
        for word in WORDS_WITHOUT_VOWELS {
            assert!(
                (2..=MAX_ABBREVIATION).contains(&word.len())
                    && word.bytes().all(|b| b.is_ascii_lowercase())
                    && !word.contains(['a', 'e', 'i', 'o', 'u', 'y']),
                "{word} would never be read anyway"
            );
        }
    }

    #[test]
    fn consonants_are_read_and_what_may_be_a_word_is_not() {
        let allowed = [
            json!("normal"),
            json!("urgent"),
            json!("minute"),
            json!("hour"),
            json!("yard"),
        ];
        assert_eq!(abbreviated("hr", &allowed), Some("hour"));
        assert_eq!(abbreviated("nrml", &allowed), Some("normal"));
        assert_eq!(abbreviated("yd", &allowed), Some("yard"));
        for word in ["no", "NO", "No.", "min", "nor", "hmm", "my"] {
            assert_eq!(abbreviated(word, &allowed), None, "{word}");
        }
        assert_eq!(abbreviated("hmm", &[json!("hammer")]), None);
    }
}
