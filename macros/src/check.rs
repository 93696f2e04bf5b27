//! Checks that span several attributes or need the field's type.

use std::collections::HashMap;

use proc_macro2::TokenStream;
use quote::ToTokens;

use crate::ast::{Container, Data, Field, Style, Variant};
use crate::ctxt::Ctxt;
use crate::dialect::{self, Dialect, Limit};
use crate::ty::{self, Kind};

pub fn check(cx: &Ctxt, cont: &Container) {
    for (tokens, message) in &cont.attrs.misplaced {
        cx.error_spanned_by(tokens, message);
    }
    match &cont.data {
        Data::Struct(_, fields) => {
            check_fields(cx, fields);
            check_transparent(cx, cont, fields);
            if let Some(tokens) = tagging(cont) {
                cx.error_spanned_by(
                    at(cont, tokens),
                    "#[serde(tag)] and #[serde(untagged)] apply to enums, not structs",
                );
            }
        }
        Data::Enum(variants) => {
            for variant in variants {
                check_fields(cx, &variant.fields);
            }
            if cont.attrs.transparent {
                cx.error_spanned_by(
                    at(cont, &cont.attrs.shape_tokens.transparent),
                    "#[serde(transparent)] applies to structs with one field",
                );
            }
            if cont.is_tool_union() {
                check_union(cx, cont, variants);
            } else {
                check_tagging(cx, cont, variants);
            }
        }
    }
    if let Some(dialect) = cont.attrs.dialect.get() {
        check_dialect(cx, cont, *dialect);
    }
}

/// The `tag` or `untagged` key, when the container has either.
fn tagging<'a>(cont: &'a Container) -> Option<&'a TokenStream> {
    let a = &cont.attrs;
    if a.tag.is_some() {
        Some(&a.shape_tokens.tag)
    } else if a.untagged {
        Some(&a.shape_tokens.untagged)
    } else {
        None
    }
}

/// The attribute key when it was written, the type's name otherwise.
fn at(cont: &Container, tokens: &TokenStream) -> TokenStream {
    if tokens.is_empty() {
        cont.ident.to_token_stream()
    } else {
        tokens.clone()
    }
}

fn check_fields(cx: &Ctxt, fields: &[Field]) {
    unique_keys(cx, fields);
    for field in fields {
        let kind = ty::kind(field.ty);
        let a = &field.attrs;
        let wrong = |attr_tokens: &TokenStream, what: &str, allowed: &[Kind], expected: &str| {
            if kind != Kind::Unknown && !allowed.contains(&kind) {
                cx.error_spanned_by(
                    attr_tokens,
                    format!(
                        "#[schema({what})] applies to {expected}, not to {}",
                        ty::describe(kind)
                    ),
                );
            }
        };
        if a.range.get().is_some() {
            wrong(a.range.tokens(), "range", &[Kind::Number], "numbers");
        }
        if a.length.get().is_some() {
            wrong(
                a.length.tokens(),
                "length",
                &[Kind::String, Kind::Collection],
                "strings and collections",
            );
        }
        if a.pattern.get().is_some() {
            wrong(a.pattern.tokens(), "pattern", &[Kind::String], "strings");
        }
        if a.format.get().is_some() {
            wrong(a.format.tokens(), "format", &[Kind::String], "strings");
        }
        if let Some(bounds) = a.range.get() {
            let integer_type = matches!(kind, Kind::Number) && !type_is_float(field.ty);
            for n in bounds.min.iter().chain(&bounds.max) {
                if integer_type && !n.integer {
                    cx.error_spanned_by(&n.tokens, "an integer field takes integer bounds");
                }
                let fits = (i64::MIN as f64..=i64::MAX as f64).contains(&n.value);
                if n.integer && !fits {
                    cx.error_spanned_by(
                        &n.tokens,
                        "an integer bound must fit in an i64 (the type's own range still applies)",
                    );
                }
            }
        }
        if a.flatten {
            if a.bridge.get().is_some() {
                cx.error_spanned_by(
                    a.bridge.tokens(),
                    "#[schema(bridge)] cannot be combined with #[serde(flatten)]",
                );
            }
            if matches!(field.member, syn::Member::Unnamed(_)) {
                cx.error_spanned_by(
                    &a.flatten_tokens,
                    "#[serde(flatten)] applies to named fields",
                );
            }
        }
        if a.skip {
            let constraint = [
                a.range.tokens(),
                a.length.tokens(),
                a.pattern.tokens(),
                a.format.tokens(),
                a.example.tokens(),
                a.hint.tokens(),
                a.bridge.tokens(),
                &a.explicit_description,
            ]
            .into_iter()
            .find(|t| !t.is_empty());
            if let Some(tokens) = constraint {
                cx.error_spanned_by(
                    tokens,
                    "a skipped field is not in the schema; remove this #[schema] attribute",
                );
            }
            if a.validate.get().is_some() {
                cx.error_spanned_by(
                    a.validate.tokens(),
                    "a skipped field is not read, so its check would never run; check it in the container's #[schema(validate)]",
                );
            }
        }
    }
}

/// A key (name or alias) names one field: which field a second one would fill is a guess.
fn unique_keys(cx: &Ctxt, fields: &[Field]) {
    let mut keys: HashMap<&str, &syn::Member> = HashMap::new();
    for field in fields.iter().filter(|f| !f.attrs.skip && !f.attrs.flatten) {
        let mut own: Vec<&str> = Vec::new();
        for key in std::iter::once(&field.name).chain(&field.attrs.aliases) {
            if own.contains(&key.as_str()) {
                continue;
            }
            own.push(key);
            if let Some(first) = keys.insert(key, &field.member) {
                cx.error_spanned_by(
                    &field.member,
                    format!(
                        "the key \"{key}\" names two fields (also `{}`); give each field its own name and aliases",
                        first.to_token_stream()
                    ),
                );
            }
        }
    }
}

fn type_is_float(ty: &syn::Type) -> bool {
    let text = ty.to_token_stream().to_string();
    text.contains("f32") || text.contains("f64")
}

fn check_transparent(cx: &Ctxt, cont: &Container, fields: &[Field]) {
    if cont.attrs.transparent && fields.iter().filter(|f| !f.attrs.skip).count() != 1 {
        cx.error_spanned_by(
            at(cont, &cont.attrs.shape_tokens.transparent),
            "#[serde(transparent)] requires exactly one field that is not skipped",
        );
    }
}

fn check_tagging(cx: &Ctxt, cont: &Container, variants: &[Variant]) {
    let a = &cont.attrs;
    if a.content.is_some() && a.tag.is_none() {
        cx.error_spanned_by(
            at(cont, &a.shape_tokens.content),
            "#[serde(content)] needs #[serde(tag)] beside it",
        );
    }
    if a.untagged && a.tag.is_some() {
        cx.error_spanned_by(
            at(cont, &a.shape_tokens.untagged),
            "#[serde(untagged)] cannot be combined with #[serde(tag)]",
        );
    }
    if let (Some(tag), None) = (&a.tag, &a.content) {
        let fields = variants
            .iter()
            .filter(|v| !v.attrs.skip)
            .flat_map(|v| &v.fields)
            .filter(|f| !f.attrs.skip);
        for field in fields {
            if field.name == *tag || field.attrs.aliases.contains(tag) {
                cx.error_spanned_by(
                    &field.member,
                    format!("the key \"{tag}\" is this enum's tag; rename the field or the tag"),
                );
            }
        }
    }
    if a.tag.is_some() && a.content.is_none() {
        for variant in variants
            .iter()
            .filter(|v| !v.attrs.skip && v.style == Style::Tuple)
        {
            cx.error_spanned_by(
                &variant.ident,
                "an internally tagged enum cannot have tuple variants; use #[serde(tag, content)]",
            );
        }
    }
    unique_names(
        cx,
        variants.iter().filter(|v| !v.attrs.skip),
        "variant name",
    );
}

fn unique_names<'a>(cx: &Ctxt, variants: impl Iterator<Item = &'a Variant<'a>>, what: &str) {
    let mut names: HashMap<&str, &syn::Ident> = HashMap::new();
    for variant in variants {
        if let Some(first) = names.insert(&variant.name, &variant.ident) {
            cx.error_spanned_by(
                &variant.ident,
                format!(
                    "duplicate {what} `{}` (also used by `{first}`)",
                    variant.name
                ),
            );
        }
    }
}

fn check_union(cx: &Ctxt, cont: &Container, variants: &[Variant]) {
    if let Some(tokens) = tagging(cont) {
        cx.error_spanned_by(
            at(cont, tokens),
            "a tool union has its own JSON form; remove #[serde(tag)]/#[serde(untagged)]",
        );
    }
    let tools = variants
        .iter()
        .filter(|v| !v.attrs.skip && v.attrs.tool.is_some() && v.attrs.answer.is_none());
    unique_names(cx, tools, "tool name");
    let mut answer_seen = false;
    for variant in variants {
        let attrs = &variant.attrs;
        if let (Some(tool), Some(_)) = (&attrs.tool, &attrs.answer) {
            cx.error_spanned_by(
                &tool.tokens,
                "#[tool] and #[answer] cannot be on the same variant",
            );
            continue;
        }
        if let Some(tokens) = &attrs.answer {
            if answer_seen {
                cx.error_spanned_by(tokens, "only one #[answer] variant is allowed");
            }
            answer_seen = true;
            if variant.style == Style::Unit || variant.style == Style::Tuple {
                cx.error_spanned_by(
                    tokens,
                    "#[answer] takes a newtype or struct variant: `Answer(String)`",
                );
            }
        } else if let Some(tool) = &attrs.tool {
            if variant.style == Style::Tuple {
                cx.error_spanned_by(
                    &tool.tokens,
                    "#[tool] takes a struct variant or a newtype of a struct, not a tuple",
                );
            } else if let (Style::Newtype, Some(field)) = (variant.style, variant.fields.first()) {
                // Arguments are an object: a newtype of a string or a list cannot be one.
                let kind = ty::kind(field.ty);
                if kind != Kind::Unknown {
                    cx.error_spanned_by(
                        field.ty,
                        format!(
                            "#[tool] takes a struct variant or a newtype of a struct, not a newtype of {}",
                            ty::describe(kind)
                        ),
                    );
                }
            }
        } else if !attrs.skip {
            cx.error_spanned_by(
                &variant.ident,
                format!(
                    "`{}` is in a tool union: mark it #[tool] or #[answer]",
                    variant.ident
                ),
            );
        }
    }
}

/// `#[schema(dialect = "...")]`: every field the dialect cannot express is an error at
/// its type. Types the derive cannot see into are checked by their own attribute, or at
/// run time by `toolschema::schema_for`.
fn check_dialect(cx: &Ctxt, cont: &Container, dialect: Dialect) {
    let limits = dialect.limits();
    let shapes = dialect.forbidden_shapes();
    let no_tuples = limits.contains(&Limit::NoTupleStructs);
    let check_fields = |owner: &str, style: Style, fields: &[Field]| {
        for field in fields.iter().filter(|f| !f.attrs.skip) {
            let label = |path: &str| match style {
                Style::Struct if owner.is_empty() => format!("`{}{path}`", field.name),
                Style::Struct | Style::Tuple => format!("`{owner}.{}{path}`", field.name),
                Style::Newtype | Style::Unit => format!("`{owner}{path}`"),
            };
            if let Some((shape, found)) = ty::find_shape(field.ty, &shapes) {
                let message = dialect::shape_message(&label(&found.path), shape, dialect);
                cx.error_spanned_by(found.ty, message);
            }
            if limits.contains(&Limit::NoRecursion)
                && let Some(found) = ty::find_recursion(field.ty, &cont.ident)
            {
                cx.error_spanned_by(
                    found.ty,
                    format!(
                        "{} refers back to `{}`: recursive types cannot be expressed in {}",
                        label(&found.path),
                        cont.ident,
                        dialect.title()
                    ),
                );
            }
        }
    };
    match &cont.data {
        Data::Struct(style, fields) => {
            let name = cont.ident.to_string();
            check_fields(
                if *style == Style::Struct { "" } else { &name },
                *style,
                fields,
            );
            if no_tuples && *style == Style::Tuple {
                cx.error_spanned_by(&cont.ident, tuple_message(&format!("`{name}`"), dialect));
            }
        }
        Data::Enum(variants) => {
            for variant in variants.iter().filter(|v| !v.attrs.skip) {
                // The answer's JSON is `{"answer": …}`, whatever the variant's name.
                let owner = match variant.attrs.answer {
                    Some(_) => "answer",
                    None => &variant.name,
                };
                check_fields(owner, variant.style, &variant.fields);
                // A tuple in a union of tools is an error of its own.
                if no_tuples && variant.style == Style::Tuple && !cont.is_tool_union() {
                    cx.error_spanned_by(
                        &variant.ident,
                        tuple_message(&format!("variant `{}`", variant.name), dialect),
                    );
                }
            }
        }
    }
}

fn tuple_message(what: &str, dialect: Dialect) -> String {
    format!(
        "{what} is a tuple, which {} cannot express; name its fields",
        dialect.title()
    )
}
