//! Provider dialects applied to run-time tool schemas, and what they cannot express.

use super::*;

#[test]
fn dialects_shape_each_tool_and_report_what_they_moved() {
    let tools = Toolset::from_anthropic_tools(&json!([{
        "name": "book",
        "description": "Book a table.",
        "input_schema": {
            "type": "object",
            "properties": {
                "guests": { "type": "integer", "minimum": 1, "maximum": 12 },
                "name": { "type": "string", "minLength": 2 },
                "when": { "const": "tonight" }
            },
            "required": ["guests"]
        }
    }]))
    .unwrap();
    let anthropic = &tools.definitions(Dialect::Anthropic).unwrap()[0];
    assert_eq!(anthropic.name, "book");
    assert_eq!(anthropic.description.as_deref(), Some("Book a table."));
    assert!(
        anthropic.parameters["properties"]["guests"]
            .get("maximum")
            .is_none()
    );
    let moved: Vec<String> = anthropic.changes.iter().map(|c| c.to_string()).collect();
    assert!(
        moved.iter().any(|c| c.contains("from 1 to 12")),
        "{moved:?}"
    );
    // What the dialect dropped is still enforced.
    let err = tools
        .parse(r#"{"name": "book", "arguments": {"guests": 13, "name": "A"}}"#)
        .unwrap_err();
    assert_eq!(
        violations(&err)
            .iter()
            .map(|(p, _)| p.as_str())
            .collect::<Vec<_>>(),
        ["/arguments/guests", "/arguments/name"]
    );
    let gemini = &tools.definitions(Dialect::Gemini).unwrap()[0];
    assert_eq!(
        gemini.parameters["properties"]["when"]["enum"],
        json!(["tonight"])
    );
    let openai = &tools.definitions(Dialect::OpenAiStrict).unwrap()[0];
    assert_eq!(
        openai.parameters["required"],
        json!(["guests", "name", "when"])
    );
    assert_eq!(
        openai.restore(json!({ "guests": 2, "name": null, "when": null })),
        json!({ "guests": 2 })
    );
    assert_eq!(openai.spec().name, "book");
}

#[test]
fn a_schema_a_dialect_cannot_express_names_the_tool_and_the_field() {
    let tools = Toolset::from_openai_tools(&json!([{ "type": "function", "function": {
        "name": "tag.add",
        "parameters": {
            "type": "object",
            "properties": { "labels": { "type": "object", "additionalProperties": { "type": "string" } } }
        }
    }}]))
    .unwrap();
    let err = tools.definitions(Dialect::OpenAiStrict).unwrap_err();
    let text = err.to_string();
    assert!(text.contains(r#"tool "tag.add""#), "{text}");
    assert!(text.contains("labels"), "{text}");
    // Other dialects take it.
    assert!(tools.definitions(Dialect::Gemini).is_ok());
}
