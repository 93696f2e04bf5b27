//! Loads a JSON Schema written as JSON (a run-time tool schema, or what schemars produced
//! for a bridged type) into the schema model.
//!
//! Every keyword of the JSON Schema vocabulary is either supported or rejected with an
//! error that names it; keywords outside the vocabulary (`x-…`, vendor annotations) are
//! annotations and ignored, as the specification says.
//!
//! Schemas follow draft 2020-12 unless `$schema` names draft 7 or older, where `$ref`
//! overrides its sibling keywords.

mod ecma;
pub(crate) use ecma::starts_quantifier;

use std::collections::{HashMap, VecDeque};

use serde_json::{Map, Number, Value};

use super::{DefId, Generator, Node, Pattern, Property, Schema, Types};
use crate::Error;
use crate::error::{Violation, ViolationKind};

/// Keywords read as annotations or structure and not validated.
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "$defs",
    "definitions",
    "title",
    "description",
    "default",
    "examples",
    "example",
    "deprecated",
    "readOnly",
    "writeOnly",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "$vocabulary",
    "discriminator",
];

/// Keywords of the JSON Schema vocabulary that toolschema does not validate.
const UNSUPPORTED: &[&str] = &[
    "if",
    "then",
    "else",
    "contains",
    "minContains",
    "maxContains",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
];

impl Schema {
    /// Loads a JSON Schema known only at run time (tools listed by an MCP server, say).
    ///
    /// Supported: `type` (and OpenAPI's `nullable`), `enum`, `const`, the numeric, string,
    /// array and object keywords (draft 7's `items` arrays with `additionalItems`, and
    /// `dependencies` listing names, too), `allOf`/`anyOf`/`oneOf`/`not`, and `$ref` to
    /// `#`, `#/$defs/…` or any other pointer inside the document. `pattern` is read as an
    /// ECMA-262 regular expression, unanchored. `format` is an annotation.
    ///
    /// A keyword of the JSON Schema vocabulary that is not supported (`if`, `contains`,
    /// `$ref`s that leave the document or name an anchor, look-around in a `pattern` …) is
    /// an error that names it, never silently ignored:
    ///
    /// ```
    /// let err = toolschema::Schema::from_json(serde_json::json!({
    ///     "properties": { "n": { "type": "integer" } },
    ///     "if": { "required": ["n"] }
    /// }))
    /// .unwrap_err();
    /// assert_eq!(err.to_string(), r#"/if: the keyword "if" is not supported by toolschema"#);
    /// ```
    ///
    /// ```
    /// let schema = toolschema::Schema::from_json(serde_json::json!({
    ///     "type": "object",
    ///     "properties": { "city": { "type": "string" } },
    ///     "required": ["city"]
    /// }))?;
    /// assert!(schema.validate(&serde_json::json!({ "city": "Paris" })).is_ok());
    /// let err = schema.validate(&serde_json::json!({ "town": "Paris" })).unwrap_err();
    /// assert_eq!(err.violations()[0].pointer(), "/city");
    /// # Ok::<(), toolschema::Error>(())
    /// ```
    pub fn from_json(schema: Value) -> Result<Schema, Error> {
        let mut generator = Generator::default();
        let root = load_into(&mut generator, &schema)?;
        Ok(generator.finish(root))
    }
}

/// Loads `document` into `generator` and returns its root node; its definitions join the
/// generator's.
pub(crate) fn load_into(generator: &mut Generator, document: &Value) -> Result<Node, Error> {
    let ref_overrides_siblings =
        document
            .get("$schema")
            .and_then(Value::as_str)
            .is_some_and(|uri| {
                ["draft-03", "draft-04", "draft-06", "draft-07"]
                    .iter()
                    .any(|draft| uri.contains(draft))
            });
    let base = match document.get("$ref") {
        Some(_) if ref_overrides_siblings => None,
        _ => document.get("$id").and_then(Value::as_str),
    };
    let mut loader = Loader {
        generator,
        document,
        ref_overrides_siblings,
        base: base
            .map(|id| id.trim_end_matches('#').to_owned())
            .filter(|id| !id.is_empty()),
        by_pointer: HashMap::new(),
        pending: VecDeque::new(),
        nesting: 0,
        errors: Vec::new(),
    };
    let root = loader.node(document, "");
    // Referenced schemas are loaded one after another, not inside each other, so a long
    // chain of `$ref`s cannot exhaust the stack.
    while let Some((pointer, id)) = loader.pending.pop_front() {
        if let Some(value) = document.pointer(&pointer) {
            let node = loader.node(value, &pointer);
            loader.generator.set(id, node);
        }
    }
    if loader.errors.is_empty() {
        Ok(match loader.by_pointer.get("") {
            Some(id) => {
                loader.generator.set(*id, root);
                Node::reference(*id)
            }
            None => root,
        })
    } else {
        Err(Error::new(loader.errors))
    }
}

struct Loader<'a> {
    generator: &'a mut Generator,
    document: &'a Value,
    /// Draft 7 and earlier: a schema with `$ref` is that reference, its siblings ignored.
    ref_overrides_siblings: bool,
    /// The root's `$id`: a `$ref` that starts with it stays inside the document.
    base: Option<String>,
    by_pointer: HashMap<String, DefId>,
    /// Referenced schemas reserved but not loaded yet.
    pending: VecDeque<(String, DefId)>,
    /// How deep the schema being loaded sits inside the one loaded from the top.
    nesting: usize,
    errors: Vec<Violation>,
}

/// How deep subschemas may nest inside one another (references do not count).
const MAX_NESTING: usize = super::MAX_DEPTH;

impl Loader<'_> {
    fn error(&mut self, pointer: &str, message: String) {
        self.errors
            .push(Violation::new(pointer, ViolationKind::Invalid { message }));
    }

    fn node(&mut self, value: &Value, at: &str) -> Node {
        match value {
            Value::Bool(true) => Node::default(),
            Value::Bool(false) => Node::never(),
            Value::Object(_) if self.nesting >= MAX_NESTING => {
                self.error(
                    at,
                    format!("subschemas nest more than {MAX_NESTING} levels deep here"),
                );
                Node::default()
            }
            Value::Object(map) => {
                self.nesting += 1;
                let node = self.object(map, at);
                self.nesting -= 1;
                node
            }
            other => {
                self.error(
                    at,
                    format!("a schema must be an object or a boolean, found {other}"),
                );
                Node::default()
            }
        }
    }

    fn object(&mut self, map: &Map<String, Value>, at: &str) -> Node {
        let mut node = Node::default();
        if self.ref_overrides_siblings
            && let Some(target) = map.get("$ref")
        {
            self.keyword(&mut node, map, "$ref", target, &format!("{at}/$ref"));
            return node;
        }
        // References below a nested `$id` resolve against it: none is loaded.
        if !at.is_empty() && map.contains_key("$id") {
            self.error(
                &format!("{at}/$id"),
                "the keyword \"$id\" is not supported by toolschema below the root".into(),
            );
            return node;
        }
        for (key, value) in map {
            let here = format!("{at}/{}", crate::pointer::token(key));
            if ANNOTATIONS.contains(&key.as_str()) {
                self.annotation(&mut node, key, value, &here);
            } else if UNSUPPORTED.contains(&key.as_str()) {
                self.error(
                    &here,
                    format!("the keyword \"{key}\" is not supported by toolschema"),
                );
            } else {
                self.keyword(&mut node, map, key, value, &here);
            }
        }
        if map.get("nullable") == Some(&Value::Bool(true)) {
            if let Some(types) = node.types {
                node.types = Some(types.union(Types::NULL));
            }
            if let Some(values) = &mut node.enumeration
                && !values.contains(&Value::Null)
            {
                values.push(Value::Null);
            }
        }
        if let Some(required) = map.get("required") {
            self.required(&mut node, required, &format!("{at}/required"));
        }
        node
    }

    fn annotation(&mut self, node: &mut Node, key: &str, value: &Value, here: &str) {
        match (key, value) {
            ("title", Value::String(s)) => node.title = Some(s.clone()),
            ("description", Value::String(s)) => node.description = Some(s.clone()),
            ("default", v) => node.default = Some(v.clone()),
            ("examples", Value::Array(v)) => node.examples = v.clone(),
            ("format", Value::String(s)) => node.format = Some(s.clone()),
            ("title" | "description" | "format", other) => {
                self.error(here, format!("\"{key}\" must be a string, found {other}"));
            }
            _ => {}
        }
    }

    fn keyword(
        &mut self,
        node: &mut Node,
        map: &Map<String, Value>,
        key: &str,
        value: &Value,
        here: &str,
    ) {
        match key {
            "type" => node.types = self.types(value, here),
            "nullable" => {}
            "enum" => match value {
                Value::Array(values) => node.enumeration = Some(values.clone()),
                _ => self.error(here, "\"enum\" must be an array".into()),
            },
            "const" => node.constant = Some(value.clone()),
            "minimum" => node.minimum = self.number(value, here),
            "maximum" => node.maximum = self.number(value, here),
            "exclusiveMinimum" => node.exclusive_minimum = self.number(value, here),
            "exclusiveMaximum" => node.exclusive_maximum = self.number(value, here),
            "multipleOf" => {
                node.multiple_of = self.number(value, here);
                if node
                    .multiple_of
                    .as_ref()
                    .and_then(Number::as_f64)
                    .is_some_and(|f| f <= 0.0)
                {
                    self.error(here, "\"multipleOf\" must be greater than 0".into());
                }
            }
            "minLength" => node.min_length = self.count(value, here),
            "maxLength" => node.max_length = self.count(value, here),
            "minItems" => node.min_items = self.count(value, here),
            "maxItems" => node.max_items = self.count(value, here),
            "minProperties" => node.min_properties = self.count(value, here),
            "maxProperties" => node.max_properties = self.count(value, here),
            "pattern" => node.pattern = self.pattern(value, here, "pattern"),
            "uniqueItems" => match value {
                Value::Bool(b) => node.unique_items = *b,
                _ => self.error(here, "\"uniqueItems\" must be a boolean".into()),
            },
            "prefixItems" => node.prefix_items = self.list(value, here),
            "items" => match value {
                // Drafts before 2020-12 wrote tuples as an array of schemas.
                Value::Array(_) => node.prefix_items = self.list(value, here),
                _ => node.items = Some(Box::new(self.node(value, here))),
            },
            "additionalItems" if map.get("items").is_some_and(Value::is_array) => {
                node.items = Some(Box::new(self.node(value, here)));
            }
            "additionalItems" => {}
            "properties" => match value {
                Value::Object(props) => {
                    for (name, schema) in props {
                        let child =
                            self.node(schema, &format!("{here}/{}", crate::pointer::token(name)));
                        node.properties.push(Property {
                            name: name.clone(),
                            aliases: Vec::new(),
                            node: child,
                            required: false,
                        });
                    }
                }
                _ => self.error(here, "\"properties\" must be an object".into()),
            },
            "required" => {}
            "additionalProperties" => {
                node.additional_properties = Some(Box::new(self.node(value, here)));
            }
            "patternProperties" => match value {
                Value::Object(props) => {
                    for (source, schema) in props {
                        let child_at = format!("{here}/{}", crate::pointer::token(source));
                        let child = self.node(schema, &child_at);
                        if let Some(pattern) = self.pattern(
                            &Value::String(source.clone()),
                            &child_at,
                            "patternProperties",
                        ) {
                            node.pattern_properties.push((pattern, child));
                        }
                    }
                }
                _ => self.error(here, "\"patternProperties\" must be an object".into()),
            },
            "propertyNames" => node.property_names = Some(Box::new(self.node(value, here))),
            "dependentRequired" => match value {
                Value::Object(deps) => {
                    for (name, keys) in deps {
                        match serde_json::from_value::<Vec<String>>(keys.clone()) {
                            Ok(keys) => node.dependent_required.push((name.clone(), keys)),
                            Err(_) => self.error(
                                here,
                                "\"dependentRequired\" takes arrays of strings".into(),
                            ),
                        }
                    }
                }
                _ => self.error(here, "\"dependentRequired\" must be an object".into()),
            },
            // Draft 7's form of `dependentRequired` (and of `dependentSchemas`, which is
            // not supported).
            "dependencies" => match value {
                Value::Object(deps) => {
                    for (name, dependency) in deps {
                        let at = format!("{here}/{}", crate::pointer::token(name));
                        match dependency {
                            Value::Array(_) => {
                                match serde_json::from_value::<Vec<String>>(dependency.clone()) {
                                    Ok(keys) => node.dependent_required.push((name.clone(), keys)),
                                    Err(_) => self.error(
                                        &at,
                                        "\"dependencies\" takes arrays of strings or schemas"
                                            .into(),
                                    ),
                                }
                            }
                            Value::Bool(true) => {}
                            _ => self.error(
                                &at,
                                "the keyword \"dependencies\" is not supported by toolschema \
                                 with a schema, only with an array of names"
                                    .into(),
                            ),
                        }
                    }
                }
                _ => self.error(here, "\"dependencies\" must be an object".into()),
            },
            "allOf" => node.all_of = self.list(value, here),
            "anyOf" => node.any_of = self.list(value, here),
            "oneOf" => node.one_of = self.list(value, here),
            "not" => node.not = Some(Box::new(self.node(value, here))),
            "$ref" => match value {
                Value::String(target) => node.reference = self.reference(target, here),
                _ => self.error(here, "\"$ref\" must be a string".into()),
            },
            _ if key.starts_with("x-") => {}
            // Not in the JSON Schema vocabulary: an annotation, as the specification says.
            _ => {}
        }
    }

    fn types(&mut self, value: &Value, here: &str) -> Option<Types> {
        let names: Vec<&Value> = match value {
            Value::Array(names) => names.iter().collect(),
            one => vec![one],
        };
        let mut types = Types::default();
        for name in names {
            match name.as_str().and_then(Types::from_name) {
                Some(t) => types = types.union(t),
                None => self.error(here, format!("unknown type {name}")),
            }
        }
        Some(types)
    }

    fn number(&mut self, value: &Value, here: &str) -> Option<Number> {
        match value {
            Value::Number(n) => Some(n.clone()),
            other => {
                self.error(here, format!("expected a number, found {other}"));
                None
            }
        }
    }

    fn count(&mut self, value: &Value, here: &str) -> Option<usize> {
        match value.as_u64().or_else(|| {
            value
                .as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                .map(|f| f as u64)
        }) {
            Some(n) => Some(usize::try_from(n).unwrap_or(usize::MAX)),
            None => {
                self.error(
                    here,
                    format!("expected a non-negative integer, found {value}"),
                );
                None
            }
        }
    }

    /// Compiles an ECMA-262 pattern. What the `regex` crate cannot do (look-around,
    /// backreferences, very large automata) is unsupported; anything else it rejects is
    /// invalid.
    fn pattern(&mut self, value: &Value, here: &str, keyword: &str) -> Option<Pattern> {
        let Value::String(source) = value else {
            self.error(here, "a pattern must be a string".into());
            return None;
        };
        let message = match compile_pattern(source) {
            Ok(regex) => {
                return Some(Pattern {
                    source: source.clone(),
                    regex,
                });
            }
            Err(regex::Error::Syntax(text)) => {
                // The crate's last line is the reason; the lines before draw the pattern.
                let reason = text.lines().last().unwrap_or_default();
                let reason = reason.strip_prefix("error: ").unwrap_or(reason);
                if reason.contains("not supported") {
                    format!(
                        "the keyword \"{keyword}\" is not supported by toolschema for {source:?}: \
                         {reason}"
                    )
                } else {
                    format!("invalid regular expression {source:?}: {reason}")
                }
            }
            Err(e) => format!(
                "the keyword \"{keyword}\" is not supported by toolschema for {source:?}: {e}"
            ),
        };
        self.error(here, message);
        None
    }

    fn list(&mut self, value: &Value, here: &str) -> Vec<Node> {
        match value {
            Value::Array(items) if !items.is_empty() || here.ends_with("prefixItems") => items
                .iter()
                .enumerate()
                .map(|(i, item)| self.node(item, &format!("{here}/{i}")))
                .collect(),
            _ => {
                self.error(here, "expected a non-empty array of schemas".into());
                Vec::new()
            }
        }
    }

    fn required(&mut self, node: &mut Node, value: &Value, here: &str) {
        let Some(names) = value.as_array() else {
            self.error(here, "\"required\" must be an array of strings".into());
            return;
        };
        for name in names {
            let Some(name) = name.as_str() else {
                self.error(here, "\"required\" must be an array of strings".into());
                continue;
            };
            match node.properties.iter_mut().find(|p| p.name == name) {
                Some(p) => p.required = true,
                None if !node.required_extra.iter().any(|n| n == name) => {
                    node.required_extra.push(name.to_owned());
                }
                None => {}
            }
        }
    }

    /// Resolves a `$ref` inside the document, loading its target as a definition once.
    fn reference(&mut self, target: &str, here: &str) -> Option<DefId> {
        // The root's own `$id` followed by a fragment names a place in this document too.
        let local = self
            .base
            .as_deref()
            .and_then(|base| target.strip_prefix(base))
            .filter(|rest| rest.is_empty() || rest.starts_with('#'))
            .unwrap_or(target);
        let Some(fragment) = local.strip_prefix('#').or(local.is_empty().then_some("")) else {
            self.error(
                here,
                format!(
                    "the keyword \"$ref\" is not supported by toolschema for {target:?}, which \
                     leaves the document; use \"#\" or a pointer such as \"#/$defs/…\""
                ),
            );
            return None;
        };
        let pointer = percent_decode(fragment);
        if let Some(id) = self.by_pointer.get(&pointer) {
            return Some(*id);
        }
        if !pointer.is_empty() && !pointer.starts_with('/') {
            self.error(
                here,
                format!(
                    "the keyword \"$ref\" is not supported by toolschema for {target:?}, which \
                     names an anchor; use a pointer such as \"#/$defs/…\""
                ),
            );
            return None;
        }
        if self.document.pointer(&pointer).is_none() {
            self.error(here, format!("the reference {target:?} points at nothing"));
            return None;
        }
        let base = pointer.rsplit('/').next().unwrap_or_default();
        let name = self
            .generator
            .unique_name(if base.is_empty() { "Root" } else { base });
        let id = self.generator.reserve(name);
        self.by_pointer.insert(pointer.clone(), id);
        if !pointer.is_empty() {
            self.pending.push_back((pointer, id));
        }
        Some(id)
    }
}

/// Compiles a JSON Schema `pattern`, an ECMA-262 regular expression, unanchored.
pub(crate) fn compile_pattern(source: &str) -> Result<regex::Regex, regex::Error> {
    regex::Regex::new(&ecma::translate(source))
}

/// An ECMA-262 pattern in the `regex` crate's syntax, with the same meaning.
pub(crate) fn ecma_to_rust(source: &str) -> String {
    ecma::translate(source)
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = s.get(i + 1..i + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
