//! Provider dialects of JSON Schema, as data: each dialect is an ordered list of
//! [`Transform`]s over the strict schema, and every change is reported.
//!
//! A transform that drops a keyword a provider rejects moves it into the `description`,
//! so the model still reads it, and the local validator still enforces it: validation
//! always uses the strict schema. A type that a dialect cannot express at all is an error
//! that names the field.

mod absent;
mod no_arguments;
mod patterns;
mod transforms;

use std::fmt;

use serde_json::Value;

use crate::Error;
use crate::error::{Violation, ViolationKind};
use crate::tool_schema::ToolSchema;
use no_arguments::close_argumentless_root;
use patterns::portable_patterns;
use transforms::{
    all_required, close_objects, const_to_enum, drop_aliases, drop_meta, large_min_items,
    list_properties, move_to_description, no_free_maps, no_recursion, no_tuples,
    nothing_beside_ref, one_of_to_any_of, string_enums, unsupported_formats, wrap_root,
};

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
    /// Properties that were optional and are now required and nullable, where null
    /// means absent: (pointer of the object schema, property name).
    absent_as_null: Vec<(String, String)>,
}

impl DialectSchema {
    /// Turns a value written against this schema back into one for the strict schema:
    /// drops the nulls that stand for absent optional fields, and takes the value out of
    /// the `{"value": …}` wrapper.
    ///
    /// ```
    /// use toolschema::{Dialect, ToolSchema};
    ///
    /// #[derive(ToolSchema, Debug)]
    /// struct Meeting {
    ///     title: String,
    ///     #[serde(default)]
    ///     online: bool,
    /// }
    ///
    /// let openai = toolschema::dialect_schema::<Meeting>(Dialect::OpenAiStrict)?;
    /// let reply = serde_json::json!({ "title": "Standup", "online": null });
    /// let meeting: Meeting = toolschema::from_value(openai.unwrap(reply))?;
    /// assert!(!meeting.online);
    /// # Ok::<(), toolschema::Error>(())
    /// ```
    pub fn unwrap(&self, mut value: Value) -> Value {
        if !self.absent_as_null.is_empty() {
            absent::strip_nulls(&self.schema, &self.absent_as_null, &mut value);
        }
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

/// String formats OpenAI strict mode accepts.
const OPENAI_FORMATS: &[&str] = &[
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

/// String formats Anthropic strict tool use accepts.
const ANTHROPIC_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// The key the root is wrapped under when a dialect needs an object root.
pub const WRAPPER: &str = "value";

/// What a transform records.
#[derive(Debug, Default)]
pub struct Report {
    changes: Vec<Change>,
    errors: Vec<Violation>,
    wrapped: bool,
    absent_as_null: Vec<(String, String)>,
}

impl Report {
    /// Records a change at a schema pointer.
    pub fn change(&mut self, pointer: &str, description: impl Into<String>) {
        self.changes.push(Change {
            pointer: pointer.to_owned(),
            description: description.into(),
        });
    }

    /// Records that property `name` of the object schema at `pointer` was made required
    /// and nullable, with null meaning absent: [`DialectSchema::unwrap`] drops such nulls.
    /// The pointer must be valid in the final schema.
    pub fn absent_as_null(&mut self, pointer: &str, name: &str) {
        self.absent_as_null
            .push((pointer.to_owned(), name.to_owned()));
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
            absent_as_null: report.absent_as_null,
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
                .then(close_argumentless_root)
                .then(no_free_maps("OpenAI strict mode"))
                .then(no_tuples("OpenAI strict mode"))
                // Before all_required, whose pointers must hold in the final schema.
                .then(one_of_to_any_of)
                .then(all_required)
                .then(close_objects)
                .then(list_properties)
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
                .then(unsupported_formats(OPENAI_FORMATS))
                .then(portable_patterns)
                .then(drop_meta),
            Dialect::Anthropic => t
                .then(drop_aliases)
                .then(wrap_root)
                .then(close_argumentless_root)
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
                .then(unsupported_formats(ANTHROPIC_FORMATS))
                .then(portable_patterns)
                .then(drop_meta),
            Dialect::Gemini => t
                .then(drop_aliases)
                .then(nothing_beside_ref)
                .then(const_to_enum)
                .then(string_enums)
                .then(portable_patterns)
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
