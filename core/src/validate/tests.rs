//! The validator's own checks: deferred texts, pointers.

use serde_json::json;

use crate::{Schema, Violation};

fn violations(schema: serde_json::Value, value: serde_json::Value) -> Vec<Violation> {
    let schema = Schema::from_json(schema).expect("the schema loads");
    schema
        .validate(&value)
        .expect_err("invalid")
        .violations()
        .to_vec()
}

/// The did-you-mean and the advice are worked out when read, from the rejected word as
/// the violation quotes it; a word too long to quote whole, or one with escapes,
/// gives what it gave when they were worked out at once.
#[test]
fn deferred_texts_read_the_whole_word() {
    let long = format!("{}-{}", "a".repeat(40), "b".repeat(40));
    let typo = format!("{}-c{}", "a".repeat(40), "b".repeat(39));
    let found = violations(json!({"enum": [long, "other"]}), json!(typo));
    assert_eq!(found[0].suggestion(), Some(long.as_str()));

    let pattern = json!({"type": "string", "pattern": "^[A-Z]{3}$"});
    let padded = format!("{} LIS", "Lisbon airport, the one by the river, ".repeat(2));
    assert!(padded.chars().count() > 60 && padded.chars().count() < 200);
    let found = violations(pattern.clone(), json!(padded));
    assert_eq!(found[0].advice(), Some(r#"write it like "LIS""#));

    let quoted = "say \"LIS\"";
    let found = violations(pattern.clone(), json!(quoted));
    assert_eq!(found[0].advice(), Some(r#"write it like "LIS""#));

    let found = violations(json!({"enum": ["tab\there", "x"]}), json!("tab\thera"));
    assert_eq!(found[0].suggestion(), Some("tab\there"));
}

/// A violation cloned before its texts are read has the same texts, and equals one
/// whose texts were given at once.
#[test]
fn a_clone_reads_the_same_texts() {
    let found = violations(json!({"enum": ["celsius", "kelvin"]}), json!("Celsius"));
    let copy = found[0].clone();
    assert_eq!(copy.suggestion(), Some("celsius"));
    assert_eq!(found[0].suggestion(), Some("celsius"));
    let given =
        Violation::new(found[0].pointer(), found[0].kind().clone()).with_suggestion("celsius");
    assert_eq!(found[0], given);
    assert_ne!(found[0], given.with_advice("something else"));
    assert!(format!("{:?}", found[0]).contains(r#"suggestion: Some("celsius")"#));
}

/// An error crosses threads and `await`s and `catch_unwind`: what its violations keep to
/// work out their texts later is shared safely, and two threads reading one violation's
/// text for the first time at once read the same.
#[test]
fn violations_cross_threads_with_their_deferred_texts() {
    fn shared<T: Send + Sync + Clone + std::panic::UnwindSafe + std::panic::RefUnwindSafe>() {}
    shared::<Violation>();
    shared::<crate::Error>();
    let found = violations(json!({"enum": ["celsius", "kelvin"]}), json!("Kelvn"));
    let violation = &found[0];
    let read = std::thread::scope(|scope| {
        let readers: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| violation.suggestion().map(str::to_owned)))
            .collect();
        readers
            .into_iter()
            .map(|reader| reader.join().expect("no panic"))
            .collect::<Vec<_>>()
    });
    assert_eq!(read, vec![Some("kelvin".to_owned()); 4]);
    assert_eq!(violation.suggestion(), Some("kelvin"));
}

/// A rejected word too long to keep is not copied into its violation: the advice is the
/// pattern's form, as when no part of the word fits.
#[test]
fn a_word_too_long_to_keep_gets_the_schema_example() {
    let long = format!("{} LIS", "x".repeat(300));
    let found = violations(
        json!({"type": "string", "pattern": "^[A-Z]{3}$"}),
        json!(long),
    );
    assert_eq!(
        found[0].advice(),
        Some(r#"write it in the form "XXX", where X stands for a capital letter"#)
    );
}

/// A mask's letters are said in words where they stand for exactly one class: a model
/// told `"XX"` alone wrote `"USA"`. A literal that is one of the symbols, or a wider
/// class, leaves that symbol unexplained rather than misread.
#[test]
fn a_mask_s_symbols_are_explained_where_they_are_one_class() {
    let advice = |pattern: &str, found: &str| {
        violations(json!({"type": "string", "pattern": pattern}), json!(found))[0]
            .advice()
            .map(str::to_owned)
    };
    let cases = [
        (
            "^[A-Z]{2}$",
            "United States",
            r#"write it in the form "XX", where X stands for a capital letter"#,
        ),
        (
            "^INV-[0-9]{4}$",
            "invoice",
            r#"write it in the form "INV-0000", where 0 stands for a digit"#,
        ),
        (
            "^[a-z]{3}-\\d{2}$",
            "?",
            r#"write it in the form "xxx-00", where x stands for a small letter, 0 for a digit"#,
        ),
        (
            "^[A-Z]-[0-9]+$",
            "b7 b",
            r#"write it in the form "X-0", where X stands for a capital letter, 0 for a digit"#,
        ),
        // A literal `X`: the capital letters go unexplained.
        (
            "^X[A-Z]-[0-9]$",
            "?",
            r#"write it in the form "XX-0", where 0 stands for a digit"#,
        ),
        // A wider class: `x` is a letter or a digit here.
        ("^[a-z0-9]{4}$", "?", r#"write it in the form "xxxx""#),
        ("^[A-Za-z]{2}$", "?", r#"write it in the form "xx""#),
        // A byte class written as `X`: the capital letters go unexplained.
        ("^(?-u:[X-Z])[A-Z]$", "?", r#"write it in the form "XX""#),
    ];
    for (pattern, found, expected) in cases {
        assert_eq!(
            advice(pattern, found).as_deref(),
            Some(expected),
            "{pattern}"
        );
    }
}
