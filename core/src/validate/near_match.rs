//! The part of a rejected string that a pattern accepts, for the advice of a pattern
//! violation: `"Lisbon LIS"` against `^[A-Z]{3}$` is told to write `"LIS"`, not the
//! schema's generic example.
//!
//! Models mostly miss a pattern by writing the right value with something around it (a
//! city before an airport code, a suffix after a SKU), with separators inside it
//! (`+47 912 34 567` for `^\+\d{7,15}$`), or in the wrong case (`fr` for `^[A-Z]{2}$`);
//! those three readings are tried, separators and case first, and the first that matches
//! is kept. A stricter separator reading is also repaired locally (`coerce/separators.rs`,
//! `FixKind::PatternSeparators`): removing separators between a value's own characters
//! changes none the model chose. The advice reads separators more loosely (`3 F.` is
//! told to write `3F`, which the repair leaves alone), and the other two readings stay
//! advice only: which part the model meant, or whether the case is part of the value, is
//! for the model to confirm.

use regex::Regex;
use serde_json::Value;

use crate::error::Recipe;
use crate::schema::Shape;

/// The advice of a pattern violation, worked out when it is first read: `write it like`
/// the part of the model's own value that fits; else `write it in the form` of the pattern's
/// mask (`"INV-0000"`), which no model takes for a value of the request, as it takes a
/// realistic example (`"INV-0123"`) and copies it over the value the request gave; else,
/// for a pattern no mask fits, the schema's example.
impl Recipe for Shape {
    fn text(&self, word: Option<&str>) -> Option<String> {
        let regex = &self.0.pattern.as_ref()?.regex;
        let quoted = |s: String| crate::value::short_json(&Value::String(s));
        if let Some(own) = word.and_then(|word| near_match(regex, word)) {
            return Some(format!("write it like {}", quoted(own)));
        }
        if let Some(form) = crate::render::string_form(&self.0) {
            let legend = form
                .legend
                .map(|l| format!(", where {l}"))
                .unwrap_or_default();
            return Some(format!(
                "write it in the form {}{legend}",
                quoted(form.text)
            ));
        }
        let example = crate::render::string_example(&self.0);
        regex
            .is_match(&example)
            .then(|| format!("write it like {}", quoted(example)))
    }
}

/// Longer strings are not searched: the advice would not be short either.
const MAX_CHARS: usize = super::describe::MAX_KEPT;

/// A reading of `found` that `pattern` matches, if there is one other than `found`.
pub(crate) fn near_match(pattern: &Regex, found: &str) -> Option<String> {
    if found.chars().count() > MAX_CHARS || pattern.is_match(found) {
        return None;
    }
    loosely_without_separators(found)
        .into_iter()
        .chain(other_case(found))
        .find(|candidate| pattern.is_match(candidate))
        .or_else(|| longest_matching_span(pattern, found))
}

/// `+47 912 34 567` → `+4791234567`, `3 F.` → `3F`: spaces, dots, dashes, slashes and
/// brackets dropped wherever they stand, where the value is mostly digits. Looser than
/// the reading that is repaired locally (`separators::without_separators`, which keeps a
/// value whose marks could mean something, `3 F.` among them): this one is only advice,
/// which the model confirms.
fn loosely_without_separators(found: &str) -> Option<String> {
    let is_separator = |c: char| matches!(c, ' ' | '.' | '-' | '(' | ')' | '/');
    let digits = found.chars().filter(char::is_ascii_digit).count();
    let kept: String = found.trim().chars().filter(|c| !is_separator(*c)).collect();
    (digits * 2 >= kept.chars().count() && kept != found).then_some(kept)
}

/// `fr` → `FR`, `ABC` → `abc`.
fn other_case(found: &str) -> impl Iterator<Item = String> {
    let upper = found.trim().to_uppercase();
    let lower = found.trim().to_lowercase();
    [upper, lower].into_iter().filter(move |s| s != found)
}

/// The longest run of whole words (letters and digits, with what is written between
/// them) that the pattern matches: `LIS` in `Lisbon LIS`, `KTL-5520` in `KTL-5520-0123`.
fn longest_matching_span(pattern: &Regex, found: &str) -> Option<String> {
    let words = words(found);
    let mut best: Option<&str> = None;
    for (i, &(start, _)) in words.iter().enumerate() {
        for &(_, end) in &words[i..] {
            let span = &found[start..end];
            if best.is_none_or(|b| span.len() > b.len()) && pattern.is_match(span) {
                best = Some(span);
            }
        }
    }
    best.map(str::to_owned)
}

/// Byte ranges of the runs of letters and digits, with a sign or `#` just before one.
fn words(found: &str) -> Vec<(usize, usize)> {
    let mut words = Vec::new();
    let mut start: Option<usize> = None;
    let mut previous: Option<(usize, char)> = None;
    for (i, c) in found.char_indices() {
        if c.is_alphanumeric() {
            if start.is_none() {
                start = Some(match previous {
                    Some((p, '+' | '-' | '#')) => p,
                    _ => i,
                });
            }
        } else if let Some(s) = start.take() {
            words.push((s, i));
        }
        previous = Some((i, c));
    }
    if let Some(s) = start {
        words.push((s, found.len()));
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(pattern: &str, found: &str) -> Option<String> {
        near_match(&Regex::new(pattern).unwrap(), found)
    }

    #[test]
    fn the_code_inside_a_longer_value() {
        assert_eq!(near("^[A-Z]{3}$", "Lisbon LIS").as_deref(), Some("LIS"));
        assert_eq!(near("^[A-Z]{3}$", "Paris CDG").as_deref(), Some("CDG"));
        assert_eq!(
            near(r"^[A-Z]{3}-\d{4}$", "KTL-5520-0123").as_deref(),
            Some("KTL-5520")
        );
        assert_eq!(
            near(r"^#[0-9a-f]{6}$", "color #1a2b3c").as_deref(),
            Some("#1a2b3c")
        );
    }

    #[test]
    fn separators_inside_a_number() {
        assert_eq!(
            near(r"^\+\d{7,15}$", "+47 912 34 567").as_deref(),
            Some("+4791234567")
        );
        assert_eq!(near(r"^\d{5}$", "10 115").as_deref(), Some("10115"));
        // A seat with a sentence's full stop: the repair leaves it alone, the advice
        // still offers the value (a live regression: the advice fell back to `0A`).
        assert_eq!(near(r"^\d{1,2}[A-K]$", "3 F.").as_deref(), Some("3F"));
    }

    #[test]
    fn the_other_case() {
        assert_eq!(near("^[A-Z]{2}$", "fr").as_deref(), Some("FR"));
        assert_eq!(near("^[a-z]+$", "KITCHEN").as_deref(), Some("kitchen"));
    }

    #[test]
    fn nothing_when_no_part_fits() {
        assert_eq!(near("^[A-Z]{2}$", "Germany"), None);
        assert_eq!(near(r"^\d{4}-\d{2}-\d{2}$", "the third of May"), None);
        // Words are never cut: `Lis` is not offered from `Lisbon`.
        assert_eq!(near("^[A-Z][a-z]{2}$", "Lisbon"), None);
    }

    #[test]
    fn nothing_for_a_value_that_already_matches() {
        assert_eq!(near("^[A-Z]{3}$", "LIS"), None);
    }

    #[test]
    fn long_values_are_not_searched() {
        let long = format!("{} LIS", "word ".repeat(60));
        assert_eq!(near("^[A-Z]{3}$", &long), None);
    }

    #[test]
    fn every_offer_matches_the_pattern() {
        let patterns = [
            "^[A-Z]{3}$",
            r"^\d{3,5}$",
            r"^[A-Z]{2}\d{2,4}$",
            r"^\+?\d+$",
            "^[a-z-]+$",
        ];
        let values = [
            "flight AF1681 from Paris",
            "tel. 555-0100 or +1 555 0100",
            "AB12 then CD3456",
            "kitchen-sink ABC",
            "",
            "é ü ß",
        ];
        for p in patterns {
            let regex = Regex::new(p).unwrap();
            for v in values {
                if let Some(offer) = near_match(&regex, v) {
                    assert!(regex.is_match(&offer), "{offer:?} from {v:?} for {p}");
                }
            }
        }
    }
}
