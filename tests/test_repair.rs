//! The lenient parse, fix by fix: every repair, extraction step and coercion, with the
//! exact value it gives and the exact fixes it reports; the pathological inputs. Syntax
//! repairs and truncated replies are here, extraction in `repair/extraction.rs`, coercion
//! in `repair/coercion.rs`; and, in `repair/properties.rs`, properties over generated text
//! (valid JSON is read as it is, a truncated reply never gains content, several values are
//! never read as one, no input panics). Classes with their cases, generated variants and
//! the valid input they leave alone: `repair/json_in_strings.rs`, `repair/hash_comments.rs`,
//! `repair/extra_closers.rs`, `repair/doubled_braces.rs`, `repair/numbers.rs`.

// Test types are built and compared whole; not every field is read on its own.
#![allow(dead_code)]

use serde_json::{Value, json};
use toolschema::repair::{Fix, FixKind, Location, MAX_NESTING, repair};
use toolschema::{Coercion, Parser, ToolSchema, Violation, ViolationKind};

use FixKind::*;

type Fixes = Vec<(FixKind, Location)>;

fn listed(fixes: &[Fix]) -> Fixes {
    fixes
        .iter()
        .map(|f| (f.kind().clone(), f.location().clone()))
        .collect()
}

fn at(kind: FixKind, offset: usize) -> (FixKind, Location) {
    (kind, Location::Offset(offset))
}

fn reply(kind: FixKind) -> (FixKind, Location) {
    (kind, Location::Reply)
}

fn pointer(kind: FixKind, pointer: &str) -> (FixKind, Location) {
    (kind, Location::Pointer(pointer.to_owned()))
}

/// Repairs `text`, and checks the value and the fixes, in order.
#[track_caller]
fn check(text: &str, expected: Value, fixes: &[(FixKind, Location)]) {
    match repair(text) {
        Ok((value, found)) => {
            assert_eq!(value, expected, "value of {text:?}");
            assert_eq!(listed(&found), fixes, "fixes of {text:?}");
        }
        Err(e) => panic!("{text:?} was not repaired: {e}"),
    }
}

/// Repairs `text`, and checks the value and the kinds of fixes, in order.
#[track_caller]
pub fn reads(text: &str, expected: Value, kinds: &[FixKind]) {
    match repair(text) {
        Ok((value, fixes)) => {
            assert_eq!(value, expected, "value of {text:?}");
            let found: Vec<FixKind> = fixes.iter().map(|f| f.kind().clone()).collect();
            assert_eq!(found, kinds, "fixes of {text:?}");
        }
        Err(e) => panic!("{text:?} was not repaired: {e}"),
    }
}

/// The lenient parse into any JSON value: extraction, then repair.
#[track_caller]
fn parsed(raw: &str) -> (Value, Fixes) {
    match Parser::new().parse::<Value>(raw) {
        Ok(parsed) => (parsed.value, listed(&parsed.fixes)),
        Err(e) => panic!("{raw:?} was not parsed: {e}"),
    }
}

// Syntax repairs

#[test]
fn trailing_and_leading_commas_are_removed() {
    check("[1, 2,]", json!([1, 2]), &[at(TrailingComma, 5)]);
    check("{\"a\": 1,}", json!({"a": 1}), &[at(TrailingComma, 7)]);
    check("[1,\n2,\n]", json!([1, 2]), &[at(TrailingComma, 5)]);
    check("[,1]", json!([1]), &[at(TrailingComma, 1)]);
    check("{,\"a\":1}", json!({"a": 1}), &[at(TrailingComma, 1)]);
    check("[1],", json!([1]), &[at(TrailingComma, 3)]);
}

#[test]
fn single_and_typographic_quotes_are_requoted() {
    check(
        "{'a': 'b'}",
        json!({"a": "b"}),
        &[at(SingleQuotes, 1), at(SingleQuotes, 6)],
    );
    // Byte offsets: “ is three bytes.
    check(
        "{“a”: “b”}",
        json!({"a": "b"}),
        &[at(SmartQuotes, 1), at(SmartQuotes, 10)],
    );
    check("['it’s']", json!(["it’s"]), &[at(SingleQuotes, 1)]);
}

#[test]
fn unquoted_keys_and_bare_words_are_quoted() {
    check("{a: 1}", json!({"a": 1}), &[at(UnquotedKey, 1)]);
    check("[abc]", json!(["abc"]), &[at(UnquotedString, 1)]);
    check(
        "{greeting: hello world}",
        json!({"greeting": "hello world"}),
        &[at(UnquotedKey, 1), at(UnquotedString, 11)],
    );
    // Leading zeros carry meaning: kept as written.
    check("[0789]", json!(["0789"]), &[at(UnquotedString, 1)]);
    // Beyond what a JSON number carries: kept as written, not made infinite.
    check("1e999", json!("1e999"), &[at(UnquotedString, 0)]);
}

#[test]
fn comments_are_removed() {
    check("{\"a\": 1 // note\n}", json!({"a": 1}), &[at(Comment, 8)]);
    check(
        "/* c */ [1] # x",
        json!([1]),
        &[at(Comment, 0), at(Comment, 12)],
    );
    // A comment after a string is reported once, not again when the `+` check looks past it.
    check("[\"a\"\n/* c */]", json!(["a"]), &[at(Comment, 5)]);
}

#[test]
fn python_literals_are_read_as_json() {
    check(
        "[True, False, None]",
        json!([true, false, null]),
        &[
            at(PythonLiteral { literal: "True" }, 1),
            at(PythonLiteral { literal: "False" }, 7),
            at(PythonLiteral { literal: "None" }, 14),
        ],
    );
}

#[test]
fn strings_keep_control_characters_and_stray_quotes() {
    check("[\"a\nb\"]", json!(["a\nb"]), &[at(ControlCharacter, 3)]);
    check(
        "{\"a\": \"say \"hi\" now\"}",
        json!({"a": "say \"hi\" now"}),
        &[at(UnescapedQuote, 11), at(UnescapedQuote, 14)],
    );
    // A `)` after a quote closes a parenthesis opened in the string.
    check(
        "{\"height\": \"(5'3\")\"}",
        json!({"height": "(5'3\")"}),
        &[at(UnescapedQuote, 16)],
    );
    // Quotes escaped around a whole string are undone.
    check("\\\"hello world\\\"", json!("hello world"), &[]);
}

/// The one violation of a reply that is not JSON: at the root, a syntax error there.
#[track_caller]
fn syntax_error(err: &toolschema::Error, line: usize, column: usize, message: &str) {
    let syntax = ViolationKind::Syntax {
        line,
        column,
        message: message.to_owned(),
    };
    assert_eq!(err.violations(), [Violation::new("", syntax)], "{err}");
}

#[test]
fn a_lone_string_whose_inner_quotes_ended_it_early_is_read_whole() {
    // The reply is one string literal, its inner quotes not escaped; one of them is
    // followed by what may follow a value, so it seemed to end the string.
    // Every escape keeps its JSON meaning, as anywhere else in a string: `\t` is a tab,
    // `\"` a quote, `\\` a backslash, `\u00e9` an é.
    check(
        "\"Tab:\\there \"quoted\", ok\"",
        json!("Tab:\there \"quoted\", ok"),
        &[at(UnescapedQuote, 12), at(UnescapedQuote, 19)],
    );
    check(
        "\"a \\\"b\\\" \\\\ caf\\u00e9 \"c\": d\"",
        json!("a \"b\" \\ café \"c\": d"),
        &[at(UnescapedQuote, 22), at(UnescapedQuote, 24)],
    );
    check(
        "\"He said \"hi\", then left\"",
        json!("He said \"hi\", then left"),
        &[at(UnescapedQuote, 9), at(UnescapedQuote, 12)],
    );
    check(
        "\"the list [1, 2\"] more\"",
        json!("the list [1, 2\"] more"),
        &[at(UnescapedQuote, 15)],
    );
}

#[test]
fn several_values_are_refused_not_read_as_one_string() {
    // `"yes", "no"` is two strings, not the string `yes", "no`; and a list of strings
    // is not made of them: a reply that is several values is not one of them.
    let unexpected = |c: char| format!("unexpected {c:?} after the JSON value");
    for (text, line, column, c) in [
        (r#""yes", "no""#, 1, 8, '"'),
        (r#""yes" "no""#, 1, 7, '"'),
        ("\"yes\"\n\"no\"", 2, 1, '"'),
        (r#""key": "value""#, 1, 6, ':'),
        (r#""a\"b\"", "c""#, 1, 11, '"'),
        (r#""a", 1, "b""#, 1, 6, '1'),
        // Raw control characters and comments do not make one string of them.
        ("\"a\tb\", /* or */ \"c\"", 1, 17, '"'),
    ] {
        let err = repair(text).expect_err(text);
        syntax_error(&err, line, column, &unexpected(c));
    }
    // Where a list is expected, the values are its items, as written; syntax repair alone
    // refuses them.
    let parsed = Parser::new()
        .parse::<Vec<String>>(r#""yes", "no""#)
        .expect("two values where a list is expected");
    assert_eq!(parsed.value, ["yes", "no"]);
    assert!(
        parsed
            .fixes
            .iter()
            .any(|f| matches!(f.kind(), FixKind::SeveralValues { count: 2 })),
        "{:?}",
        parsed.fixes
    );
    let err = Parser::new()
        .coercion(Coercion::None)
        .parse::<Vec<String>>(r#""yes", "no""#)
        .expect_err("two values are not one");
    syntax_error(&err, 1, 8, &unexpected('"'));
}

#[test]
fn a_string_then_values_of_any_kind_are_refused_not_read_as_one_string() {
    // `"",null:""` is three values, not the string `",null:"`. A word that ends in a
    // colon right before a double quote (`1:2:`, read as a time is, `10:30`; `null 1:`, a
    // literal and a number on one line; `x:`) is followed by the value that quote opens:
    // the quote is not the end quote of a word that lost its opening one.
    let firsts = [r#""""#, r#""a""#, r#""a,b""#, r#""say \"hi\", ok""#];
    let rests = [
        r#"null:"""#,
        r#"null:"b""#,
        r#"None:"b""#,
        r#"TRUE: "b""#,
        r#"0:0:"""#,
        r#"1:2:"b""#,
        r#"-1:2.5:"b""#,
        r#"1e-7:3:4:"b""#,
        r#"false 0:"""#,
        r#"null 1:null:"b""#,
        r#"x:"b""#,
        r#"10:30:{"b": 1}"#,
        r#"{"":"","}":null},"""#,
        r#"[1]:"b""#,
        r#""k":null:"b""#,
        r#"true,"b""#,
    ];
    for first in firsts {
        let width = first.chars().count();
        for rest in rests {
            let next = rest.chars().next().expect("a value");
            for (separator, line, column, c) in [
                (",", 1, width + 2, next),
                (", ", 1, width + 3, next),
                (",\n", 2, 1, next),
                (":", 1, width + 1, ':'),
            ] {
                let text = format!("{first}{separator}{rest}");
                let err = repair(&text).expect_err(&text);
                let message = format!("unexpected {c:?} after the JSON value");
                syntax_error(&err, line, column, &message);
            }
        }
    }
    // One string whose inner quotes stand around such words is still read whole.
    check(
        "\"the time was \"10:30\": late\"",
        json!("the time was \"10:30\": late"),
        &[at(UnescapedQuote, 14), at(UnescapedQuote, 20)],
    );
    check(
        "\"He said \"hi\", then:\"bye\"",
        json!("He said \"hi\", then:\"bye"),
        &[
            at(UnescapedQuote, 9),
            at(UnescapedQuote, 12),
            at(UnescapedQuote, 20),
        ],
    );
    // A quote that ends the text opens nothing; in a container, the quote after the
    // colon may end a word that lost its opening quote. Both read as before.
    check("10:30:\"", json!("10:30:"), &[at(UnquotedString, 0)]);
    check("[10:30:\"]", json!(["10:30:"]), &[at(UnquotedString, 1)]);
    check(
        "{\"at\": 10:30:00}",
        json!({"at": "10:30:00"}),
        &[at(UnquotedString, 7)],
    );
}

#[test]
fn invalid_escapes_keep_the_character() {
    // `\'` is a quote escaped as Python escapes it; a lone surrogate is U+FFFD.
    check("[\"it\\'s\"]", json!(["it's"]), &[at(InvalidEscape, 4)]);
    check("[\"\\ud83d\\ude00\"]", json!(["😀"]), &[]);
    check(
        "[\"\\ud83d\"]",
        json!(["\u{fffd}"]),
        &[at(InvalidEscape, 2)],
    );
}

#[test]
fn missing_commas_and_colons_are_added() {
    check("[1 2]", json!([1, 2]), &[at(MissingComma, 3)]);
    check(
        "{\"a\": 1 \"b\": 2}",
        json!({"a": 1, "b": 2}),
        &[at(MissingComma, 8)],
    );
    check("{\"a\" 1}", json!({"a": 1}), &[at(MissingColon, 5)]);
    // `[{"i":1{"i":2}]`: the first object was never closed.
    check(
        "[{\"i\":1{\"i\":2}]",
        json!([{"i": 1}, {"i": 2}]),
        &[at(ClosedBrackets { count: 1 }, 7), at(MissingComma, 7)],
    );
}

#[test]
fn ellipses_are_removed() {
    check("[1, ..., 3]", json!([1, 3]), &[at(Ellipsis, 4)]);
    check("[...]", json!([]), &[at(Ellipsis, 1)]);
    check("{\"a\": 1, ...}", json!({"a": 1}), &[at(Ellipsis, 9)]);
}

#[test]
fn numbers_with_a_dangling_symbol_are_completed_inside_the_text() {
    check(
        "[.5, 1., -2e, 3]",
        json!([0.5, 1, -2, 3]),
        &[
            at(IncompleteNumber, 1),
            at(IncompleteNumber, 5),
            at(IncompleteNumber, 9),
        ],
    );
    // Floats are read to the nearest f64, whatever serde_json's features are.
    check(
        "[361474139.24914324, 5e-324]",
        json!([361474139.24914324, 5e-324]),
        &[],
    );
    // A whole reply has nothing to drop the number from.
    check("2.", json!(2), &[at(IncompleteNumber, 0)]);
}

#[test]
fn concatenated_strings_are_joined() {
    check(
        "[\"a\" + \"b\" + 'c']",
        json!(["abc"]),
        &[
            at(ConcatenatedStrings, 5),
            at(ConcatenatedStrings, 11),
            at(SingleQuotes, 13),
        ],
    );
    // A string missing its end quote before a comment and a `+`.
    check(
        "[\"abc/*c*/+\"def\"]",
        json!(["abcdef"]),
        &[
            at(ClosedString, 5),
            at(Comment, 5),
            at(ConcatenatedStrings, 10),
        ],
    );
}

#[test]
fn extra_closing_brackets_and_duplicate_keys() {
    check(
        "[1]]}",
        json!([1]),
        &[at(ExtraClosingBracket, 3), at(ExtraClosingBracket, 4)],
    );
    check(
        "{\"a\": 1, \"a\": 2}",
        json!({"a": 2}),
        &[at(DuplicateKey { key: "a".into() }, 9)],
    );
}

#[test]
fn missing_end_quotes_before_a_delimiter() {
    check(
        "[\"hello, world]",
        json!(["hello", "world"]),
        &[at(ClosedString, 7), at(UnquotedString, 9)],
    );
    check(
        "{\"a\": \"b, \"c\": 1}",
        json!({"a": "b", "c": 1}),
        &[at(ClosedString, 8)],
    );
}

// Truncated replies: closed, never completed by guesswork.

#[test]
fn a_reply_cut_off_inside_a_string_is_closed_there() {
    check(
        "[\"abc",
        json!(["abc"]),
        &[at(ClosedString, 5), at(ClosedBrackets { count: 1 }, 5)],
    );
    // Cut off after a comma in the string: the comma is the string's, not a delimiter.
    check(
        "{\"text\": \"Hello, wor",
        json!({"text": "Hello, wor"}),
        &[at(ClosedString, 20), at(ClosedBrackets { count: 1 }, 20)],
    );
    check(
        "[\"Hello,",
        json!(["Hello,"]),
        &[at(ClosedString, 8), at(ClosedBrackets { count: 1 }, 8)],
    );
    // Cut off inside \uXXXX: the string ends before the escape.
    check(
        "[\"a\\u26",
        json!(["a"]),
        &[at(ClosedString, 3), at(ClosedBrackets { count: 1 }, 7)],
    );
}

#[test]
fn brackets_left_open_are_closed_in_one_fix() {
    check(
        "[[1, {\"a\": [",
        json!([[1, {"a": []}]]),
        &[at(ClosedBrackets { count: 4 }, 12)],
    );
    // A mismatched bracket closes the array; the object is closed at the end.
    check(
        "{\"a\":[1,2}",
        json!({"a": [1, 2]}),
        &[
            at(ClosedBrackets { count: 1 }, 9),
            at(ClosedBrackets { count: 1 }, 10),
        ],
    );
}

#[test]
fn a_member_or_item_cut_off_is_dropped_not_invented() {
    let closed = |offset| at(ClosedBrackets { count: 1 }, offset);
    let dropped = |key: &str| DroppedMember { key: key.into() };
    check(
        "{\"a\": 1, \"b\": tr",
        json!({"a": 1}),
        &[at(dropped("b"), 9), closed(16)],
    );
    check(
        "{\"a\": 1, \"b\":",
        json!({"a": 1}),
        &[at(dropped("b"), 9), closed(13)],
    );
    check(
        "{\"a\": 1, \"b\"",
        json!({"a": 1}),
        &[at(dropped("b"), 9), closed(12)],
    );
    check(
        "{\"a\": 1, \"b",
        json!({"a": 1}),
        &[at(ClosedString, 11), at(dropped("b"), 9), closed(11)],
    );
    check(
        "{\"a\": 1, bc",
        json!({"a": 1}),
        &[at(dropped("bc"), 9), closed(11)],
    );
    check("{\"a\": 2.", json!({}), &[at(dropped("a"), 1), closed(8)]);
    check("[1, tr", json!([1]), &[at(DroppedItem, 4), closed(6)]);
    check("[1, -", json!([1]), &[at(DroppedItem, 4), closed(5)]);
    check("[1, 2e", json!([1]), &[at(DroppedItem, 4), closed(6)]);
    // A complete-looking number or word at the end is kept.
    check("[1, 23", json!([1, 23]), &[closed(6)]);
    check(
        "[1, truee",
        json!([1, "truee"]),
        &[at(UnquotedString, 4), closed(9)],
    );
}

#[test]
fn a_truncated_reply_is_reported_through_the_parse() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Note {
        title: String,
        tags: Vec<String>,
        body: Option<String>,
    }
    let parsed = Parser::new()
        .parse::<Note>("```json\n{\"title\": \"Hi\", \"tags\": [\"a\", \"b\"], \"body\": \"Dear")
        .expect("a truncated reply is closed");
    assert_eq!(
        parsed.value,
        Note {
            title: "Hi".into(),
            tags: vec!["a".into(), "b".into()],
            body: Some("Dear".into()),
        }
    );
    assert_eq!(
        listed(&parsed.fixes),
        [
            reply(CodeFence),
            at(ClosedString, 49),
            at(ClosedBrackets { count: 1 }, 49),
        ]
    );
}

#[test]
fn nesting_is_bounded() {
    let ok = format!("{}{}", "[".repeat(MAX_NESTING), "]".repeat(MAX_NESTING));
    let nested = (0..MAX_NESTING - 1).fold(json!([]), |inner, _| json!([inner]));
    check(&ok, nested, &[]);
    let deep = format!(
        "{}{}",
        "[".repeat(MAX_NESTING + 1),
        "]".repeat(MAX_NESTING + 1)
    );
    let err = repair(&deep).expect_err("too deep");
    assert_eq!(
        err.to_string(),
        "(root): invalid JSON at line 1, column 129: nested more than 128 levels deep"
    );
}

#[test]
fn a_million_unclosed_brackets_return_an_error() {
    let text = "[".repeat(1_000_000);
    let err = toolschema::parse::<Value>(&text).expect_err("too deep");
    syntax_error(&err, 1, 129, "nested more than 128 levels deep");
    let text = "{\"a\":".repeat(1_000_000);
    let err = toolschema::parse::<Value>(&text).expect_err("too deep");
    syntax_error(&err, 1, 5 * 128 + 1, "nested more than 128 levels deep");
}

#[path = "repair/extraction.rs"]
mod extraction;

#[path = "repair/coercion.rs"]
mod coercion;

#[path = "repair/properties.rs"]
mod properties;

#[path = "repair/syntax.rs"]
mod syntax;

#[path = "repair/extra_closers.rs"]
mod extra_closers;

#[path = "repair/doubled_braces.rs"]
mod doubled_braces;

#[path = "repair/hash_comments.rs"]
mod hash_comments;

#[path = "repair/json_in_strings.rs"]
mod json_in_strings;

#[path = "repair/numbers.rs"]
mod numbers;

#[path = "repair/variants.rs"]
mod variants;
