//! Tool lists and replies that cannot be used: each a clear error; a thousand tools.

use super::*;

#[test]
fn tool_lists_that_cannot_be_read_say_where_and_why() {
    let err = Toolset::from_openai_tools(&json!([
        { "type": "function", "function": { "name": "a", "parameters": { "type": "object", "properties": { "x": { "type": "strin" } } } } },
        { "type": "function", "function": { "name": "b", "parameters": { "type": "object", "contains": {} } } },
        { "type": "function", "function": { "name": "c", "parameters": { "type": "string" } } },
        { "type": "function", "function": { "parameters": {} } },
        { "type": "code_interpreter" },
        { "type": "function", "function": { "name": "d", "description": 7 } },
        { "type": "function", "function": { "name": "e", "parameters": { "type": "object", "properties": { "p": { "pattern": "(?<=a)b" } } } } },
        "not a tool",
    ]))
    .unwrap_err();
    insta::assert_snapshot!("bad_openai_tools", err.to_string());
    assert_eq!(err.violations().len(), 8, "{err}");

    let err = Toolset::from_mcp_tools(&json!({ "tool": [] })).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"(root): expected an MCP tools/list result: a list of tools, or an object with a "tools" list"#
    );
    let err = Toolset::from_anthropic_tools(&json!([
        { "name": "ok", "input_schema": { "type": "object" } },
        { "type": "web_search_20250305", "name": "web_search" },
        { "name": "ref", "input_schema": { "$ref": "https://example.com/schema.json" } },
    ]))
    .unwrap_err();
    insta::assert_snapshot!("bad_anthropic_tools", err.to_string());
    let err = Toolset::new()
        .with_answer_schema(json!({ "type": "object", "if": {} }))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"/if: the answer: the keyword "if" is not supported by toolschema"#
    );
    let err = Toolset::new().tool("", "", json!({})).unwrap_err();
    assert_eq!(err.to_string(), "(root): a tool name must not be empty");
}

#[test]
fn replies_that_cannot_be_used_say_why() {
    let tools = Toolset::new()
        .tool(
            "turn_on",
            "",
            json!({
                "type": "object",
                "properties": { "name": { "type": "string" }, "level": { "type": "integer" } },
                "required": ["name", "level"],
                "additionalProperties": false
            }),
        )
        .unwrap();
    let cases = [
        // No tool named.
        (
            r#"{"arguments": {"name": "lamp", "level": 1}}"#,
            r#"(root): matches none of the allowed shapes: a tool call; write a tool call as {"name": "turn_on", "arguments": {...}}"#,
        ),
        (
            r#"{"name": "", "arguments": {"name": "lamp", "level": 1}}"#,
            r#"/name: "" is not allowed here; the only allowed value is "turn_on""#,
        ),
        // An answer where the set has none.
        (
            r#"{"answer": "The lamp is on."}"#,
            "/answer: unknown field; the allowed keys are \"name\", \"arguments\"; remove the others\n/name: missing required field\n/arguments: missing required field",
        ),
        // Arguments as a string that is not JSON, and as JSON cut short.
        (
            r#"{"name": "turn_on", "arguments": "name: lamp"}"#,
            r#"/arguments: expected an object, found the string "name: lamp""#,
        ),
        (
            r#"{"name": "turn_on", "arguments": "{\"name\": \"lamp\", \"lev"}"#,
            "/arguments/level: missing required field",
        ),
        (
            "I cannot do that.",
            r#"(root): matches none of the allowed shapes: a tool call; write a tool call as {"name": "turn_on", "arguments": {...}}"#,
        ),
    ];
    for (reply, expected) in cases {
        let err = tools.parse(reply).unwrap_err();
        assert_eq!(err.to_string(), expected, "{reply}");
    }
    // The cut-off arguments are reported as such, for the repair prompt's hint.
    let reply = r#"{"name": "turn_on", "arguments": "{\"name\": \"lamp\", \"lev"}"#;
    let err = tools.parse(reply).unwrap_err();
    let prompt = RepairPrompt::for_schema(tools.schema(), reply, &err);
    assert!(
        prompt.hints().iter().any(|h| h.contains("cut off")),
        "{:?}",
        err.fixes()
    );
}

#[test]
fn a_thousand_tools_stay_compact() {
    let spec = |i: usize| {
        json!({ "name": format!("device.{i}/set"), "description": format!("Set device {i}."), "inputSchema": {
            "type": "object",
            "properties": {
                "level": { "type": "integer", "minimum": 0, "maximum": 100 },
                "mode": { "enum": ["auto", "manual"] }
            },
            "required": ["level"]
        }})
    };
    let list = json!({ "tools": (0..1000).map(spec).collect::<Vec<_>>() });
    let tools = Toolset::from_mcp_tools(&list).unwrap();
    assert_eq!(tools.len(), 1000);
    let compact = tools.compact();
    let schema = tools.schema().to_json().to_string();
    assert!(
        compact.len() * 2 < schema.len(),
        "compact {} vs schema {}",
        compact.len(),
        schema.len()
    );
    // Per tool, the compact form is about one line.
    assert!(
        compact.len() / 1000 < 160,
        "{} per tool",
        compact.len() / 1000
    );
    let reply = r#"{"name": "device_999_set", "arguments": {"level": "70", "mode": "Auto"}}"#;
    assert_eq!(
        calls(tools.parse(reply).unwrap()),
        [(
            "device.999/set".to_owned(),
            json!({ "level": 70, "mode": "auto" })
        )]
    );
    let err = tools
        .parse(r#"{"name": "device_999_sett", "arguments": {"level": 7}}"#)
        .unwrap_err();
    let [violation] = err.violations() else {
        panic!("{err}")
    };
    assert_eq!(violation.pointer(), "/name");
    assert_eq!(violation.suggestion(), Some("device_999_set"));
}
