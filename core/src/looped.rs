//! A reply that ran in a loop until the token limit cut it.
//!
//! At temperature 0 a small model can fall into a loop it does not leave: a sentence, a
//! member such as `, "optional": false`, or one digit, written again and again until the
//! token limit cuts the reply. Sent back whole as its own turn, with "answer more
//! briefly", the loop is what the model reads last, and it writes the same reply again,
//! word for word; pushed off it, a 0.5B model called a tool with its description's
//! examples instead of the answer it had begun.
//!
//! So a loop of words inside text (no quote in its round: the repetition is within one
//! string, or prose) is read as what it says: the reply up to the end of its first round,
//! or of the sentence that round ends in ([`FixKind::LoopCut`]); what the cut took was
//! more of the same. Any other loop (a digit, a member, a list's item, where a round
//! would change the value) is sent back, the repair showing the reply up to the end of
//! the loop's first round and saying, quoted, what was repeated.
//!
//! A loop is read only at the end of a reply the provider cut, where the repetition runs
//! on to the cut: text that repeats and then goes on is not one.

use crate::error::{bounded, quote_bounded};
use crate::repair::{Fix, FixKind};

/// The longest round of a loop looked for, in bytes.
const MAX_ROUND: usize = 400;

/// The fewest rounds of a loop, the one the cut ended in counted as one.
const MIN_ROUNDS: usize = 3;

/// The fewest bytes the repetition must run over: `000` is no loop, 64 zeros are.
const MIN_SPAN: usize = 64;

/// The most characters of the repeated text the hint and the fix quote.
const QUOTED_CHARS: usize = 80;

/// Where a reply's loop starts, and where its first round ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Loop {
    /// The byte where the first round starts.
    start: usize,
    /// The byte where the first round ends (a character boundary).
    end: usize,
}

impl Loop {
    /// The loop `text` ends in: the shortest round that repeats, with nothing between
    /// its rounds, from where it starts to the end of the text, [`MIN_ROUNDS`] times or
    /// more and over [`MIN_SPAN`] bytes or more. `None` where the text ends otherwise.
    pub(crate) fn at_end_of(text: &str) -> Option<Loop> {
        let bytes = text.as_bytes();
        let len = bytes.len();
        (1..=MAX_ROUND.min(len / MIN_ROUNDS)).find_map(|round| {
            // Every byte from `from` on equals the one a round before it.
            let mut from = len;
            while from > round && bytes[from - 1] == bytes[from - 1 - round] {
                from -= 1;
            }
            let start = from - round;
            let span = len - start;
            (span >= round * MIN_ROUNDS && span >= MIN_SPAN).then(|| {
                let start = ceil_boundary(text, start);
                let end = ceil_boundary(text, start + round);
                Loop { start, end }
            })
        })
    }

    /// The text up to the end of the loop's first round, or of the sentence that ends
    /// within the round after it: all the reply said. What the second round adds is a
    /// part of the first, said again.
    pub(crate) fn said<'t>(&self, text: &'t str) -> &'t str {
        let next = &text[self.end..];
        let round = self.end - self.start;
        let sentence_end = next
            .char_indices()
            .take_while(|(i, _)| *i < round)
            .find_map(|(i, c)| {
                let after = next[i + c.len_utf8()..].chars().next();
                (matches!(c, '.' | '!' | '?') && after.is_none_or(char::is_whitespace))
                    .then_some(i + c.len_utf8())
            });
        &text[..self.end + sentence_end.unwrap_or(0)]
    }

    /// The loop's round, as written.
    fn round<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start..self.end]
    }

    /// Whether the loop is of words within text: its round holds no quote (it stays in
    /// one string, or in prose), a space and a letter. Reading such a reply up to the end
    /// of its first round loses nothing it said; a round of a digit, of a member or of a
    /// list's item is no such loop, as one round less or more changes the value.
    pub(crate) fn of_words(&self, text: &str) -> bool {
        let round = self.round(text);
        !round.contains('"')
            && round.chars().any(char::is_whitespace)
            && round.chars().any(char::is_alphabetic)
    }

    /// The fix that says the reply was read up to its loop, at the byte where the
    /// reading ended.
    pub(crate) fn fix(&self, text: &str) -> Fix {
        let round = bounded(self.round(text), QUOTED_CHARS);
        Fix::at(FixKind::LoopCut { round }, self.said(text).len())
    }

    /// The hint of a repair: what was repeated, quoted and bounded.
    pub(crate) fn hint(&self, text: &str) -> String {
        let round = self.round(text);
        format!(
            "Your reply repeated {} over and over until the token limit cut it off: \
             say each thing once, and keep the reply short.",
            quote_bounded(round, QUOTED_CHARS)
        )
    }
}

/// The first character boundary of `text` at or after byte `at`.
fn ceil_boundary(text: &str, at: usize) -> usize {
    (at..=text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len())
}

#[cfg(test)]
mod tests {
    use super::Loop;

    fn said(text: &str) -> Option<&str> {
        Loop::at_end_of(text).map(|l| l.said(text))
    }

    #[test]
    fn a_sentence_repeated_to_the_cut_is_read_once() {
        let round = ", and it was the first exchange to be founded by a company";
        for cut in [0, 7, round.len() - 1] {
            let text = format!(
                "{{\"answer\": \"It opened in 1602{}{}",
                round.repeat(5),
                &round[..cut]
            );
            let said = said(&text).unwrap_or_else(|| panic!("no loop in {text:?}"));
            assert_eq!(said.matches("first exchange").count(), 1, "{said:?}");
            assert!(
                said.starts_with("{\"answer\": \"It opened in 1602"),
                "{said:?}"
            );
        }
    }

    #[test]
    fn what_is_said_ends_with_the_sentence_the_round_ends_in() {
        let round = " was a turning point. The match was a crucial";
        let text = format!(
            "{{\"answer\": \"The final{}{}",
            round.repeat(6),
            &round[..5]
        );
        let found = Loop::at_end_of(&text).expect("a loop");
        // The first round, then the second up to its full stop: every word once.
        let said = found.said(&text);
        assert!(
            said.ends_with("was a crucial was a turning point."),
            "{said:?}"
        );
        assert!(found.of_words(&text));
        let fix = found.fix(&text).to_string();
        assert!(fix.contains("was a turning point. The match"), "{fix}");
    }

    #[test]
    fn a_full_stop_inside_a_number_ends_no_sentence() {
        let round = " costs 2.5 euros and more";
        let text = format!("It{}", round.repeat(6));
        let said = said(&text).expect("a loop");
        assert_eq!(said.matches("2.5").count(), 1, "{said:?}");
        assert!(!said.ends_with('.'), "{said:?}");
    }

    #[test]
    fn only_a_loop_of_words_within_text_is_read_as_said() {
        let words = format!(
            "{{\"answer\": \"It{}",
            " is what it is, again and again".repeat(5)
        );
        let digits = format!("{{\"answer\": \"1{}", "0".repeat(300));
        let member = format!("{{\"title\": \"x\"{}", ", \"optional\": false".repeat(20));
        let items = format!(
            "{{\"items\": [{}",
            "{\"sku\": \"A 1\", \"qty\": 1}, ".repeat(9)
        );
        let of_words = |text: &str| Loop::at_end_of(text).map(|l| l.of_words(text));
        assert_eq!(of_words(&words), Some(true));
        assert_eq!(of_words(&digits), Some(false));
        assert_eq!(of_words(&member), Some(false));
        assert_eq!(of_words(&items), Some(false));
    }

    #[test]
    fn a_digit_run_to_the_cut_is_a_loop_of_one() {
        let text = format!("{{\"answer\": \"1{}", "0".repeat(300));
        let found = Loop::at_end_of(&text).expect("a loop");
        assert_eq!(found.said(&text), "{\"answer\": \"10");
        assert!(found.hint(&text).contains("\"0\""), "{}", found.hint(&text));
    }

    #[test]
    fn a_member_repeated_in_a_call_is_a_loop() {
        let text = format!(
            "{{\"name\": \"calendar.create_event\", \"arguments\": {{\"title\": \"x\"{}",
            ", \"optional\": false".repeat(20)
        );
        let said = said(&text).expect("a loop");
        assert!(
            said.ends_with("\"title\": \"x\", \"optional\": false"),
            "{said:?}"
        );
    }

    #[test]
    fn text_that_repeats_and_goes_on_or_repeats_too_little_is_no_loop() {
        let round = "ab cd ef gh ij kl mn op qr st uv wx yz ";
        let goes_on = format!("{}and then something else entirely.", round.repeat(6));
        assert_eq!(Loop::at_end_of(&goes_on), None);
        assert_eq!(Loop::at_end_of(&format!("x{}", round.repeat(2))), None);
        assert_eq!(Loop::at_end_of("{\"answer\": \"1000\"}"), None);
        assert_eq!(Loop::at_end_of(&format!("x{}", "0".repeat(40))), None);
        assert_eq!(Loop::at_end_of(""), None);
    }

    #[test]
    fn whole_replies_of_every_kind_end_in_no_loop() {
        let replies = [
            r#"{"answer": "The Amsterdam Stock Exchange was founded in 1602 by the Dutch East India Company."}"#,
            r#"{"name": "music.play", "arguments": {"query": "The Four Seasons", "shuffle": false}}"#,
            r#"{"items": [{"sku": "A-1", "qty": 1}, {"sku": "A-1", "qty": 1}, {"sku": "A-1", "qty": 1}]}"#,
            r#"{"values": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}"#,
            "The answer is 42.\n\n\n\n",
        ];
        for reply in replies {
            assert_eq!(Loop::at_end_of(reply), None, "{reply}");
        }
    }

    #[test]
    fn the_round_is_cut_on_character_boundaries() {
        let text = format!("Voilà : {}", "éléphant déjà vu, ".repeat(8));
        let found = Loop::at_end_of(&text).expect("a loop");
        let said = found.said(&text);
        assert!(said.starts_with("Voilà : "), "{said:?}");
        assert!(
            found.hint(&text).contains("léphant"),
            "{}",
            found.hint(&text)
        );
    }

    fn json() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        use serde_json::Value;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i32>().prop_map(Value::from),
            "[a-z .,!]{0,40}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 48, 8, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
                proptest::collection::btree_map("[a-z]{1,6}", inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        /// No valid JSON, compact or pretty, ends in a loop of words: the reading of a
        /// loop never fires on a reply that is whole.
        #[test]
        fn valid_json_ends_in_no_loop_of_words(value in json()) {
            for text in [value.to_string(), serde_json::to_string_pretty(&value).unwrap_or_default()] {
                let found = Loop::at_end_of(&text).filter(|l| l.of_words(&text));
                proptest::prop_assert!(found.is_none(), "{}", text);
            }
        }

        /// Whatever text loops, what is said is a prefix of it that holds the round once
        /// at least, and stops within two rounds of where the loop starts.
        #[test]
        fn what_is_said_is_a_prefix_with_the_round(
            head in "[a-zA-Z ,.é]{0,30}",
            round in "[a-zA-Z ,.é!?]{1,40}",
            rounds in 3usize..9,
            cut in 0usize..40,
        ) {
            let tail: String = round.chars().take(cut % (round.chars().count())).collect();
            let text = format!("{head}{}{tail}", round.repeat(rounds));
            if let Some(found) = Loop::at_end_of(&text) {
                let said = found.said(&text);
                proptest::prop_assert!(text.starts_with(said));
                proptest::prop_assert!(said.len() >= found.end && said.len() <= found.end + (found.end - found.start));
            }
        }
    }
}
