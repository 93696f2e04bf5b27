//! An enum value written as its abbreviation: read when it has no vowel, as units are
//! abbreviated (`ml`, `kg`, `tbsp`); never what may be a word in its own right (`no` is
//! not `normal`, `min` may not be `minute`), and never when the text is a value the enum
//! lists.

use proptest::prelude::*;
use serde_json::{Value, json};
use toolschema::{Coercion, Parser, Schema, ToolSchema};

use super::{read, refused_at, text};

#[derive(ToolSchema, Debug, PartialEq, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Gram,
    Kilogram,
    Milliliter,
    Liter,
    Piece,
    Teaspoon,
    Tablespoon,
    Minute,
    Hour,
}

#[test]
fn an_enum_value_written_as_its_abbreviation_is_read() {
    for (raw, unit) in [
        ("ml", Unit::Milliliter),
        ("mL", Unit::Milliliter),
        ("kg", Unit::Kilogram),
        ("Kg.", Unit::Kilogram),
        ("tbsp", Unit::Tablespoon),
        ("pc", Unit::Piece),
        ("gr.", Unit::Gram),
        ("hr", Unit::Hour),
        ("lt", Unit::Liter),
        ("mltr", Unit::Milliliter),
    ] {
        let (read, fixes) = read::<Unit>(&text(&json!(raw)));
        assert_eq!(read, unit, "{raw}");
        assert_eq!(fixes.len(), 1, "{raw}: {fixes:?}");
        assert!(
            fixes[0].contains("as the allowed value it abbreviates"),
            "{fixes:?}"
        );
    }
}

/// Units and the like as people abbreviate them, each against values it alone fits.
#[test]
fn abbreviations_without_a_vowel_are_read_by_default() {
    for (raw, value) in [
        ("km", "kilometer"),
        ("cm", "centimeter"),
        ("mm", "millimeter"),
        ("mg", "milligram"),
        ("ms", "millisecond"),
        ("hrs", "hours"),
        ("wk", "week"),
        ("yd", "yard"),
        ("yr", "year"),
        ("pkg", "package"),
        ("mgr", "manager"),
        ("sm", "small"),
        ("md", "medium"),
        ("lg", "large"),
        ("xl", "xlarge"),
        ("tv", "television"),
    ] {
        let schema = enum_of(&[value, "other"]);
        let parsed = Parser::new()
            .parse_value(&schema, &text(&json!(raw)))
            .unwrap_or_else(|e| panic!("{raw} was not read as {value}: {e}"));
        assert_eq!(parsed.value, json!(value), "{raw}");
    }
}

/// `min` may be `minute` or the word, `pie` the word or `piece`: an abbreviation with a
/// vowel is not read at any level, and the model hears the value it may have meant.
#[test]
fn abbreviations_with_a_vowel_are_not_read() {
    for raw in ["min", "Min.", "kilo", "mile", "pie", "tea", "table"] {
        for level in [Coercion::Safe, Coercion::Lenient] {
            let violations = refused_at::<Unit>(level, &text(&json!(raw)));
            assert_eq!(violations.len(), 1, "{violations:?}");
        }
    }
    let violations = refused_at::<Unit>(Coercion::Safe, r#""min""#);
    assert!(
        violations[0].ends_with(r#"did you mean "minute"?"#),
        "{violations:?}"
    );
    for (raw, value) in [("sec", "second"), ("avg", "average"), ("qty", "quantity")] {
        let schema = enum_of(&[value, "other"]);
        for level in [Coercion::Safe, Coercion::Lenient] {
            let read = read_value(&schema, &text(&json!(raw)), level);
            assert_eq!(read, None, "{raw} at {level:?}");
        }
    }
}

#[test]
fn an_abbreviation_is_not_read_when_it_is_one_letter_fits_two_values_or_is_a_word() {
    for raw in [
        // One letter: `g` is a guess.
        "g", "l", "h", // Two values fit: `teaspoon` and `tablespoon`.
        "tsp", "t",
        // Letters not in the value in order, or not its first (`pcs`: no `s` after `c`).
        "oz", "lb", "pcs", "ms", "mg",
        // Longer than an abbreviation, or not only letters.
        "millil", "kilogr", "ml2", "m l", "",
        // A word, though its letters are in a value in order.
        "mile", "kill", "pie", "tea", "table", "hmm",
    ] {
        for level in [Coercion::Safe, Coercion::Lenient] {
            if let Ok(parsed) = Parser::new()
                .coercion(level)
                .parse::<Unit>(&text(&json!(raw)))
            {
                panic!("{raw:?} was read at {level:?} as {:?}", parsed.value);
            }
        }
    }
    // Without coercion, nothing is read.
    let refused = Parser::new()
        .coercion(Coercion::None)
        .parse::<Unit>(r#""ml""#);
    assert!(refused.is_err());
}

#[derive(ToolSchema, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Priority {
    Normal,
    Urgent,
}

/// `"no"` has all the letters of `normal` in order, and means something else.
#[test]
fn no_is_not_normal() {
    for level in [Coercion::Safe, Coercion::Lenient] {
        for raw in ["no", "No", "NO", "no."] {
            refused_at::<Priority>(level, &text(&json!(raw)));
        }
    }
}

/// Common words against values that hold their letters in order, as the defect did.
#[test]
fn a_word_is_not_read_as_a_value_it_fits() {
    for (raw, values) in [
        ("on", ["online", "offline"]),
        ("in", ["inactive", "active"]),
        ("it", ["italian", "french"]),
        ("is", ["isolated", "shared"]),
        ("at", ["automatic", "manual"]),
        ("as", ["ascending", "descending"]),
        ("or", ["orange", "green"]),
        ("an", ["annual", "monthly"]),
        ("up", ["upload", "download"]),
        ("us", ["user", "admin"]),
        ("we", ["weekly", "daily"]),
        ("yes", ["yesterday", "today"]),
        ("done", ["downloaded", "queued"]),
        ("open", ["operational", "down"]),
        ("none", ["nonessential", "essential"]),
        ("high", ["highest", "lowest"]),
        ("hmm", ["hammer", "saw"]),
        ("shh", ["shadow", "light"]),
    ] {
        let schema = enum_of(&values);
        for level in [Coercion::Safe, Coercion::Lenient] {
            let parsed = Parser::new()
                .coercion(level)
                .parse_value(&schema, &text(&json!(raw)));
            if let Ok(parsed) = parsed {
                panic!("{raw:?} was read at {level:?} as {}", parsed.value);
            }
        }
    }
}

/// A value that is allowed is never changed: the reading is for values the enum does
/// not list.
#[test]
fn an_allowed_value_is_never_read_as_another() {
    let names = [
        "gram",
        "kilogram",
        "milliliter",
        "liter",
        "piece",
        "teaspoon",
        "tablespoon",
        "minute",
        "hour",
    ];
    for name in names {
        let parsed = Parser::new()
            .parse::<Unit>(&text(&json!(name)))
            .expect("allowed");
        assert_eq!(parsed.fixes, [], "{name}");
    }
}

fn enum_of(values: &[&str]) -> Schema {
    Schema::from_json(json!({"type": "string", "enum": values})).expect("a schema")
}

/// The common words the reading must never take for a value.
const WORDS: &[&str] = &[
    "no", "on", "in", "it", "is", "at", "as", "or", "an", "up", "us", "we", "he", "me", "be", "do",
    "go", "so", "to", "of", "if", "by", "my", "am", "ok", "hi", "oh", "yes", "not", "the", "and",
    "but", "can", "all", "any", "one", "two", "low", "new", "old", "off", "out", "was", "has",
    "had", "how", "who", "why", "set", "end", "few", "now", "via", "done", "open", "none", "null",
    "true", "high", "also", "some", "each", "both", "full", "half", "left", "more", "less", "slow",
    "fast", "false", "empty", "maybe", "never", "hmm", "shh", "brr", "nth", "tsk",
];

/// `word` with `fill` put in after its first letter at the given places: a value the
/// word abbreviates, as far as its letters go.
fn spread(word: &str, fill: &[(usize, char)]) -> String {
    let mut value: Vec<char> = word.chars().collect();
    for &(at, c) in fill {
        let at = 1 + at % value.len();
        value.insert(at, c);
    }
    value.into_iter().collect()
}

/// What a parse made of `raw` at `level`: the value, if it was read.
fn read_value(schema: &Schema, raw: &str, level: Coercion) -> Option<Value> {
    let parsed = Parser::new()
        .coercion(level)
        .parse_value(schema, raw)
        .ok()?;
    Some(parsed.value)
}

proptest! {
    /// A common word is never read as another value, however many values hold its
    /// letters in order and whatever else the enum lists.
    #[test]
    fn a_common_word_is_never_read_as_another_value(
        word in prop::sample::select(WORDS),
        fill in prop::collection::vec((0..8usize, prop::char::range('a', 'z')), 1..6),
        others in prop::collection::vec("[a-z]{1,9}", 0..4),
        upper: bool,
    ) {
        let value = spread(word, &fill);
        let mut values: Vec<&str> = vec![value.as_str()];
        values.extend(others.iter().map(String::as_str).filter(|o| *o != value));
        let schema = enum_of(&values);
        let written = if upper { word.to_uppercase() } else { word.to_owned() };
        for level in [Coercion::Safe, Coercion::Lenient] {
            if let Some(read) = read_value(&schema, &text(&json!(written)), level) {
                // Only the word itself, where the enum lists it.
                prop_assert_eq!(&read, &json!(word), "{:?} at {:?} in {:?}", written, level, values);
            }
        }
    }

    /// A text with a vowel is never read as a value it abbreviates: it may be a word in
    /// its own right.
    #[test]
    fn a_text_with_a_vowel_is_never_read_as_an_abbreviation(
        text_written in "[a-z]{0,2}[aeiou][a-z]{0,2}",
        fill in prop::collection::vec((0..8usize, prop::char::range('a', 'z')), 1..6),
    ) {
        let value = spread(&text_written, &fill);
        let schema = enum_of(&[value.as_str()]);
        for level in [Coercion::Safe, Coercion::Lenient] {
            prop_assert_eq!(read_value(&schema, &text(&json!(text_written)), level), None);
        }
    }

    /// A value the enum lists is kept as written at every level, whatever other values
    /// it abbreviates or is an abbreviation of.
    #[test]
    fn a_listed_value_is_never_changed(
        word in "[a-z]{2,8}",
        fill in prop::collection::vec((0..8usize, prop::char::range('a', 'z')), 1..6),
        others in prop::collection::vec("[a-z]{1,9}", 0..4),
    ) {
        let longer = spread(&word, &fill);
        let mut values = vec![word.clone(), longer.clone()];
        values.extend(others);
        let values: Vec<&str> = values.iter().map(String::as_str).collect();
        let schema = enum_of(&values);
        for listed in &values {
            for level in [Coercion::Safe, Coercion::Lenient] {
                let parsed = Parser::new()
                    .coercion(level)
                    .parse_value(&schema, &text(&json!(listed)))
                    .map_err(|e| TestCaseError::fail(format!("{listed} refused: {e}")))?;
                prop_assert_eq!(&parsed.value, &json!(listed));
                prop_assert!(parsed.fixes.is_empty(), "{:?}", parsed.fixes);
            }
        }
    }
}
