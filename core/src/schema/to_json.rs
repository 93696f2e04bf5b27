//! Writes a compiled [`Schema`] as draft 2020-12 JSON.

use serde_json::{Map, Value, json};

use super::{Node, Schema};

pub(crate) const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

pub(crate) fn render(schema: &Schema) -> Value {
    let root = match schema.root_def {
        Some(id) => schema.definition(id).unwrap_or(&schema.root),
        None => &schema.root,
    };
    let mut out = Map::new();
    out.insert("$schema".into(), DRAFT_2020_12.into());
    match node(schema, root) {
        Value::Object(map) => out.extend(map),
        Value::Bool(false) => {
            out.insert("not".into(), json!({}));
        }
        _ => {}
    }
    add_definitions(schema, root, &mut out);
    Value::Object(out)
}

/// `$defs` with the definitions `from` uses, except the root's own.
fn add_definitions(schema: &Schema, from: &Node, out: &mut Map<String, Value>) {
    let used = reachable(schema, from);
    let defs: Map<String, Value> = schema
        .definitions
        .iter()
        .enumerate()
        .filter(|(i, _)| used[*i] && schema.root_def.map(|id| id.0) != Some(*i))
        .map(|(_, def)| (def.name.clone(), node(schema, &def.node)))
        .collect();
    if !defs.is_empty() {
        out.insert("$defs".into(), Value::Object(defs));
    }
}

/// One node of a schema as a standalone draft 2020-12 schema, with the definitions it
/// uses: a tool's arguments.
pub(crate) fn render_part(schema: &Schema, part: &Node) -> Value {
    let target = match part.reference {
        Some(id) if *part == Node::reference(id) => schema.definition(id).unwrap_or(part),
        _ => part,
    };
    let mut out = match node(schema, target) {
        Value::Object(map) => map,
        other => return other,
    };
    add_definitions(schema, target, &mut out);
    Value::Object(out)
}

/// Which definitions the root refers to, directly or through others. A flattened struct's
/// definition, merged into its parent, is not.
fn reachable(schema: &Schema, root: &Node) -> Vec<bool> {
    let mut used = vec![false; schema.definitions.len()];
    let mut stack = vec![root.clone()];
    while let Some(mut n) = stack.pop() {
        n.for_each_mut(&mut |inner| {
            if let Some(id) = inner.reference
                && !used[id.0]
            {
                used[id.0] = true;
                stack.push(schema.definitions[id.0].node.clone());
            }
        });
    }
    used
}

/// One node as JSON: `false` for a node that accepts nothing, an object otherwise.
pub(crate) fn node(schema: &Schema, n: &Node) -> Value {
    if n.never {
        return Value::Bool(false);
    }
    let mut out = Map::new();
    let mut put = |key: &str, value: Value| {
        out.insert(key.to_owned(), value);
    };
    if let Some(id) = n.reference {
        let target = if schema.root_def == Some(id) {
            "#".to_owned()
        } else {
            let name = schema.definitions.get(id.0).map_or("", |d| d.name.as_str());
            format!("#/$defs/{}", crate::pointer::token(name))
        };
        put("$ref", target.into());
    }
    if let Some(title) = &n.title {
        put("title", title.clone().into());
    }
    if let Some(description) = &n.description {
        put("description", description.clone().into());
    }
    if let Some(types) = n.types {
        let names: Vec<Value> = types.names().map(Value::from).collect();
        match <[Value; 1]>::try_from(names) {
            Ok([one]) => put("type", one),
            Err(many) => put("type", Value::Array(many)),
        }
    }
    if let Some(values) = &n.enumeration {
        put("enum", Value::Array(values.clone()));
    }
    if let Some(value) = &n.constant {
        put("const", value.clone());
    }
    if let Some(format) = &n.format {
        put("format", format.clone().into());
    }
    let numbers = [
        ("minimum", &n.minimum),
        ("exclusiveMinimum", &n.exclusive_minimum),
        ("maximum", &n.maximum),
        ("exclusiveMaximum", &n.exclusive_maximum),
        ("multipleOf", &n.multiple_of),
    ];
    for (key, value) in numbers {
        if let Some(value) = value {
            put(key, Value::Number(value.clone()));
        }
    }
    let counts = [
        ("minLength", n.min_length),
        ("maxLength", n.max_length),
        ("minItems", n.min_items),
        ("maxItems", n.max_items),
        ("minProperties", n.min_properties),
        ("maxProperties", n.max_properties),
    ];
    for (key, value) in counts {
        if let Some(value) = value {
            put(key, value.into());
        }
    }
    if let Some(pattern) = &n.pattern {
        put("pattern", pattern.source.clone().into());
    }
    if !n.prefix_items.is_empty() {
        let items = n.prefix_items.iter().map(|i| node(schema, i)).collect();
        put("prefixItems", Value::Array(items));
    }
    if let Some(items) = &n.items {
        put("items", node(schema, items));
    }
    if n.unique_items {
        put("uniqueItems", true.into());
    }
    let mut all_of: Vec<Value> = n.all_of.iter().map(|a| node(schema, a)).collect();
    if !n.properties.is_empty() {
        let mut properties = Map::new();
        let mut required = Vec::new();
        for p in &n.properties {
            // The field's own name first, then its aliases.
            let schema_of = node(schema, &p.node);
            properties.insert(p.name.clone(), schema_of.clone());
            for alias in &p.aliases {
                properties.insert(alias.clone(), schema_of.clone());
            }
            if p.aliases.is_empty() {
                if p.required {
                    required.push(Value::from(p.name.clone()));
                }
            } else {
                all_of.push(alias_rule(p.required, p.aliases.iter().chain([&p.name])));
            }
        }
        put("properties", Value::Object(properties));
        required.extend(n.required_extra.iter().cloned().map(Value::from));
        if !required.is_empty() {
            put("required", Value::Array(required));
        }
    } else if !n.required_extra.is_empty() {
        put("required", n.required_extra.clone().into());
    }
    if !n.pattern_properties.is_empty() {
        let map = n
            .pattern_properties
            .iter()
            .map(|(p, s)| (p.source.clone(), node(schema, s)))
            .collect();
        put("patternProperties", Value::Object(map));
    }
    if let Some(additional) = &n.additional_properties {
        put("additionalProperties", node(schema, additional));
    }
    if let Some(names) = &n.property_names {
        put("propertyNames", node(schema, names));
    }
    if !n.dependent_required.is_empty() {
        let map = n
            .dependent_required
            .iter()
            .map(|(k, v)| (k.clone(), v.clone().into()))
            .collect();
        put("dependentRequired", Value::Object(map));
    }
    if !all_of.is_empty() {
        put("allOf", Value::Array(all_of));
    }
    if !n.any_of.is_empty() {
        put("anyOf", n.any_of.iter().map(|a| node(schema, a)).collect());
    }
    if !n.one_of.is_empty() {
        put("oneOf", n.one_of.iter().map(|a| node(schema, a)).collect());
    }
    if let Some(not) = &n.not {
        put("not", node(schema, not));
    }
    if let Some(default) = &n.default {
        put("default", default.clone());
    }
    if !n.examples.is_empty() {
        put("examples", Value::Array(n.examples.clone()));
    }
    Value::Object(out)
}

/// A field that may be given under several keys takes exactly one of them when required,
/// at most one otherwise.
fn alias_rule<'a>(required: bool, keys: impl Iterator<Item = &'a String>) -> Value {
    let each: Vec<Value> = keys.map(|k| json!({ "required": [k] })).collect();
    if required {
        json!({ "oneOf": each })
    } else {
        json!({ "anyOf": [{ "not": { "anyOf": each.clone() } }, { "oneOf": each }] })
    }
}
