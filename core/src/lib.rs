//! # toolschema
//!
//! Typed, trustworthy output from large language models.
//!
//! `#[derive(ToolSchema)]` turns one Rust type into a JSON Schema and a strict
//! deserializer that can never disagree with it, and that reports every problem in a
//! model's JSON at once, each at its JSON pointer, in words a model can act on.
//!
//! ```
//! use toolschema::ToolSchema;
//!
//! /// A person mentioned in the text.
//! #[derive(ToolSchema, Debug, PartialEq)]
//! struct Person {
//!     /// Full name
//!     name: String,
//!     #[schema(range(min = 0, max = 150))]
//!     age: u8,
//!     email: Option<String>,
//!     tags: Vec<String>,
//! }
//!
//! let person = toolschema::from_str::<Person>(r#"{"name":"Ann","age":31,"email":null,"tags":[]}"#)?;
//! assert_eq!(person.age, 31);
//!
//! let err = toolschema::from_str::<Person>(r#"{"name":1,"agee":31,"tags":[]}"#).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "/name: expected a string, found the number 1\n\
//!      /agee: unknown field; did you mean \"age\"? \
//!      The allowed keys are \"name\", \"age\", \"email\", \"tags\"; remove the others.\n\
//!      /age: missing required field"
//! );
//! # Ok::<(), toolschema::Error>(())
//! ```
//!
//! An enum with `#[tool]` and `#[answer]` variants is a union of tool calls and a direct
//! answer, in the JSON shape models are trained on:
//!
//! ```
//! use toolschema::ToolSchema;
//!
//! #[derive(ToolSchema, Debug, PartialEq)]
//! struct GetWeather {
//!     city: String,
//!     unit: Unit,
//! }
//!
//! #[derive(ToolSchema, Debug, PartialEq)]
//! #[serde(rename_all = "lowercase")]
//! enum Unit { Celsius, Fahrenheit }
//!
//! #[derive(ToolSchema, Debug, PartialEq)]
//! enum Step {
//!     /// Look up the weather for a city.
//!     #[tool]
//!     GetWeather(GetWeather),
//!     #[answer]
//!     Answer(String),
//! }
//!
//! let step: Step = toolschema::from_str(r#"{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}"#)?;
//! assert_eq!(step, Step::GetWeather(GetWeather { city: "Paris".into(), unit: Unit::Celsius }));
//!
//! let err = toolschema::from_str::<Step>(r#"{"name": "get_weather", "arguments": {"city": "Paris", "unit": "kelvin"}}"#).unwrap_err();
//! assert_eq!(err.to_string(), r#"/arguments/unit: "kelvin" is not one of "celsius", "fahrenheit""#);
//! # Ok::<(), toolschema::Error>(())
//! ```

pub mod agent;
mod coerce;
pub mod dialect;
pub mod docs;
mod envelope;
mod error;
mod extract;
mod fast_path;
pub mod feedback;
mod fix;
mod formats;
mod looped;
#[cfg(feature = "mcp")]
pub mod mcp;
mod message;
mod panic;
mod parse;
mod pointer;
pub mod provider;
pub mod render;
pub mod repair;
mod schema;
mod suggest;
mod text_calls;
mod tool_schema;
mod tool_union;
pub mod toolset;
mod validate;
mod value;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use agent::{Agent, AskError, Attempt};
pub use coerce::Coercion;
pub use dialect::{Dialect, dialect_schema, schema_for};
pub use error::{Bound, Error, Unit, Violation, ViolationKind};
pub use feedback::{RepairPrompt, RepairStrategy};
pub use message::{Arguments, Message, Role, ToolCall};
pub use parse::{Parsed, Parser, parse};
pub use repair::{Fix, FixKind};
pub use schema::{Generator, MAX_DEPTH, Node, Schema};
pub use tool_schema::ToolSchema;
pub use toolschema_macros::ToolSchema;
#[allow(deprecated)]
pub use toolset::Call;
pub use toolset::{Choice, Rejection, Toolset, ValidCall};

/// The building blocks of the schema model, for code that inspects or builds schemas.
pub mod model {
    pub use crate::schema::{DefId, Discriminator, Pattern, Property, Types};
}

/// The README's examples, compiled and run with the doctests. Some use the MCP client, so
/// they are built with the `mcp` feature (which `cargo test --workspace` turns on).
#[cfg(all(doctest, feature = "mcp"))]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

use serde_json::Value;

/// Reads `T` from JSON text, strictly: no coercion, no unknown keys, every constraint
/// checked. Invalid JSON is a [`ViolationKind::Syntax`] violation with its line and column;
/// otherwise every violation in the value is reported at once.
///
/// ```
/// use toolschema::{ToolSchema, ViolationKind};
///
/// #[derive(ToolSchema, Debug)]
/// struct Line { sku: String, qty: u8 }
///
/// #[derive(ToolSchema, Debug)]
/// struct Order { items: Vec<Line> }
///
/// let err = toolschema::from_str::<Order>(r#"{"items": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 1.5}, {"sku": "c", "qty": "3"}]}"#)
///     .unwrap_err();
/// let pointers: Vec<&str> = err.violations().iter().map(|v| v.pointer()).collect();
/// assert_eq!(pointers, ["/items/1/qty", "/items/2/qty"]);
///
/// let err = toolschema::from_str::<Order>("{\"items\": [}").unwrap_err();
/// assert!(matches!(err.violations()[0].kind(), ViolationKind::Syntax { line: 1, column: 12, .. }));
/// ```
pub fn from_str<T: ToolSchema>(text: &str) -> Result<T, Error> {
    if let Some(value) = fast_path::from_str(text) {
        return Ok(value);
    }
    let value: Value = serde_json::from_str(text).map_err(syntax_error)?;
    from_value(value)
}

/// Reads `T` from a JSON value, strictly (see [`from_str`]).
pub fn from_value<T: ToolSchema>(value: Value) -> Result<T, Error> {
    let schema = Schema::of::<T>();
    schema.validate(&value)?;
    T::from_json(value)
}

pub(crate) fn syntax_error(e: serde_json::Error) -> Error {
    let text = e.to_string();
    let message = match text.rfind(" at line ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    };
    Error::single(Violation::new(
        "",
        ViolationKind::Syntax {
            line: e.line(),
            column: e.column(),
            message,
        },
    ))
}
