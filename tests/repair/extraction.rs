//! Extraction: the JSON taken out of fences, wrappers, prose and reasoning, and which of
//! several candidates is taken.

use serde_json::json;
use toolschema::{Coercion, Parser, ToolSchema, Violation, ViolationKind};

use super::{FixKind::*, at, listed, parsed, pointer, reply};

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
fn brackets_in_single_quoted_strings_do_not_end_the_json() {
    // `{'a': '}'}` is one object: its `}` in quotes does not close it early.
    let quoted = |offsets: [usize; 2]| offsets.map(|o| at(SingleQuotes, o)).to_vec();
    assert_eq!(parsed("{'a': '}'}"), (json!({"a": "}"}), quoted([1, 6])));
    let mut fixes = vec![reply(Prose)];
    fixes.extend(quoted([1, 6]));
    assert_eq!(
        parsed("Here it is: {'a': ']'} and it's done."),
        (json!({"a": "]"}), fixes)
    );
    let mut fixes = vec![reply(Prose)];
    fixes.extend(quoted([1, 9]));
    fixes.push(at(UnescapedQuote, 12));
    assert_eq!(
        parsed("It's this: {'note': 'it's {fine}'}"),
        (json!({"note": "it's {fine}"}), fixes)
    );
    // Apostrophes in prose, and in double-quoted strings, are not quotes.
    assert_eq!(
        parsed("it's {\"a\": 1}"),
        (json!({"a": 1}), vec![reply(Prose)])
    );
    assert_eq!(
        parsed("Bob's list [1, 2] and {\"note\": \"it's\"}"),
        (json!([1, 2]), vec![reply(Prose)])
    );
    assert_eq!(
        parsed("{\"note\": \"it's\"}"),
        (json!({"note": "it's"}), vec![])
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
    assert_eq!(
        err.to_string(),
        r#"/inner: expected an object, found the string "{\"x\": 2}""#
    );
}

#[test]
fn a_schema_echoed_back_is_reported_as_such() {
    #[derive(ToolSchema, Debug)]
    struct Person {
        name: String,
        age: u8,
    }
    let echoed = Person::json_schema().to_string();
    let echo = [Violation::new("", ViolationKind::SchemaEchoed)];
    let err = toolschema::parse::<Person>(&echoed).expect_err("a schema is not data");
    assert_eq!(err.violations(), echo);
    let bare = r#"```json
{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
```"#;
    let err = toolschema::parse::<Person>(bare).expect_err("a schema is not data");
    assert_eq!(err.violations(), echo);
    assert_eq!(listed(err.fixes()), [reply(CodeFence)]);
}
