//! Schema-guided coercion: lossless changes that make a value fit its schema, each
//! reported. Nothing lossy is ever done: no rounding, no key renaming, no truncation.

use serde_json::Value;

use crate::repair::{Fix, FixKind, Location, repair};
use crate::schema::{Node, Schema, Types};
use crate::validate::{MAX_DEPTH, json_eq};

/// How much the lenient parse may change a value to fit its schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Coercion {
    /// Syntax repair only: the value must fit as written.
    None,
    /// Lossless changes (the default): `"42"` → `42` for a number, `"true"` → `true`, one
    /// value → a one-item list where a list is expected, JSON inside a string where an
    /// object or array is expected, an enum value matched ignoring case and `-`/`_`/space.
    #[default]
    Safe,
}

pub(crate) fn coerce(schema: &Schema, value: &mut Value, level: Coercion, fixes: &mut Vec<Fix>) {
    if level == Coercion::Safe {
        let mut path = String::new();
        walk(schema, schema.root(), value, &mut path, fixes, 0);
    }
}

fn fix(fixes: &mut Vec<Fix>, kind: FixKind, path: &str) {
    fixes.push(Fix::new(kind, Location::Pointer(path.to_owned())));
}

fn walk(
    schema: &Schema,
    node: &Node,
    value: &mut Value,
    path: &mut String,
    fixes: &mut Vec<Fix>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let node = schema.resolve(node);
    if let Some(types) = node.types
        && !types.admits(value)
    {
        convert(types, value, path, fixes);
    }
    if let (Some(allowed), Value::String(s)) = (&node.enumeration, &*value)
        && !allowed.iter().any(|a| json_eq(a, value))
    {
        let folded = fold(s);
        let matches: Vec<&str> = allowed
            .iter()
            .filter_map(Value::as_str)
            .filter(|a| fold(a) == folded)
            .collect();
        if let [only] = matches.as_slice() {
            fix(
                fixes,
                FixKind::EnumCase {
                    from: s.clone(),
                    to: (*only).to_owned(),
                },
                path,
            );
            *value = Value::String((*only).to_owned());
        }
    }
    match value {
        Value::Object(map) => {
            for (key, member) in map.iter_mut() {
                let child = match node.property(key) {
                    Some(i) => Some(&node.properties[i].node),
                    None => node.additional_properties.as_deref().filter(|n| !n.never),
                };
                if let Some(child) = child {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&key.replace('~', "~0").replace('/', "~1"));
                    walk(schema, child, member, path, fixes, depth + 1);
                    path.truncate(len);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                let child = node
                    .prefix_items
                    .get(i)
                    .or(node.items.as_deref())
                    .filter(|n| !n.never);
                if let Some(child) = child {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&i.to_string());
                    walk(schema, child, item, path, fixes, depth + 1);
                    path.truncate(len);
                }
            }
        }
        _ => {}
    }
    for alternatives in [&node.any_of, &node.one_of] {
        if alternatives.is_empty() || alternatives.iter().any(|alt| schema.passes(alt, value)) {
            continue;
        }
        // Take the first alternative that coercion makes the value fit.
        for alt in alternatives {
            let mut attempt = value.clone();
            let mut attempt_fixes = Vec::new();
            walk(
                schema,
                alt,
                &mut attempt,
                path,
                &mut attempt_fixes,
                depth + 1,
            );
            if schema.passes(alt, &attempt) {
                *value = attempt;
                fixes.extend(attempt_fixes);
                break;
            }
        }
    }
}

/// Lossless type changes toward one of `types`.
fn convert(types: Types, value: &mut Value, path: &str, fixes: &mut Vec<Fix>) {
    if let Value::String(s) = &*value {
        let text = s.trim();
        if types.intersects(Types::INTEGER.union(Types::NUMBER))
            && let Some(n) = number(text)
            && types.admits(&Value::Number(n.clone()))
        {
            fix(fixes, FixKind::StringToNumber, path);
            *value = Value::Number(n);
            return;
        }
        if types.contains(Types::BOOLEAN) {
            let b = match text {
                "true" | "True" | "TRUE" => Some(true),
                "false" | "False" | "FALSE" => Some(false),
                _ => None,
            };
            if let Some(b) = b {
                fix(fixes, FixKind::StringToBoolean, path);
                *value = Value::Bool(b);
                return;
            }
        }
        if types.intersects(Types::OBJECT.union(Types::ARRAY))
            && (text.starts_with('{') || text.starts_with('['))
            && let Ok((inner, repairs)) = repair(text)
            && repairs.is_empty()
            && types.admits(&inner)
        {
            fix(fixes, FixKind::DoubleEncoded, path);
            *value = inner;
            return;
        }
    }
    if types == Types::ARRAY && !value.is_null() {
        fix(fixes, FixKind::WrappedInList, path);
        *value = Value::Array(vec![value.take()]);
    }
}

/// The JSON number `text` is, if it is one: integers exactly, anything else as the nearest
/// f64 (serde_json rounds correctly only with its `float_roundtrip` feature).
fn number(text: &str) -> Option<serde_json::Number> {
    let n = serde_json::from_str::<serde_json::Number>(text).ok()?;
    if n.is_f64() {
        text.parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
    } else {
        Some(n)
    }
}

fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}
