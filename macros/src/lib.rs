//! The `#[derive(ToolSchema)]` macro of [toolschema](https://docs.rs/toolschema).
//!
//! Staged like serde_derive: [`ast`] parses the input into typed shapes with their
//! attributes ([`attr`]), [`check`] runs the checks that span several attributes, and
//! [`expand`] writes the impl: data and calls into `::toolschema::__private`.
//! Every problem is collected in one [`ctxt::Ctxt`] and reported together.

mod ast;
mod attr;
mod case;
mod check;
mod ctxt;
mod expand;
mod ty;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `toolschema::ToolSchema`: a JSON Schema and a strict deserializer from one
/// description of the type. See the `toolschema` crate for the attributes it reads.
#[proc_macro_derive(ToolSchema, attributes(schema, tool, answer, serde))]
pub fn derive_tool_schema(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}
