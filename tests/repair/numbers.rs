//! Numbers as people write them (docs/recovery.md, "Numbers like `1_000` and `2.`", and
//! "Fractions"): digit separators in the integer part, the fraction and the exponent;
//! underscores that stand between no two digits make a word; a fraction (`1/3`) is the
//! text the model wrote, never a number it did not write.

use proptest::prelude::*;
use serde::Deserialize;
use serde_json::{Value, json};
use toolschema::repair::{FixKind, repair};
use toolschema::{Parser, ToolSchema};

use super::FixKind::*;
use super::reads;

#[test]
fn digit_separators_in_the_fraction_and_the_exponent_are_read() {
    reads("1_234.5_6", json!(1234.56), &[DigitSeparators]);
    reads(
        "[1_234.567_8, 1e1_0, 1_0.5, 4.567_891, -2_000.000_1, 6.02e2_3, 1_000]",
        json!([1234.5678, 1e10, 10.5, 4.567891, -2000.0001, 6.02e23, 1000]),
        &vec![DigitSeparators; 7],
    );
    reads(
        r#"{"price": 1_299.9_9}"#,
        json!({"price": 1299.99}),
        &[DigitSeparators],
    );
}

#[test]
fn underscores_between_no_two_digits_make_a_word() {
    let words = [
        "_1",
        "1__2",
        "1_",
        "1._5",
        "1_.5",
        "1.5_",
        "1e_5",
        "1.0__1",
        "2024_01_15",
        "1_00",
    ];
    let text = format!("[{}]", words.join(", "));
    reads(&text, json!(words), &vec![UnquotedString; words.len()]);
    // In strings, as valid JSON writes them, they are text.
    let valid = r#"["1_234.5_6", "1/3", 1234.56]"#;
    reads(valid, serde_json::from_str(valid).expect("JSON"), &[]);
}

#[test]
fn a_fraction_is_text_never_a_number() {
    reads("1/3", json!("1/3"), &[UnquotedString]);
    reads(
        "[1/2, -3/4, 1 / 3, 2024/01/15]",
        json!(["1/2", "-3/4", "1 / 3", "2024/01/15"]),
        &vec![UnquotedString; 4],
    );
    reads(
        r#"{"n": 1/3, "m": 2}"#,
        json!({"n": "1/3", "m": 2}),
        &[UnquotedString],
    );
    // A comment after a number is a comment.
    reads("[1 // one\n, 2]", json!([1, 2]), &[Comment]);
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Ratio {
    ratio: f64,
}

#[derive(ToolSchema, Deserialize, Debug, PartialEq)]
struct Score {
    score: String,
}

#[test]
fn a_fraction_where_a_number_is_expected_is_a_violation_and_text_where_text_is() {
    for raw in [
        r#"{"ratio": 1/2}"#,
        r#"{"ratio": 1/3}"#,
        r#"{"ratio": "3/4"}"#,
    ] {
        let err = Parser::new().parse::<Ratio>(raw).expect_err(raw);
        let shown = err.to_string();
        assert!(
            shown.contains("/ratio") || shown.contains("ratio"),
            "{shown}"
        );
        assert_eq!(err.violations().len(), 1, "{shown}");
        assert_eq!(err.violations()[0].pointer(), "/ratio", "{shown}");
    }
    for (raw, text) in [(r#"{"score": 3/4}"#, "3/4"), (r#"{"score": "1/3"}"#, "1/3")] {
        let parsed = Parser::new().parse::<Score>(raw).expect(raw);
        assert_eq!(parsed.value.score, text);
    }
}

/// A number's digits with `_` put between some of them.
fn separated(digits: String, cuts: Vec<prop::sample::Index>) -> String {
    let mut at: Vec<usize> = cuts
        .iter()
        .filter(|_| digits.len() > 1)
        .map(|i| 1 + i.index(digits.len() - 1))
        .collect();
    at.sort_unstable();
    at.dedup();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if at.contains(&i) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

/// `1234567` as `1_234_567`.
fn thousands(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn numbers_with_separators_are_the_numbers_without_them(
        int in 1u64..10_000_000,
        frac in "[0-9]{1,6}",
        exp in prop::option::of((prop::sample::select(vec!["", "-", "+"]), "[1-9][0-9]?")),
        frac_cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..3),
        exp_cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..2),
        negative in any::<bool>(),
        group in any::<bool>(),
    ) {
        let sign = if negative { "-" } else { "" };
        let int_digits = int.to_string();
        let int_written = if group { thousands(&int_digits) } else { int_digits.clone() };
        let plain_exp = exp.as_ref().map(|(s, d)| format!("e{s}{d}")).unwrap_or_default();
        let written_exp = exp
            .as_ref()
            .map(|(s, d)| format!("e{s}{}", separated(d.clone(), exp_cuts.clone())))
            .unwrap_or_default();
        let plain = format!("{sign}{int_digits}.{frac}{plain_exp}");
        let written = format!("{sign}{int_written}.{}{written_exp}", separated(frac.clone(), frac_cuts));
        let expected: Value = serde_json::from_str(&plain).expect("a number");
        let text = format!("{{\"n\": {written}}}");
        let (value, fixes) = repair(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&value, &json!({"n": expected}), "{}", text);
        let kinds: Vec<FixKind> = fixes.iter().map(|f| f.kind().clone()).collect();
        let expected_fixes = if written.contains('_') { vec![DigitSeparators] } else { vec![] };
        prop_assert_eq!(kinds, expected_fixes, "{}", text);
    }

    #[test]
    fn underscores_out_of_place_make_a_word(
        digits in "[1-9][0-9]{0,3}(\\.[0-9]{1,3})?",
        place in prop::sample::select(vec!["start", "end", "double", "dot"]),
    ) {
        let word = match place {
            "start" => format!("_{digits}"),
            "end" => format!("{digits}_"),
            "double" => format!("{}__{}", &digits[..1], &digits[1..]),
            _ => digits.replacen('.', "_.", 1),
        };
        // `1__` and the like: a digit must follow the underscores somewhere.
        prop_assume!(word != format!("{digits}_") || !digits.is_empty());
        prop_assume!(place != "dot" || digits.contains('.'));
        prop_assume!(place != "double" || digits.len() > 1);
        let text = format!("[{word}]");
        let (value, fixes) = repair(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&value, &json!([word]), "{}", text);
        let kinds: Vec<FixKind> = fixes.iter().map(|f| f.kind().clone()).collect();
        prop_assert_eq!(kinds, vec![UnquotedString], "{}", text);
    }

    #[test]
    fn fractions_are_the_text_written(
        a in -1000i64..1000,
        b in 1i64..1000,
        spaced in any::<bool>(),
    ) {
        let fraction = if spaced { format!("{a} / {b}") } else { format!("{a}/{b}") };
        let text = format!("{{\"x\": {fraction}, \"y\": [{fraction}]}}");
        let (value, _) = repair(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&value, &json!({"x": fraction, "y": [fraction]}), "{}", text);
    }

    #[test]
    fn valid_numbers_and_strings_that_look_like_them_are_read_as_they_are(
        numbers in prop::collection::vec(prop_oneof![
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        ], 0..4),
        strings in prop::collection::vec(
            prop_oneof!["[0-9_./]{1,8}", "[0-9]{1,3}(_[0-9]{3}){1,2}(\\.[0-9_]{1,4})?"],
            0..4,
        ),
    ) {
        let doc = json!({"numbers": numbers, "strings": strings});
        let text = doc.to_string();
        let (value, fixes) = repair(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&value, &doc, "{}", text);
        prop_assert!(fixes.is_empty(), "{}: {:?}", text, fixes);
    }
}
