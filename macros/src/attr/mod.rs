//! Typed attributes: `#[serde(...)]` (the keys that change the JSON shape), `#[schema(...)]`,
//! `#[tool(...)]`, `#[answer]` and doc comments, each parsed once.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, Lit, LitStr, Token};

use crate::case::{RULE_NAMES, RenameRule};
use crate::ctxt::Ctxt;

mod field;

use crate::dialect::{DIALECT_NAMES, Dialect};
pub use field::Field;

// #[schema(...)] keys.
const RANGE: &str = "range";
const LENGTH: &str = "length";
const PATTERN: &str = "pattern";
const FORMAT: &str = "format";
const EXAMPLE: &str = "example";
const HINT: &str = "hint";
const DESCRIPTION: &str = "description";
const BRIDGE: &str = "bridge";
const MIN: &str = "min";
const MAX: &str = "max";
const NAME: &str = "name";
const DIALECT: &str = "dialect";
const VALIDATE: &str = "validate";

pub const FORMATS: &[&str] = &["date", "date-time", "email", "time", "uri", "uuid"];

/// An attribute value that remembers its tokens (for spans) and rejects a second setting.
pub struct Attr<T> {
    name: &'static str,
    tokens: TokenStream,
    value: Option<T>,
}

impl<T> Attr<T> {
    fn none(name: &'static str) -> Self {
        Attr {
            name,
            tokens: TokenStream::new(),
            value: None,
        }
    }

    fn set<A: ToTokens>(&mut self, cx: &Ctxt, obj: A, value: T) {
        let tokens = obj.into_token_stream();
        if self.value.is_some() {
            cx.error_spanned_by(tokens, format!("duplicate #[{}]", self.name));
        } else {
            self.tokens = tokens;
            self.value = Some(value);
        }
    }

    pub fn get(&self) -> Option<&T> {
        self.value.as_ref()
    }

    pub fn tokens(&self) -> &TokenStream {
        &self.tokens
    }
}

/// A number from an attribute, kept as tokens to write back.
#[derive(Clone)]
pub struct Number {
    pub value: f64,
    pub integer: bool,
    pub tokens: TokenStream,
}

#[derive(Clone, Default)]
pub struct Bounds<T> {
    pub min: Option<T>,
    pub max: Option<T>,
}

pub enum DefaultValue {
    None,
    /// `#[serde(default)]`
    Trait,
    /// `#[serde(default = "path")]`
    Path(syn::ExprPath),
}

/// Doc comment lines joined, the leading space of each removed.
fn doc(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(syn::ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
        {
            let line = s.value();
            lines.push(
                line.strip_prefix(' ')
                    .unwrap_or(&line)
                    .trim_end()
                    .to_owned(),
            );
        }
    }
    let text = lines.join("\n").trim().to_owned();
    (!text.is_empty()).then_some(text)
}

/// `key` is written as the attribute reads, e.g. `schema(hint)` for `#[schema(hint = "...")]`.
fn get_lit_str(cx: &Ctxt, key: &str, meta: &ParseNestedMeta) -> syn::Result<Option<LitStr>> {
    let expr: Expr = meta.value()?.parse()?;
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(Some(s)),
        other => {
            let written = match key.strip_suffix(')') {
                Some(inner) => format!("{inner} = \"...\")"),
                None => format!("{key} = \"...\""),
            };
            cx.error_spanned_by(other, format!("expected #[{written}] to be a string"));
            Ok(None)
        }
    }
}

/// `validate = path`: the path of the function that checks the value.
fn get_check_path(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<syn::ExprPath>> {
    let expr: Expr = meta.value()?.parse()?;
    match expr {
        Expr::Path(path) => Ok(Some(path)),
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => {
            cx.error_spanned_by(
                &s,
                format!(
                    "#[schema(validate)] takes a path, not a string: write `validate = {}`",
                    s.value()
                ),
            );
            Ok(None)
        }
        other => {
            cx.error_spanned_by(
                other,
                "#[schema(validate)] takes the path of a function: `validate = check_order`",
            );
            Ok(None)
        }
    }
}

/// The path of a check as written, for messages: `rules::check_sku`.
pub fn check_name(path: &syn::ExprPath) -> String {
    path.to_token_stream().to_string().replace(' ', "")
}

/// Skips a key this derive does not read (serde's own keys are serde's to check).
fn skip(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        let _: Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip(&inner))?;
    }
    Ok(())
}

/// `rename = "x"` or `rename(deserialize = "x")`: the name used when reading.
fn deserialize_name(meta: &ParseNestedMeta) -> syn::Result<Option<String>> {
    Ok(deserialize_lit(meta)?.map(|s| s.value()))
}

fn deserialize_lit(meta: &ParseNestedMeta) -> syn::Result<Option<LitStr>> {
    if meta.input.peek(Token![=]) {
        return Ok(Some(meta.value()?.parse()?));
    }
    let mut out = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("deserialize") {
            out = Some(inner.value()?.parse()?);
        } else {
            skip(&inner)?;
        }
        Ok(())
    })?;
    Ok(out)
}

/// Walks the `#[serde(...)]` attributes. A malformed one is an error here too: the type
/// may not derive `Deserialize`, and a key read wrongly would change the JSON shape.
fn each_serde(
    cx: &Ctxt,
    attrs: &[Attribute],
    mut f: impl FnMut(&ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        if let Err(e) = attr.parse_nested_meta(|meta| f(&meta)) {
            cx.syn_error(e);
        }
    }
}

fn each_schema(
    cx: &Ctxt,
    attrs: &[Attribute],
    mut f: impl FnMut(&str, &ParseNestedMeta) -> syn::Result<bool>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("schema")) {
        if let Err(e) = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            if !f(&key, &meta)? {
                let path = meta.path.to_token_stream().to_string().replace(' ', "");
                cx.error_spanned_by(&meta.path, format!("unknown schema attribute `{path}`"));
                skip(&meta)?;
            }
            Ok(())
        }) {
            cx.syn_error(e);
        }
    }
}

fn rename_rule(cx: &Ctxt, meta: &ParseNestedMeta, out: &mut Option<RenameRule>) -> syn::Result<()> {
    if let Some(lit) = deserialize_lit(meta)? {
        let (span, name) = (lit.span(), lit.value());
        match RenameRule::from_str(&name) {
            Some(rule) => *out = Some(rule),
            None => {
                let names: Vec<String> = RULE_NAMES.iter().map(|(n, _)| format!("`{n}`")).collect();
                cx.syn_error(syn::Error::new(
                    span,
                    format!(
                        "unknown rename rule `{name}`; expected one of {}",
                        names.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Attributes on the struct or enum.
pub struct Container {
    pub name: Option<String>,
    pub rename_all: Option<RenameRule>,
    pub rename_all_fields: Option<RenameRule>,
    pub tag: Option<String>,
    pub content: Option<String>,
    pub untagged: bool,
    pub transparent: bool,
    pub default: DefaultValue,
    pub description: Option<String>,
    /// `#[schema(dialect = "openai_strict")]`: a provider whose limits are checked.
    pub dialect: Attr<Dialect>,
    /// `#[schema(validate = path)]`: a check of the whole value, `fn(&Self) -> Result<(), E>`.
    pub validate: Attr<syn::ExprPath>,
    /// The `tag`, `content`, `untagged` and `transparent` keys as written, for spans.
    pub shape_tokens: ShapeTokens,
    /// `#[tool]` or `#[answer]` written on the container, which is an error.
    pub misplaced: Vec<(TokenStream, &'static str)>,
}

impl Container {
    pub fn from_ast(cx: &Ctxt, input: &syn::DeriveInput) -> Self {
        let mut this = Container {
            name: None,
            rename_all: None,
            rename_all_fields: None,
            tag: None,
            content: None,
            untagged: false,
            transparent: false,
            default: DefaultValue::None,
            description: doc(&input.attrs),
            dialect: Attr::none("schema(dialect)"),
            validate: Attr::none("schema(validate)"),
            shape_tokens: ShapeTokens::default(),
            misplaced: Vec::new(),
        };
        each_serde(cx, &input.attrs, |meta| {
            let p = &meta.path;
            if p.is_ident("rename") {
                // #[serde(rename = "name")]
                this.name = deserialize_name(meta)?;
            } else if p.is_ident("rename_all") {
                // #[serde(rename_all = "camelCase")]
                rename_rule(cx, meta, &mut this.rename_all)?;
            } else if p.is_ident("rename_all_fields") {
                // #[serde(rename_all_fields = "camelCase")]
                rename_rule(cx, meta, &mut this.rename_all_fields)?;
            } else if p.is_ident("tag") {
                // #[serde(tag = "type")]
                this.shape_tokens.tag = p.to_token_stream();
                this.tag = Some(meta.value()?.parse::<LitStr>()?.value());
            } else if p.is_ident("content") {
                // #[serde(content = "data")]
                this.shape_tokens.content = p.to_token_stream();
                this.content = Some(meta.value()?.parse::<LitStr>()?.value());
            } else if p.is_ident("untagged") {
                // #[serde(untagged)]
                this.shape_tokens.untagged = p.to_token_stream();
                this.untagged = true;
            } else if p.is_ident("transparent") {
                // #[serde(transparent)]
                this.shape_tokens.transparent = p.to_token_stream();
                this.transparent = true;
            } else if p.is_ident("default") {
                // #[serde(default)] or #[serde(default = "path")]
                this.default = if meta.input.peek(Token![=]) {
                    DefaultValue::Path(meta.value()?.parse::<LitStr>()?.parse()?)
                } else {
                    DefaultValue::Trait
                };
            } else if p.is_ident("from") || p.is_ident("try_from") || p.is_ident("remote") {
                cx.error_spanned_by(
                    p,
                    format!(
                        "#[serde({})] changes the JSON shape in a way ToolSchema cannot see; derive ToolSchema on the type it reads from",
                        p.to_token_stream()
                    ),
                );
                skip(meta)?;
            } else {
                // deny_unknown_fields (toolschema is always strict), bound, crate, … .
                skip(meta)?;
            }
            Ok(())
        });
        each_schema(cx, &input.attrs, |key, meta| {
            match key {
                DESCRIPTION => {
                    // #[schema(description = "...")]
                    if let Some(s) = get_lit_str(cx, "schema(description)", meta)? {
                        this.description = Some(s.value());
                    }
                }
                DIALECT => {
                    // #[schema(dialect = "openai_strict")]
                    if let Some(s) = get_lit_str(cx, "schema(dialect)", meta)? {
                        match Dialect::from_name(&s.value()) {
                            Some(dialect) => this.dialect.set(cx, &meta.path, dialect),
                            None => {
                                let names: Vec<String> = DIALECT_NAMES
                                    .iter()
                                    .map(|(n, _)| format!("`{n}`"))
                                    .collect();
                                cx.error_spanned_by(
                                    &s,
                                    format!(
                                        "unknown dialect `{}`; expected one of {}",
                                        s.value(),
                                        names.join(", ")
                                    ),
                                );
                            }
                        }
                    }
                }
                VALIDATE => {
                    // #[schema(validate = check_order)]
                    if let Some(path) = get_check_path(cx, meta)? {
                        this.validate.set(cx, &meta.path, path);
                    }
                }
                _ => return Ok(false),
            }
            Ok(true)
        });
        for attr in &input.attrs {
            if attr.path().is_ident("tool") {
                this.misplaced.push((
                    attr.to_token_stream(),
                    "#[tool] can only be used on enum variants",
                ));
            } else if attr.path().is_ident("answer") {
                this.misplaced.push((
                    attr.to_token_stream(),
                    "#[answer] can only be used on enum variants",
                ));
            }
        }
        this
    }
}

#[derive(Default)]
pub struct ShapeTokens {
    pub tag: TokenStream,
    pub content: TokenStream,
    pub untagged: TokenStream,
    pub transparent: TokenStream,
}

/// `#[tool]` or `#[tool(name = "...", description = "...")]`.
pub struct Tool {
    pub tokens: TokenStream,
    pub name: Option<String>,
    pub description: Option<String>,
}

/// Attributes on an enum variant.
pub struct Variant {
    pub name: Option<String>,
    pub aliases: Vec<String>,
    pub rename_all: Option<RenameRule>,
    pub skip: bool,
    pub description: Option<String>,
    pub tool: Option<Tool>,
    pub answer: Option<TokenStream>,
}

impl Variant {
    pub fn from_ast(cx: &Ctxt, variant: &syn::Variant) -> Self {
        let mut this = Variant {
            name: None,
            aliases: Vec::new(),
            rename_all: None,
            skip: false,
            description: doc(&variant.attrs),
            tool: None,
            answer: None,
        };
        each_serde(cx, &variant.attrs, |meta| {
            let p = &meta.path;
            if p.is_ident("rename") {
                this.name = deserialize_name(meta)?;
            } else if p.is_ident("alias") {
                this.aliases.push(meta.value()?.parse::<LitStr>()?.value());
            } else if p.is_ident("rename_all") {
                rename_rule(cx, meta, &mut this.rename_all)?;
            } else if p.is_ident("skip") || p.is_ident("skip_deserializing") {
                this.skip = true;
            } else if p.is_ident("other") || p.is_ident("deserialize_with") || p.is_ident("with") {
                cx.error_spanned_by(
                    p,
                    format!(
                        "#[serde({})] is not supported by ToolSchema",
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
        each_schema(cx, &variant.attrs, |key, meta| {
            match key {
                DESCRIPTION => {
                    if let Some(s) = get_lit_str(cx, "schema(description)", meta)? {
                        description.set(cx, &meta.path, s.value());
                    }
                }
                DIALECT => misplaced_dialect(cx, meta, "variant")?,
                VALIDATE => {
                    cx.error_spanned_by(
                        &meta.path,
                        "#[schema(validate)] goes on a field or on the enum, not on a variant",
                    );
                    skip(meta)?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        });
        if let Some(d) = description.value {
            this.description = Some(d);
        }
        for attr in &variant.attrs {
            if attr.path().is_ident("tool") {
                let tool = parse_tool(cx, attr);
                if this.tool.is_some() {
                    cx.error_spanned_by(attr, "duplicate #[tool]");
                } else {
                    this.tool = Some(tool);
                }
            } else if attr.path().is_ident("answer") {
                if !matches!(attr.meta, syn::Meta::Path(_)) {
                    cx.error_spanned_by(attr, "#[answer] takes no arguments");
                }
                if this.answer.is_some() {
                    cx.error_spanned_by(attr, "duplicate #[answer]");
                } else {
                    this.answer = Some(attr.to_token_stream());
                }
            }
        }
        this
    }
}

fn parse_tool(cx: &Ctxt, attr: &Attribute) -> Tool {
    let mut tool = Tool {
        tokens: attr.to_token_stream(),
        name: None,
        description: None,
    };
    if matches!(attr.meta, syn::Meta::Path(_)) {
        return tool;
    }
    let mut name = Attr::none("tool(name)");
    let mut description = Attr::none("tool(description)");
    let result = attr.parse_nested_meta(|meta| {
        if meta.path.is_ident(NAME) {
            // #[tool(name = "get_weather")]
            if let Some(s) = get_lit_str(cx, "tool(name)", &meta)? {
                if s.value().is_empty() {
                    cx.error_spanned_by(&s, "a tool name cannot be empty");
                }
                name.set(cx, &meta.path, s.value());
            }
        } else if meta.path.is_ident(DESCRIPTION) {
            // #[tool(description = "...")]
            if let Some(s) = get_lit_str(cx, "tool(description)", &meta)? {
                description.set(cx, &meta.path, s.value());
            }
        } else {
            let path = meta.path.to_token_stream().to_string().replace(' ', "");
            cx.error_spanned_by(&meta.path, format!("unknown tool attribute `{path}`"));
            skip(&meta)?;
        }
        Ok(())
    });
    if let Err(e) = result {
        cx.syn_error(e);
    }
    tool.name = name.value;
    tool.description = description.value;
    tool
}

/// `#[schema(dialect)]` on a field or variant: the check covers the whole type.
fn misplaced_dialect(cx: &Ctxt, meta: &ParseNestedMeta, on: &str) -> syn::Result<()> {
    cx.error_spanned_by(
        &meta.path,
        format!("#[schema(dialect)] goes on the struct or enum, not on a {on}"),
    );
    skip(meta)
}
