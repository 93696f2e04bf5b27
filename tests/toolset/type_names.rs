//! Tool lists that name types outside JSON Schema's vocabulary: Python's and the Gorilla
//! function format's (`"dict"`, `"float"`, `"tuple"`, `"any"`), Gemini's upper case.

use super::*;

/// A tool as the Gorilla format (and much hand-written Python) writes it.
fn gorilla_tool() -> Value {
    json!({
        "name": "geometry.circle_sector_area",
        "description": "Computes the area of a sector of a circle.",
        "parameters": {
            "type": "dict",
            "properties": {
                "radius": {"type": "float", "description": "The radius."},
                "angle": {"type": "integer", "description": "The angle in degrees."},
                "centre": {"type": "tuple", "items": {"type": "float"}, "description": "Where the circle is."},
                "labels": {"type": "list", "items": {"type": "str"}},
                "style": {"type": "dict", "properties": {"filled": {"type": "bool"}}}
            },
            "required": ["radius", "angle"]
        }
    })
}

#[test]
fn a_gorilla_tool_list_is_read_and_its_calls_checked_with_json_schema_types() {
    let echo = json!({"name": "echo", "parameters": {"type": "dict", "properties": {"value": {"type": "any"}}}});
    let flat = json!([gorilla_tool(), echo]);
    let nested = json!([
        {"type": "function", "function": gorilla_tool()},
        {"type": "function", "function": echo}
    ]);
    for list in [flat, nested] {
        let tools = Toolset::from_openai_tools(&list)
            .expect("Gorilla type names are read")
            .with_answer();
        let ok = tools
            .parse(r#"{"name": "geometry_circle_sector_area", "arguments": {"radius": 2.5, "angle": 90, "centre": [0, 1.5], "labels": ["a"], "style": {"filled": true}}}"#)
            .expect("a call that fits");
        assert_eq!(calls(ok)[0].1["centre"], json!([0, 1.5]));
        for value in [json!([1, "x"]), json!({"a": null}), json!("x"), json!(2.5)] {
            let call = json!({"name": "echo", "arguments": {"value": value}});
            tools
                .parse(&call.to_string())
                .expect("`any` takes any value");
        }
        // The types are checked as the JSON Schema types they stand for, one wrong
        // value at a time.
        for (arguments, pointer) in [
            (json!({"radius": "wide", "angle": 90}), "/arguments/radius"),
            (json!({"radius": 1, "angle": 9.5}), "/arguments/angle"),
            (
                json!({"radius": 1, "angle": 9, "centre": {"x": 1}}),
                "/arguments/centre",
            ),
            (
                json!({"radius": 1, "angle": 9, "labels": [{"a": 1}]}),
                "/arguments/labels/0",
            ),
            (
                json!({"radius": 1, "angle": 9, "style": {"filled": "maybe"}}),
                "/arguments/style/filled",
            ),
        ] {
            let call = json!({"name": "geometry_circle_sector_area", "arguments": arguments});
            let err = tools.parse(&call.to_string()).unwrap_err();
            let pointers: Vec<String> = violations(&err).into_iter().map(|(p, _)| p).collect();
            assert_eq!(pointers, [pointer], "{err}");
        }
    }
}

#[test]
fn the_definitions_sent_to_a_provider_use_json_schema_types() {
    let tools = Toolset::from_openai_tools(&json!([gorilla_tool()])).unwrap();
    for dialect in [Dialect::OpenAiStrict, Dialect::Anthropic, Dialect::Gemini] {
        let definitions = tools.definitions(dialect).unwrap();
        let sent = definitions[0].parameters.to_string();
        for name in [
            "dict", "float", "tuple", "\"list\"", "\"str\"", "bool\"", "any",
        ] {
            assert!(!sent.contains(name), "{dialect:?} sends {name}: {sent}");
        }
        assert_eq!(
            definitions[0].parameters["properties"]["radius"]["type"],
            json!("number"),
            "{dialect:?}"
        );
    }
}

#[test]
fn upper_case_type_names_of_mcp_and_anthropic_lists_are_read() {
    let schema = json!({
        "type": "OBJECT",
        "properties": {"city": {"type": "STRING"}, "days": {"type": "INTEGER"}},
        "required": ["city"]
    });
    let mcp =
        Toolset::from_mcp_tools(&json!({"tools": [{"name": "forecast", "inputSchema": schema}]}))
            .unwrap();
    let anthropic =
        Toolset::from_anthropic_tools(&json!([{"name": "forecast", "input_schema": schema}]))
            .unwrap();
    for tools in [mcp, anthropic] {
        let tools = tools.with_answer();
        tools
            .parse(r#"{"name": "forecast", "arguments": {"city": "Oslo", "days": 3}}"#)
            .expect("fits");
        let err = tools
            .parse(r#"{"name": "forecast", "arguments": {"city": "Oslo", "days": "three"}}"#)
            .unwrap_err();
        assert_eq!(violations(&err)[0].0, "/arguments/days", "{err}");
    }
}

#[test]
fn a_type_name_with_no_json_schema_reading_is_still_refused() {
    let err = Toolset::from_openai_tools(&json!([{
        "name": "remind",
        "parameters": {"type": "dict", "properties": {"at": {"type": "datetime"}}}
    }]))
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"/0/parameters/properties/at/type: tool "remind": unknown type "datetime""#
    );
    // A schema built by hand is JSON Schema as written: `Toolset::tool` reads no other
    // vocabulary.
    let err = Toolset::new()
        .tool(
            "t",
            "",
            json!({"type": "object", "properties": {"x": {"type": "float"}}}),
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"/properties/x/type: tool "t": unknown type "float""#
    );
}
