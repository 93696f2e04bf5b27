//! Attributes on a field: serde's keys that change the JSON shape and `#[schema(...)]`.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Expr, Lit, LitStr, Token};

use super::{
    Attr, BRIDGE, Bounds, DESCRIPTION, DIALECT, DefaultValue, EXAMPLE, FORMAT, FORMATS, HINT,
    LENGTH, MAX, MIN, Number, PATTERN, RANGE, VALIDATE, deserialize_name, doc, each_schema,
    each_serde, get_check_path, get_lit_str, misplaced_dialect, skip,
};
use crate::ctxt::Ctxt;
use crate::ty::{self, Kind};

/// Attributes on a field.
pub struct Field {
    pub name: Option<String>,
    pub aliases: Vec<String>,
    pub default: DefaultValue,
    pub skip: bool,
    pub flatten: bool,
    /// The `flatten` key as written, for spans.
    pub flatten_tokens: TokenStream,
    pub description: Option<String>,
    pub range: Attr<Bounds<Number>>,
    pub length: Attr<Bounds<Number>>,
    pub pattern: Attr<LitStr>,
    pub format: Attr<String>,
    pub example: Attr<Expr>,
    pub hint: Attr<String>,
    pub bridge: Attr<()>,
    /// `#[schema(validate = path)]`: a check of the field's value, `fn(&T) -> Result<(), E>`.
    pub validate: Attr<syn::ExprPath>,
    /// `#[schema(description)]` as written, empty when the description is the doc comment.
    pub explicit_description: TokenStream,
}

impl Field {
    pub fn from_ast(cx: &Ctxt, field: &syn::Field) -> Self {
        let mut this = Field {
            name: None,
            aliases: Vec::new(),
            default: DefaultValue::None,
            skip: false,
            flatten: false,
            flatten_tokens: TokenStream::new(),
            description: doc(&field.attrs),
            range: Attr::none("schema(range)"),
            length: Attr::none("schema(length)"),
            pattern: Attr::none("schema(pattern)"),
            format: Attr::none("schema(format)"),
            example: Attr::none("schema(example)"),
            hint: Attr::none("schema(hint)"),
            bridge: Attr::none("schema(bridge)"),
            validate: Attr::none("schema(validate)"),
            explicit_description: TokenStream::new(),
        };
        each_serde(cx, &field.attrs, |meta| {
            let p = &meta.path;
            if p.is_ident("rename") {
                // #[serde(rename = "name")]
                this.name = deserialize_name(meta)?;
            } else if p.is_ident("alias") {
                // #[serde(alias = "other")]
                this.aliases.push(meta.value()?.parse::<LitStr>()?.value());
            } else if p.is_ident("default") {
                // #[serde(default)] or #[serde(default = "path")]
                this.default = if meta.input.peek(Token![=]) {
                    DefaultValue::Path(meta.value()?.parse::<LitStr>()?.parse()?)
                } else {
                    DefaultValue::Trait
                };
            } else if p.is_ident("skip") || p.is_ident("skip_deserializing") {
                this.skip = true;
            } else if p.is_ident("flatten") {
                // #[serde(flatten)]
                this.flatten = true;
                this.flatten_tokens = p.to_token_stream();
            } else if p.is_ident("deserialize_with") || p.is_ident("with") {
                cx.error_spanned_by(
                    p,
                    format!(
                        "#[serde({})] changes the JSON shape in a way ToolSchema cannot see; use #[schema(bridge)] for a type with its own schemars::JsonSchema",
                        p.to_token_stream()
                    ),
                );
                skip(meta)?;
            } else {
                skip(meta)?;
            }
            Ok(())
        });
        let mut description = Attr::none("schema(description)");
        each_schema(cx, &field.attrs, |key, meta| {
            match key {
                RANGE => {
                    // #[schema(range(min = 0, max = 150))]
                    let bounds = parse_bounds(cx, meta, "range")?;
                    this.range.set(cx, &meta.path, bounds);
                }
                LENGTH => {
                    // #[schema(length(min = 1, max = 80))]
                    let bounds = parse_bounds(cx, meta, "length")?;
                    for n in bounds.min.iter().chain(&bounds.max) {
                        if !n.integer || n.value < 0.0 {
                            cx.error_spanned_by(
                                &n.tokens,
                                "a length must be a non-negative integer",
                            );
                        }
                    }
                    this.length.set(cx, &meta.path, bounds);
                }
                PATTERN => {
                    // #[schema(pattern = "^[a-z]+$")]
                    if let Some(s) = get_lit_str(cx, "schema(pattern)", meta)? {
                        if let Err(e) = regex::Regex::new(&s.value()) {
                            let first = e.to_string();
                            let last = first.lines().last().unwrap_or_default().trim();
                            let reason = last.strip_prefix("error: ").unwrap_or(last).to_owned();
                            cx.error_spanned_by(
                                &s,
                                format!("invalid regex in #[schema(pattern)]: {reason}"),
                            );
                        }
                        this.pattern.set(cx, &meta.path, s);
                    }
                }
                FORMAT => {
                    // #[schema(format = "date")]
                    if let Some(s) = get_lit_str(cx, "schema(format)", meta)? {
                        if !FORMATS.contains(&s.value().as_str()) {
                            let names: Vec<String> =
                                FORMATS.iter().map(|f| format!("`{f}`")).collect();
                            cx.error_spanned_by(
                                &s,
                                format!(
                                    "unknown format `{}`; expected one of {}",
                                    s.value(),
                                    names.join(", ")
                                ),
                            );
                        }
                        this.format.set(cx, &meta.path, s.value());
                    }
                }
                EXAMPLE => {
                    // #[schema(example = 42)]
                    let expr: Expr = meta.value()?.parse()?;
                    if !is_literal(&expr) {
                        cx.error_spanned_by(
                            &expr,
                            "#[schema(example)] takes a literal: a string, number or bool",
                        );
                    }
                    this.example.set(cx, &meta.path, expr);
                }
                HINT => {
                    // #[schema(hint = "shown to a model when this field is wrong")]
                    if let Some(s) = get_lit_str(cx, "schema(hint)", meta)? {
                        this.hint.set(cx, &meta.path, s.value());
                    }
                }
                DESCRIPTION => {
                    // #[schema(description = "...")]
                    if let Some(s) = get_lit_str(cx, "schema(description)", meta)? {
                        description.set(cx, &meta.path, s.value());
                    }
                }
                BRIDGE => {
                    // #[schema(bridge)]: schemars::JsonSchema + serde::Deserialize
                    this.bridge.set(cx, &meta.path, ());
                }
                VALIDATE => {
                    // #[schema(validate = check_sku)]
                    if let Some(path) = get_check_path(cx, meta)? {
                        this.validate.set(cx, &meta.path, path);
                    }
                }
                DIALECT => misplaced_dialect(cx, meta, "field")?,
                // #[schema(min = 1)]: a bound outside `range` or `length`
                _ => return bare_bound(cx, meta, key, &field.ty),
            }
            Ok(true)
        });
        if let Some(d) = description.value {
            this.explicit_description = description.tokens;
            this.description = Some(d);
        }
        for attr in &field.attrs {
            if attr.path().is_ident("tool") || attr.path().is_ident("answer") {
                cx.error_spanned_by(
                    attr,
                    format!(
                        "#[{}] can only be used on enum variants",
                        attr.path().to_token_stream()
                    ),
                );
            }
        }
        this
    }
}

fn is_literal(expr: &Expr) -> bool {
    match expr {
        Expr::Lit(_) => true,
        Expr::Unary(u) => {
            matches!(u.op, syn::UnOp::Neg(_))
                && matches!(
                    &*u.expr,
                    Expr::Lit(syn::ExprLit {
                        lit: Lit::Int(_) | Lit::Float(_),
                        ..
                    })
                )
        }
        _ => false,
    }
}

/// `#[schema(min = 1)]` and the like: a bound written on its own, as JSON Schema and
/// validator crates name it. It belongs inside `range` (numbers) or `length` (strings and
/// collections): the error says which for this field's type, with the value written.
/// False for any other key, which is then an unknown attribute like any other.
fn bare_bound(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
    field_ty: &syn::Type,
) -> syn::Result<bool> {
    let (bound, of_length) = match key {
        "min" | "minimum" => (MIN, false),
        "max" | "maximum" => (MAX, false),
        "min_length" | "minLength" | "min_len" | "min_items" | "minItems" => (MIN, true),
        "max_length" | "maxLength" | "max_len" | "max_items" | "maxItems" => (MAX, true),
        _ => return Ok(false),
    };
    let value = if meta.input.peek(Token![=]) {
        let expr: Expr = meta.value()?.parse()?;
        expr.to_token_stream().to_string().replace("- ", "-")
    } else {
        skip(meta)?;
        "…".to_owned()
    };
    let range = format!("`range({bound} = {value})`");
    let length = format!("`length({bound} = {value})`");
    let suggestion = match (of_length, ty::kind(field_ty)) {
        (true, _) | (false, Kind::String | Kind::Collection) => length,
        (false, Kind::Number) => range,
        (false, Kind::Bool | Kind::Unknown) => {
            format!("{range} for a number or {length} for a string or a collection")
        }
    };
    cx.error_spanned_by(
        &meta.path,
        format!("unknown schema attribute `{key}`; did you mean {suggestion}?"),
    );
    Ok(true)
}

/// `range(min = 0, max = 150)`, either bound optional.
fn parse_bounds(cx: &Ctxt, meta: &ParseNestedMeta, what: &str) -> syn::Result<Bounds<Number>> {
    let mut bounds = Bounds {
        min: None,
        max: None,
    };
    meta.parse_nested_meta(|inner| {
        let slot = if inner.path.is_ident(MIN) {
            &mut bounds.min
        } else if inner.path.is_ident(MAX) {
            &mut bounds.max
        } else {
            let path = inner.path.to_token_stream().to_string().replace(' ', "");
            cx.error_spanned_by(
                &inner.path,
                format!("unknown {what} bound `{path}`; expected `min` or `max`"),
            );
            return skip(&inner);
        };
        let expr: Expr = inner.value()?.parse()?;
        match number(&expr) {
            Some(_) if slot.is_some() => cx.error_spanned_by(
                &inner.path,
                format!(
                    "duplicate #[schema({what}({}))]",
                    inner.path.to_token_stream()
                ),
            ),
            Some(n) => *slot = Some(n),
            None => cx.error_spanned_by(&expr, format!("a {what} bound must be a number literal")),
        }
        Ok(())
    })?;
    if bounds.min.is_none() && bounds.max.is_none() {
        cx.error_spanned_by(
            &meta.path,
            format!("#[schema({what})] needs `min`, `max` or both"),
        );
    }
    if let (Some(min), Some(max)) = (&bounds.min, &bounds.max)
        && min.value > max.value
    {
        cx.error_spanned_by(&min.tokens, format!("{what} min is greater than max"));
    }
    Ok(bounds)
}

fn number(expr: &Expr) -> Option<Number> {
    let (negative, lit) = match expr {
        Expr::Lit(syn::ExprLit { lit, .. }) => (false, lit),
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => match &**expr {
            Expr::Lit(syn::ExprLit { lit, .. }) => (true, lit),
            _ => return None,
        },
        _ => return None,
    };
    let sign = if negative { -1.0 } else { 1.0 };
    let (value, integer) = match lit {
        Lit::Int(i) => (i.base10_parse::<f64>().ok()?, true),
        Lit::Float(f) => (f.base10_parse::<f64>().ok()?, false),
        _ => return None,
    };
    Some(Number {
        value: sign * value,
        integer,
        tokens: expr.to_token_stream(),
    })
}
