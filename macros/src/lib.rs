//! The `#[derive(ToolSchema)]` macro of [toolschema](https://docs.rs/toolschema).
//!
//! Staged like serde_derive: `ast` parses the input into typed shapes with their
//! attributes (`attr`), `check` runs the checks that span several attributes, and
//! `expand` writes the impl: data and calls into `::toolschema::__private`.
//! Every problem is collected in one `ctxt::Ctxt` and reported together. `dialect`
//! holds what each provider's dialect cannot express, for `#[schema(dialect)]`.

mod ast;
mod attr;
mod case;
mod check;
mod ctxt;
mod dialect;
mod expand;
mod ty;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `toolschema::ToolSchema`: a JSON Schema and a strict deserializer from one
/// description of the type. See the `toolschema` crate for the attributes it reads.
///
/// # Checking a provider's dialect at compile time
///
/// `#[schema(dialect = "...")]` on the struct or enum makes every field the provider
/// cannot express a compile error at the field's type, in the words that
/// `toolschema::schema_for` uses at run time:
///
/// | dialect           | rejects                                                             |
/// |-------------------|---------------------------------------------------------------------|
/// | `"openai_strict"` | maps (`HashMap`, `BTreeMap`, `IndexMap`), `serde_json::Map`, `serde_json::Value`, tuples, tuple structs and tuple variants |
/// | `"anthropic"`     | maps, `serde_json::Map`, `serde_json::Value`, a field whose type names the type itself (recursion) |
/// | `"gemini"`        | nothing a derived type can contain                                   |
///
/// The check reads each field's type as written, looking through `Option`, `Box`,
/// `Arc`, lists, sets, arrays, map values and tuples. It cannot see into other types:
/// give them the attribute too, or rely on `schema_for`, which checks everything.
///
/// ```
/// use toolschema::{Dialect, ToolSchema};
///
/// /// A label on a device: a list of these replaces a `HashMap<String, String>`.
/// #[derive(ToolSchema)]
/// struct Label {
///     key: String,
///     value: String,
/// }
///
/// #[derive(ToolSchema)]
/// #[schema(dialect = "openai_strict")]
/// struct TagDevice {
///     device_id: String,
///     labels: Vec<Label>,
/// }
///
/// assert!(toolschema::schema_for::<TagDevice>(Dialect::OpenAiStrict).is_ok());
/// ```
///
/// A map does not compile: `` `labels` is a map with free keys, which OpenAI strict mode
/// cannot express; use a struct or a list of key/value pairs ``.
///
/// ```compile_fail
/// use std::collections::HashMap;
/// use toolschema::ToolSchema;
///
/// #[derive(ToolSchema)]
/// #[schema(dialect = "openai_strict")]
/// struct TagDevice {
///     device_id: String,
///     labels: HashMap<String, String>,
/// }
/// ```
///
/// # Semantic checks: `#[schema(validate = path)]`
///
/// What a schema cannot say ("each SKU is in the catalogue", "a discount needs a
/// coupon") is a function you write, named by its path on a field or on the struct or
/// enum:
///
/// | on          | the function                                   | its rejection is reported at |
/// |-------------|------------------------------------------------|------------------------------|
/// | a field     | `fn(&FieldType) -> Result<(), E>`, or a reference to what the type borrows as: `&str` for a `String`, `&[T]` for a `Vec<T>` | the field: `/lines/2/sku` |
/// | a container | `fn(&Self) -> Result<(), E>`                   | the value: `""`, or the pointers it names |
///
/// `E` is what a run-time tool's check returns ([`Rejection`] or anything that converts
/// into one): a `String` or `&str` is a message about the checked value; a `Violation`,
/// a `Vec<Violation>` or a `toolschema::Error` carry their own pointers, relative to the
/// checked value, so one check can report several problems (`Rejection::all` collects
/// them).
///
/// A check runs while the typed value is built, after the schema's own validation passed,
/// so it sees only values of the right shape. Field checks run first; the container's
/// check runs only when every field was built and passed its own. What checks reject are
/// ordinary violations: `toolschema::from_str`, `toolschema::parse`, `RepairPrompt` and
/// `Agent::ask` report them like any other (the agent sends them back to the model in its
/// repair prompt). Every check of the value and of the values nested in it is reported,
/// not only the first.
///
/// A check that panics does not unwind into the caller: the panic becomes a
/// `ViolationKind::CheckPanicked` at the checked value (see `Error::panicked_check`),
/// which is a bug in the check, not in the reply.
///
/// Types with a check are read through a `serde_json::Value` by the strict
/// deserializer's fast path, where their checks run.
///
/// ```
/// use std::collections::HashSet;
/// use toolschema::toolset::Rejection;
/// use toolschema::{ToolSchema, Violation, ViolationKind};
///
/// fn in_catalogue(sku: &str) -> Result<(), String> {
///     if sku.starts_with("SKU-") { Ok(()) } else { Err(format!("{sku:?} is not in the catalogue")) }
/// }
///
/// #[derive(ToolSchema, Debug)]
/// struct Line {
///     #[schema(validate = in_catalogue)]
///     sku: String,
///     quantity: u32,
/// }
///
/// /// Each product on one line.
/// #[derive(ToolSchema, Debug)]
/// #[schema(validate = one_line_per_product)]
/// struct Order {
///     lines: Vec<Line>,
/// }
///
/// fn one_line_per_product(order: &Order) -> Result<(), Rejection> {
///     let mut seen = HashSet::new();
///     let repeated: Vec<Violation> = order.lines.iter().enumerate()
///         .filter(|(_, line)| !seen.insert(&line.sku))
///         .map(|(i, _)| Violation::new(
///             format!("/lines/{i}/sku"),
///             ViolationKind::Invalid { message: "already on an earlier line".into() },
///         ))
///         .collect();
///     if repeated.is_empty() { Ok(()) } else { Err(repeated.into()) }
/// }
///
/// let err = toolschema::from_str::<Order>(
///     r#"{"lines": [{"sku": "SKU-1", "quantity": 1}, {"sku": "ABC", "quantity": 2}]}"#,
/// ).unwrap_err();
/// assert_eq!(err.to_string(), r#"/lines/1/sku: "ABC" is not in the catalogue"#);
///
/// let err = toolschema::from_str::<Order>(
///     r#"{"lines": [{"sku": "SKU-1", "quantity": 1}, {"sku": "SKU-1", "quantity": 2}]}"#,
/// ).unwrap_err();
/// assert_eq!(err.to_string(), "/lines/1/sku: already on an earlier line");
/// ```
///
/// A path that does not fit is a compile error at the path: a function taking another
/// type, an error type that is not a rejection, something that is not a function. So is
/// `validate` on a variant or on a skipped field, or twice on one place.
///
/// ```compile_fail
/// use toolschema::ToolSchema;
///
/// fn known_sku(sku: &str) -> Result<(), String> { Ok(()) }
///
/// #[derive(ToolSchema)]
/// struct Line {
///     #[schema(validate = known_sku)]
///     quantity: u32,
/// }
/// ```
///
/// [`Rejection`]: https://docs.rs/toolschema/latest/toolschema/toolset/enum.Rejection.html
#[proc_macro_derive(ToolSchema, attributes(schema, tool, answer, serde))]
pub fn derive_tool_schema(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
