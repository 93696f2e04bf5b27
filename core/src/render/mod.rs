//! What toolschema shows a model: the compact prompt form of a type and example values.

pub(crate) mod compact;
mod example;

pub(crate) use compact::render_node as compact_node;
pub(crate) use compact::render_with as compact_with;
pub(crate) use example::generate_node as example_node;

/// A realistic string the node accepts, for messages.
pub(crate) fn string_example(node: &crate::schema::Node) -> String {
    example::string(node, 0)
}

/// The form a node's strings take (`INV-0000`, `YYYY-MM-DD`), where a pattern or a format
/// fixes one: for messages that must not offer a value.
pub(crate) fn string_form(node: &crate::schema::Node) -> Option<example::StringForm> {
    example::form(node)
}

use serde_json::Value;

use crate::schema::Schema;
use crate::tool_schema::ToolSchema;

/// The compact, TypeScript-like form of `T` for prompts: doc comments as `//` comments,
/// constraints as `/* */` comments, optional keys marked `?`, shared types named once,
/// a union of tools as the list of calls.
///
/// ```
/// use toolschema::ToolSchema;
///
/// #[derive(ToolSchema)]
/// #[serde(rename_all = "lowercase")]
/// enum Unit { Celsius, Fahrenheit }
///
/// #[derive(ToolSchema)]
/// struct Reading {
///     #[schema(range(min = 0, max = 150))]
///     age: u8,
///     unit: Unit,
///     email: Option<String>,
/// }
///
/// assert_eq!(
///     toolschema::render::compact::<Reading>(),
///     r#"{ age: int /* 0..=150 */, unit: "celsius" | "fahrenheit", email?: string | null }"#
/// );
/// ```
pub fn compact<T: ToolSchema>() -> String {
    compact::render(&Schema::of::<T>())
}

/// The compact form of a schema known at run time.
pub fn compact_schema(schema: &Schema) -> String {
    compact::render(schema)
}

/// A valid example of `T`: `#[schema(example)]` values where given, otherwise values
/// inside the ranges, lengths, patterns and enums of the schema.
///
/// ```
/// use toolschema::ToolSchema;
///
/// #[derive(ToolSchema, Debug)]
/// struct Slot {
///     #[schema(range(min = 9, max = 17))]
///     hour: u8,
///     #[schema(pattern = "^[A-Z]{3}$")]
///     room: String,
/// }
///
/// let example = toolschema::render::example::<Slot>();
/// assert_eq!(example, serde_json::json!({ "hour": 9, "room": "ABC" }));
/// assert!(toolschema::from_value::<Slot>(example).is_ok());
/// ```
pub fn example<T: ToolSchema>() -> Value {
    example::generate(&Schema::of::<T>())
}

/// An example value of a schema known at run time.
pub fn example_schema(schema: &Schema) -> Value {
    example::generate(schema)
}

/// An example in which optional keys are `null` (or left out where `null` is not
/// allowed): the example the agent shows a model, so it does not fill what a request does
/// not give with the example's values.
pub fn sparse_example_schema(schema: &Schema) -> Value {
    example::generate_sparse(schema)
}

/// An example of `T` that cannot pass for a fact: strings are placeholders named after
/// their key (`"<name>"`), or the form a pattern or format requires (`"INV-0000"`,
/// `"YYYY-MM-DD"`); optional keys are absent as in [`sparse_example_schema`]. Numbers,
/// booleans, enums, defaults and `#[schema(example)]` values are as in [`example`].
///
/// A concrete example (`"text"`, `"INV-0123"`, `"2025-06-14"`) is what a small model
/// copies into an answer whose request gives another value or none: a placeholder copied
/// is visibly not a fact, and a form copied (`YYYY-MM-DD`) is not even valid.
///
/// ```
/// use toolschema::ToolSchema;
///
/// #[derive(ToolSchema, Debug)]
/// struct Invoice {
///     #[schema(pattern = "^INV-[0-9]{4}$")]
///     number: String,
///     #[schema(format = "date")]
///     issued: String,
///     customer: String,
///     note: Option<String>,
/// }
///
/// assert_eq!(
///     toolschema::render::placeholder_example::<Invoice>(),
///     serde_json::json!({
///         "number": "INV-0000",
///         "issued": "YYYY-MM-DD",
///         "customer": "<customer>",
///         "note": null,
///     })
/// );
/// ```
pub fn placeholder_example<T: ToolSchema>() -> Value {
    example::generate_placeholders(&Schema::of::<T>())
}

/// The placeholder example of a schema known at run time (see [`placeholder_example`]).
pub fn placeholder_example_schema(schema: &Schema) -> Value {
    example::generate_placeholders(schema)
}
