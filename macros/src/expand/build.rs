//! `from_json`: the value, taken apart from JSON that the schema already accepted.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{Container, Data, Field, Style, Variant};
use crate::attr::{DefaultValue, check_name};

pub fn from_json(cont: &Container) -> TokenStream {
    let body = build(cont);
    let Some(path) = cont.attrs.validate.get() else {
        return body;
    };
    // The container's check sees the value whole, once every field is built and passed
    // its own check.
    let name = check_name(path);
    let check = quote_spanned!(path.span()=> __validation.container(#name, &__value, #path));
    quote! {
        let __value: ::core::result::Result<Self, ::toolschema::Error> = { #body };
        let __value = __value?;
        let mut __validation = ::toolschema::__private::Validation::new();
        #check;
        __validation.finish()?;
        ::core::result::Result::Ok(__value)
    }
}

/// The value built, as a `Result<Self, Error>`.
fn build(cont: &Container) -> TokenStream {
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
    // A newtype's value is the whole JSON value, a tuple's an array of its live fields.
    let newtype = style == Style::Newtype && fields.iter().any(|f| !f.attrs.skip);
    let live = fields.iter().enumerate().filter(|(_, f)| !f.attrs.skip);
    let mut takes = Vec::new();
    let mut checks = Vec::new();
    for (index, (i, f)) in live.enumerate() {
        let var = binding(i);
        let ty = f.ty;
        let take = if newtype {
            value_of(f, source.clone())
        } else if f.attrs.bridge.get().is_some() {
            quote!(__items.take_bridged::<#ty>())
        } else {
            quote!(__items.take::<#ty>())
        };
        takes.push(quote!(let #var = __validation.keep(#take);));
        if let Some(check) = f.attrs.validate.get() {
            let segment = if newtype {
                quote!(::core::option::Option::None)
            } else {
                let index = index.to_string();
                quote!(::core::option::Option::Some(#index))
            };
            checks.push(field_check(check, segment, &var));
        }
    }
    let open = if newtype {
        quote!()
    } else {
        quote!(let mut __items = ::toolschema::__private::Items::new(#source)?;)
    };
    let members = fields.iter().enumerate().map(|(i, f)| {
        let member = &f.member;
        let value = if f.attrs.skip {
            default_of(f, false)
        } else {
            let var = binding(i);
            quote!(#var)
        };
        quote!(#member: #value)
    });
    let built = gather(fields, &takes, &checks);
    quote!({
        #open
        #built
        #path { #(#members),* }
    })
}

/// The binding of the field at `i`: an `Option` of its value until every field is built.
fn binding(i: usize) -> Ident {
    format_ident!("__field{}", i)
}

/// Takes every live field's value, runs the fields' checks, reports every problem, and
/// binds each value out of its `Option`.
fn gather(fields: &[Field], takes: &[TokenStream], checks: &[TokenStream]) -> TokenStream {
    if takes.is_empty() {
        return quote!();
    }
    let vars: Vec<Ident> = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.attrs.skip)
        .map(|(i, _)| binding(i))
        .collect();
    let unwrap = (!vars.is_empty()).then(|| {
        quote! {
            let (#(::core::option::Option::Some(#vars),)*) = (#(#vars,)*) else {
                return ::core::result::Result::Err(::toolschema::__private::Validation::lost());
            };
        }
    });
    quote! {
        let mut __validation = ::toolschema::__private::Validation::new();
        #(#takes)*
        #(#checks)*
        __validation.finish()?;
        #unwrap
    }
}

/// A field's check on the value bound to `var` (an `Option`, `None` where the value
/// was not built), reporting under `segment`. Spanned at the check's path, so a path that
/// does not fit is an error there.
fn field_check(check: &syn::ExprPath, segment: TokenStream, var: &Ident) -> TokenStream {
    let name = check_name(check);
    quote_spanned! {check.span()=>
        __validation.field(#segment, #name, ::core::option::Option::as_ref(&#var), #check);
    }
}

/// A single value of the field's type from `source`, as a `Result`.
fn value_of(f: &Field, source: TokenStream) -> TokenStream {
    let ty = f.ty;
    if f.attrs.bridge.get().is_some() {
        quote!(::toolschema::__private::bridge_build::<#ty>(#source))
    } else {
        quote!(<#ty as ::toolschema::ToolSchema>::from_json(#source))
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
    let takes: Vec<TokenStream> = order
        .map(|(i, f)| {
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
            quote!(let #var = __validation.keep(#take);)
        })
        .collect();
    let checks: Vec<TokenStream> = fields
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let check = f.attrs.validate.get().filter(|_| !f.attrs.skip)?;
            // A flattened field's keys are the object's own.
            let segment = if f.attrs.flatten {
                quote!(::core::option::Option::None)
            } else {
                let name = &f.name;
                quote!(::core::option::Option::Some(#name))
            };
            Some(field_check(check, segment, &binding(i)))
        })
        .collect();
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
    let built = gather(fields, &takes, &checks);
    quote!({
        let mut __fields = ::toolschema::__private::Fields::new(#source)?;
        #built
        #path { #(#members),* }
    })
}

fn enumeration(cont: &Container, variants: &[Variant]) -> TokenStream {
    let a = &cont.attrs;
    let live: Vec<&Variant> = variants.iter().filter(|v| !v.attrs.skip).collect();
    // The payload's problems are reported under where the payload is: `/arguments` in a
    // tool call, `/Variant` in external tagging, the content key in adjacent tagging.
    let build = |v: &Variant, source: TokenStream, under: Option<TokenStream>| {
        let ident = &v.ident;
        let body = payload(quote!(Self::#ident), v.style, &v.fields, source, false);
        match under {
            Some(segment) if v.style != Style::Unit => quote! {
                (|| ::core::result::Result::<Self, ::toolschema::Error>::Ok(#body))()
                    .map_err(|__e| __e.under(#segment))?
            },
            _ => body,
        }
    };
    let arms = |source: TokenStream, under: Option<TokenStream>| {
        let arms = live.iter().filter(|v| v.attrs.answer.is_none()).map(|v| {
            let name = &v.name;
            let aliases = &v.attrs.aliases;
            let body = build(v, source.clone(), under.clone());
            quote!(#name #(| #aliases)* => ::core::result::Result::Ok(#body),)
        });
        quote!(#(#arms)*)
    };
    if cont.is_tool_union() {
        let tools = arms(quote!(__payload), Some(quote!("arguments")));
        let answer = match live.iter().find(|v| v.attrs.answer.is_some()) {
            Some(v) => {
                let body = build(v, quote!(__payload), Some(quote!("answer")));
                quote!(::core::result::Result::Ok(#body))
            }
            None => quote!({
                let _ = __payload;
                ::core::result::Result::Err(::toolschema::__private::unknown_variant("answer"))
            }),
        };
        return quote! {
            match ::toolschema::__private::tool_call(value)? {
                ::toolschema::__private::Envelope::Tool(__name, __payload) => match __name.as_str() {
                    #tools
                    __other => ::core::result::Result::Err(::toolschema::__private::unknown_variant(__other)),
                },
                ::toolschema::__private::Envelope::Answer(__payload) => #answer,
            }
        };
    }
    if a.untagged {
        let arms = live.iter().enumerate().map(|(i, v)| {
            let body = build(v, quote!(value), None);
            quote!(#i => ::core::result::Result::Ok(#body),)
        });
        return quote! {
            match ::toolschema::__private::untagged_variant::<Self>(&value)? {
                #(#arms)*
                _ => ::core::result::Result::Err(::toolschema::__private::unknown_variant("(untagged)")),
            }
        };
    }
    let (split, under) = match (&a.tag, &a.content) {
        (Some(tag), Some(content)) => (
            quote! {
                let mut __fields = ::toolschema::__private::Fields::new(value)?;
                let __tag = __fields.tag(#tag)?;
                let __payload = __fields.content(#content);
            },
            Some(quote!(#content)),
        ),
        (Some(tag), None) => (
            quote! {
                let mut __fields = ::toolschema::__private::Fields::new(value)?;
                let __tag = __fields.tag(#tag)?;
                let __payload = __fields.into_value();
            },
            None,
        ),
        _ => (
            quote! {
                let (__tag, __payload) = ::toolschema::__private::external_tag(value)?;
            },
            Some(quote!(&__tag)),
        ),
    };
    let arms = arms(quote!(__payload), under);
    quote! {
        #split
        match __tag.as_str() {
            #arms
            __other => ::core::result::Result::Err(::toolschema::__private::unknown_variant(__other)),
        }
    }
}
