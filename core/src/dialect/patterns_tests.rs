use proptest::prelude::*;
use serde_json::json;

use super::portable;
use crate::schema::compile_pattern;

fn rewritten(pattern: &str) -> String {
    portable(pattern).unwrap_or_else(|reason| panic!("{pattern}: {reason}"))
}

fn refused(pattern: &str) -> String {
    portable(pattern).expect_err(pattern)
}

#[test]
fn class_escapes_become_explicit_sets() {
    assert_eq!(
        rewritten(r"^\d{4}-\d{2}-\d{2}$"),
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
    );
    assert_eq!(rewritten(r"^\w+$"), "^[0-9A-Za-z_]+$");
    assert_eq!(rewritten(r"^\D\W$"), "^[^0-9][^0-9A-Za-z_]$");
    assert_eq!(rewritten(r"^[\d\w-]+$"), "^[0-90-9A-Za-z_-]+$");
    assert!(rewritten(r"^\s$").contains(r"\u00A0"));
    assert!(rewritten(r"^\S$").starts_with("^[^"));
}

#[test]
fn escapes_become_code_points() {
    assert_eq!(rewritten(r"^a\.b$"), r"^a[\x2E]b$");
    assert_eq!(rewritten(r"^\(\d+\)$"), r"^[\x28][0-9]+[\x29]$");
    assert_eq!(rewritten(r"^\t\n$"), r"^[\x09][\x0A]$");
    assert_eq!(rewritten(r"^\u00e9\x41$"), r"^[\u00E9][\x41]$");
    assert_eq!(rewritten(r"^[\]\\]$"), r"^[\x5D\x5C]$");
    assert_eq!(rewritten(r"^\cJ$"), r"^[\x0A]$");
    assert_eq!(rewritten(r"^a{$"), r"^a[\x7B]$");
    assert_eq!(rewritten(r"^a{2,3}$"), r"^a{2,3}$");
    assert_eq!(rewritten(r"^.$"), r"^[^\x0A\x0D\u2028\u2029]$");
    assert_eq!(rewritten("^say \"hi\"$"), r"^say [\x22]hi[\x22]$");
}

#[test]
fn what_is_already_portable_is_kept() {
    for pattern in [
        "^[A-Z]-[0-9]+$",
        "^(ab|cd)*$",
        "^[a-z]{2,}$",
        "^#[0-9a-f]{6}$",
    ] {
        assert_eq!(rewritten(pattern), pattern);
    }
}

#[test]
fn what_engines_cannot_compile_is_refused_with_a_reason() {
    let cases = [
        ("[0-9]+", "anchored"),
        ("^[0-9]+", "anchored"),
        (r"^a\$", "anchored"),
        ("^a$|^b$", "anchor"),
        ("^(?=a)a$", "look-around"),
        ("^(?:a)$", "group modifier"),
        ("^a+?$", "lazy"),
        ("^a{2}?$", "lazy"),
        (r"^(a)\1$", "backreference"),
        (r"^\bword$", "word boundary"),
        (r"^\p{L}$", "Unicode property"),
        (r"^[\D]$", "negated class escape"),
        (r"^[]$", "empty class"),
        (r"^\ud83d$", "surrogate"),
        (r"^\q$", r"\q"),
    ];
    for (pattern, reason) in cases {
        let said = refused(pattern);
        assert!(said.contains(reason), "{pattern}: {said}");
    }
}

/// Characters that meet every construct the rewrite touches.
const ALPHABET: &[char] = &[
    'a', 'Z', '0', '9', '_', '-', '.', ' ', '\t', '\n', '\u{A0}', '\u{2028}', '\u{FEFF}', 'é', '٣',
    '{', '}', '"', '\\', '[', ']', '(', ')',
];

/// Pattern pieces: ECMA-262 constructs the rewrite handles.
const PIECES: &[&str] = &[
    r"\d", r"\D", r"\w", r"\W", r"\s", r"\S", ".", "a", "Z", "9", r"\.", r"\-", r"\\", r"\t",
    r"\n", r"\u00e9", r"\x41", "[a-z]", r"[\d\s]", r"[^\w]", r"[.\]]", "{", "}", "\"", "(a|0)",
    r"\{",
];

fn pattern() -> impl Strategy<Value = String> {
    let piece = (
        prop::sample::select(PIECES),
        prop::sample::select(vec!["", "*", "+", "?", "{2}", "{1,3}"]),
    )
        .prop_map(|(p, q)| {
            if p == "{" || p == "}" {
                p.to_owned()
            } else {
                format!("{p}{q}")
            }
        });
    prop::collection::vec(piece, 1..6).prop_map(|pieces| format!("^{}$", pieces.concat()))
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ALPHABET), 0..6)
        .prop_map(|chars| chars.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// The rewrite matches exactly what the pattern matches: by toolschema's ECMA-262
    /// reading, and by the `jsonschema` crate's.
    #[test]
    fn the_rewrite_keeps_the_meaning(pattern in pattern(), texts in prop::collection::vec(text(), 8)) {
        let Ok(original) = compile_pattern(&pattern) else { return Ok(()) };
        let portable = rewritten(&pattern);
        let compiled = compile_pattern(&portable)
            .unwrap_or_else(|e| panic!("{pattern} → {portable}: {e}"));
        let theirs = |p: &str| jsonschema::validator_for(&json!({ "pattern": p })).ok();
        let (their_original, their_portable) = (theirs(&pattern), theirs(&portable));
        for text in texts {
            let expected = original.is_match(&text);
            prop_assert_eq!(compiled.is_match(&text), expected, "{} → {} on {:?}", pattern, portable, text);
            // The jsonschema crate's reading of the two must agree too (whatever it
            // makes of the original), but for line terminators: its `.` matches U+2028
            // and U+2029, which ECMA-262's does not.
            let ecma_only = text.contains(['\u{2028}', '\u{2029}', '\r']);
            if let (Some(a), Some(b), false) = (&their_original, &their_portable, ecma_only) {
                prop_assert_eq!(b.is_valid(&json!(text)), a.is_valid(&json!(text)), "{} → {} on {:?} (jsonschema)", pattern, portable, text);
            }
        }
    }

    /// The rewrite is in the subset: it rewrites to itself.
    #[test]
    fn the_rewrite_is_a_fixed_point(pattern in pattern()) {
        let once = rewritten(&pattern);
        prop_assert_eq!(rewritten(&once), once.clone());
        prop_assert!(!once.contains(r"\d") && !once.contains(r"\w") && !once.contains(r"\s"));
    }
}
