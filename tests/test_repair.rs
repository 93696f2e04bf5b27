//! The lenient parse, fix by fix: every repair, extraction step and coercion, with the
//! exact value it gives and the exact fixes it reports; the pathological inputs; and, in
//! `repair/properties.rs`, properties over generated text (valid JSON is read as it is, a
//! truncated reply never gains content, no input panics).

// Test types are built and compared whole; not every field is read on its own.
#![allow(dead_code)]

use serde_json::{Value, json};
use toolschema::repair::{Fix, FixKind, Location, MAX_NESTING, repair};
use toolschema::{Coercion, Parser, ToolSchema, ViolationKind};

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

#[test]
fn invalid_escapes_keep_the_character() {
    check("[\"a\\qb\"]", json!(["aqb"]), &[at(InvalidEscape, 3)]);
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
    assert!(repair(&ok).is_ok());
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
    assert!(
        matches!(err.violations()[0].kind(), ViolationKind::Syntax { message, .. }
            if message == "nested more than 128 levels deep"),
        "{err}"
    );
    let text = "{\"a\":".repeat(1_000_000);
    assert!(toolschema::parse::<Value>(&text).is_err());
}

// Extraction

#[test]
fn json_is_taken_out_of_fences_wrappers_and_prose() {
    assert_eq!(
        parsed("Sure:\n```json\n{\"a\": 1}\n```\nAnything else?"),
        (json!({"a": 1}), vec![reply(CodeFence)])
    );
    assert_eq!(
        parsed("<tool_call>{\"name\": \"x\"}</tool_call>"),
        (
            json!({"name": "x"}),
            vec![reply(Wrapper {
                tag: "tool_call".into()
            })]
        )
    );
    assert_eq!(
        parsed("The answer is {\"a\": [1, 2]}."),
        (json!({"a": [1, 2]}), vec![reply(Prose)])
    );
    // Strict JSON as a whole is taken as it is, whatever its strings hold.
    assert_eq!(
        parsed("{\"a\": \"<think>x</think> ```json\"}"),
        (json!({"a": "<think>x</think> ```json"}), vec![])
    );
}

#[test]
fn thinking_blocks_are_skipped() {
    assert_eq!(
        parsed("<think>maybe {\"a\": 0}</think>\n{\"a\": 1}"),
        (json!({"a": 1}), vec![reply(Thinking)])
    );
    // Reasoning never closed, with nothing before it: the answer may be inside.
    assert_eq!(
        parsed("<thinking>so it is {\"a\": 2}"),
        (json!({"a": 2}), vec![reply(Thinking), reply(Prose)])
    );
}

#[test]
fn of_several_candidates_the_first_that_fits_is_taken() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Pick {
        a: u8,
    }
    let picked = Parser::new()
        .parse::<Pick>("Either {\"b\": 1} or {\"a\": 1}.")
        .expect("the second fits");
    assert_eq!(picked.value, Pick { a: 1 });
    let candidate = Candidate {
        chosen: 1,
        of: 3,
        reason: "the first that fits the schema",
    };
    assert_eq!(listed(&picked.fixes), [reply(Prose), reply(candidate)]);
    // A code block in another language fits any string, but JSON after it is preferred.
    let (value, fixes) =
        parsed("Install it:\n```bash\npip install x\n```\nthen send\n```json\n{\"a\": 1}\n```");
    assert_eq!(value, json!({"a": 1}));
    let candidate = Candidate {
        chosen: 1,
        of: 3,
        reason: "the first JSON value that fits the schema",
    };
    assert_eq!(fixes, [reply(CodeFence), reply(candidate)]);
}

#[test]
fn a_reply_that_is_not_json_is_text_where_a_string_is_asked_for() {
    let parsed = Parser::new()
        .parse::<String>("Paris, France.")
        .expect("text");
    assert_eq!(parsed.value, "Paris, France.");
    assert_eq!(listed(&parsed.fixes), [reply(PlainText)]);
    let parsed = Parser::new().parse::<String>("Paris").expect("a word");
    assert_eq!(parsed.value, "Paris");
    assert_eq!(listed(&parsed.fixes), [at(UnquotedString, 0)]);
}

#[test]
fn double_encoded_json_is_decoded() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Inner {
        x: u8,
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Outer {
        inner: Inner,
    }
    let parsed = Parser::new()
        .parse::<Inner>(r#""{\"x\": 1}""#)
        .expect("decoded");
    assert_eq!(parsed.value, Inner { x: 1 });
    assert_eq!(listed(&parsed.fixes), [reply(DoubleEncoded)]);
    let parsed = Parser::new()
        .parse::<Outer>(r#"{"inner": "{\"x\": 2}"}"#)
        .expect("decoded");
    assert_eq!(parsed.value.inner, Inner { x: 2 });
    assert_eq!(listed(&parsed.fixes), [pointer(DoubleEncoded, "/inner")]);
    // Not with coercion off: the string is a wrong type.
    let err = Parser::new()
        .coercion(Coercion::None)
        .parse::<Outer>(r#"{"inner": "{\"x\": 2}"}"#)
        .expect_err("no coercion");
    assert_eq!(err.violations()[0].pointer(), "/inner");
}

#[test]
fn a_schema_echoed_back_is_reported_as_such() {
    #[derive(ToolSchema, Debug)]
    struct Person {
        name: String,
        age: u8,
    }
    let echoed = Person::json_schema().to_string();
    let err = toolschema::parse::<Person>(&echoed).expect_err("a schema is not data");
    assert_eq!(err.violations().len(), 1);
    assert_eq!(err.violations()[0].kind(), &ViolationKind::SchemaEchoed);
    let bare = r#"```json
{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
```"#;
    let err = toolschema::parse::<Person>(bare).expect_err("a schema is not data");
    assert_eq!(err.violations()[0].kind(), &ViolationKind::SchemaEchoed);
    assert_eq!(listed(err.fixes()), [reply(CodeFence)]);
}

// Coercion

#[derive(ToolSchema, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Status {
    Open,
    InProgress,
    Done,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Task {
    title: String,
    points: u8,
    urgent: bool,
    status: Status,
    tags: Vec<String>,
}

const LOOSE_TASK: &str = r#"{"title": "Ship", "points": "3", "urgent": "true", "status": "In Progress", "tags": "release"}"#;

#[test]
fn safe_coercion_makes_lossless_changes_and_reports_each() {
    let parsed = Parser::new().parse::<Task>(LOOSE_TASK).expect("coerced");
    assert_eq!(
        parsed.value,
        Task {
            title: "Ship".into(),
            points: 3,
            urgent: true,
            status: Status::InProgress,
            tags: vec!["release".into()],
        }
    );
    let enum_case = EnumCase {
        from: "In Progress".into(),
        to: "in_progress".into(),
    };
    assert_eq!(
        listed(&parsed.fixes),
        [
            pointer(StringToNumber, "/points"),
            pointer(StringToBoolean, "/urgent"),
            pointer(enum_case, "/status"),
            pointer(WrappedInList, "/tags"),
        ]
    );
    // Safe is the default.
    assert_eq!(
        toolschema::parse::<Task>(LOOSE_TASK)
            .expect("coerced")
            .points,
        3
    );
}

#[test]
fn without_coercion_the_value_must_fit_as_written() {
    let err = Parser::new()
        .coercion(Coercion::None)
        .parse::<Task>(LOOSE_TASK)
        .expect_err("nothing is coerced");
    let pointers: Vec<&str> = err.violations().iter().map(|v| v.pointer()).collect();
    assert_eq!(pointers, ["/points", "/urgent", "/status", "/tags"]);
    assert_eq!(err.fixes(), []);
}

#[test]
fn coercion_never_rounds_or_guesses() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Count {
        n: u8,
    }
    let parse = |raw: &str| Parser::new().parse::<Count>(raw);
    assert_eq!(parse(r#"{"n": "42"}"#).expect("a number").value.n, 42);
    // 3.0 is the integer 3; 1.5 is not rounded, as a number or in a string.
    assert_eq!(parse(r#"{"n": "3.0"}"#).expect("an integer").value.n, 3);
    for raw in [r#"{"n": 1.5}"#, r#"{"n": "1.5"}"#, r#"{"n": "forty"}"#] {
        let err = parse(raw).expect_err("not an integer");
        assert_eq!(err.violations()[0].pointer(), "/n", "{raw}");
        assert!(
            matches!(err.violations()[0].kind(), ViolationKind::WrongType { .. }),
            "{raw}"
        );
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Price {
        eur: f64,
    }
    let parsed = Parser::new()
        .parse::<Price>(r#"{"eur": "361474139.24914324"}"#)
        .expect("a number");
    assert_eq!(parsed.value.eur, 361474139.24914324);
    // A number read from a string is still checked against its range.
    let err = parse(r#"{"n": "300"}"#).expect_err("out of range");
    assert_eq!(err.to_string(), "/n: 300 is above the maximum of 255");
    assert_eq!(listed(err.fixes()), [pointer(StringToNumber, "/n")]);
}

#[test]
fn near_miss_keys_stay_violations_with_a_suggestion() {
    #[derive(ToolSchema, Debug)]
    struct Person {
        name: String,
        age: u8,
    }
    let err =
        toolschema::parse::<Person>(r#"{"nmae": "Ann", "age": 31}"#).expect_err("not renamed");
    let found: Vec<(&str, &ViolationKind, Option<&str>)> = err
        .violations()
        .iter()
        .map(|v| (v.pointer(), v.kind(), v.suggestion()))
        .collect();
    assert_eq!(
        found,
        [
            ("/nmae", &ViolationKind::UnknownField, Some("name")),
            ("/name", &ViolationKind::MissingField, None),
        ]
    );
}

#[test]
fn enum_values_match_ignoring_case_and_separators_only_when_unambiguous() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Ticket {
        status: Status,
    }
    let parsed = Parser::new()
        .parse::<Ticket>(r#"{"status": "DONE"}"#)
        .expect("matched");
    assert_eq!(parsed.value.status, Status::Done);
    let enum_case = EnumCase {
        from: "DONE".into(),
        to: "done".into(),
    };
    assert_eq!(listed(&parsed.fixes), [pointer(enum_case, "/status")]);
    let err = toolschema::parse::<Ticket>(r#"{"status": "finished"}"#).expect_err("no match");
    assert!(matches!(
        err.violations()[0].kind(),
        ViolationKind::NotAllowed { .. }
    ));
    // Two allowed values that differ only in separators: no guess.
    let schema = toolschema::Schema::from_json(json!({"enum": ["in_progress", "in-progress"]}))
        .expect("a schema");
    assert_eq!(
        schema.parse("\"in_progress\"").expect("as written"),
        "in_progress"
    );
    let err = schema.parse("\"In Progress\"").expect_err("ambiguous");
    assert!(matches!(
        err.violations()[0].kind(),
        ViolationKind::NotAllowed { .. }
    ));
}

#[test]
fn fixes_are_kept_on_the_error() {
    #[derive(ToolSchema, Debug)]
    struct Small {
        #[schema(range(max = 10))]
        n: u8,
    }
    let err = toolschema::parse::<Small>("```json\n{'n': 30,}\n```").expect_err("too big");
    assert!(matches!(
        err.violations()[0].kind(),
        ViolationKind::OutOfRange { .. }
    ));
    assert_eq!(
        listed(err.fixes()),
        [reply(CodeFence), at(SingleQuotes, 1), at(TrailingComma, 8),]
    );
}

#[path = "repair/properties.rs"]
mod properties;
