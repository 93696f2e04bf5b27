//! The lenient parse: raw model text → extract → repair → coerce → strict validation.

mod calls;

use serde_json::Value;

use crate::Error;
use crate::coerce::{Coercion, coerce, several_values};
use crate::envelope::ToolUnion;
use crate::error::{Violation, ViolationKind};
use crate::extract::{Candidate, candidates, is_strict_json, visible};
use crate::repair::{Fix, FixKind, Location, repair};
use crate::schema::{Schema, Types};
use crate::text_calls::{self, Scope, Tools};
use crate::tool_schema::ToolSchema;

pub(crate) use calls::several_calls;

/// Reads a `T` from whatever a model wrote: JSON in code fences, XML-style wrappers or
/// prose, with local syntax repair and safe coercion, then the strict deserializer.
///
/// ```
/// use toolschema::ToolSchema;
///
/// #[derive(ToolSchema, Debug)]
/// struct Person { name: String, age: u8, tags: Vec<String> }
///
/// let p: Person = toolschema::parse("Sure! ```json\n{'name': 'Ann', age: 31, tags: [],}\n```")?;
/// assert_eq!(p.age, 31);
/// # Ok::<(), toolschema::Error>(())
/// ```
///
/// Use a [`Parser`] to choose the coercion level or to see the fixes applied.
pub fn parse<T: ToolSchema>(raw: &str) -> Result<T, Error> {
    Parser::new().parse::<T>(raw).map(|parsed| parsed.value)
}

/// A value read by the lenient parse, with every fix that was needed.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed<T> {
    pub value: T,
    pub fixes: Vec<Fix>,
}

/// The lenient parse, configured.
///
/// ```
/// use toolschema::{Coercion, Parser, ToolSchema};
///
/// #[derive(ToolSchema, Debug)]
/// struct Count { n: u32 }
///
/// let parsed = Parser::new().parse::<Count>("{\"n\": \"42\"}")?;
/// assert_eq!(parsed.value.n, 42);
/// assert_eq!(parsed.fixes[0].to_string(), "/n: read a string holding a number as the number");
///
/// assert!(Parser::new().coercion(Coercion::None).parse::<Count>("{\"n\": \"42\"}").is_err());
/// # Ok::<(), toolschema::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Parser {
    coercion: Coercion,
}

impl Parser {
    /// A parser with safe coercion.
    pub fn new() -> Self {
        Parser::default()
    }

    /// Sets how much values may be changed to fit the schema.
    pub fn coercion(mut self, coercion: Coercion) -> Self {
        self.coercion = coercion;
        self
    }

    /// Reads a `T` from raw model text.
    pub fn parse<T: ToolSchema>(&self, raw: &str) -> Result<Parsed<T>, Error> {
        let schema = Schema::of::<T>();
        let Parsed { value, fixes } = self.parse_value(&schema, raw)?;
        match T::from_json(value) {
            Ok(value) => Ok(Parsed { value, fixes }),
            Err(e) => Err(e.with_fixes(fixes)),
        }
    }

    /// Reads a value that fits a schema known at run time.
    ///
    /// Of the JSON values found in the reply, the first that fits the schema is taken
    /// ([`FixKind::Candidate`] says which); one that is only text read as a string (a code
    /// block in another language, say) is taken only when no JSON value fits.
    pub fn parse_value(&self, schema: &Schema, raw: &str) -> Result<Parsed<Value>, Error> {
        let found = candidates(raw);
        let total = found.len();
        let coerced = self.coercion != Coercion::None;
        if coerced
            && let Some((index, value, fixes)) = several_values(schema, &found, self.coercion)
        {
            let reason = "several values where a list is expected";
            return Ok(chosen(index, total, reason, value, fixes));
        }
        let union = ToolUnion::at_root(schema).filter(|_| coerced);
        let mut best: Option<(Vec<Violation>, Vec<Fix>, Value)> = None;
        let mut first_syntax_error: Option<Error> = None;
        // A candidate that is only a bare word read as a string (a code block in another
        // language, say) fits any schema that takes a string; a later candidate that is
        // JSON is preferred to it.
        let mut bare_word: Option<(usize, Parsed<Value>)> = None;
        // The longest candidate that is an object or a list written as strict JSON: calls
        // a text format reads inside its strings are their content.
        let mut outer: Option<String> = None;
        // Whether a candidate wrote the types of a shape where its values go
        // ([`writes_types`]): the shape sent back, not data.
        let mut echoed = false;
        for (index, Candidate { text, mut fixes }) in found.into_iter().enumerate() {
            let (mut value, repair_fixes) = match repair(&text) {
                Ok(repaired) => repaired,
                Err(e) => {
                    first_syntax_error.get_or_insert(e.with_fixes(fixes));
                    continue;
                }
            };
            if (value.is_object() || value.is_array())
                && outer.as_ref().is_none_or(|o| o.len() < text.len())
                && is_strict_json(&text)
            {
                outer = Some(text.clone());
            }
            let is_bare_word = value.is_string()
                && repair_fixes.iter().any(|f| {
                    *f.kind() == FixKind::UnquotedString && *f.location() == Location::Offset(0)
                });
            if writes_types(&text, &repair_fixes) {
                echoed = true;
                continue;
            }
            fixes.extend(repair_fixes);
            decode_nested(schema, &mut value, &mut fixes);
            if let Some(union) = &union {
                union.normalize(schema, &mut value, &mut fixes);
            }
            coerce(schema, &mut value, self.coercion, &mut fixes);
            let violations = schema.violations(&value);
            if violations.is_empty() && is_bare_word {
                if bare_word.is_none() {
                    bare_word = Some((index, Parsed { value, fixes }));
                }
                continue;
            }
            if violations.is_empty() {
                if let Some(more) = self.more_calls(schema, raw, &text, &value) {
                    return more;
                }
                let reason = match bare_word {
                    Some(_) => "the first JSON value that fits the schema",
                    None => "the first that fits the schema",
                };
                return Ok(chosen(index, total, reason, value, fixes));
            }
            if best
                .as_ref()
                .is_none_or(|(b, _, _)| violations.len() < b.len())
            {
                best = Some((violations, fixes, value));
            }
        }
        if let Some((index, Parsed { value, fixes })) = bare_word {
            let reason = "the first that fits the schema";
            return Ok(chosen(index, total, reason, value, fixes));
        }
        if let Some((_, read)) = self.text_calls(schema, raw, Scope::WithProse, outer.as_deref()) {
            return read;
        }
        // A reply that is not JSON at all may be the answer itself, where a string is
        // what is asked for.
        let text = Value::String(raw.trim().to_owned());
        let wants_string = schema.resolve(schema.root()).types.is_some_and(|t| {
            t.contains(Types::STRING) && !t.intersects(Types::OBJECT.union(Types::ARRAY))
        });
        if wants_string && !raw.trim().is_empty() && schema.is_valid(&text) && best.is_none() {
            return Ok(Parsed {
                value: text,
                fixes: vec![Fix::new(FixKind::PlainText, Location::Reply)],
            });
        }
        match best {
            None if echoed => Err(Error::single(Violation::new(
                "",
                ViolationKind::SchemaEchoed,
            ))),
            Some((violations, fixes, value)) => {
                if echoed || looks_like_schema(&value) {
                    let echoed = Violation::new("", ViolationKind::SchemaEchoed);
                    return Err(Error::single(echoed).with_fixes(fixes));
                }
                Err(Error::new(violations).with_fixes(fixes))
            }
            None => Err(first_syntax_error.unwrap_or_else(|| {
                Error::single(Violation::new(
                    "",
                    ViolationKind::Syntax {
                        line: 1,
                        column: 1,
                        message: "the reply holds no JSON value".into(),
                    },
                ))
            })),
        }
    }
}

impl Parser {
    /// The calls a reply writes in a text format, where a candidate that fits holds fewer
    /// of them (`value`, the first of two `<tool_call>` blocks): all of them for a list of
    /// calls, and for one call the violation that there are several, so that none is
    /// dropped unsaid. A reply that is JSON as a whole is read as written.
    fn more_calls(
        &self,
        schema: &Schema,
        raw: &str,
        candidate: &str,
        value: &Value,
    ) -> Option<Result<Parsed<Value>, Error>> {
        let have = match value {
            Value::Array(items) => items.len(),
            Value::Object(map) if map.contains_key("name") => 1,
            _ => return None,
        };
        if is_strict_json(raw) {
            return None;
        }
        let (count, read) = self.text_calls(schema, raw, Scope::Marked, Some(candidate))?;
        (count > have).then_some(read)
    }

    /// Tool calls written in a chat template's text format ([`crate::text_calls`]), for a
    /// union of tools at the root (one call) or a list of them (the calls), and how many
    /// were read; `None` when the schema is no such union or the reply writes no calls so.
    /// Asked once no candidate fits: a reply that fits as written is read as written.
    ///
    /// With `fitted`, the text of a candidate that fits (or, once none fits, of the
    /// longest that is an object or a list written as strict JSON): calls read inside it
    /// are its strings' content, not calls, and the reading is not taken.
    fn text_calls(
        &self,
        schema: &Schema,
        raw: &str,
        scope: Scope,
        fitted: Option<&str>,
    ) -> Option<(usize, Result<Parsed<Value>, Error>)> {
        let (union, listed) = match ToolUnion::at_root(schema) {
            Some(union) => (union, false),
            None => (ToolUnion::in_list(schema)?, true),
        };
        let (text, mut fixes) = visible(raw);
        let read = text_calls::read(
            &text,
            &Tools {
                union: &union,
                schema,
            },
            scope,
        )?;
        if let Some(fitted) = fitted {
            let start = text.find(fitted.trim())?;
            let inside = start..start + fitted.trim().len();
            let within = |s: &std::ops::Range<usize>| {
                inside.start <= s.start && s.end <= inside.end && *s != inside
            };
            if read.spans.iter().any(within) {
                return None;
            }
        }
        let count = read.calls.as_ref().map_or(0, Vec::len);
        let refused = |message: String, fixes: Vec<Fix>| {
            let violation = Violation::new("", ViolationKind::Invalid { message });
            Some((count, Err(Error::single(violation).with_fixes(fixes))))
        };
        let calls = match read.calls {
            Ok(calls) => calls,
            Err(why) => {
                let message = format!(
                    "a tool call written as {} that could not be read: {why}",
                    read.format
                );
                return refused(message, fixes);
            }
        };
        let kind = FixKind::TextToolCall {
            format: read.format,
            count: calls.len(),
        };
        fixes.push(Fix::new(kind, Location::Reply));
        fixes.extend(read.fixes);
        let coerced = self.coercion != Coercion::None;
        let mut value = if listed {
            let items_node = schema.resolve(schema.root()).items.as_deref()?;
            let mut items = calls;
            for (i, item) in items.iter_mut().enumerate().filter(|_| coerced) {
                let fits = schema.passes(items_node, item);
                union.normalize_at(schema, fits, &format!("/{i}"), item, &mut fixes);
            }
            Value::Array(items)
        } else {
            let count = calls.len();
            let Ok([mut call]) = <[Value; 1]>::try_from(calls) else {
                let message = format!(
                    "the reply makes {count} tool calls, and one call or the answer is read \
                     here: make one call"
                );
                return refused(message, fixes);
            };
            if coerced {
                union.normalize(schema, &mut call, &mut fixes);
            }
            call
        };
        coerce(schema, &mut value, self.coercion, &mut fixes);
        let violations = schema.violations(&value);
        Some((
            count,
            if violations.is_empty() {
                Ok(Parsed { value, fixes })
            } else {
                Err(Error::new(violations).with_fixes(fixes))
            },
        ))
    }
}

impl Schema {
    /// Reads a value that fits this schema from raw model text, with the same extraction,
    /// repair, coercion and violations as derived types.
    ///
    /// ```
    /// let schema = toolschema::Schema::from_json(serde_json::json!({
    ///     "type": "object",
    ///     "properties": { "brightness": { "type": "integer", "maximum": 255 } },
    ///     "required": ["brightness"],
    ///     "additionalProperties": false
    /// }))?;
    /// let args = schema.parse("```json\n{brightness: '128'}\n```")?;
    /// assert_eq!(args, serde_json::json!({ "brightness": 128 }));
    /// # Ok::<(), toolschema::Error>(())
    /// ```
    pub fn parse(&self, raw: &str) -> Result<Value, Error> {
        Parser::new()
            .parse_value(self, raw)
            .map(|parsed| parsed.value)
    }
}

/// The candidate taken, with a [`FixKind::Candidate`] fix when it was not the first.
fn chosen(
    index: usize,
    total: usize,
    reason: &'static str,
    value: Value,
    mut fixes: Vec<Fix>,
) -> Parsed<Value> {
    if total > 1 && index > 0 {
        let kind = FixKind::Candidate {
            chosen: index,
            of: total,
            reason,
        };
        fixes.push(Fix::new(kind, Location::Reply));
    }
    Parsed { value, fixes }
}

/// A reply that is JSON inside a JSON string: `"{\"a\": 1}"`.
fn decode_nested(schema: &Schema, value: &mut Value, fixes: &mut Vec<Fix>) {
    let Value::String(s) = &*value else { return };
    let inner = s.trim();
    if !(inner.starts_with('{') || inner.starts_with('[')) || schema.is_valid(value) {
        return;
    }
    if let Ok((decoded, inner_fixes)) = repair(inner) {
        fixes.push(Fix::new(FixKind::DoubleEncoded, Location::Reply));
        fixes.extend(inner_fixes);
        *value = decoded;
    }
}

/// The words of the compact notation's types (see [`crate::render::compact_schema`]) and of
/// TypeScript's, which the repair prompt and the prompts of tools are written in.
pub(crate) const TYPE_WORDS: &[&str] = &[
    "any", "bool", "boolean", "float", "int", "integer", "number", "object", "string", "unknown",
];

/// Whether a candidate, read by local repair (`fixes`), wrote a type of the compact
/// notation as a bare word inside an object or a list (`{ answer: string }`,
/// `{ city: string, guests?: int }`): a small model asked for "this shape" writes the shape
/// back, and quoted, its types would pass for values (`{"answer": "string"}`, a call for
/// the city `"string"`). A quoted `"string"` is a value as written, and so is a bare word
/// alone, which may be the answer itself.
fn writes_types(text: &str, fixes: &[Fix]) -> bool {
    fixes.iter().any(|fix| match (fix.kind(), fix.location()) {
        (FixKind::UnquotedString, Location::Offset(at)) if *at > 0 => {
            let word: String = text
                .get(*at..)
                .unwrap_or_default()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            TYPE_WORDS.contains(&word.as_str())
        }
        _ => false,
    })
}

/// Whether a value is a JSON Schema rather than data: what small models sometimes echo.
fn looks_like_schema(value: &Value) -> bool {
    let Value::Object(map) = value else {
        return false;
    };
    if map.contains_key("$schema") {
        return true;
    }
    let typed = map.get("type").and_then(Value::as_str).is_some_and(|t| {
        matches!(
            t,
            "object" | "array" | "string" | "integer" | "number" | "boolean"
        )
    });
    typed
        && (map.get("properties").is_some_and(Value::is_object)
            || map.contains_key("items")
            || map.contains_key("required"))
}
