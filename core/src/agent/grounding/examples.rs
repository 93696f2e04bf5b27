//! The examples a tool's documentation gives of its arguments' values, and whether a
//! call's value is one of them.
//!
//! Tool descriptions written for people and served by tool servers show what a value
//! looks like: `"The league, e.g. 'Serie A'."`, `"The city and state, for example San
//! Francisco, CA"`, or a schema's `examples`. A small model asked something no tool does
//! fills a tool of the same subject with them (`sports.get_standings({"league": "Serie
//! A", "season": "2023-24"})` for "Explain the offside rule"). Such a value is the
//! documentation's, not the user's: it cannot stand for a fact the user gave.

use serde_json::Value;

use super::words::{sentence, words};

/// Words that introduce examples in a description, lowercased.
const MARKERS: &[&str] = &[
    "e.g.",
    "eg.",
    "for example",
    "for instance",
    "such as",
    "example:",
    "examples:",
];

/// The most example phrases read of one tool.
const MAX_PHRASES: usize = 256;

/// The most bytes of one description read for examples.
const MAX_DESCRIPTION: usize = 4 * 1024;

/// How deep a schema is walked for descriptions and examples.
const MAX_DEPTH: usize = 8;

/// The example phrases of a tool: what follows an example marker in its description and
/// in its arguments' descriptions, up to the end of that sentence or bracket, and each
/// value of a schema's `examples` (or OpenAPI's `example`), each as its words.
pub(in crate::agent) fn of(description: &str, arguments: &Value) -> Vec<Vec<String>> {
    let mut phrases = Vec::new();
    described(description, &mut phrases);
    walk(arguments, 0, &mut phrases);
    phrases.truncate(MAX_PHRASES);
    phrases
}

/// Whether a call's value (a string or a number) is one of the examples: its words, in
/// order, are words of one example phrase in a row. A value of no letter or digit, or of
/// one character, says nothing and is none.
pub(super) fn is_example(value: &Value, phrases: &[Vec<String>]) -> bool {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return false,
    };
    let value = words(&text);
    if value.concat().chars().count() < 2 {
        return false;
    }
    phrases.iter().any(|phrase| {
        phrase
            .windows(value.len())
            .any(|run| run == value.as_slice())
    })
}

fn walk(schema: &Value, depth: usize, phrases: &mut Vec<Vec<String>>) {
    if depth > MAX_DEPTH || phrases.len() >= MAX_PHRASES {
        return;
    }
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(text)) = map.get("description") {
                described(text, phrases);
            }
            for key in ["examples", "example"] {
                match map.get(key) {
                    Some(Value::Array(items)) => items.iter().for_each(|v| example(v, phrases)),
                    Some(one) => example(one, phrases),
                    None => {}
                }
            }
            // A property may be named `description` or `example`: only the annotations
            // themselves (a text, a list or a scalar) are not walked.
            map.iter()
                .filter(|(key, value)| {
                    value.is_object()
                        || !matches!(key.as_str(), "description" | "examples" | "example")
                })
                .for_each(|(_, v)| walk(v, depth + 1, phrases));
        }
        Value::Array(items) => items.iter().for_each(|v| walk(v, depth + 1, phrases)),
        _ => {}
    }
}

/// A value a schema gives as an example.
fn example(value: &Value, phrases: &mut Vec<Vec<String>>) {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return,
    };
    let phrase = words(&text);
    if !phrase.is_empty() {
        phrases.push(phrase);
    }
}

/// The example phrases of one description: after each marker, the text up to the next
/// `)`, `;`, line break, or `.` that ends a sentence (one followed by a space or by the
/// end; `2.5` and `e.g.` go on).
fn described(text: &str, phrases: &mut Vec<Vec<String>>) {
    let text = text[..text.floor_char_boundary(MAX_DESCRIPTION)].to_lowercase();
    for marker in MARKERS {
        let mut from = 0;
        while let Some(at) = text[from..].find(marker) {
            let found = from + at;
            let start = found + marker.len();
            from = start;
            if !starts_a_word(&text, found) {
                continue;
            }
            let phrase = words(sentence(&text[start..]));
            if !phrase.is_empty() && phrases.len() < MAX_PHRASES {
                phrases.push(phrase);
            }
        }
    }
}

/// Whether a marker found at byte `at` begins a word (`eg.` is no marker in `leg.`).
fn starts_a_word(text: &str, at: usize) -> bool {
    text[..at]
        .chars()
        .next_back()
        .is_none_or(|c| !c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn phrases(description: &str) -> Vec<String> {
        of(description, &json!({}))
            .into_iter()
            .map(|p| p.join(" "))
            .collect()
    }

    #[test]
    fn an_example_runs_to_the_end_of_its_sentence_or_bracket() {
        assert_eq!(phrases("The league, e.g. 'Serie A'."), ["serie a"]);
        assert_eq!(
            phrases("The city and state, e.g. San Francisco, CA. Required."),
            ["san francisco ca"]
        );
        assert_eq!(
            phrases("A ratio (for example 2.5 or 0.75) of the two."),
            ["2 5 or 0 75"]
        );
        assert_eq!(phrases("Units such as kg; grams are accepted too"), ["kg"]);
        assert_eq!(phrases("Anything.\nExamples: red, green"), ["red green"]);
    }

    #[test]
    fn a_marker_inside_a_word_is_none() {
        assert!(phrases("The leg. length in cm, measured such that it fits").is_empty());
        assert!(phrases("Plain words with no example at all.").is_empty());
    }

    #[test]
    fn schema_examples_and_nested_descriptions_count() {
        let arguments = json!({
            "type": "object",
            "properties": {
                "season": {"type": "string", "description": "The season, e.g. '2023-24'."},
                "stops": {"type": "array", "items": {"type": "string", "examples": ["Lyon Part-Dieu"]}},
                "limit": {"type": "integer", "example": 25}
            }
        });
        let named = json!({"properties": {"description": {"type": "string", "description": "A note, e.g. 'bring cake'."}}});
        let found: Vec<String> = of("", &named).into_iter().map(|p| p.join(" ")).collect();
        assert_eq!(found, ["bring cake"]);
        let found: Vec<String> = of("", &arguments)
            .into_iter()
            .map(|p| p.join(" "))
            .collect();
        for expected in ["2023 24", "lyon part dieu", "25"] {
            assert!(
                found.contains(&expected.to_owned()),
                "{expected} in {found:?}"
            );
        }
    }

    #[test]
    fn a_value_is_an_example_when_its_words_run_in_one_phrase() {
        let phrases = of(
            "The city, e.g. San Francisco, CA or Lyon. The season, e.g. '2023-24'.",
            &json!({}),
        );
        for value in [
            json!("San Francisco"),
            json!("san francisco, ca"),
            json!("Lyon"),
            json!("2023-24"),
        ] {
            assert!(is_example(&value, &phrases), "{value}");
        }
        for value in [
            json!("Francisco Lyon"),
            json!("Paris"),
            json!("CA, San Francisco"),
            json!("a"),
            json!(true),
            json!(""),
        ] {
            assert!(!is_example(&value, &phrases), "{value}");
        }
        assert!(is_example(&json!(25), &of("", &json!({"examples": [25]}))));
    }
}
