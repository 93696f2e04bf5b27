//! The input as typed shapes: a container with its fields or variants and their attributes.

use syn::punctuated::Punctuated;
use syn::{Token, Type};

use crate::attr;
use crate::case::RenameRule;
use crate::ctxt::Ctxt;

pub struct Container<'a> {
    pub ident: syn::Ident,
    pub attrs: attr::Container,
    pub data: Data<'a>,
    pub generics: &'a syn::Generics,
}

pub enum Data<'a> {
    Struct(Style, Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `{ a: A, b: B }`
    Struct,
    /// `(A, B)`
    Tuple,
    /// `(A)`
    Newtype,
    /// no fields
    Unit,
}

pub struct Variant<'a> {
    pub ident: syn::Ident,
    /// The JSON name (after `rename`/`rename_all`), or the tool name in a union.
    pub name: String,
    pub attrs: attr::Variant,
    pub style: Style,
    pub fields: Vec<Field<'a>>,
}

pub struct Field<'a> {
    pub member: syn::Member,
    /// The JSON key (after `rename`/`rename_all`).
    pub name: String,
    pub attrs: attr::Field,
    pub ty: &'a Type,
}

impl<'a> Container<'a> {
    pub fn from_ast(cx: &Ctxt, input: &'a syn::DeriveInput) -> Option<Self> {
        let attrs = attr::Container::from_ast(cx, input);
        let data = match &input.data {
            syn::Data::Struct(data) => {
                let (style, fields) = struct_from_ast(cx, &data.fields, attrs.rename_all);
                Data::Struct(style, fields)
            }
            syn::Data::Enum(data) => Data::Enum(enum_from_ast(cx, &data.variants, &attrs)),
            syn::Data::Union(data) => {
                cx.error_spanned_by(
                    data.union_token,
                    "ToolSchema cannot be derived for a union; use a struct or an enum",
                );
                return None;
            }
        };
        Some(Container {
            ident: input.ident.clone(),
            attrs,
            data,
            generics: &input.generics,
        })
    }

    /// Whether the enum is a union of tool calls and a direct answer.
    pub fn is_tool_union(&self) -> bool {
        match &self.data {
            Data::Enum(variants) => variants
                .iter()
                .any(|v| v.attrs.tool.is_some() || v.attrs.answer.is_some()),
            Data::Struct(..) => false,
        }
    }
}

fn enum_from_ast<'a>(
    cx: &Ctxt,
    variants: &'a Punctuated<syn::Variant, Token![,]>,
    container: &attr::Container,
) -> Vec<Variant<'a>> {
    variants
        .iter()
        .map(|variant| {
            let attrs = attr::Variant::from_ast(cx, variant);
            let field_rule = attrs.rename_all.or(container.rename_all_fields);
            let (style, fields) = struct_from_ast(cx, &variant.fields, field_rule);
            let rust_name = unraw(&variant.ident);
            let name = match (&attrs.tool, &attrs.name) {
                (Some(tool), _) => tool
                    .name
                    .clone()
                    .unwrap_or_else(|| RenameRule::SnakeCase.apply_to_variant(&rust_name)),
                (None, Some(name)) => name.clone(),
                (None, None) => container
                    .rename_all
                    .unwrap_or(RenameRule::None)
                    .apply_to_variant(&rust_name),
            };
            Variant {
                ident: variant.ident.clone(),
                name,
                attrs,
                style,
                fields,
            }
        })
        .collect()
}

fn struct_from_ast<'a>(
    cx: &Ctxt,
    fields: &'a syn::Fields,
    rule: Option<RenameRule>,
) -> (Style, Vec<Field<'a>>) {
    let style = match fields {
        syn::Fields::Named(_) => Style::Struct,
        syn::Fields::Unnamed(f) if f.unnamed.len() == 1 => Style::Newtype,
        syn::Fields::Unnamed(_) => Style::Tuple,
        syn::Fields::Unit => Style::Unit,
    };
    let fields = fields
        .iter()
        .enumerate()
        .map(|(i, field)| {
            let attrs = attr::Field::from_ast(cx, field);
            let (member, rust_name) = match &field.ident {
                Some(ident) => (syn::Member::Named(ident.clone()), unraw(ident)),
                None => (syn::Member::Unnamed(i.into()), i.to_string()),
            };
            let name = attrs
                .name
                .clone()
                .unwrap_or_else(|| rule.unwrap_or(RenameRule::None).apply_to_field(&rust_name));
            Field {
                member,
                name,
                attrs,
                ty: &field.ty,
            }
        })
        .collect();
    (style, fields)
}

fn unraw(ident: &syn::Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}
