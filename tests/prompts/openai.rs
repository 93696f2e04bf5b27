//! OpenAI's strict-mode rules for structured outputs and function calling ("Supported
//! schemas" in the structured-outputs guide), written as data, and a checker.

use serde_json::{Map, Value};

/// JSON types a schema may name.
const TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "object", "array", "null",
];

/// Every keyword strict mode accepts; anything else is refused.
const KEYWORDS: &[&str] = &[
    // structure
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "enum",
    "const",
    "$ref",
    "$defs",
    // annotations
    "description",
    "title",
    // strings
    "pattern",
    "format",
    // numbers
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    // arrays
    "minItems",
    "maxItems",
];

/// Keywords the guide names as not supported (a subset of "not in KEYWORDS", named so a
/// failure says which documented rule broke).
const UNSUPPORTED: &[&str] = &[
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "minLength",
    "maxLength",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "prefixItems",
    "unevaluatedItems",
    "patternProperties",
    "propertyNames",
    "unevaluatedProperties",
    "minProperties",
    "maxProperties",
    "default",
    "examples",
];

/// String formats strict mode knows.
const FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Levels of object nesting allowed.
const MAX_NESTING: usize = 10;

/// Keywords whose value is one subschema, a map of them, or a list of them.
const ONE: &[&str] = &["additionalProperties", "items", "not", "contains"];
const MANY: &[&str] = &["properties", "$defs", "patternProperties"];
const LIST: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];

/// Every broken rule, as `pointer: what`.
pub fn check(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(root) = schema.as_object() else {
        return vec!["(root): not an object schema".into()];
    };
    if root.get("type") != Some(&Value::from("object")) {
        out.push("(root): the root must be {\"type\": \"object\"}".into());
    }
    if root.contains_key("anyOf") {
        out.push("(root): the root must not be anyOf".into());
    }
    walk(root, "", 0, &mut out);
    out
}

fn walk(map: &Map<String, Value>, pointer: &str, nesting: usize, out: &mut Vec<String>) {
    let at = if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    };
    let is_object = map
        .get("type")
        .is_some_and(|t| names(t).contains(&"object"))
        || map.contains_key("properties");
    if is_object {
        if map.get("additionalProperties") != Some(&Value::Bool(false)) {
            out.push(format!("{at}: an object needs additionalProperties: false"));
        }
        if !map.contains_key("properties") || !map.contains_key("required") {
            out.push(format!(
                "{at}: an object lists its properties and required keys"
            ));
        }
        let keys: Vec<&String> = map
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().collect())
            .unwrap_or_default();
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for key in keys {
            if !required.contains(&key.as_str()) {
                out.push(format!(
                    "{at}: required must list every property: missing {key:?}"
                ));
            }
        }
        if nesting > MAX_NESTING {
            out.push(format!("{at}: more than {MAX_NESTING} levels of nesting"));
        }
    }
    if let Some(t) = map.get("type") {
        for name in names(t) {
            if !TYPES.contains(&name) {
                out.push(format!("{at}: unsupported type {name:?}"));
            }
        }
    }
    for key in map.keys() {
        if UNSUPPORTED.contains(&key.as_str()) || !KEYWORDS.contains(&key.as_str()) {
            out.push(format!("{at}: unsupported keyword {key}"));
        }
    }
    if let Some(Value::String(format)) = map.get("format")
        && !FORMATS.contains(&format.as_str())
    {
        out.push(format!("{at}: unsupported format {format:?}"));
    }
    if map.contains_key("$ref") && map.len() > 1 {
        let others: Vec<&str> = map
            .keys()
            .map(String::as_str)
            .filter(|k| *k != "$ref")
            .collect();
        out.push(format!(
            "{at}: $ref must stand alone, found {} beside it",
            others.join(", ")
        ));
    }
    let deeper = nesting + usize::from(is_object);
    for key in ONE {
        if let Some(Value::Object(child)) = map.get(*key) {
            walk(child, &format!("{pointer}/{key}"), deeper, out);
        }
    }
    for key in MANY {
        if let Some(Value::Object(children)) = map.get(*key) {
            for (name, child) in children {
                if let Value::Object(child) = child {
                    // A definition's depth depends on where it is used: count from zero.
                    let level = if *key == "$defs" { 0 } else { deeper };
                    walk(child, &format!("{pointer}/{key}/{name}"), level, out);
                }
            }
        }
    }
    for key in LIST {
        if let Some(Value::Array(children)) = map.get(*key) {
            for (i, child) in children.iter().enumerate() {
                if let Value::Object(child) = child {
                    walk(child, &format!("{pointer}/{key}/{i}"), nesting, out);
                }
            }
        }
    }
}

fn names(t: &Value) -> Vec<&str> {
    match t {
        Value::String(s) => vec![s.as_str()],
        Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}
