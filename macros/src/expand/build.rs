//! `from_json`: the value, taken apart from JSON that the schema already accepted.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ast::{Container, Data, Field, Style, Variant};
use crate::attr::DefaultValue;

pub fn from_json(cont: &Container) -> TokenStream {
    match &cont.data {
        Data::Struct(style, fields) => {
            let container_default = !matches!(cont.attrs.default, DefaultValue::None);
            let default = container_default_binding(&cont.attrs.default);
            let body = if cont.attrs.transparent {
                positional(quote!(Self), Style::Newtype, fields, quote!(value))
            } else {
                payload(
                    quote!(Self),
                    *style,
                    fields,
                    quote!(value),
                    container_default,
                )
            };
            quote! {
                #default
                ::core::result::Result::Ok(#body)
            }
        }
        Data::Enum(variants) => enumeration(cont, variants),
    }
}

pub(super) fn container_default_binding(default: &DefaultValue) -> TokenStream {
    match default {
        DefaultValue::None => quote!(),
        DefaultValue::Trait => quote!(let __default: Self = ::core::default::Default::default();),
        DefaultValue::Path(path) => quote!(let __default: Self = #path();),
    }
}

/// An expression building `path` (`Self` or `Self::Variant`) from the JSON in `source`.
fn payload(
    path: TokenStream,
    style: Style,
    fields: &[Field],
    source: TokenStream,
    container_default: bool,
) -> TokenStream {
    match style {
        Style::Unit => quote!({ let _ = #source; #path }),
        Style::Newtype | Style::Tuple => positional(path, style, fields, source),
        Style::Struct => named(path, fields, source, container_default),
    }
}

fn positional(
    path: TokenStream,
    style: Style,
    fields: &[Field],
    source: TokenStream,
) -> TokenStream {
    let live: Vec<&Field> = fields.iter().filter(|f| !f.attrs.skip).collect();
    if let (Style::Newtype, Some(only)) = (style, live.first()) {
        let build = value_of(only, quote!(#source));
        let members = fields.iter().map(|f| {
            let member = &f.member;
            let value = if f.attrs.skip {
                default_of(f, false)
            } else {
                build.clone()
            };
            quote!(#member: #value)
        });
        return quote!(#path { #(#members),* });
    }
    let members = fields.iter().map(|f| {
        let member = &f.member;
        let ty = f.ty;
        let value = if f.attrs.skip {
            default_of(f, false)
        } else if f.attrs.bridge.get().is_some() {
            quote!(__items.take_bridged::<#ty>()?)
        } else {
            quote!(__items.take::<#ty>()?)
        };
        quote!(#member: #value)
    });
    quote!({
        let mut __items = ::toolschema::__private::Items::new(#source)?;
        #path { #(#members),* }
    })
}

/// A single value of the field's type from `source`.
fn value_of(f: &Field, source: TokenStream) -> TokenStream {
    let ty = f.ty;
    if f.attrs.bridge.get().is_some() {
        quote!(::toolschema::__private::bridge_build::<#ty>(#source)?)
    } else {
        quote!(<#ty as ::toolschema::ToolSchema>::from_json(#source)?)
    }
}

pub(super) fn default_of(f: &Field, container_default: bool) -> TokenStream {
    let member = &f.member;
    match &f.attrs.default {
        DefaultValue::Path(path) => quote!(#path()),
        DefaultValue::Trait => quote!(::core::default::Default::default()),
        DefaultValue::None if container_default => quote!(__default.#member),
        DefaultValue::None => quote!(::core::default::Default::default()),
    }
}

fn named(
    path: TokenStream,
    fields: &[Field],
    source: TokenStream,
    container_default: bool,
) -> TokenStream {
    let binding = |i: usize| format_ident!("__field{}", i);
    // Plain fields first, so flattened ones take only what is left.
    let order = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.attrs.skip && !f.attrs.flatten)
        .chain(
            fields
                .iter()
                .enumerate()
                .filter(|(_, f)| !f.attrs.skip && f.attrs.flatten),
        );
    let takes = order.map(|(i, f)| {
        let var = binding(i);
        let ty = f.ty;
        let name = &f.name;
        let aliases = &f.attrs.aliases;
        let bridged = f.attrs.bridge.get().is_some();
        let has_default = !matches!(f.attrs.default, DefaultValue::None) || container_default;
        let take = if f.attrs.flatten {
            quote!(__fields.take_flattened::<#ty>())
        } else if has_default {
            let default = default_of(f, container_default);
            let method = if bridged {
                quote!(take_bridged_or)
            } else {
                quote!(take_or)
            };
            quote!(__fields.#method::<#ty>(#name, &[#(#aliases),*], || #default))
        } else if bridged {
            quote!(__fields.take_bridged::<#ty>(#name, &[#(#aliases),*]))
        } else {
            quote!(__fields.take::<#ty>(#name, &[#(#aliases),*]))
        };
        quote!(let #var = #take?;)
    });
    let members = fields.iter().enumerate().map(|(i, f)| {
        let member = &f.member;
        if f.attrs.skip {
            let value = default_of(f, container_default);
            quote!(#member: #value)
        } else {
            let var = binding(i);
            quote!(#member: #var)
        }
    });
    quote!({
        let mut __fields = ::toolschema::__private::Fields::new(#source)?;
        #(#takes)*
        #path { #(#members),* }
    })
}

fn enumeration(cont: &Container, variants: &[Variant]) -> TokenStream {
    let a = &cont.attrs;
    let live: Vec<&Variant> = variants.iter().filter(|v| !v.attrs.skip).collect();
    let build = |v: &Variant, source: TokenStream| {
        let ident = &v.ident;
        payload(quote!(Self::#ident), v.style, &v.fields, source, false)
    };
    let arms = |source: TokenStream| {
        let arms = live.iter().filter(|v| v.attrs.answer.is_none()).map(|v| {
            let name = &v.name;
            let aliases = &v.attrs.aliases;
            let body = build(v, source.clone());
            quote!(#name #(| #aliases)* => ::core::result::Result::Ok(#body),)
        });
        quote!(#(#arms)*)
    };
    if cont.is_tool_union() {
        let tools = arms(quote!(__payload));
        let answer = match live.iter().find(|v| v.attrs.answer.is_some()) {
            Some(v) => {
                let body = build(v, quote!(__payload));
                quote!(::core::result::Result::Ok(#body))
            }
            None => quote!({
                let _ = __payload;
                ::core::result::Result::Err(::toolschema::__private::unknown_variant("answer"))
            }),
        };
        return quote! {
            match ::toolschema::__private::tool_call(value)? {
                ::toolschema::__private::Call::Tool(__name, __payload) => match __name.as_str() {
                    #tools
                    __other => ::core::result::Result::Err(::toolschema::__private::unknown_variant(__other)),
                },
                ::toolschema::__private::Call::Answer(__payload) => #answer,
            }
        };
    }
    if a.untagged {
        let arms = live.iter().enumerate().map(|(i, v)| {
            let body = build(v, quote!(value));
            quote!(#i => ::core::result::Result::Ok(#body),)
        });
        return quote! {
            match ::toolschema::__private::untagged_variant::<Self>(&value)? {
                #(#arms)*
                _ => ::core::result::Result::Err(::toolschema::__private::unknown_variant("(untagged)")),
            }
        };
    }
    let split = match (&a.tag, &a.content) {
        (Some(tag), Some(content)) => quote! {
            let mut __fields = ::toolschema::__private::Fields::new(value)?;
            let __tag = __fields.tag(#tag)?;
            let __payload = __fields.content(#content);
        },
        (Some(tag), None) => quote! {
            let mut __fields = ::toolschema::__private::Fields::new(value)?;
            let __tag = __fields.tag(#tag)?;
            let __payload = __fields.into_value();
        },
        _ => quote! {
            let (__tag, __payload) = ::toolschema::__private::external_tag(value)?;
        },
    };
    let arms = arms(quote!(__payload));
    quote! {
        #split
        match __tag.as_str() {
            #arms
            __other => ::core::result::Result::Err(::toolschema::__private::unknown_variant(__other)),
        }
    }
}
