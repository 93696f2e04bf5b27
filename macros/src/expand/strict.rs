//! `deserialize_strict`: the strict deserializer's fast path, serde visitors that check the
//! schema's rules while they read (see `toolschema`'s `strict` module).
//!
//! Shapes that are not streamed (untagged and adjacently tagged enums, tool unions,
//! flattened and bridged fields, types with a `#[schema(validate)]` check) keep the
//! trait's default, which reads a `Value`, checks it against the type's schema and builds
//! the value with `from_json`, where the checks run.

use proc_macro2::{Group, Spacing, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote};

use super::build::container_default_binding;
use crate::ast::{Container, Data, Field, Style, Variant};
use crate::attr::DefaultValue;

/// The method, or nothing where the default (through a `Value`) is used.
pub fn deserialize_strict(input: &syn::DeriveInput, cont: &Container) -> Option<TokenStream> {
    if !streamable(cont) {
        return None;
    }
    let generics = super::with_bounds(input);
    let (_, ty_generics, where_clause) = generics.split_for_impl();
    let ident = &input.ident;
    let target = quote!(#ident #ty_generics);
    // The visitors' impls declare the type's parameters again, without their defaults.
    let mut params = generics.params.clone();
    for param in &mut params {
        match param {
            syn::GenericParam::Type(t) => {
                t.eq_token = None;
                t.default = None;
            }
            syn::GenericParam::Const(c) => {
                c.eq_token = None;
                c.default = None;
            }
            syn::GenericParam::Lifetime(_) => {}
        }
    }
    let cx = Cx {
        params: params.to_token_stream(),
        where_clause: replace_self(where_clause.to_token_stream(), &target),
        target,
    };
    let body = match &cont.data {
        Data::Struct(style, fields) => structure(&cx, cont, *style, fields),
        Data::Enum(variants) => enumeration(&cx, cont, variants),
    };
    Some(quote! {
        fn deserialize_strict<'de, __D>(__deserializer: __D) -> ::core::result::Result<Self, __D::Error>
        where
            __D: ::toolschema::__private::serde::Deserializer<'de>,
        {
            #body
        }
    })
}

/// Whether the fast path reads this shape as it streams.
fn streamable(cont: &Container) -> bool {
    let plain = |fields: &[Field]| {
        fields.iter().all(|f| {
            !f.attrs.flatten && f.attrs.bridge.get().is_none() && f.attrs.validate.get().is_none()
        })
    };
    if cont.attrs.validate.get().is_some() {
        return false;
    }
    let has_payload = |style: Style, fields: &[Field]| {
        style != Style::Newtype || fields.iter().any(|f| !f.attrs.skip)
    };
    match &cont.data {
        Data::Struct(style, fields) => plain(fields) && has_payload(*style, fields),
        Data::Enum(variants) => {
            let a = &cont.attrs;
            !a.untagged
                && a.content.is_none()
                && !cont.is_tool_union()
                && variants
                    .iter()
                    .filter(|v| !v.attrs.skip)
                    .all(|v| plain(&v.fields) && has_payload(v.style, &v.fields))
        }
    }
}

/// What every visitor of one impl shares.
struct Cx {
    /// The type being read, with its generics: `Page<T>`.
    target: TokenStream,
    params: TokenStream,
    where_clause: TokenStream,
}

impl Cx {
    /// A visitor type `name` that is also its own seed, entering with `entry`
    /// (`deserialize_map`, …) and reading with `methods`.
    fn visitor(&self, name: &syn::Ident, entry: TokenStream, methods: TokenStream) -> TokenStream {
        let Cx {
            target,
            params,
            where_clause,
        } = self;
        quote! {
            struct #name<__S>(::core::marker::PhantomData<fn() -> __S>);

            impl<'de, #params> ::toolschema::__private::serde::de::Visitor<'de> for #name<#target> #where_clause {
                type Value = #target;

                fn expecting(&self, __f: &mut ::core::fmt::Formatter) -> ::core::fmt::Result {
                    __f.write_str("a value its schema accepts")
                }

                #methods
            }

            impl<'de, #params> ::toolschema::__private::serde::de::DeserializeSeed<'de> for #name<#target> #where_clause {
                type Value = #target;

                fn deserialize<__D2>(self, __deserializer: __D2) -> ::core::result::Result<#target, __D2::Error>
                where
                    __D2: ::toolschema::__private::serde::Deserializer<'de>,
                {
                    __deserializer.#entry(self)
                }
            }
        }
    }

    /// The visitor `name` built: a seed.
    fn seed(&self, name: &syn::Ident) -> TokenStream {
        let target = &self.target;
        quote!(#name::<#target>(::core::marker::PhantomData))
    }

    /// A field's type with `Self` written as the type being read, for use inside the
    /// visitors, where `Self` is the visitor.
    fn ty(&self, ty: &syn::Type) -> TokenStream {
        replace_self(ty.to_token_stream(), &self.target)
    }
}

/// `Self` written as `target`: `<Page<T>>` before `::` (`Self::make()`), `Page<T>`
/// elsewhere (`Vec<Self>`, `Self: Clone`).
fn replace_self(tokens: TokenStream, target: &TokenStream) -> TokenStream {
    let mut out = TokenStream::new();
    let mut trees = tokens.into_iter().peekable();
    while let Some(tree) = trees.next() {
        match tree {
            TokenTree::Ident(ident) if ident == "Self" => {
                let path = matches!(
                    trees.peek(),
                    Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint
                );
                if path {
                    out.extend(quote!(<#target>));
                } else {
                    out.extend(target.clone());
                }
            }
            TokenTree::Group(group) => {
                let mut new = Group::new(group.delimiter(), replace_self(group.stream(), target));
                new.set_span(group.span());
                out.extend([TokenTree::Group(new)]);
            }
            other => out.extend([other]),
        }
    }
    out
}

/// A skipped or absent field's default, with `Self` (in `default = "Self::f"`) written as
/// the type being read.
fn default_of(cx: &Cx, f: &Field, container_default: bool) -> TokenStream {
    replace_self(super::build::default_of(f, container_default), &cx.target)
}

fn reject() -> TokenStream {
    quote!(::core::result::Result::Err(
        ::toolschema::__private::reject()
    ))
}

fn structure(cx: &Cx, cont: &Container, style: Style, fields: &[Field]) -> TokenStream {
    let ident = &cont.ident;
    let path = quote!(#ident);
    let container_default = !matches!(cont.attrs.default, DefaultValue::None);
    let style = if cont.attrs.transparent {
        Style::Newtype
    } else {
        style
    };
    match style {
        Style::Unit => quote! {
            <() as ::toolschema::ToolSchema>::deserialize_strict(__deserializer)?;
            ::core::result::Result::Ok(#path)
        },
        Style::Newtype => {
            let build = newtype(cx, &path, fields, quote!(__deserializer));
            quote!(::core::result::Result::Ok(#build))
        }
        Style::Tuple => {
            let name = format_ident!("__Tuple");
            let seq = tuple(cx, &path, fields);
            let visitor = cx.visitor(&name, quote!(deserialize_seq), seq);
            let seed = cx.seed(&name);
            quote! {
                #visitor
                ::toolschema::__private::serde::de::DeserializeSeed::deserialize(#seed, __deserializer)
            }
        }
        Style::Struct => {
            let name = format_ident!("__Struct");
            let body = named(cx, &path, fields, container_default, &cont.attrs.default);
            let visitor = cx.visitor(&name, quote!(deserialize_map), visit_map(cx, body));
            let seed = cx.seed(&name);
            quote! {
                #visitor
                ::toolschema::__private::serde::de::DeserializeSeed::deserialize(#seed, __deserializer)
            }
        }
    }
}

fn visit_map(cx: &Cx, body: TokenStream) -> TokenStream {
    let target = &cx.target;
    quote! {
        fn visit_map<__A>(self, mut __map: __A) -> ::core::result::Result<#target, __A::Error>
        where
            __A: ::toolschema::__private::serde::de::MapAccess<'de>,
        {
            #body
        }
    }
}

/// The seed that reads one field: its type's strict deserializer, behind the field's own
/// constraints when it has any.
fn field_seed(cx: &Cx, f: &Field) -> TokenStream {
    let ty = cx.ty(f.ty);
    let calls = super::schema::constraints(f);
    if calls.is_empty() {
        return quote!(::toolschema::__private::Strict::<#ty>::new());
    }
    quote!({
        static __CHECK: ::toolschema::__private::Check = ::toolschema::__private::Check::new() #(#calls)*;
        ::toolschema::__private::Checked::<#ty>::new(&__CHECK)
    })
}

/// The `member: value` list of a tuple-like struct or variant: each live field's value
/// from `read` (given its seed), each skipped field's default.
fn positional(cx: &Cx, fields: &[Field], read: impl Fn(TokenStream) -> TokenStream) -> TokenStream {
    let members = fields.iter().map(|f| {
        let member = &f.member;
        let value = if f.attrs.skip {
            default_of(cx, f, false)
        } else {
            read(field_seed(cx, f))
        };
        quote!(#member: #value)
    });
    quote!(#(#members),*)
}

/// A newtype (or transparent struct) read from `deserializer`.
fn newtype(
    cx: &Cx,
    path: &TokenStream,
    fields: &[Field],
    deserializer: TokenStream,
) -> TokenStream {
    let members = positional(
        cx,
        fields,
        |seed| quote!(::toolschema::__private::serde::de::DeserializeSeed::deserialize(#seed, #deserializer)?),
    );
    quote!(#path { #members })
}

/// `visit_seq` for a tuple struct or tuple variant: exactly its items.
fn tuple(cx: &Cx, path: &TokenStream, fields: &[Field]) -> TokenStream {
    let target = &cx.target;
    let members = positional(
        cx,
        fields,
        |seed| quote!(::toolschema::__private::item(&mut __seq, #seed)?),
    );
    quote! {
        fn visit_seq<__A>(self, mut __seq: __A) -> ::core::result::Result<#target, __A::Error>
        where
            __A: ::toolschema::__private::serde::de::SeqAccess<'de>,
        {
            let __value = #path { #members };
            ::toolschema::__private::end_of_seq(&mut __seq)?;
            ::core::result::Result::Ok(__value)
        }
    }
}

/// The members of an object read from `__map` into a struct or struct variant: each key
/// known and read once, every required field present.
fn named(
    cx: &Cx,
    path: &TokenStream,
    fields: &[Field],
    container_default: bool,
    default: &DefaultValue,
) -> TokenStream {
    let live: Vec<(usize, &Field)> = fields
        .iter()
        .filter(|f| !f.attrs.skip)
        .enumerate()
        .collect();
    let slot = |i: usize| format_ident!("__field{}", i);
    let keys = live.iter().flat_map(|(i, f)| {
        std::iter::once(&f.name)
            .chain(&f.attrs.aliases)
            .map(move |name| quote!((#name, #i)))
    });
    let declare = live.iter().map(|(i, _)| {
        let var = slot(*i);
        quote!(let mut #var = ::core::option::Option::None;)
    });
    let reject = reject();
    let arms = live.iter().map(|(i, f)| {
        let var = slot(*i);
        let seed = field_seed(cx, f);
        quote! {
            #i => {
                if #var.is_some() {
                    return #reject;
                }
                #var = ::core::option::Option::Some(__map.next_value_seed(#seed)?);
            }
        }
    });
    let mut next = 0;
    let members = fields.iter().map(|f| {
        let member = &f.member;
        if f.attrs.skip {
            let value = default_of(cx, f, container_default);
            return quote!(#member: #value);
        }
        let var = slot(next);
        next += 1;
        let has_default = !matches!(f.attrs.default, DefaultValue::None) || container_default;
        let missing = if has_default {
            default_of(cx, f, container_default)
        } else {
            let ty = cx.ty(f.ty);
            quote! {
                match <#ty as ::toolschema::ToolSchema>::when_missing() {
                    ::core::option::Option::Some(__value) => __value,
                    ::core::option::Option::None => return #reject,
                }
            }
        };
        quote! {
            #member: match #var {
                ::core::option::Option::Some(__value) => __value,
                ::core::option::Option::None => #missing,
            }
        }
    });
    let members: Vec<TokenStream> = members.collect();
    let default = if container_default {
        let target = &cx.target;
        let binding = container_default_binding(default);
        // `container_default_binding` names the type `Self`, which here is the visitor.
        replace_self(binding, target)
    } else {
        quote!()
    };
    quote! {{
        const __KEYS: &[(&str, usize)] = &[#(#keys),*];
        #(#declare)*
        while let ::core::option::Option::Some(__slot) =
            __map.next_key_seed(::toolschema::__private::Key(__KEYS))?
        {
            match __slot {
                #(#arms)*
                _ => return #reject,
            }
        }
        #default
        ::core::result::Result::Ok(#path { #(#members),* })
    }}
}

fn enumeration(cx: &Cx, cont: &Container, variants: &[Variant]) -> TokenStream {
    let live: Vec<&Variant> = variants.iter().filter(|v| !v.attrs.skip).collect();
    let ident = &cont.ident;
    let path = |v: &Variant| {
        let variant = &v.ident;
        quote!(#ident::#variant)
    };
    let reject = reject();
    let all_unit = live.iter().all(|v| v.style == Style::Unit);
    if let Some(tag) = &cont.attrs.tag {
        return internal(cx, &live, tag, &path);
    }
    if all_unit {
        // A string enum: the names, not the aliases, are in the schema.
        let names = live.iter().enumerate().map(|(i, v)| {
            let name = &v.name;
            quote!((#name, #i))
        });
        let arms = live.iter().enumerate().map(|(i, v)| {
            let path = path(v);
            quote!(#i => ::core::result::Result::Ok(#path),)
        });
        return quote! {
            const __NAMES: &[(&str, usize)] = &[#(#names),*];
            match ::toolschema::__private::serde::de::DeserializeSeed::deserialize(
                ::toolschema::__private::Key(__NAMES),
                __deserializer,
            )? {
                #(#arms)*
                _ => #reject,
            }
        };
    }
    // serde's external tagging: `"Unit"` or `{"Variant": payload}`.
    let mut items = Vec::new();
    let units = live.iter().filter(|v| v.style == Style::Unit).map(|v| {
        let name = &v.name;
        let path = path(v);
        quote!(#name => ::core::result::Result::Ok(#path),)
    });
    let data: Vec<&&Variant> = live.iter().filter(|v| v.style != Style::Unit).collect();
    let names = data.iter().enumerate().map(|(i, v)| {
        let name = &v.name;
        quote!((#name, #i))
    });
    let arms = data.iter().enumerate().map(|(i, v)| {
        let path = path(v);
        let value = match v.style {
            Style::Newtype => {
                let members =
                    positional(cx, &v.fields, |seed| quote!(__map.next_value_seed(#seed)?));
                quote!(#path { #members })
            }
            Style::Tuple => {
                let name = format_ident!("__Variant{}", i);
                items.push(cx.visitor(&name, quote!(deserialize_seq), tuple(cx, &path, &v.fields)));
                let seed = cx.seed(&name);
                quote!(__map.next_value_seed(#seed)?)
            }
            _ => {
                let name = format_ident!("__Variant{}", i);
                let body = named(cx, &path, &v.fields, false, &DefaultValue::None);
                items.push(cx.visitor(&name, quote!(deserialize_map), visit_map(cx, body)));
                let seed = cx.seed(&name);
                quote!(__map.next_value_seed(#seed)?)
            }
        };
        quote!(#i => #value,)
    });
    let arms: Vec<TokenStream> = arms.collect();
    let target = &cx.target;
    let methods = quote! {
        fn visit_str<__E>(self, __value: &str) -> ::core::result::Result<#target, __E>
        where
            __E: ::toolschema::__private::serde::de::Error,
        {
            match __value {
                #(#units)*
                _ => #reject,
            }
        }

        fn visit_map<__A>(self, mut __map: __A) -> ::core::result::Result<#target, __A::Error>
        where
            __A: ::toolschema::__private::serde::de::MapAccess<'de>,
        {
            const __VARIANTS: &[(&str, usize)] = &[#(#names),*];
            let ::core::option::Option::Some(__slot) =
                __map.next_key_seed(::toolschema::__private::Key(__VARIANTS))?
            else {
                return #reject;
            };
            let __value = match __slot {
                #(#arms)*
                _ => return #reject,
            };
            ::toolschema::__private::end_of_map(&mut __map)?;
            ::core::result::Result::Ok(__value)
        }
    };
    let name = format_ident!("__Enum");
    let visitor = cx.visitor(&name, quote!(deserialize_any), methods);
    let seed = cx.seed(&name);
    quote! {
        #(#items)*
        #visitor
        ::toolschema::__private::serde::de::DeserializeSeed::deserialize(#seed, __deserializer)
    }
}

/// `#[serde(tag = "…")]`: the tag must come first to be streamed; otherwise the object
/// is read whole and checked against the enum's schema.
fn internal(
    cx: &Cx,
    live: &[&Variant],
    tag: &str,
    path: &dyn Fn(&Variant) -> TokenStream,
) -> TokenStream {
    let target = &cx.target;
    let reject = reject();
    let names = live.iter().enumerate().map(|(i, v)| {
        let name = &v.name;
        quote!((#name, #i))
    });
    let arms = live.iter().enumerate().map(|(i, v)| {
        let path = path(v);
        let name = &v.name;
        let body = match v.style {
            Style::Unit => quote!({
                ::toolschema::__private::end_of_map(&mut __map)?;
                ::core::result::Result::Ok(#path)
            }),
            Style::Struct => named(cx, &path, &v.fields, false, &DefaultValue::None),
            // A newtype's struct is flattened beside the tag: read whole.
            _ => quote!(::toolschema::__private::tagged_through_value::<#target, __A>(#tag, #name, __map)),
        };
        quote!(#i => #body,)
    });
    let methods = quote! {
        fn visit_map<__A>(self, mut __map: __A) -> ::core::result::Result<#target, __A::Error>
        where
            __A: ::toolschema::__private::serde::de::MapAccess<'de>,
        {
            match __map.next_key_seed(::toolschema::__private::TagKey(#tag))? {
                ::core::option::Option::Some(::toolschema::__private::FirstKey::Tag) => {}
                ::core::option::Option::Some(::toolschema::__private::FirstKey::Other(__key)) => {
                    return ::toolschema::__private::rest_through_value::<#target, __A>(__key, __map);
                }
                ::core::option::Option::None => return #reject,
            }
            const __VARIANTS: &[(&str, usize)] = &[#(#names),*];
            match __map.next_value_seed(::toolschema::__private::Key(__VARIANTS))? {
                #(#arms)*
                _ => #reject,
            }
        }
    };
    let name = format_ident!("__Internal");
    let visitor = cx.visitor(&name, quote!(deserialize_map), methods);
    let seed = cx.seed(&name);
    quote! {
        #visitor
        ::toolschema::__private::serde::de::DeserializeSeed::deserialize(#seed, __deserializer)
    }
}
