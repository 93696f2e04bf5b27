//! A tool that declares no arguments: MCP servers and OpenAI `tools` arrays write it as
//! `{"type": "object"}` or `{"type": "object", "properties": {}}`, which says "any keys"
//! to a validator but "nothing to pass" to everyone who wrote it. A strict dialect cannot
//! express "any keys", so the root is shown to the model as the empty object it means;
//! the local validator still reads the schema as given and accepts any keys.

use serde_json::{Value, json};

use super::Report;

/// Closes an object root that says nothing about its members: besides `"type": "object"`,
/// an empty `properties` and annotations, no keyword at all. `{}` is then the one reply a
/// strict provider allows. A root that requires a key, bounds its size or lists free keys
/// is left for the dialect's own checks.
pub(super) fn close_argumentless_root(schema: &mut Value, report: &mut Report) {
    const ANNOTATIONS: [&str; 6] = [
        "description",
        "title",
        "$schema",
        "examples",
        "default",
        "$comment",
    ];
    let Value::Object(root) = schema else { return };
    let says_nothing_more = root.iter().all(|(key, value)| match key.as_str() {
        "type" => *value == "object",
        "properties" => value.as_object().is_some_and(serde_json::Map::is_empty),
        other => ANNOTATIONS.contains(&other),
    });
    if root.get("type") != Some(&json!("object")) || !says_nothing_more {
        return;
    }
    root.insert("properties".into(), json!({}));
    root.insert("additionalProperties".into(), json!(false));
    report.change(
        "",
        "the root declares no properties: shown as the empty object {} (a tool without arguments)",
    );
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Dialect;
    use crate::Schema;

    fn shown(dialect: Dialect, schema: serde_json::Value) -> Result<serde_json::Value, String> {
        let schema = Schema::from_json(schema).map_err(|e| e.to_string())?;
        dialect
            .apply(schema.to_json())
            .map(|d| d.schema)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_tool_without_arguments_is_shown_as_the_empty_object() {
        for dialect in [Dialect::OpenAiStrict, Dialect::Anthropic] {
            for given in [
                json!({ "type": "object" }),
                json!({ "type": "object", "properties": {} }),
                json!({ "type": "object", "description": "No arguments." }),
            ] {
                let schema = shown(dialect, given.clone()).expect("expressible");
                assert_eq!(schema["properties"], json!({}), "{dialect:?} {given}");
                assert_eq!(schema["additionalProperties"], json!(false), "{dialect:?}");
            }
        }
    }

    #[test]
    fn free_or_required_keys_stay_inexpressible_where_declared_or_nested() {
        for dialect in [Dialect::OpenAiStrict, Dialect::Anthropic] {
            for given in [
                json!({ "type": "object", "additionalProperties": { "type": "string" } }),
                json!({ "type": "object", "additionalProperties": true }),
                json!({ "type": "object", "patternProperties": { "^x": {} } }),
                // A key required, none declared: closing it would make it unsatisfiable.
                json!({ "type": "object", "required": ["id"] }),
                json!({
                    "type": "object",
                    "properties": { "extra": { "type": "object" } },
                    "required": ["extra"]
                }),
            ] {
                let error = shown(dialect, given.clone()).expect_err("not expressible");
                assert!(
                    error.contains("cannot express"),
                    "{dialect:?} {given}: {error}"
                );
            }
        }
    }

    #[test]
    fn the_local_check_still_accepts_what_the_schema_accepts() {
        let schema = Schema::from_json(json!({ "type": "object" })).unwrap();
        Dialect::Anthropic
            .apply(schema.to_json())
            .expect("expressible");
        let value = schema.parse(r#"{"verbose": true}"#).expect("any keys");
        assert_eq!(value, json!({ "verbose": true }));
    }
}
