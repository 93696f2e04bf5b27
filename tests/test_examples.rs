//! Examples shown to models: accepted by the validator, ASCII wherever the pattern allows
//! it, and realistic for the patterns people write (a date pattern gets a date).

use proptest::prelude::*;
use serde_json::{Value, json};
use toolschema::Schema;

fn example_for(pattern: &str) -> String {
    let schema = Schema::from_json(json!({ "type": "string", "pattern": pattern }))
        .unwrap_or_else(|e| panic!("{pattern}: {e}"));
    let example = toolschema::render::example_schema(&schema);
    assert!(
        schema.is_valid(&example),
        "{pattern}: the example {example} is rejected"
    );
    match example {
        Value::String(s) => s,
        other => panic!("{pattern}: the example {other} is not a string"),
    }
}

#[test]
fn patterns_people_write_get_values_people_write() {
    let cases = [
        (r"^\d{4}-\d{2}-\d{2}$", "2025-06-14"),
        (r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "2025-06-14"),
        (r"^\d{2}:\d{2}$", "09:30"),
        (r"^[A-Z]{2}$", "FR"),
        (r"^[A-Z]{3}$", "ABC"),
        (r"^[A-Z]-[0-9]+$", "A-100"),
        (r"^#[0-9a-fA-F]{6}$", "#1a2b3c"),
        (r"^\d+\.\d+\.\d+$", "1.2.3"),
        (r"^\d{5}$", "10115"),
        (r"^[^@\s]+@[^@\s]+\.[a-z]+$", "ann@example.com"),
        (r"^https?://.+$", "https://example.com/page"),
        (r"^\+?[0-9 ]{7,15}$", "+1 555 0100"),
    ];
    for (pattern, expected) in cases {
        assert_eq!(example_for(pattern), expected, "{pattern}");
    }
}

/// Pattern pieces whose every character class has ASCII members.
const PIECES: &[&str] = &[
    r"\d",
    r"\w",
    r"\s",
    "[a-z]",
    "[A-Z]",
    "[0-9a-f]",
    r"[\d\-]",
    "[^x]",
    ".",
    "a",
    "-",
    r"\.",
    "(ab|cd)",
    "(x|[0-9])",
    "é",
    r"[a-zé]",
];

fn pattern() -> impl Strategy<Value = String> {
    let piece = (
        prop::sample::select(PIECES),
        prop::sample::select(vec!["", "*", "+", "?", "{2}", "{1,3}", "{3,}"]),
    )
        .prop_map(|(p, q)| format!("{p}{q}"));
    (
        prop::collection::vec(piece, 1..6),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(pieces, start, end)| {
            format!(
                "{}{}{}",
                if start { "^" } else { "" },
                pieces.concat(),
                if end { "$" } else { "" }
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Every example matches its pattern; its characters are ASCII except where the
    /// pattern itself writes a non-ASCII literal.
    #[test]
    fn examples_match_and_stay_ascii(pattern in pattern()) {
        let example = example_for(&pattern);
        let foreign: Vec<char> = example.chars().filter(|c| !c.is_ascii()).collect();
        prop_assert!(
            foreign.iter().all(|c| *c == 'é'),
            "{pattern}: {example:?} has non-ASCII characters the pattern does not require"
        );
    }

    /// Lengths and patterns together: the example still fits both.
    #[test]
    fn examples_fit_lengths_too(min in 0usize..6, extra in 0usize..6) {
        let max = min + extra;
        let schema = Schema::from_json(json!({
            "type": "string", "pattern": r"^[a-z0-9]+$", "minLength": min.max(1), "maxLength": max.max(1)
        })).unwrap();
        let example = toolschema::render::example_schema(&schema);
        prop_assert!(schema.is_valid(&example), "{example}");
    }
}
