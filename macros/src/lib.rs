//! The `#[derive(ToolSchema)]` macro of [toolschema](https://docs.rs/toolschema).
//!
//! Staged like serde_derive: [`ast`] parses the input into typed shapes with their
//! attributes ([`attr`]), [`check`] runs the checks that span several attributes, and
//! [`expand`] writes the impl: data and calls into `::toolschema::__private`.
//! Every problem is collected in one [`ctxt::Ctxt`] and reported together. [`dialect`]
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
#[proc_macro_derive(ToolSchema, attributes(schema, tool, answer, serde))]
pub fn derive_tool_schema(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
