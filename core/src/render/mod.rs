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

use serde_json::Value;

use crate::schema::{Schema, ToolSchema};

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
