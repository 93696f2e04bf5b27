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
    // Of the spans in prose, the longest comes first.
    assert_eq!(
        parsed("Bob's list [1, 2] and {\"note\": \"it's\"}"),
        (json!({"note": "it's"}), vec![reply(Prose)])
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

#[test]
fn a_fence_inside_a_string_is_the_strings() {
    let code = json!({"code": "```python\nprint(1)\n```", "n": 1});
    // In a fence, written with escapes or with raw newlines, or in prose.
    let (value, fixes) =
        parsed("```json\n{\"code\": \"```python\\nprint(1)\\n```\", \"n\": 1}\n```");
    assert_eq!((value, fixes), (code.clone(), vec![reply(CodeFence)]));
    let (value, fixes) = parsed("Sure: {\"code\": \"```python\nprint(1)\n```\", \"n\": 1}");
    assert_eq!(value, code);
    assert_eq!(
        fixes,
        [
            reply(Prose),
            at(ControlCharacter, 19),
            at(ControlCharacter, 28)
        ]
    );
    let (value, _) =
        parsed("```json\n{\"code\": \"```python\nprint(1)\n```\", \"n\": 1}\n```\nDone.");
    assert_eq!(value, code);
    // In Python's quotes, single or tripled.
    let (value, _) = parsed("```\n{'code': '''```sh\nmake\n```''', 'n': 1}\n```");
    assert_eq!(value, json!({"code": "```sh\nmake\n```", "n": 1}));
    // A fence cut off inside a string still closes at a marker alone on its line.
    let (value, _) = parsed("```json\n{\"a\": \"b\n```\nmore text");
    assert_eq!(value, json!({"a": "b"}));
}

#[test]
fn braces_and_tags_inside_a_string_are_the_strings() {
    let hint = json!({"hint": "write it as {\"a\": 1}", "n": 2});
    let (value, fixes) = parsed("The call: {\"hint\": \"write it as {\\\"a\\\": 1}\", \"n\": 2}.");
    assert_eq!((value, fixes), (hint, vec![reply(Prose)]));
    // A `<think>` tag inside a line is text, not reasoning to skip.
    let (value, fixes) = parsed("Here: {\"a\": \"<think>x</think> y\"}");
    assert_eq!(
        (value, fixes),
        (json!({"a": "<think>x</think> y"}), vec![reply(Prose)])
    );
}

#[test]
fn of_the_json_in_prose_the_span_that_covers_the_most_comes_first() {
    // An example before the answer, or after it, is not the answer.
    let answer = json!({"a": 1, "b": 2, "c": 3});
    let (value, _) =
        parsed("For example {\"a\": 1} is the shape. The call: {\"a\": 1, \"b\": 2, \"c\": 3}");
    assert_eq!(value, answer);
    let (value, _) = parsed("The call: {\"a\": 1, \"b\": 2, \"c\": 3} (a shorter one: [1, 2])");
    assert_eq!(value, answer);
    // The content of a fence comes before what is around it.
    let (value, fixes) = parsed("[```json\n{\"a\":\"b\"}\n```]");
    assert_eq!((value, fixes), (json!({"a": "b"}), vec![reply(CodeFence)]));
    // Of two fences, the longer.
    let (value, _) =
        parsed("```json\n{\"a\": 1}\n```\nor rather\n```json\n{\"a\": 1, \"b\": 2}\n```");
    assert_eq!(value, json!({"a": 1, "b": 2}));
}
