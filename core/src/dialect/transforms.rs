//! The transforms the provider dialects are made of, and the walk over every subschema
//! they share.

use serde_json::{Map, Value, json};

use super::{Report, WRAPPER};

// ---------------------------------------------------------------------------------------
// Walking every subschema.

/// Keywords whose value is one subschema, and those whose value maps or lists them.
const ONE: &[&str] = &[
    "additionalProperties",
    "items",
    "not",
    "propertyNames",
    "contains",
];
const MANY: &[&str] = &["properties", "$defs", "patternProperties", "definitions"];
const LIST: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];

/// Calls `f` on every schema object, parents before children, with its pointer.
pub(super) fn each(
    schema: &mut Value,
    pointer: &str,
    f: &mut dyn FnMut(&mut Map<String, Value>, &str),
) {
    let Value::Object(map) = schema else { return };
    f(map, pointer);
    for key in ONE {
        if let Some(child) = map.get_mut(*key) {
            each(child, &format!("{pointer}/{key}"), f);
        }
    }
    for key in MANY {
        if let Some(Value::Object(children)) = map.get_mut(*key) {
            for (name, child) in children.iter_mut() {
                each(child, &format!("{pointer}/{key}/{}", escape(name)), f);
            }
        }
    }
    for key in LIST {
        if let Some(Value::Array(children)) = map.get_mut(*key) {
            for (i, child) in children.iter_mut().enumerate() {
                each(child, &format!("{pointer}/{key}/{i}"), f);
            }
        }
    }
}

pub(super) fn escape(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// The data path people read for a schema pointer: `/properties/tags/items` → `tags[]`.
fn field(pointer: &str) -> String {
    let mut out = String::new();
    let mut parts = pointer.split('/').skip(1).peekable();
    while let Some(part) = parts.next() {
        match part {
            "properties" | "$defs" | "definitions" => {
                if let Some(name) = parts.next() {
                    let name = name.replace("~1", "/").replace("~0", "~");
                    if part == "properties" {
                        if !out.is_empty() {
                            out.push('.');
                        }
                        out.push_str(&name);
                    } else {
                        out = name;
                    }
                }
            }
            "items" | "additionalProperties" => out.push_str("[]"),
            _ => {}
        }
    }
    if out.is_empty() {
        "the root".to_owned()
    } else {
        format!("`{out}`")
    }
}

pub(super) fn append_description(map: &mut Map<String, Value>, text: &str) {
    let description = match map.get("description").and_then(Value::as_str) {
        Some(existing) if !existing.is_empty() => format!("{existing} ({text})"),
        _ => text.to_owned(),
    };
    map.insert("description".into(), Value::String(description));
}

fn is_object_schema(map: &Map<String, Value>) -> bool {
    map.get("type").is_some_and(|t| {
        t == "object" || t.as_array().is_some_and(|a| a.contains(&json!("object")))
    }) || map.contains_key("properties")
}

// ---------------------------------------------------------------------------------------
// The transforms.

/// A field readable under several keys is offered under its own name only.
pub(super) fn drop_aliases(schema: &mut Value, report: &mut Report) {
    each(schema, "", &mut |map, pointer| {
        let Some(Value::Array(all_of)) = map.get("allOf") else {
            return;
        };
        let mut keep = Vec::new();
        let mut groups = Vec::new();
        for rule in all_of {
            match alias_group(rule) {
                Some(group) => groups.push(group),
                None => keep.push(rule.clone()),
            }
        }
        if groups.is_empty() {
            return;
        }
        for (keys, required) in groups {
            let Some((name, aliases)) = keys.split_last() else {
                continue;
            };
            if let Some(Value::Object(props)) = map.get_mut("properties") {
                for alias in aliases {
                    props.shift_remove(alias);
                }
            }
            if required {
                let list = map.entry("required").or_insert_with(|| json!([]));
                if let Value::Array(list) = list {
                    list.push(Value::String(name.clone()));
                }
            }
            report.change(
                pointer,
                format!("offered {name:?} without its aliases {aliases:?}"),
            );
        }
        if keep.is_empty() {
            map.shift_remove("allOf");
        } else {
            map.insert("allOf".into(), Value::Array(keep));
        }
    });
}

/// `{"oneOf": [{"required": [a]}, …]}` (required) or the at-most-one form: the keys, the
/// field's own name last.
fn alias_group(rule: &Value) -> Option<(Vec<String>, bool)> {
    let keys_of = |list: &Value| -> Option<Vec<String>> {
        list.as_array()?
            .iter()
            .map(|r| match r.get("required")?.as_array()?.as_slice() {
                [Value::String(k)] if r.as_object()?.len() == 1 => Some(k.clone()),
                _ => None,
            })
            .collect()
    };
    let map = rule.as_object()?;
    if map.len() != 1 {
        return None;
    }
    if let Some(list) = map.get("oneOf") {
        return keys_of(list).map(|k| (k, true));
    }
    let any = map.get("anyOf")?.as_array()?;
    match any.as_slice() {
        [not, one] => {
            let keys = keys_of(one.get("oneOf")?)?;
            keys_of(not.get("not")?.get("anyOf")?)?;
            Some((keys, false))
        }
        _ => None,
    }
}

/// The root must be an object: anything else is wrapped as `{"value": …}`.
pub(super) fn wrap_root(schema: &mut Value, report: &mut Report) {
    let Value::Object(root) = schema else { return };
    let is_plain_object = root.get("type") == Some(&json!("object"))
        && !root.contains_key("anyOf")
        && !root.contains_key("oneOf")
        && !root.contains_key("$ref");
    if is_plain_object {
        return;
    }
    let mut defs = root.shift_remove("$defs");
    let meta = root.shift_remove("$schema");
    let mut inner = Value::Object(std::mem::take(root));
    // A recursive root refers to itself as "#", from itself or from a definition: point
    // it at the wrapped value instead.
    let wrapped = format!("#/properties/{WRAPPER}");
    let definitions = defs
        .as_mut()
        .and_then(Value::as_object_mut)
        .into_iter()
        .flat_map(|d| d.values_mut());
    for part in std::iter::once(&mut inner).chain(definitions) {
        each(part, "", &mut |map, _| {
            if map.get("$ref") == Some(&json!("#")) {
                map.insert("$ref".into(), json!(wrapped));
            }
        });
    }
    let Value::Object(inner) = inner else {
        return;
    };
    let mut out = Map::new();
    if let Some(meta) = meta {
        out.insert("$schema".into(), meta);
    }
    out.insert("type".into(), json!("object"));
    out.insert(
        "properties".into(),
        json!({ WRAPPER: Value::Object(inner) }),
    );
    out.insert("required".into(), json!([WRAPPER]));
    out.insert("additionalProperties".into(), json!(false));
    if let Some(defs) = defs {
        out.insert("$defs".into(), defs);
    }
    *root = out;
    report.wrapped = true;
    report.change("", format!("wrapped the root in an object {{\"{WRAPPER}\": …}}; the reply is unwrapped on the way back"));
}

pub(super) fn no_free_maps(dialect: &'static str) -> impl Fn(&mut Value, &mut Report) {
    move |schema, report| {
        each(schema, "", &mut |map, pointer| {
            if map.contains_key("patternProperties")
                || map
                    .get("additionalProperties")
                    .is_some_and(|a| a != &json!(false))
            {
                report.cannot(
                    pointer,
                    format!(
                        "{} is a map with free keys, which {dialect} cannot express",
                        field(pointer)
                    ),
                );
            } else if is_object_schema(map)
                && !map.contains_key("properties")
                && !map.contains_key("additionalProperties")
            {
                report.cannot(
                    pointer,
                    format!(
                        "{} is an object with any keys, which {dialect} cannot express",
                        field(pointer)
                    ),
                );
            } else if !pointer.is_empty()
                && map
                    .keys()
                    .all(|k| matches!(k.as_str(), "description" | "title" | "examples" | "default"))
            {
                report.cannot(
                    pointer,
                    format!(
                        "{} accepts any JSON value, which {dialect} cannot express",
                        field(pointer)
                    ),
                );
            }
        });
    }
}

pub(super) fn no_tuples(dialect: &'static str) -> impl Fn(&mut Value, &mut Report) {
    move |schema, report| {
        each(schema, "", &mut |map, pointer| {
            if map.contains_key("prefixItems") {
                report.cannot(
                    pointer,
                    format!(
                        "{} is a tuple, which {dialect} cannot express; use a struct",
                        field(pointer)
                    ),
                );
            }
        });
    }
}

pub(super) fn no_recursion(dialect: &'static str) -> impl Fn(&mut Value, &mut Report) {
    move |schema, report| {
        let defs: Vec<String> = schema
            .get("$defs")
            .and_then(Value::as_object)
            .map(|d| d.keys().cloned().collect())
            .unwrap_or_default();
        let snapshot = schema.clone();
        each(schema, "", &mut |map, pointer| {
            if map.get("$ref") == Some(&json!("#"))
                || map.get("$ref") == Some(&json!(format!("#/properties/{WRAPPER}")))
            {
                report.cannot(pointer, format!("{} refers back to the root: recursive types cannot be expressed in {dialect}", field(pointer)));
            }
        });
        for name in defs {
            if reaches(&snapshot, &name, &name, &mut Vec::new()) {
                report.cannot(
                    &format!("/$defs/{}", escape(&name)),
                    format!("`{name}` is recursive, which {dialect} cannot express"),
                );
            }
        }
    }
}

/// Whether definition `from` refers (through others) to `target`.
fn reaches(schema: &Value, from: &str, target: &str, seen: &mut Vec<String>) -> bool {
    let Some(def) = schema.get("$defs").and_then(|d| d.get(from)) else {
        return false;
    };
    let mut refs = Vec::new();
    let mut def = def.clone();
    each(&mut def, "", &mut |map, _| {
        if let Some(Value::String(r)) = map.get("$ref")
            && let Some(name) = r.strip_prefix("#/$defs/")
        {
            refs.push(name.to_owned());
        }
    });
    for r in refs {
        if r == target {
            return true;
        }
        if !seen.contains(&r) {
            seen.push(r.clone());
            if reaches(schema, &r, target, seen) {
                return true;
            }
        }
    }
    false
}

/// Every property required; those that were optional become nullable (null = absent).
pub(super) fn all_required(schema: &mut Value, report: &mut Report) {
    each(schema, "", &mut |map, pointer| {
        let Some(Value::Object(props)) = map.get("properties") else {
            return;
        };
        let names: Vec<String> = props.keys().cloned().collect();
        let required: Vec<String> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        let optional: Vec<String> = names
            .iter()
            .filter(|n| !required.contains(n))
            .cloned()
            .collect();
        if optional.is_empty() {
            return;
        }
        if let Some(Value::Object(props)) = map.get_mut("properties") {
            for name in &optional {
                if let Some(prop) = props.get_mut(name)
                    && !accepts_null(prop)
                {
                    make_nullable(prop);
                    report.absent_as_null(pointer, name);
                }
            }
        }
        map.insert("required".into(), json!(names));
        report.change(
            pointer,
            format!("made optional {optional:?} required and nullable; null means absent"),
        );
    });
}

fn accepts_null(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => types.contains(&json!("null")),
        _ => schema
            .get("anyOf")
            .and_then(Value::as_array)
            .is_some_and(|alts| alts.iter().any(accepts_null)),
    }
}

fn make_nullable(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    let simple =
        !map.contains_key("$ref") && !map.contains_key("anyOf") && !map.contains_key("oneOf");
    if simple && let Some(t) = map.get("type").cloned() {
        let mut types = match t {
            Value::Array(types) => types,
            one => vec![one],
        };
        types.push(json!("null"));
        map.insert("type".into(), Value::Array(types));
        if let Some(Value::Array(values)) = map.get_mut("enum") {
            values.push(Value::Null);
        }
        return;
    }
    let inner = std::mem::take(map);
    let description = inner.get("description").cloned();
    let mut inner = inner;
    inner.shift_remove("description");
    map.insert(
        "anyOf".into(),
        json!([Value::Object(inner), { "type": "null" }]),
    );
    if let Some(d) = description {
        map.insert("description".into(), d);
    }
}

pub(super) fn close_objects(schema: &mut Value, report: &mut Report) {
    each(schema, "", &mut |map, pointer| {
        if is_object_schema(map) && !map.contains_key("additionalProperties") {
            map.insert("additionalProperties".into(), json!(false));
            report.change(
                pointer,
                "closed the object with additionalProperties: false",
            );
        }
    });
}

/// An object schema names its properties and required keys, even when there are none
/// (OpenAI refuses an object schema without `properties`).
pub(super) fn list_properties(schema: &mut Value, report: &mut Report) {
    each(schema, "", &mut |map, pointer| {
        if is_object_schema(map) && !map.contains_key("properties") {
            map.insert("properties".into(), json!({}));
            map.insert("required".into(), json!([]));
            report.change(pointer, "listed no properties: an object with no keys");
        }
    });
}

pub(super) fn one_of_to_any_of(schema: &mut Value, report: &mut Report) {
    each(schema, "", &mut |map, pointer| {
        if let Some(one_of) = map.shift_remove("oneOf") {
            // The alternatives of a derived enum are exclusive by construction.
            map.insert("anyOf".into(), one_of);
            report.change(pointer, "oneOf → anyOf");
        }
    });
}

/// `$ref` must stand alone: its siblings move to an `anyOf` wrapper around it.
pub(super) fn nothing_beside_ref(schema: &mut Value, report: &mut Report) {
    each(schema, "", &mut |map, pointer| {
        if map.contains_key("$ref") && map.len() > 1 {
            let target = map.shift_remove("$ref").unwrap_or(Value::Null);
            map.insert("anyOf".into(), json!([{ "$ref": target }]));
            report.change(
                pointer,
                "moved $ref into a one-item anyOf so nothing stands beside it",
            );
        }
    });
}

/// Keywords a dialect rejects: removed, and stated in the description instead.
pub(super) fn move_to_description(
    keywords: &'static [&'static str],
) -> impl Fn(&mut Value, &mut Report) {
    move |schema, report| {
        each(schema, "", &mut |map, pointer| {
            let removed: Vec<(&str, Value)> = keywords
                .iter()
                .filter_map(|key| map.shift_remove(*key).map(|value| (*key, value)))
                .collect();
            if !removed.is_empty() {
                let text = say_all(&removed);
                append_description(map, &text);
                report.change(pointer, format!("moved {text} into the description"));
            }
        });
    }
}

/// Removed keywords in words, the two bounds of one thing said together: "1 to 80
/// characters", "exactly 1 character", "from 0 to 150".
fn say_all(removed: &[(&str, Value)]) -> String {
    const BOUNDS: [(&str, &str, &str, &str); 3] = [
        ("minLength", "maxLength", "character", "characters"),
        ("minItems", "maxItems", "item", "items"),
        ("minProperties", "maxProperties", "key", "keys"),
    ];
    let get = |key: &str| removed.iter().find(|(k, _)| *k == key).map(|(_, v)| v);
    let mut parts = Vec::new();
    let mut said: Vec<&str> = Vec::new();
    for (low, high, one, many) in BOUNDS {
        let unit = |n: &Value| if n.as_u64() == Some(1) { one } else { many };
        parts.push(match (get(low), get(high)) {
            (Some(a), Some(b)) if a == b => format!("exactly {a} {}", unit(a)),
            (Some(a), Some(b)) => format!("{a} to {b} {many}"),
            (Some(a), None) => format!("at least {a} {}", unit(a)),
            (None, Some(b)) => format!("at most {b} {}", unit(b)),
            (None, None) => continue,
        });
        said.extend([low, high]);
    }
    if let (Some(a), Some(b)) = (get("minimum"), get("maximum")) {
        parts.push(format!("from {a} to {b}"));
        said.extend(["minimum", "maximum"]);
    }
    for (key, value) in removed {
        if !said.contains(key) {
            parts.push(say(key, value));
        }
    }
    parts.join(", ")
}

fn say(keyword: &str, value: &Value) -> String {
    match keyword {
        "minItems" => format!("at least {value} items"),
        "uniqueItems" => "items must be unique".into(),
        "minimum" => format!("minimum {value}"),
        "maximum" => format!("maximum {value}"),
        "exclusiveMinimum" => format!("greater than {value}"),
        "exclusiveMaximum" => format!("less than {value}"),
        "multipleOf" => format!("a multiple of {value}"),
        "examples" => format!(
            "e.g. {}",
            value.as_array().map_or(value.to_string(), |v| {
                v.iter()
                    .map(Value::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            })
        ),
        "default" => format!("default {value}"),
        "format" => format!("format {}", value.as_str().unwrap_or_default()),
        other => format!("{other} {value}"),
    }
}

pub(super) fn unsupported_formats(
    supported: &'static [&'static str],
) -> impl Fn(&mut Value, &mut Report) {
    move |schema, report| {
        each(schema, "", &mut |map, pointer| {
            if let Some(Value::String(format)) = map.get("format")
                && !supported.contains(&format.as_str())
            {
                let text = say("format", &map.shift_remove("format").unwrap_or_default());
                append_description(map, &text);
                report.change(pointer, format!("moved {text} into the description"));
            }
        });
    }
}

pub(super) fn large_min_items(schema: &mut Value, report: &mut Report) {
    each(schema, "", &mut |map, pointer| {
        if map
            .get("minItems")
            .and_then(Value::as_u64)
            .is_some_and(|n| n > 1)
        {
            let text = say(
                "minItems",
                &map.shift_remove("minItems").unwrap_or_default(),
            );
            append_description(map, &text);
            report.change(pointer, format!("moved {text} into the description"));
        }
    });
}

pub(super) fn const_to_enum(schema: &mut Value, report: &mut Report) {
    each(schema, "", &mut |map, pointer| {
        if let Some(value) = map.shift_remove("const") {
            map.insert("enum".into(), json!([value]));
            report.change(pointer, "const → one-item enum");
        }
    });
}

pub(super) fn string_enums(schema: &mut Value, report: &mut Report) {
    each(schema, "", &mut |map, pointer| {
        if let Some(Value::Array(values)) = map.get("enum")
            && values.iter().any(|v| !v.is_string() && !v.is_null())
        {
            report.cannot(
                pointer,
                format!(
                    "{} has non-string enum values, which Gemini cannot express",
                    field(pointer)
                ),
            );
        }
    });
}

/// `$schema` and the like, which providers reject in a tool or response schema.
pub(super) fn drop_meta(schema: &mut Value, report: &mut Report) {
    if let Value::Object(root) = schema
        && root.shift_remove("$schema").is_some()
    {
        report.change("", "removed $schema");
    }
}
