//! Provider dialects of JSON Schema, as data: each dialect is an ordered list of
//! [`Transform`]s over the strict schema, and every change is reported.
//!
//! A transform that drops a keyword a provider rejects moves it into the `description`,
//! so the model still reads it, and the local validator still enforces it: validation
//! always uses the strict schema. A type that a dialect cannot express at all is an error
//! that names the field.

use std::fmt;

use serde_json::{Map, Value, json};

use crate::Error;
use crate::error::{Violation, ViolationKind};
use crate::schema::ToolSchema;

/// A provider's flavour of JSON Schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Draft 2020-12 as derived: every object closed, nothing removed.
    Strict,
    /// OpenAI structured outputs and strict function calling: the root is an object,
    /// every property is required (optional ones become nullable), no `oneOf`, nothing
    /// beside `$ref`, no free-form maps, and unsupported keywords moved to descriptions.
    OpenAiStrict,
    /// Anthropic tool `input_schema` within strict tool use limits: the root is an object,
    /// numeric, length and count constraints moved to descriptions, no recursion, no free
    /// maps.
    Anthropic,
    /// Gemini `responseJsonSchema`: nothing beside `$ref`, `const` as a one-item `enum`,
    /// string-only enums.
    Gemini,
}

/// One change a dialect made to the strict schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// RFC 6901 pointer into the schema where the change was made.
    pub pointer: String,
    pub description: String,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        write!(f, "{at}: {}", self.description)
    }
}

/// The schema in a dialect, with every change made to it.
#[derive(Debug, Clone, PartialEq)]
pub struct DialectSchema {
    pub schema: Value,
    pub changes: Vec<Change>,
    /// The root was wrapped as `{"value": …}`; see [`DialectSchema::unwrap`].
    pub wrapped: bool,
}

impl DialectSchema {
    /// Turns a value written against this schema back into one for the strict schema:
    /// takes it out of the `{"value": …}` wrapper.
    pub fn unwrap(&self, value: Value) -> Value {
        match value {
            Value::Object(mut map)
                if self.wrapped && map.len() == 1 && map.contains_key(WRAPPER) =>
            {
                map.shift_remove(WRAPPER).unwrap_or(Value::Null)
            }
            other => other,
        }
    }
}

/// The key the root is wrapped under when a dialect needs an object root.
pub const WRAPPER: &str = "value";

/// What a transform records.
#[derive(Debug, Default)]
pub struct Report {
    changes: Vec<Change>,
    errors: Vec<Violation>,
    wrapped: bool,
}

impl Report {
    /// Records a change at a schema pointer.
    pub fn change(&mut self, pointer: &str, description: impl Into<String>) {
        self.changes.push(Change {
            pointer: pointer.to_owned(),
            description: description.into(),
        });
    }

    /// Records that the schema cannot be expressed; `field` is the data path people read.
    pub fn cannot(&mut self, pointer: &str, message: impl Into<String>) {
        self.errors.push(Violation::new(
            pointer,
            ViolationKind::Invalid {
                message: message.into(),
            },
        ));
    }
}

/// One step of a dialect. A closure `Fn(&mut Value, &mut Report)` is a transform too.
pub trait Transform {
    fn apply(&self, schema: &mut Value, report: &mut Report);
}

impl<F: Fn(&mut Value, &mut Report)> Transform for F {
    fn apply(&self, schema: &mut Value, report: &mut Report) {
        self(schema, report)
    }
}

/// An ordered list of transforms: a dialect of your own.
///
/// ```
/// use toolschema::dialect::{Report, Transforms};
///
/// let no_descriptions = Transforms::new().then(|schema: &mut serde_json::Value, report: &mut Report| {
///     if let Some(map) = schema.as_object_mut() {
///         map.shift_remove("description");
///         report.change("", "removed the description");
///     }
/// });
/// let out = no_descriptions.apply(serde_json::json!({ "type": "string", "description": "x" })).unwrap();
/// assert_eq!(out.schema, serde_json::json!({ "type": "string" }));
/// assert_eq!(out.changes[0].to_string(), "(root): removed the description");
/// ```
#[derive(Default)]
pub struct Transforms {
    steps: Vec<Box<dyn Transform + Send + Sync>>,
}

impl Transforms {
    pub fn new() -> Self {
        Transforms::default()
    }

    /// Adds a transform after the others.
    pub fn then(mut self, transform: impl Transform + Send + Sync + 'static) -> Self {
        self.steps.push(Box::new(transform));
        self
    }

    /// Runs every transform in order on a strict schema.
    pub fn apply(&self, mut schema: Value) -> Result<DialectSchema, Error> {
        let mut report = Report::default();
        for step in &self.steps {
            step.apply(&mut schema, &mut report);
        }
        if !report.errors.is_empty() {
            return Err(Error::new(report.errors));
        }
        Ok(DialectSchema {
            schema,
            changes: report.changes,
            wrapped: report.wrapped,
        })
    }
}

impl Dialect {
    /// The dialect's transforms, in order.
    pub fn transforms(self) -> Transforms {
        let t = Transforms::new();
        match self {
            Dialect::Strict => t,
            Dialect::OpenAiStrict => t
                .then(drop_aliases)
                .then(wrap_root)
                .then(no_free_maps("OpenAI strict mode"))
                .then(no_tuples("OpenAI strict mode"))
                .then(all_required)
                .then(close_objects)
                .then(one_of_to_any_of)
                .then(nothing_beside_ref)
                .then(move_to_description(&[
                    "minLength",
                    "maxLength",
                    "uniqueItems",
                    "minProperties",
                    "maxProperties",
                    "examples",
                    "default",
                ]))
                .then(unsupported_formats(&[
                    "date-time",
                    "time",
                    "date",
                    "duration",
                    "email",
                    "hostname",
                    "ipv4",
                    "ipv6",
                    "uuid",
                ]))
                .then(drop_meta),
            Dialect::Anthropic => t
                .then(drop_aliases)
                .then(wrap_root)
                .then(no_free_maps("Anthropic strict tool use"))
                .then(no_recursion("Anthropic strict tool use"))
                .then(move_to_description(&[
                    "minimum",
                    "maximum",
                    "exclusiveMinimum",
                    "exclusiveMaximum",
                    "multipleOf",
                    "minLength",
                    "maxLength",
                    "maxItems",
                    "uniqueItems",
                ]))
                .then(large_min_items)
                .then(drop_meta),
            Dialect::Gemini => t
                .then(drop_aliases)
                .then(nothing_beside_ref)
                .then(const_to_enum)
                .then(string_enums)
                .then(drop_meta),
        }
    }

    /// A strict schema in this dialect.
    pub fn apply(self, schema: Value) -> Result<DialectSchema, Error> {
        self.transforms().apply(schema)
    }
}

/// The JSON Schema of `T` in a provider's dialect; an error names a field the dialect
/// cannot express.
///
/// ```
/// use toolschema::{Dialect, ToolSchema};
///
/// #[derive(ToolSchema)]
/// struct Search { query: String, limit: Option<u8> }
///
/// let schema = toolschema::schema_for::<Search>(Dialect::OpenAiStrict)?;
/// assert_eq!(schema["required"], serde_json::json!(["query", "limit"]));
/// assert_eq!(schema["properties"]["limit"]["type"], serde_json::json!(["integer", "null"]));
/// # Ok::<(), toolschema::Error>(())
/// ```
pub fn schema_for<T: ToolSchema>(dialect: Dialect) -> Result<Value, Error> {
    dialect_schema::<T>(dialect).map(|d| d.schema)
}

/// [`schema_for`] with the report of every change the dialect made.
pub fn dialect_schema<T: ToolSchema>(dialect: Dialect) -> Result<DialectSchema, Error> {
    dialect.apply(T::json_schema())
}

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
fn each(schema: &mut Value, pointer: &str, f: &mut dyn FnMut(&mut Map<String, Value>, &str)) {
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

fn escape(s: &str) -> String {
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

fn append_description(map: &mut Map<String, Value>, text: &str) {
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
fn drop_aliases(schema: &mut Value, report: &mut Report) {
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
fn wrap_root(schema: &mut Value, report: &mut Report) {
    let Value::Object(root) = schema else { return };
    let is_plain_object = root.get("type") == Some(&json!("object"))
        && !root.contains_key("anyOf")
        && !root.contains_key("oneOf")
        && !root.contains_key("$ref");
    if is_plain_object {
        return;
    }
    let defs = root.shift_remove("$defs");
    let meta = root.shift_remove("$schema");
    let mut inner = std::mem::take(root);
    // A recursive root refers to itself as "#": point it at the wrapped value instead.
    let mut refs_to_root = false;
    let mut wrapped_inner = Value::Object(inner.clone());
    each(&mut wrapped_inner, "", &mut |map, _| {
        if map.get("$ref") == Some(&json!("#")) {
            map.insert("$ref".into(), json!("#/properties/value"));
            refs_to_root = true;
        }
    });
    if let Value::Object(map) = wrapped_inner {
        inner = map;
    }
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

fn no_free_maps(dialect: &'static str) -> impl Fn(&mut Value, &mut Report) {
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

fn no_tuples(dialect: &'static str) -> impl Fn(&mut Value, &mut Report) {
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

fn no_recursion(dialect: &'static str) -> impl Fn(&mut Value, &mut Report) {
    move |schema, report| {
        let defs: Vec<String> = schema
            .get("$defs")
            .and_then(Value::as_object)
            .map(|d| d.keys().cloned().collect())
            .unwrap_or_default();
        let snapshot = schema.clone();
        each(schema, "", &mut |map, pointer| {
            if map.get("$ref") == Some(&json!("#"))
                || map.get("$ref") == Some(&json!("#/properties/value"))
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
fn all_required(schema: &mut Value, report: &mut Report) {
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

fn close_objects(schema: &mut Value, report: &mut Report) {
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

fn one_of_to_any_of(schema: &mut Value, report: &mut Report) {
    each(schema, "", &mut |map, pointer| {
        if let Some(one_of) = map.shift_remove("oneOf") {
            // The alternatives of a derived enum are exclusive by construction.
            map.insert("anyOf".into(), one_of);
            report.change(pointer, "oneOf → anyOf");
        }
    });
}

/// `$ref` must stand alone: its siblings move to an `anyOf` wrapper around it.
fn nothing_beside_ref(schema: &mut Value, report: &mut Report) {
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
fn move_to_description(keywords: &'static [&'static str]) -> impl Fn(&mut Value, &mut Report) {
    move |schema, report| {
        each(schema, "", &mut |map, pointer| {
            let mut said = Vec::new();
            for key in keywords {
                if let Some(value) = map.shift_remove(*key) {
                    said.push(say(key, &value));
                }
            }
            if !said.is_empty() {
                let text = said.join(", ");
                append_description(map, &text);
                report.change(pointer, format!("moved {text} into the description"));
            }
        });
    }
}

fn say(keyword: &str, value: &Value) -> String {
    match keyword {
        "minLength" => format!("at least {value} characters"),
        "maxLength" => format!("at most {value} characters"),
        "minItems" => format!("at least {value} items"),
        "maxItems" => format!("at most {value} items"),
        "uniqueItems" => "items must be unique".into(),
        "minProperties" => format!("at least {value} keys"),
        "maxProperties" => format!("at most {value} keys"),
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

fn unsupported_formats(supported: &'static [&'static str]) -> impl Fn(&mut Value, &mut Report) {
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

fn large_min_items(schema: &mut Value, report: &mut Report) {
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

fn const_to_enum(schema: &mut Value, report: &mut Report) {
    each(schema, "", &mut |map, pointer| {
        if let Some(value) = map.shift_remove("const") {
            map.insert("enum".into(), json!([value]));
            report.change(pointer, "const → one-item enum");
        }
    });
}

fn string_enums(schema: &mut Value, report: &mut Report) {
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
fn drop_meta(schema: &mut Value, report: &mut Report) {
    if let Value::Object(root) = schema
        && root.shift_remove("$schema").is_some()
    {
        report.change("", "removed $schema");
    }
}
