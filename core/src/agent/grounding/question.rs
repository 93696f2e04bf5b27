//! Whether a request asks for something to be known rather than done.
//!
//! "What volume of water fills an Olympic swimming pool?" asks a question about the
//! world; "Turn the volume up a bit" asks the speaker to do something, and a call of
//! `set_volume` with a level the model chose is how that is done. Only the first kind of
//! request has its made-up call, repeated once told, taken for the model saying that no
//! tool answers it (see `doubts::questioned`).

/// Words that open a question asking for something to be known, in English.
const INTERROGATIVES: &[&str] = &[
    "who", "whom", "whose", "what", "which", "when", "where", "why", "how",
];

/// How many words a question may put before its interrogative: "In what order…",
/// "So how many…".
const LEAD_WORDS: usize = 1;

/// Interrogatives with the word after them that make a suggestion, not a question:
/// "How about turning it down?", "Why don't you turn it up?".
const SUGGESTIONS: &[(&str, &str)] = &[
    ("how", "about"),
    ("what", "about"),
    ("what", "if"),
    ("why", "don't"),
    ("why", "dont"),
    ("why", "not"),
];

/// Whether `request` (the user's latest message) is a question asking for something to
/// be known: it ends with a question mark (quotes and brackets around it aside) and one
/// of its first two words is an interrogative (`what`, `who`, `how`, … — `what's` counts
/// as `what`), not one that opens a suggestion ("How about…?", "Why don't you…?"). A
/// command, with a question mark or without ("Can you turn it up?", "Turn it up"), is
/// not; neither is a question of yes or no ("Is it going to rain?"), one in another
/// language, nor one without its mark ("quick q - how many ppl live in portugal"): for
/// them the check says no, and the model's repeated call stands.
pub(super) fn asks_to_know(request: &str) -> bool {
    let text = request.trim_matches(|c: char| c.is_whitespace() || QUOTES.contains(&c));
    if !text.ends_with('?') {
        return false;
    }
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|word| !word.is_empty())
        .take(LEAD_WORDS + 2)
        .collect();
    let suggests = |at: usize| {
        let next = words
            .get(at + 1)
            .map(|w| w.to_lowercase().replace('’', "'"));
        SUGGESTIONS.iter().any(|(first, second)| {
            bare(words[at]).eq_ignore_ascii_case(first) && next.as_deref() == Some(*second)
        })
    };
    (0..words.len().min(LEAD_WORDS + 1)).any(|at| is_interrogative(words[at]) && !suggests(at))
}

/// Quotes and brackets a request may stand in.
const QUOTES: &[char] = &['"', '\'', '“', '”', '‘', '’', '«', '»', '(', ')', '[', ']'];

/// A word without an apostrophe's contraction (`What's`, `how’d`) or its trailing marks.
fn bare(word: &str) -> &str {
    word.split(['\'', '’'])
        .next()
        .unwrap_or_default()
        .trim_matches(|c: char| !c.is_alphanumeric())
}

/// Whether `word` is an interrogative, in any case ([`bare`]).
fn is_interrogative(word: &str) -> bool {
    let word = bare(word);
    INTERROGATIVES
        .iter()
        .any(|known| known.eq_ignore_ascii_case(word))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::asks_to_know;

    #[test]
    fn questions_that_ask_to_know_something() {
        for request in [
            "What volume of water fills an Olympic swimming pool?",
            "Who wrote the first printed recipe book?",
            "which planet has the most moons?",
            "How do I track my running pace with my phone?",
            "In what order should I read the Harry Potter books?",
            "What's the tallest mountain in Africa?",
            "WHY is the sky blue?",
            "  Where was Magellan born?  ",
            "So, how far is the Moon?",
            "How’d the Romans heat their baths?",
            "“What is the tallest tree on Earth?”",
            "(Which river flows through Budapest?)",
            "Why do cats purr?",
        ] {
            assert!(asks_to_know(request), "{request}");
        }
    }

    #[test]
    fn commands_and_questions_without_their_mark_are_not() {
        for request in [
            "Turn the volume up a bit",
            "Turn the volume up a bit?",
            "Can you turn it up?",
            "Could you set the lights to what they were yesterday?",
            "Set the volume to whatever is comfortable",
            "Play something, what do you think?",
            "How about turning the volume down for the baby's nap?",
            "What about setting it to 40?",
            "What if you turned it up?",
            "Why don't you turn it up for the party?",
            "Why not play some jazz?",
            "why dont u turn it up?",
            "“Turn it up?”",
            "quick q - how many ppl live in portugal",
            "Wie spät ist es?",
            "Is it going to rain tomorrow?",
            "?",
            "",
            "What",
        ] {
            assert!(!asks_to_know(request), "{request}");
        }
    }

    proptest! {
        /// Whatever the words, a request without a question mark at its end never asks.
        #[test]
        fn no_mark_no_question(words in proptest::collection::vec("[A-Za-z']{1,8}", 0..8)) {
            let request = words.join(" ");
            prop_assert!(!asks_to_know(&request));
        }

        /// A command's verb first and no interrogative after it never asks, with its mark.
        #[test]
        fn an_imperative_with_a_mark_is_no_question(
            verb in "(Turn|Set|Play|Dim|Open|Order|Book|Switch)",
            rest in proptest::collection::vec("[a-z]{1,8}", 0..6),
        ) {
            let rest: Vec<_> = rest
                .into_iter()
                .filter(|w| !super::INTERROGATIVES.contains(&w.as_str()))
                .collect();
            let request = format!("{verb} {}?", rest.join(" "));
            prop_assert!(!asks_to_know(&request));
        }
    }
}
