//! Replies with several calls: each returned, each checked under its index.

use super::*;

fn tools() -> Toolset {
    let args = json!({
        "type": "object",
        "properties": { "name": { "type": "string" } },
        "required": ["name"]
    });
    Toolset::new()
        .tool("turn_on", "Turn on a device.", args.clone())
        .unwrap()
        .tool("turn_off", "Turn off a device.", args)
        .unwrap()
        .with_answer()
}

#[test]
fn every_call_of_a_reply_is_returned() {
    let tools = tools();
    let expected = [
        ("turn_on".to_owned(), json!({ "name": "kitchen" })),
        ("turn_off".to_owned(), json!({ "name": "tv" })),
    ];
    for reply in [
        r#"[{"name": "turn_on", "arguments": {"name": "kitchen"}}, {"name": "turn_off", "arguments": {"name": "tv"}}]"#,
        r#"{"tool_calls": [{"type": "function", "function": {"name": "turn_on", "arguments": "{\"name\": \"kitchen\"}"}}, {"function": {"name": "turn_off", "arguments": {"name": "tv"}}}]}"#,
        "<tool_call>\n{\"name\": \"turn_on\", \"arguments\": {\"name\": \"kitchen\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"turn_off\", \"arguments\": {\"name\": \"tv\"}}\n</tool_call>",
        "{\"name\": \"turn_on\", \"arguments\": {\"name\": \"kitchen\"}}\n{\"name\": \"turn_off\", \"arguments\": {\"name\": \"tv\"}}",
        "```json\n[{'name': 'turn_on', 'arguments': {'name': 'kitchen'}}, {'name': 'turn_off', 'arguments': {'name': 'tv'}},]\n```",
    ] {
        assert_eq!(calls(tools.parse(reply).unwrap()), expected, "{reply}");
    }
}

#[test]
fn one_tool_twice_is_two_calls() {
    let reply = r#"[{"name": "turn_on", "arguments": {"name": "kitchen"}}, {"name": "turn_on", "arguments": {"name": "kitchen"}}]"#;
    let found = calls(tools().parse(reply).unwrap());
    assert_eq!(found.len(), 2);
    assert_eq!(found[0], found[1]);
}

#[test]
fn violations_of_each_call_are_under_its_index() {
    let reply = r#"[{"name": "turn_on", "arguments": {"name": "kitchen"}}, {"name": "turn_of", "arguments": {}}, {"name": "turn_off", "arguments": {"nam": "tv"}}]"#;
    let err = tools().parse(reply).unwrap_err();
    assert_eq!(
        violations(&err),
        [
            (
                "/1/name".to_owned(),
                r#"/1/name: "turn_of" is not one of "turn_on", "turn_off"; did you mean "turn_on"?"#.to_owned()
            ),
            (
                "/2/arguments/name".to_owned(),
                "/2/arguments/name: missing required field".to_owned()
            ),
        ]
    );
}

#[test]
fn an_answer_beside_calls_is_a_violation() {
    let reply = r#"[{"name": "turn_on", "arguments": {"name": "kitchen"}}, {"answer": "Done."}]"#;
    let err = tools().parse(reply).unwrap_err();
    assert_eq!(
        err.to_string(),
        "/1/answer: an answer cannot come with tool calls in one reply: call the tools, and answer once their results are in"
    );
    let err = tools()
        .parse(r#"[{"answer": "Yes."}, {"answer": "No."}]"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "/1/answer: a reply holds one answer; give only one"
    );
}

#[test]
fn values_read_elsewhere_are_chosen_with_names_mapped_back() {
    let tools = Toolset::new()
        .tool("media.play", "", json!({ "type": "object" }))
        .unwrap();
    let choice = tools
        .choose(vec![
            json!({ "name": "media_play", "arguments": {} }),
            json!({ "name": "media_play", "arguments": { "loud": true } }),
        ])
        .unwrap();
    assert_eq!(
        calls(choice),
        [
            ("media.play".to_owned(), json!({})),
            ("media.play".to_owned(), json!({ "loud": true }))
        ]
    );
    // Values are validated: the original spelling is not a model-facing name.
    let err = tools
        .choose(vec![json!({ "name": "media.play", "arguments": {} })])
        .unwrap_err();
    assert!(matches!(err, ReadError::Invalid(_)), "{err}");
}

/// A reply of several calls one of which is wrong is refused with that call's violations
/// under its index, however the calls are written: no call is dropped unsaid.
#[test]
fn a_wrong_call_among_several_is_never_dropped() {
    let tools = tools();
    for reply in [
        "{\"name\": \"turn_on\", \"arguments\": {\"name\": \"kitchen\"}}\n{\"name\": \"turn_off\", \"arguments\": {}}",
        "{\"name\": \"turn_off\", \"arguments\": {}}\n{\"name\": \"turn_on\", \"arguments\": {\"name\": \"kitchen\"}}",
        "<tool_call>\n{\"name\": \"turn_on\", \"arguments\": {\"name\": \"kitchen\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"turn_off\", \"arguments\": {}}\n</tool_call>",
        r#"[{"name": "turn_on", "arguments": {"name": "kitchen"}}, {"name": "turn_off", "arguments": {}}]"#,
    ] {
        let err = match tools.parse(reply) {
            Ok(choice) => panic!("{reply}: a call was dropped: {choice}"),
            Err(err) => err,
        };
        assert!(
            violations(&err)
                .iter()
                .any(|(pointer, _)| pointer.ends_with("/arguments/name")
                    && pointer.len() > "/arguments/name".len()),
            "{reply}: {err}"
        );
    }
}
