//! Tool calls in the text formats of open-weight models' chat templates, read as the
//! union's calls.
//!
//! A local model asked for a call often writes it the way its chat template renders one,
//! not as `{"name": …, "arguments": …}`:
//!
//! - Hermes and Qwen: `<tool_call>{"name": …, "arguments": …}</tool_call>`, a block per call;
//! - Mistral: `[TOOL_CALLS][{"name": …, "arguments": …}, …]`, or
//!   `[TOOL_CALLS]get_weather[ARGS]{…}`, a marker per call;
//! - Llama 3.1: `<function=get_weather>{…}</function>`, and
//!   `<|python_tag|>{"name": …, "parameters": …}` (several separated by `;`);
//! - Python calls, as Llama 3.2 and BFCL-style prompts produce them:
//!   `[get_weather(city="Paris", days=3), switch_lamp(name='desk', on=True)]`, with or
//!   without the brackets, dotted names included (`math.triangle_area(base=10)`);
//! - `get_weather({"city": "Paris"})`: a tool name and its arguments object in parentheses.
//!
//! The reader finds the calls and gives each as a JSON value for the union: the object a
//! format writes (`{"name", "parameters"}` is left to the envelope reading), or
//! `{"name", "arguments"}` built from a name and arguments written apart. It does not
//! validate: the parse does, as for any reply. It is asked only where the reply as written
//! does not fit (see `crate::parse`).
//!
//! A format's marker (`<tool_call>`, `[TOOL_CALLS]`, `<function=`, `<|python_tag|>`), or a
//! reply that is nothing but Python calls, says the text is calls: a name there is read as
//! written, so that a misspelled tool is reported as one, and arguments that cannot be read
//! are an error, never guessed. Python calls inside prose are read only for the union's
//! tools, and only when they read. The reader is bounded: a reply longer than
//! [`MAX_TEXT`] is not read, at most [`MAX_CALLS`] calls are, each byte is scanned a
//! bounded number of times, and literals nest at most `literal::MAX_NESTING` deep.

mod literal;
mod pythonic;
mod templates;

use std::ops::Range;

use serde_json::Value;

use crate::envelope::ToolUnion;
use crate::repair::{Fix, Location, repair};
use crate::schema::Schema;

/// The longest reply read for calls, in bytes.
pub(crate) const MAX_TEXT: usize = 1 << 20;

/// The most calls read from one reply.
pub(crate) const MAX_CALLS: usize = 32;

/// The calls a reply writes in one text format.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TextCalls {
    /// The format, as the fix shows it: `[TOOL_CALLS]name[ARGS]{…}`.
    pub format: &'static str,
    /// One value per call, or why the calls the format marks could not be read.
    pub calls: Result<Vec<Value>, String>,
    /// Syntax repairs inside the JSON the calls hold.
    pub fixes: Vec<Fix>,
    /// Where in the text the calls were read: each JSON value or Python call read (a list
    /// of calls is one span). A reading whose span lies inside a value that fits as written
    /// read that value's strings, not calls.
    pub spans: Vec<Range<usize>>,
}

/// The union's tools, as the reader asks about them.
pub(crate) struct Tools<'u, 's> {
    pub union: &'u ToolUnion<'s>,
    pub schema: &'s Schema,
}

impl Tools<'_, '_> {
    /// Whether `name` is a tool of the union, as shown or once case and separators are
    /// ignored (`math.triangle_area` for `math_triangle_area`).
    fn knows(&self, name: &str) -> bool {
        self.union.tool_name(name).is_some()
    }

    /// Whether `name` is a tool or a near miss of one.
    fn nearly_knows(&self, name: &str) -> bool {
        self.knows(name) || self.union.near_miss(name)
    }

    /// The tool's one parameter, when it has exactly one.
    fn only_parameter(&self, name: &str) -> Option<String> {
        match self.union.parameters(self.schema, name)?.as_slice() {
            [one] => Some((*one).to_owned()),
            _ => None,
        }
    }
}

/// Where calls are looked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// After a format's marker, or as the whole reply.
    Marked,
    /// There, and Python calls of the union's tools inside prose.
    WithProse,
}

/// The calls `text` writes in one of the formats above, in the first format found; `None`
/// when it writes none.
pub(crate) fn read(text: &str, tools: &Tools<'_, '_>, scope: Scope) -> Option<TextCalls> {
    if text.len() > MAX_TEXT {
        return None;
    }
    templates::hermes(text, tools)
        .or_else(|| templates::mistral(text))
        .or_else(|| templates::llama_function(text))
        .or_else(|| templates::python_tag(text, tools))
        .or_else(|| pythonic::whole(text, tools))
        .or_else(|| {
            (scope == Scope::WithProse)
                .then(|| pythonic::in_prose(text, tools))
                .flatten()
        })
}

/// Calls being gathered, each checked against the cap.
#[derive(Default)]
struct Found {
    calls: Vec<Value>,
    fixes: Vec<Fix>,
    spans: Vec<Range<usize>>,
}

impl Found {
    fn push(&mut self, call: Value) -> Result<(), String> {
        if self.calls.len() >= MAX_CALLS {
            return Err(format!("more than {MAX_CALLS} tool calls in one reply"));
        }
        self.calls.push(call);
        Ok(())
    }

    /// The JSON at `at` in `text` (an object or a list), repaired, with its repairs.
    fn json(&mut self, text: &str, at: usize) -> Result<(Value, usize), String> {
        let span = crate::extract::first_span(&text[at..])
            .ok_or_else(|| format!("no JSON at {:?}", excerpt(&text[at..])))?;
        let (value, fixes) = repair(span).map_err(|e| {
            let why = e.violations().first().map(ToString::to_string);
            format!(
                "{:?} is not JSON: {}",
                excerpt(span),
                why.unwrap_or_default()
            )
        })?;
        self.fixes
            .extend(fixes.into_iter().map(|f| match f.location() {
                Location::Offset(o) => Fix::new(f.kind().clone(), Location::Offset(at + o)),
                _ => f,
            }));
        self.spans.push(at..at + span.len());
        Ok((value, at + span.len()))
    }

    fn into_calls(self, format: &'static str) -> Option<TextCalls> {
        (!self.calls.is_empty()).then_some(TextCalls {
            format,
            calls: Ok(self.calls),
            fixes: self.fixes,
            spans: self.spans,
        })
    }
}

/// A format recognised whose calls could not be read.
fn refused(format: &'static str, why: String) -> Option<TextCalls> {
    Some(TextCalls {
        format,
        calls: Err(why),
        fixes: Vec::new(),
        spans: Vec::new(),
    })
}

/// `{"name": name, "arguments": arguments}`.
fn call(name: &str, arguments: Value) -> Value {
    let mut map = serde_json::Map::new();
    map.insert("name".into(), Value::from(name));
    map.insert("arguments".into(), arguments);
    Value::Object(map)
}

/// The start of a text, for a message: at most 40 characters.
fn excerpt(text: &str) -> String {
    let end = text.char_indices().nth(40).map_or(text.len(), |(i, _)| i);
    let cut = if end < text.len() { "…" } else { "" };
    format!("{}{cut}", &text[..end])
}
