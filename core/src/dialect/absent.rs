//! Undoing "null means absent": a dialect that makes every property required turns an
//! optional, non-nullable field into a nullable one, and a model fills it with null. The
//! strict schema wants the key left out, so the nulls are dropped on the way back.

use serde_json::{Map, Value};

use super::transforms::escape;
use crate::MAX_DEPTH;

/// Drops the members of `value` that are null where `schema` (the dialect's) only allows
/// null to stand for absence: `absent` lists (object schema pointer, property name).
pub(super) fn strip_nulls(schema: &Value, absent: &[(String, String)], value: &mut Value) {
    Walk {
        root: schema,
        absent,
    }
    .visit(schema, "", value, 0);
}

struct Walk<'a> {
    root: &'a Value,
    absent: &'a [(String, String)],
}

impl<'a> Walk<'a> {
    fn visit(&self, schema: &Value, pointer: &str, value: &mut Value, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let Some(map) = schema.as_object() else {
            return;
        };
        if let Some((target, at)) = self.target(map) {
            self.visit(target, at, value, depth + 1);
        }
        match value {
            Value::Object(members) => {
                if let Some(Value::Object(properties)) = map.get("properties") {
                    members.retain(|name, v| !(v.is_null() && self.is_absent(pointer, name)));
                    for (name, v) in members.iter_mut() {
                        if let Some(sub) = properties.get(name) {
                            let at = format!("{pointer}/properties/{}", escape(name));
                            self.visit(sub, &at, v, depth + 1);
                        }
                    }
                }
            }
            Value::Array(items) => {
                if let Some(sub) = map.get("items") {
                    let at = format!("{pointer}/items");
                    for item in items {
                        self.visit(sub, &at, item, depth + 1);
                    }
                }
            }
            _ => {}
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(alternatives)) = map.get(key)
                && let Some(i) = alternatives
                    .iter()
                    .position(|alt| self.fits(alt, value, depth + 1))
            {
                let at = format!("{pointer}/{key}/{i}");
                self.visit(&alternatives[i], &at, value, depth + 1);
            }
        }
    }

    fn is_absent(&self, pointer: &str, name: &str) -> bool {
        self.absent.iter().any(|(p, n)| p == pointer && n == name)
    }

    /// The schema a local `$ref` points at, with its pointer.
    fn target<'m>(&self, map: &'m Map<String, Value>) -> Option<(&'a Value, &'m str)> {
        let Some(Value::String(reference)) = map.get("$ref") else {
            return None;
        };
        let pointer = reference.strip_prefix('#')?;
        Some((self.root.pointer(pointer)?, pointer))
    }

    /// Whether the value has the alternative's shape: its type, its constants and, for
    /// an object, its keys. Enough to tell the alternatives of a derived union apart.
    fn fits(&self, schema: &Value, value: &Value, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        let Some(map) = schema.as_object() else {
            return schema.as_bool().unwrap_or(false);
        };
        if let Some((target, _)) = self.target(map)
            && !self.fits(target, value, depth + 1)
        {
            return false;
        }
        if let Some(t) = map.get("type") {
            let names: Vec<&str> = match t {
                Value::String(s) => vec![s.as_str()],
                Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            if !names.iter().any(|name| has_type(value, name)) {
                return false;
            }
        }
        if map.get("const").is_some_and(|c| c != value)
            || map
                .get("enum")
                .and_then(Value::as_array)
                .is_some_and(|values| !values.contains(value))
        {
            return false;
        }
        if let (Value::Object(members), Some(Value::Object(properties))) =
            (value, map.get("properties"))
        {
            let closed = map.get("additionalProperties") == Some(&Value::Bool(false));
            if closed && members.keys().any(|k| !properties.contains_key(k)) {
                return false;
            }
            let required = map.get("required").and_then(Value::as_array);
            if required
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .any(|k| !members.contains_key(k))
            {
                return false;
            }
            for (name, v) in members {
                let constant = properties
                    .get(name)
                    .is_some_and(|p| p.get("const").is_some() || p.get("enum").is_some());
                if constant && !self.fits(&properties[name], v, depth + 1) {
                    return false;
                }
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(alternatives)) = map.get(key)
                && !alternatives
                    .iter()
                    .any(|alt| self.fits(alt, value, depth + 1))
            {
                return false;
            }
        }
        true
    }
}

fn has_type(value: &Value, name: &str) -> bool {
    match (name, value) {
        ("null", Value::Null)
        | ("boolean", Value::Bool(_))
        | ("string", Value::String(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_))
        | ("number", Value::Number(_)) => true,
        ("integer", Value::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}
