//! An answer to a request that holds what a tool needs and asks for what it does, where
//! the request names no tool: "Find the roots of x^2 + 4x + 4 = 0." beside
//! `solve_quadratic` (`a`, `b`, `c`), "What is the greatest common divisor of 84, 126 and
//! 210?" beside `math.gcd`. A small model works such results out itself, and gets them
//! wrong as often as not; the tool is why it was given.
//!
//! Words alone would say too little: a request about stock exchanges uses a word of a
//! stock quote's description without asking for a quote. So the request must also hold a
//! value for each argument the tool requires, where that can be told from the text: a
//! number written in digits for each number (as many as a list of numbers needs), one of
//! the listed values for each argument with an `enum`; and at least one number, since
//! results worked out are what this is about. A tool that requires any other argument
//! (free text, an object, a flag) is never named this way: whether the request holds its
//! value is the model's to say.

use serde_json::Value;

use super::words::{GENERIC, words};
use super::{Conversation, telling};
use crate::{Violation, ViolationKind};

impl Conversation {
    /// The violation of an answer `{"answer": …}` to a request that holds a value for each
    /// argument one of `tools` requires ([`Conversation::holds_the_values_of`]) and uses a
    /// telling word of what the tool is about (its names, description and arguments'
    /// names; four letters or more, not generic verbs such as "find" or "calculate").
    /// Each tool is given as the model is shown it, what it is about, and its arguments'
    /// schema. The tool named is the one more of whose words the request uses; where two
    /// use as many, none is (the request does not say which). `None` for any other value.
    pub fn skips_by_values<'a>(
        &self,
        value: &Value,
        tools: impl IntoIterator<Item = (&'a str, &'a str, &'a Value)>,
    ) -> Option<Violation> {
        value.get("answer")?;
        let mut best: Option<(usize, &str)> = None;
        let mut tied = false;
        for (shown, about, arguments) in tools {
            let Some(listed) = self.holds_the_values_of(arguments) else {
                continue;
            };
            let used = self.telling_words_of(about) + listed;
            match best {
                _ if used == 0 => {}
                Some((most, _)) if used == most => tied = true,
                Some((most, _)) if used < most => {}
                _ => {
                    best = Some((used, shown));
                    tied = false;
                }
            }
        }
        let (_, shown) = best.filter(|_| !tied)?;
        Some(Violation::new(
            "/answer",
            ViolationKind::SkippedTool {
                tool: shown.to_owned(),
            },
        ))
    }

    /// How many telling words the user wrote are words of `about`, generic verbs aside
    /// (`find` and `finds` say nothing of which tool is meant).
    fn telling_words_of(&self, about: &str) -> usize {
        let about: Vec<String> = words(about).into_iter().filter(|w| !generic(w)).collect();
        telling(&self.asked, &about).filter(|w| !generic(w)).count()
    }

    /// Whether the user's words hold a value for each argument the schema `arguments`
    /// requires: a number in digits for each number or integer (as many as a list of them
    /// needs: its `minItems`, at least one), and one of the listed values for each
    /// argument with an `enum` of strings. Never for a tool that requires nothing, or that
    /// requires anything else. Where they do, how many of the arguments are listed ones:
    /// each value the user wrote of a tool's list says which tool is meant, as its words do.
    fn holds_the_values_of(&self, arguments: &Value) -> Option<usize> {
        let required = arguments["required"].as_array().filter(|r| !r.is_empty())?;
        let (mut numbers_needed, mut listed_written) = (0, 0);
        for name in required {
            let schema = &arguments["properties"][name.as_str()?];
            if let Some(listed) = schema["enum"].as_array() {
                listed.iter().any(|v| self.asked_one_of(v)).then_some(())?;
                listed_written += 1;
            } else if is_number(schema) {
                numbers_needed += 1;
            } else if schema["type"] == "array" && is_number(&schema["items"]) {
                numbers_needed += schema["minItems"].as_u64().unwrap_or(1).max(1) as usize;
            } else {
                return None;
            }
        }
        (numbers_needed > 0 && self.asked_numbers >= numbers_needed).then_some(listed_written)
    }

    /// Whether the user wrote the listed value `value` (a string): each of its words, as a
    /// word of the request or its plural (`cup` in "cups"; `eco` is not in "economy").
    fn asked_one_of(&self, value: &Value) -> bool {
        let Some(text) = value.as_str() else {
            return false;
        };
        let wanted = words(text);
        let plural = |asked: &str, w: &str| {
            ["s", "es"]
                .iter()
                .any(|end| asked.strip_suffix(end) == Some(w))
        };
        !wanted.is_empty()
            && wanted
                .iter()
                .all(|w| self.asked.iter().any(|a| a == w || plural(a, w)))
    }
}

/// Whether a word is a generic verb of tools' names, or one inflected (`finds`,
/// `calculated`, `searching`).
fn generic(word: &str) -> bool {
    let stem = ["ing", "ed", "es", "s"]
        .iter()
        .find_map(|end| word.strip_suffix(end))
        .unwrap_or(word);
    GENERIC.contains(&word) || GENERIC.contains(&stem)
}

/// Whether a schema is of a number or an integer.
fn is_number(schema: &Value) -> bool {
    matches!(schema["type"].as_str(), Some("number" | "integer"))
}

/// How many numbers `text` writes in digits (`4x` holds one, `0.001` one, `18:00` two).
pub(super) fn numbers_in_digits(text: &str) -> usize {
    let mut count = 0;
    let mut previous = ' ';
    for c in text.chars() {
        // A run of digits, with `.` or `,` between them, is one number.
        if c.is_ascii_digit() && !previous.is_ascii_digit() && !(matches!(previous, '.' | ',')) {
            count += 1;
        }
        previous = c;
    }
    count
}

#[cfg(test)]
mod tests;
