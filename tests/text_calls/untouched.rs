//! A reply that fits as written is read as written: valid answers and calls whose strings
//! hold every format's markers get no `TextToolCall` and keep their values; a type that is
//! no union of tools never gets the reading.

use proptest::prelude::*;
use serde_json::json;

use super::*;

/// Text holding the formats' markers and calls, among other characters.
fn tricky_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "<tool_call>",
        "</tool_call>",
        "[TOOL_CALLS]",
        "[ARGS]",
        "<function=search>",
        "</function>",
        "<|python_tag|>",
        "<|eom_id|>",
        "f(x=1)",
        "get_weather(city=\"Paris\")",
        "[search(query='x'), switch_lamp(name='desk', on=True)]",
        "search({\"query\": \"x\"})",
        "{\"name\": \"search\", \"arguments\": {\"query\": \"y\"}}",
        "```python\nsearch(query='z')\n```",
        "<think>",
        "; ",
        "\n",
        " ",
        "'",
        "\"",
        "\\",
        "Zoë",
        "李雷",
        "🙂",
    ]);
    prop::collection::vec(
        prop_oneof![pieces.prop_map(str::to_owned), "[a-z ,.()]{0,8}"],
        0..8,
    )
    .prop_map(|parts| parts.concat())
}

/// A valid reply, as written and pretty-printed, and the calls (or answer) it is.
fn valid_reply() -> impl Strategy<Value = (Value, Step)> {
    prop_oneof![
        tricky_text().prop_map(|s| (json!({ "answer": s }), Step::Answer(s))),
        tricky_text().prop_map(|s| (
            json!({ "name": "search", "arguments": { "query": s } }),
            Step::Search(Search { query: s })
        )),
        (tricky_text(), any::<Option<u8>>()).prop_map(|(city, days)| (
            json!({ "name": "get_weather", "arguments": { "city": city, "days": days } }),
            Step::GetWeather(GetWeather { city, days })
        )),
    ]
}

fn read_as_text(fixes: &[toolschema::Fix]) -> bool {
    fixes
        .iter()
        .any(|f| matches!(f.kind(), toolschema::FixKind::TextToolCall { .. }))
}

proptest! {
    #[test]
    fn valid_replies_are_read_as_written((value, step) in valid_reply(), pretty in any::<bool>()) {
        let raw = if pretty {
            serde_json::to_string_pretty(&value).unwrap()
        } else {
            value.to_string()
        };
        let parsed = Parser::new().parse::<Step>(&raw).unwrap();
        prop_assert_eq!(&parsed.value, &step);
        prop_assert!(parsed.fixes.is_empty(), "{:?}", lines(&parsed.fixes));

        let parsed = toolset().read(&Parser::new(), &raw).unwrap();
        prop_assert!(parsed.fixes.is_empty(), "{:?}", lines(&parsed.fixes));
        match (parsed.value, &value) {
            (Choice::Answer(answer), _) => prop_assert_eq!(Some(&answer), value.get("answer")),
            (Choice::Calls(calls), _) => {
                prop_assert_eq!(calls.len(), 1);
                prop_assert_eq!(Some(calls[0].model_name()), value["name"].as_str());
                prop_assert_eq!(calls[0].arguments(), &value["arguments"]);
            }
        }

        // In a fence, with a sentence before: the fence and the prose, nothing else.
        let fenced = format!("Here you go:\n```json\n{raw}\n```");
        let parsed = Parser::new().parse::<Step>(&fenced).unwrap();
        prop_assert_eq!(&parsed.value, &step);
        prop_assert!(!read_as_text(&parsed.fixes), "{:?}", lines(&parsed.fixes));
        let parsed = toolset().read(&Parser::new(), &fenced).unwrap();
        prop_assert!(!read_as_text(&parsed.fixes), "{:?}", lines(&parsed.fixes));
    }

    /// A record, not a union of tools, never reads calls in text, whatever it is given.
    #[test]
    fn a_record_never_reads_text_calls(text in tricky_text()) {
        for raw in [
            text.clone(),
            format!("search(query={})", json!(text)),
            format!("<tool_call>{}</tool_call>", json!({ "query": text })),
            format!("[TOOL_CALLS]search[ARGS]{}", json!({ "query": text })),
        ] {
            let fixes = match Parser::new().parse::<Search>(&raw) {
                Ok(parsed) => parsed.fixes,
                Err(e) => e.fixes().to_vec(),
            };
            prop_assert!(!read_as_text(&fixes), "{:?}: {:?}", raw, lines(&fixes));
        }
    }
}

#[test]
fn a_record_is_not_read_from_a_call_to_it() {
    // The text call is the union's shape; a record's parse sees prose.
    let err = Parser::new()
        .parse::<Search>("search(query='rust')")
        .unwrap_err();
    assert!(!read_as_text(err.fixes()), "{:?}", lines(err.fixes()));
    let schema = toolschema::Schema::from_json(json!({
        "type": "object",
        "properties": { "query": { "type": "string" } },
        "required": ["query"]
    }))
    .unwrap();
    assert!(schema.parse("[search(query='rust')]").is_err());
}

/// Found by `valid_replies_are_read_as_written`: a valid call in a code fence whose string
/// argument holds a format's marker and Python calls was read as the calls of that string
/// ("the reply makes 6 tool calls"), not as the call written.
#[test]
fn a_marker_in_a_fenced_calls_string_is_its_text() {
    let markers = [
        "[TOOL_CALLS]",
        "<tool_call>",
        "<function=search>",
        "<|python_tag|>",
        "",
    ];
    for marker in markers {
        let text = format!("{marker}[search(query='x'), switch_lamp(name='desk', on=True)]");
        let value = serde_json::json!({"name": "get_weather", "arguments": {
            "city": text,
            "days": null
        }});
        let fenced = format!("Here you go:\n```json\n{value}\n```");
        let parsed = Parser::new()
            .parse::<Step>(&fenced)
            .unwrap_or_else(|e| panic!("{marker}: the call written, not {e}"));
        assert!(
            !read_as_text(&parsed.fixes),
            "{marker}: {:?}",
            lines(&parsed.fixes)
        );
        let Step::GetWeather(call) = parsed.value else {
            panic!("{marker}: read as {:?}", parsed.value)
        };
        assert_eq!(call.city, text);
    }
}
