//! The syntax classes of docs/recovery.md ("Syntax and extraction"), class by class: what
//! each fix gives and reports, and the valid or other input it leaves alone.

use serde_json::{Value, json};
use toolschema::repair::{FixKind, repair};

use super::{FixKind::*, at, check, reads};

/// Repairs `text`, which is valid JSON: the value is its value, and no fix is reported.
#[track_caller]
fn untouched(text: &str) {
    let strict: Value = serde_json::from_str(text).expect("valid JSON");
    reads(text, strict, &[]);
}

// Unescaped quotes inside strings.

#[test]
fn an_unescaped_quote_is_inside_the_string_where_what_follows_cannot_follow_it() {
    // Followed by a word: as before.
    check(
        r#"{"note": "she said "wait" and left", "n": 2}"#,
        json!({"note": "she said \"wait\" and left", "n": 2}),
        &[at(UnescapedQuote, 19), at(UnescapedQuote, 24)],
    );
    // Followed by a comma, and no member after it: `so we left"` starts none.
    check(
        r#"{"note": "the sign read "closed", so we left", "n": 1}"#,
        json!({"note": "the sign read \"closed\", so we left", "n": 1}),
        &[at(UnescapedQuote, 24), at(UnescapedQuote, 31)],
    );
    // Followed by a colon, which never follows a value.
    let typed = json!({"note": "he typed \"yes\": nothing", "n": 1});
    let quotes = vec![UnescapedQuote, UnescapedQuote];
    reads(
        r#"{"note": "he typed "yes": nothing", "n": 1}"#,
        typed,
        &quotes,
    );
    // Followed by the end quote: `""` before the object's end.
    let x = json!({"note": "call it \"X\""});
    reads(r#"{"note": "call it "X""}"#, x, &quotes);
    // Quotes in pairs, commas between them, in an object or an array.
    let labelled = "labelled \"A\", \"B\" and \"C\"";
    let text = r#"{"note": "labelled "A", "B" and "C"", "n": 5}"#;
    reads(
        text,
        json!({"note": labelled, "n": 5}),
        &vec![UnescapedQuote; 6],
    );
    let text = r#"["x", "labelled "A", "B" and "C"", "y"]"#;
    reads(text, json!(["x", labelled, "y"]), &vec![UnescapedQuote; 6]);
    // Items: a colon, or a comma and a word ending in a quote.
    let yes = json!(["he said \"yes\": no", "b"]);
    reads(r#"["he said "yes": no", "b"]"#, yes, &quotes);
    let closed = json!(["the sign read \"closed\", so we left"]);
    reads(r#"["the sign read "closed", so we left"]"#, closed, &quotes);
    // A code block with quotes in a string: no end quote is missing before `{`.
    let code = json!({"code": "```json\n{\"a\": 1}\n```", "n": 1});
    let text = "{\"code\": \"```json\\n{\"a\": 1}\\n```\", \"n\": 1}";
    reads(text, code, &quotes);
}

#[test]
fn a_quote_that_may_end_a_string_ends_it() {
    for text in [
        r#"{"a": "x", "b": "y"}"#,
        r#"{"a": "x,", "b:": "y", "c": "{", "d,": ["e", "f:"]}"#,
        r#"{"a": "x",
            "b": "y"}"#,
        r#"["a", "b", ["c"], {"d": "e"}]"#,
        r#"{"a": "he said \"hi\", then left", "b": ["\"", "\":"]}"#,
    ] {
        untouched(text);
    }
    // Another member, an item or the end follows: the string ends, whatever else is
    // repaired after it.
    reads(
        r#"{"a": "x", b: 1}"#,
        json!({"a": "x", "b": 1}),
        &[UnquotedKey],
    );
    reads(
        r#"["a", b, "c"]"#,
        json!(["a", "b", "c"]),
        &[UnquotedString],
    );
    reads(
        r#"{"a":"foo",b":"bar"}"#,
        json!({"a": "foo", "b": "bar"}),
        &[UnquotedKey],
    );
    // Cut off after the comma, or inside the next key: closed, nothing gained.
    reads(
        r#"{"a": "x", ""#,
        json!({"a": "x"}),
        &[
            ClosedString,
            DroppedMember { key: String::new() },
            ClosedBrackets { count: 1 },
        ],
    );
    reads(
        r#"{"a": "x", "bc"#,
        json!({"a": "x"}),
        &[
            ClosedString,
            DroppedMember { key: "bc".into() },
            ClosedBrackets { count: 1 },
        ],
    );
    // A quote missing before a delimiter is still found missing there.
    reads(
        r#"{"a": "b, "c": 1}"#,
        json!({"a": "b", "c": 1}),
        &[ClosedString],
    );
}

// Backslashes that are not JSON escapes.

#[test]
fn a_backslash_that_starts_no_json_escape_is_a_backslash() {
    check(
        r#"{"path": "C:\Users\ann"}"#,
        json!({"path": "C:\\Users\\ann"}),
        &[at(LiteralBackslash, 12), at(LiteralBackslash, 18)],
    );
    let regex = json!({"re": "^\\d{4}-\\w+\\.$"});
    let kept = vec![LiteralBackslash; 3];
    reads(r#"{"re": "^\d{4}-\w+\.$"}"#, regex, &kept);
    // `\t`, `\n`, `\b` are JSON escapes, in a path as anywhere: valid JSON means them.
    let path = json!({"path": "C:\temp\new\\x\u{8}in"});
    reads(
        r#"{"path": "C:\temp\new\x\bin"}"#,
        path,
        &[LiteralBackslash],
    );
    untouched(r#"{"path": "C:\temp\new"}"#);
    untouched(r#"{"path": "C:\\Users\\ann", "re": "\\d+"}"#);
    // `\'` is a quote escaped as Python escapes it; a backslash before a raw newline
    // escapes the newline.
    reads(r#"["it\'s"]"#, json!(["it's"]), &[InvalidEscape]);
    reads("[\"a\\\nb\"]", json!(["a\nb"]), &[InvalidEscape]);
    // A broken `\u` escape is no literal backslash: refused, or closed when cut off.
    assert!(repair(r#"["\uZ000"]"#).is_err());
    reads(
        r#"["a\u26"#,
        json!(["a"]),
        &[ClosedString, ClosedBrackets { count: 1 }],
    );
}

#[test]
fn a_path_that_ends_in_a_backslash_ends_at_its_quote() {
    // `\"` read as an escaped quote leaves no end quote: the backslash was the path's.
    let dir = json!({"dir": "C:\temp\\", "n": 1});
    reads(r#"{"dir": "C:\temp\", "n": 1}"#, dir, &[LiteralBackslash]);
    let dir = json!({"dir": "D:\\data\\"});
    reads(
        r#"{"dir": "D:\data\"}"#,
        dir,
        &[LiteralBackslash, LiteralBackslash],
    );
    // Where `\"` is an escaped quote, it stays one.
    untouched(r#"{"a": "say \"hi\"", "n": 1}"#);
}

// Raw newlines and tabs.

#[test]
fn raw_newlines_and_tabs_in_strings_are_kept() {
    let text = "{\"a\": \"line 1\nline 2\", \"b\": [\"x\ty\"]}";
    let value = json!({"a": "line 1\nline 2", "b": ["x\ty"]});
    reads(text, value, &[ControlCharacter, ControlCharacter]);
    // A raw newline after a quote inside the string ends nothing.
    let text = "{\"a\": \"say \"hi\"\nthen go\", \"n\": 1}";
    let value = json!({"a": "say \"hi\"\nthen go", "n": 1});
    reads(
        text,
        value,
        &[UnescapedQuote, UnescapedQuote, ControlCharacter],
    );
}

// Python triple-quoted strings.

#[test]
fn triple_quoted_strings_are_read_whole() {
    check(
        "{\"a\": \"\"\"x \"y\" z\"\"\", \"b\": '''p\nq'''}",
        json!({"a": "x \"y\" z", "b": "p\nq"}),
        &[at(TripleQuotes, 6), at(TripleQuotes, 26)],
    );
    // Quotes right before the end quotes are content; escapes read as in any string.
    let text = "[\"\"\"say \"hi\"\"\"\", '''a\\tb\\d''']";
    reads(
        text,
        json!(["say \"hi\"", "a\tb\\d"]),
        &[TripleQuotes, TripleQuotes, LiteralBackslash],
    );
    // No end: read as other strings are.
    assert!(repair(r#"{"a": """unclosed, "b": 1}"#).is_err());
    // Two or three quotes that open no triple-quoted string.
    untouched(r#"{"": "", "a": ["", ""], "b": "\"\"\""}"#);
}

// Unquoted values of several words.

#[test]
fn unquoted_values_of_several_words_are_strings() {
    let text = "{title: Q3 budget review, room: B2, who: Bob's team, at: 10:30}";
    let value =
        json!({"title": "Q3 budget review", "room": "B2", "who": "Bob's team", "at": "10:30"});
    let quoted: Vec<FixKind> = (0..4).flat_map(|_| [UnquotedKey, UnquotedString]).collect();
    reads(text, value, &quoted);
    // A word with a comma in it is two: `Budget` and a key `Q3` with no colon.
    assert!(repair("{title: Budget, Q3, room: B2}").is_err());
    // A reply that is one word keeps its apostrophe to the text fallback.
    assert!(repair("I'm sorry, I can't").is_err());
}

// Empty values and stray words.

#[test]
fn a_member_without_a_value_is_dropped_not_filled_in() {
    let dropped = |key: &str| MissingValue { key: key.into() };
    check(
        r#"{"a": , "b": 1}"#,
        json!({"b": 1}),
        &[at(dropped("a"), 1)],
    );
    reads(r#"{"a": 1, "b": }"#, json!({"a": 1}), &[dropped("b")]);
    reads(r#"{"a":}"#, json!({}), &[dropped("a")]);
    // An item without a value has no honest reading: `[1, 3]` moves 3, `null` invents.
    assert!(repair("[1, , 3]").is_err());
    untouched(r#"{"a": "", "b": null, "c": []}"#);
}

#[test]
fn stray_words_between_members_are_left_out() {
    let stray = |words: &str| StrayWords {
        words: words.into(),
    };
    check(
        r#"{"a": 1, note "b": 2}"#,
        json!({"a": 1, "b": 2}),
        &[at(stray("note"), 9)],
    );
    reads(r#"{note "a": 1}"#, json!({"a": 1}), &[stray("note")]);
    reads(
        r#"{"a": 1, and also 'b': 2}"#,
        json!({"a": 1, "b": 2}),
        &[stray("and also"), SingleQuotes],
    );
    // A word before a value that no colon follows is a key with its colon missing.
    reads(
        r#"{a "b"}"#,
        json!({"a": "b"}),
        &[UnquotedKey, MissingColon],
    );
    untouched(r#"{"note": "b", "a": {"note": 1}}"#);
}

// `TRUE`, `Null`.

#[test]
fn literals_in_capitals_are_literals() {
    reads(
        "[TRUE, FALSE, NULL, Null, True]",
        json!([true, false, null, null, true]),
        &[
            LiteralCase { literal: "TRUE" },
            LiteralCase { literal: "FALSE" },
            LiteralCase { literal: "NULL" },
            LiteralCase { literal: "Null" },
            PythonLiteral { literal: "True" },
        ],
    );
    // Words as often as literals stay words; strings stay strings.
    reads(
        "[none, NONE, tRUE]",
        json!(["none", "NONE", "tRUE"]),
        &vec![UnquotedString; 3],
    );
    untouched(r#"["TRUE", "Null", true, null]"#);
    // A capital literal cut off at the end is dropped, as a lowercase one is.
    reads(
        r#"{"a": 1, "b": NU"#,
        json!({"a": 1}),
        &[
            DroppedMember { key: "b".into() },
            ClosedBrackets { count: 1 },
        ],
    );
}

// `1_000`, `2.`.

#[test]
fn numbers_with_digit_separators_or_a_trailing_dot_are_numbers() {
    check(
        r#"{"a": 1_000, "b": -1_000_000, "c": 1_000.5}"#,
        json!({"a": 1000, "b": -1_000_000, "c": 1000.5}),
        &[
            at(DigitSeparators, 6),
            at(DigitSeparators, 18),
            at(DigitSeparators, 35),
        ],
    );
    reads(
        "[2., -3.]",
        json!([2, -3]),
        &[IncompleteNumber, IncompleteNumber],
    );
    // Underscores that group no thousands make a word: a date, a code.
    reads(
        "[2024_01_15, 1_00, 0_001, 1__000]",
        json!(["2024_01_15", "1_00", "0_001", "1__000"]),
        &vec![UnquotedString; 4],
    );
    untouched(r#"["1_000", 1000, 2.5, "2."]"#);
}
