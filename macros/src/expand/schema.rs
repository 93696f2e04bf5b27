//! `describe`: the schema as calls to the builders of `toolschema::__private`.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{Container, Data, Field, Style, Variant};

pub fn describe(cont: &Container) -> TokenStream {
    let description = option_str(cont.attrs.description.as_deref());
    let body = match &cont.data {
        Data::Struct(style, fields) => {
            if cont.attrs.transparent {
                let field = fields.iter().find(|f| !f.attrs.skip);
                let node = field.map_or_else(|| quote!(::toolschema::Node::default()), positional);
                quote!(::toolschema::__private::describe(#node, #description))
            } else {
                let all_default = !matches!(cont.attrs.default, crate::attr::DefaultValue::None);
                payload(
                    *style,
                    fields,
                    cont.attrs.description.as_deref(),
                    all_default,
                )
            }
        }
        Data::Enum(variants) => enumeration(cont, variants),
    };
    quote! {
        generator.definition::<Self>(|generator| #body)
    }
}

fn option_str(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

/// The schema of a struct's or variant's fields.
/// `all_default`: the container's `#[serde(default)]` makes every field optional.
fn payload(
    style: Style,
    fields: &[Field],
    description: Option<&str>,
    all_default: bool,
) -> TokenStream {
    let described = option_str(description);
    let fields: Vec<&Field> = fields.iter().filter(|f| !f.attrs.skip).collect();
    match style {
        Style::Unit => quote!(::toolschema::__private::unit(#described)),
        Style::Newtype => {
            let node = fields.first().map_or_else(
                || quote!(::toolschema::__private::unit(None)),
                |f| positional(f),
            );
            quote!(::toolschema::__private::describe(#node, #described))
        }
        Style::Tuple => {
            let nodes = fields.iter().map(|f| positional(f));
            quote!(::toolschema::__private::tuple(::std::vec![#(#nodes),*], #described))
        }
        Style::Struct => {
            let description = description.map(|d| quote!(.description(#d)));
            let members = fields.iter().map(|f| {
                if f.attrs.flatten {
                    let ty = f.ty;
                    quote!(.flatten(<#ty as ::toolschema::ToolSchema>::describe(generator), generator))
                } else {
                    let field = field(f, all_default);
                    quote!(.field(#field))
                }
            });
            quote! {
                ::toolschema::__private::Object::new() #description #(#members)* .build()
            }
        }
    }
}

/// The node of the field's type alone.
fn node(f: &Field) -> TokenStream {
    let ty = f.ty;
    if f.attrs.bridge.get().is_some() {
        quote!(::toolschema::__private::bridge_schema::<#ty>(generator))
    } else {
        quote!(<#ty as ::toolschema::ToolSchema>::describe(generator))
    }
}

/// A positional field's node, with its constraints.
fn positional(f: &Field) -> TokenStream {
    let field = field(f, false);
    quote!(#field.into_node())
}

/// `Field::new(name, node)` and a call per attribute.
fn field(f: &Field, all_default: bool) -> TokenStream {
    let ty = f.ty;
    let name = &f.name;
    let node = node(f);
    let a = &f.attrs;
    let mut calls = Vec::new();
    if !a.aliases.is_empty() {
        let aliases = &a.aliases;
        calls.push(quote!(.aliases(&[#(#aliases),*])));
    }
    let required = if all_default || !matches!(a.default, crate::attr::DefaultValue::None) {
        quote!(false)
    } else if a.bridge.get().is_some() {
        quote!(::toolschema::__private::bridge_missing::<#ty>().is_none())
    } else {
        quote!(<#ty as ::toolschema::ToolSchema>::when_missing().is_none())
    };
    calls.push(quote!(.required(#required)));
    if let Some(d) = &a.description {
        calls.push(quote!(.description(#d)));
    }
    if let Some(h) = a.hint.get() {
        calls.push(quote!(.hint(#h)));
    }
    calls.extend(constraints(f));
    if let Some(example) = a.example.get() {
        calls.push(quote!(.example(::toolschema::__private::json!(#example))));
    }
    quote!(::toolschema::__private::Field::new(#name, #node) #(#calls)*)
}

/// The field's `range`, `length`, `pattern` and `format` as builder calls. The schema's `Field` and
/// the fast path's `Check` take the same calls, so their bounds are the same tokens.
pub(super) fn constraints(f: &Field) -> Vec<TokenStream> {
    let a = &f.attrs;
    let mut calls = Vec::new();
    if let Some(bounds) = a.range.get() {
        let limit = |n: &Option<crate::attr::Number>| match n {
            Some(n) if n.integer => {
                let t = &n.tokens;
                quote!(::core::option::Option::Some(::toolschema::__private::Limit::Int(#t as i64)))
            }
            Some(n) => {
                let t = &n.tokens;
                quote!(::core::option::Option::Some(::toolschema::__private::Limit::Float(#t as f64)))
            }
            None => quote!(::core::option::Option::None),
        };
        let (min, max) = (limit(&bounds.min), limit(&bounds.max));
        calls.push(quote!(.range(#min, #max)));
    }
    if let Some(bounds) = a.length.get() {
        let count = |n: &Option<crate::attr::Number>| match n {
            Some(n) => {
                let t = &n.tokens;
                quote!(::core::option::Option::Some(#t as usize))
            }
            None => quote!(::core::option::Option::None),
        };
        let (min, max) = (count(&bounds.min), count(&bounds.max));
        calls.push(quote!(.length(#min, #max)));
    }
    if let Some(p) = a.pattern.get() {
        calls.push(quote!(.pattern(#p)));
    }
    if let Some(format) = a.format.get() {
        calls.push(quote!(.format(#format)));
    }
    calls
}

fn enumeration(cont: &Container, variants: &[Variant]) -> TokenStream {
    let a = &cont.attrs;
    let description = option_str(a.description.as_deref());
    let variants: Vec<&Variant> = variants.iter().filter(|v| !v.attrs.skip).collect();
    let all_unit = variants.iter().all(|v| v.style == Style::Unit);
    if all_unit && a.tag.is_none() && !a.untagged && !cont.is_tool_union() {
        let names = variants.iter().map(|v| &v.name);
        return quote!(::toolschema::__private::string_enum(&[#(#names),*], #description));
    }
    let constructor = if a.untagged {
        quote!(any_of)
    } else {
        quote!(one_of)
    };
    let alternatives = variants.iter().map(|v| {
        let name = &v.name;
        let vdesc = option_str(v.attrs.description.as_deref());
        let body = payload(v.style, &v.fields, None, false);
        if cont.is_tool_union() {
            if v.attrs.answer.is_some() {
                quote!(.answer(#body, #vdesc))
            } else {
                let arguments = if v.style == Style::Unit {
                    quote!(::toolschema::__private::Object::new().build())
                } else {
                    body
                };
                let vdesc = option_str(
                    v.attrs
                        .tool
                        .as_ref()
                        .and_then(|t| t.description.as_deref())
                        .or(v.attrs.description.as_deref()),
                );
                quote!(.tool(#name, #arguments, #vdesc))
            }
        } else if a.untagged {
            quote!(.variant(::toolschema::__private::describe(#body, #vdesc)))
        } else if let (Some(tag), Some(content)) = (&a.tag, &a.content) {
            let body = optional_payload(v, body);
            quote!(.adjacent(#tag, #content, #name, #body, #vdesc))
        } else if let Some(tag) = &a.tag {
            let body = optional_payload(v, body);
            quote!(.internal(#tag, #name, #body, generator, #vdesc))
        } else if v.style == Style::Unit {
            quote!(.variant(::toolschema::__private::describe(::toolschema::__private::constant(#name), #vdesc)))
        } else {
            quote!(.external(#name, #body, #vdesc))
        }
    });
    quote! {
        ::toolschema::__private::Alternatives::#constructor(#description) #(#alternatives)* .build()
    }
}

fn optional_payload(v: &Variant, body: TokenStream) -> TokenStream {
    if v.style == Style::Unit {
        quote!(::core::option::Option::None)
    } else {
        quote!(::core::option::Option::Some(#body))
    }
}
