//! Type names that tool lists use outside JSON Schema's vocabulary, read as the JSON
//! Schema types they stand for.
//!
//! Tools written by hand or generated from another language's signatures name their types
//! in that language: Python's (`"float"`, `"dict"`, `"list"`, `"int"`, `"str"`, `"bool"`),
//! the Gorilla function format of the Berkeley Function-Calling Leaderboard (`"dict"`,
//! `"float"`, `"tuple"`, `"any"`), or Gemini's and OpenAPI generators' upper case
//! (`"STRING"`, `"OBJECT"`). Each has one reading in JSON Schema, so a tool list that uses
//! them is read rather than refused: the type is rewritten where the schema says it, and
//! what is sent to a provider and shown to a model is the rewritten schema. `"any"` is no
//! constraint at all: the keyword is left out. A name with no such reading (`"datetime"`)
//! stays, and the schema is refused for it as before.

use serde_json::{Map, Value};
use tracing::debug;

/// A type name rewritten: where, as written, and as read (`None` for `"any"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Rewritten {
    pub pointer: String,
    pub written: String,
    pub read: Option<&'static str>,
}

/// Rewrites the type names of `schema` that stand for a JSON Schema type, at every place
/// the schema says a type (not inside `properties` names, `enum` or `const` values), and
/// lists what it rewrote. Logged at debug level under the tool's `name`.
pub(super) fn read_as_json_schema(name: &str, schema: &mut Value) -> Vec<Rewritten> {
    let mut rewritten = Vec::new();
    walk(schema, String::new(), &mut rewritten);
    for r in &rewritten {
        debug!(
            tool = name,
            pointer = %r.pointer,
            written = %r.written,
            read = r.read.unwrap_or("any value"),
            "tool schema type name read as JSON Schema"
        );
    }
    rewritten
}

/// The JSON Schema reading of a type name, `Some(None)` for any value, `None` for a
/// name that is already JSON Schema's or has no reading.
fn reading(name: &str) -> Option<Option<&'static str>> {
    const STANDARD: [&str; 7] = [
        "string", "number", "integer", "boolean", "object", "array", "null",
    ];
    if STANDARD.contains(&name) {
        return None;
    }
    let lower = name.to_ascii_lowercase();
    if let Some(standard) = STANDARD.iter().find(|s| **s == lower) {
        return Some(Some(standard));
    }
    let read = match lower.as_str() {
        "float" | "double" => "number",
        "int" | "long" => "integer",
        "str" => "string",
        "bool" => "boolean",
        "dict" | "map" => "object",
        "list" | "tuple" => "array",
        "any" => return Some(None),
        _ => return None,
    };
    Some(Some(read))
}

/// Keywords whose value is one schema.
const ONE: [&str; 11] = [
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "additionalItems",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// Keywords whose value is a list of schemas.
const LIST: [&str; 5] = ["anyOf", "oneOf", "allOf", "prefixItems", "items"];

/// Keywords whose value maps names to schemas.
const MAP: [&str; 6] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

fn walk(node: &mut Value, at: String, out: &mut Vec<Rewritten>) {
    let Value::Object(node) = node else { return };
    rewrite_type(node, &at, out);
    for (key, value) in node.iter_mut() {
        let here = format!("{at}/{}", crate::pointer::token(key));
        match value {
            Value::Object(_) if ONE.contains(&key.as_str()) => walk(value, here, out),
            Value::Array(items) if LIST.contains(&key.as_str()) => {
                for (i, item) in items.iter_mut().enumerate() {
                    walk(item, format!("{here}/{i}"), out);
                }
            }
            Value::Object(map) if MAP.contains(&key.as_str()) => {
                for (name, schema) in map.iter_mut() {
                    let there = format!("{here}/{}", crate::pointer::token(name));
                    walk(schema, there, out);
                }
            }
            _ => {}
        }
    }
}

/// Rewrites the `type` keyword of one schema object, a name or a list of names.
fn rewrite_type(node: &mut Map<String, Value>, at: &str, out: &mut Vec<Rewritten>) {
    let pointer = format!("{at}/type");
    let mut any = false;
    let mut rewrite = |name: &mut String, out: &mut Vec<Rewritten>| {
        if let Some(read) = reading(name) {
            out.push(Rewritten {
                pointer: pointer.clone(),
                written: name.clone(),
                read,
            });
            match read {
                Some(read) => *name = read.to_owned(),
                None => any = true,
            }
        }
    };
    match node.get_mut("type") {
        Some(Value::String(name)) => rewrite(name, out),
        Some(Value::Array(names)) => {
            for name in names.iter_mut() {
                if let Value::String(name) = name {
                    rewrite(name, out);
                }
            }
        }
        _ => {}
    }
    if any {
        node.remove("type");
    } else if let Some(Value::Array(names)) = node.get_mut("type") {
        // `["float", "number"]` reads as one type twice.
        let mut seen = Vec::new();
        names.retain(|n| {
            let fresh = !seen.contains(n);
            seen.push(n.clone());
            fresh
        });
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Rewritten, read_as_json_schema};

    fn read(mut schema: serde_json::Value) -> (serde_json::Value, Vec<Rewritten>) {
        let rewritten = read_as_json_schema("t", &mut schema);
        (schema, rewritten)
    }

    #[test]
    fn gorilla_and_python_names_read_as_json_schema_types() {
        let (schema, rewritten) = read(json!({
            "type": "dict",
            "properties": {
                "base": {"type": "integer"},
                "height": {"type": "float"},
                "point": {"type": "tuple", "items": {"type": "float"}},
                "tags": {"type": "list", "items": {"type": "str"}},
                "flag": {"type": "bool"},
                "extra": {"type": "any"},
                "count": {"type": ["int", "null"]}
            },
            "required": ["base"]
        }));
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {
                    "base": {"type": "integer"},
                    "height": {"type": "number"},
                    "point": {"type": "array", "items": {"type": "number"}},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "flag": {"type": "boolean"},
                    "extra": {},
                    "count": {"type": ["integer", "null"]}
                },
                "required": ["base"]
            })
        );
        let pointers: Vec<(&str, &str, Option<&str>)> = rewritten
            .iter()
            .map(|r| (r.pointer.as_str(), r.written.as_str(), r.read))
            .collect();
        assert_eq!(
            pointers,
            [
                ("/type", "dict", Some("object")),
                ("/properties/height/type", "float", Some("number")),
                ("/properties/point/type", "tuple", Some("array")),
                ("/properties/point/items/type", "float", Some("number")),
                ("/properties/tags/type", "list", Some("array")),
                ("/properties/tags/items/type", "str", Some("string")),
                ("/properties/flag/type", "bool", Some("boolean")),
                ("/properties/extra/type", "any", None),
                ("/properties/count/type", "int", Some("integer")),
            ]
        );
    }

    #[test]
    fn upper_case_names_read_as_the_lower_case_ones() {
        let (schema, rewritten) = read(json!({
            "type": "OBJECT",
            "properties": {"city": {"type": "STRING"}, "days": {"type": "Integer"}},
            "anyOf": [{"type": "Number"}],
            "$defs": {"d": {"type": "ARRAY", "items": [{"type": "Boolean"}]}}
        }));
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                "anyOf": [{"type": "number"}],
                "$defs": {"d": {"type": "array", "items": [{"type": "boolean"}]}}
            })
        );
        assert_eq!(rewritten.len(), 6);
    }

    #[test]
    fn a_json_schema_is_left_as_it_is() {
        let schema = json!({
            "type": "object",
            "properties": {
                // A property named like a keyword, and values that are type names.
                "type": {"type": "string", "enum": ["float", "dict", "any"]},
                "items": {"type": "array", "items": {"type": ["string", "null"]}},
                "properties": {"const": "list"},
                "any": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]}
            },
            "default": {"type": "float"},
            "examples": [{"type": "dict"}]
        });
        let (read_schema, rewritten) = read(schema.clone());
        assert_eq!(read_schema, schema);
        assert!(rewritten.is_empty(), "{rewritten:?}");
    }

    #[test]
    fn a_name_with_no_reading_stays_to_be_refused() {
        let (schema, rewritten) = read(json!({"type": "object", "properties": {
            "when": {"type": "datetime"}, "n": {"type": ["float", "number"]}
        }}));
        assert_eq!(schema["properties"]["when"], json!({"type": "datetime"}));
        assert_eq!(schema["properties"]["n"], json!({"type": ["number"]}));
        assert_eq!(rewritten.len(), 1);
    }
}
