//! Tool-call envelopes: a call to a union of tools written the way another API or chat
//! template writes it, read as the `{"name": …, "arguments": …}` it plainly is.
//!
//! A union of tools (an enum with `#[tool]` variants, or a run-time `oneOf` of
//! `{"name": <const>, "arguments": …}` and `{"answer": …}`) takes a call as
//! `{"name": "get_weather", "arguments": {…}}`. Models write the same call in the envelopes
//! they were trained on:
//!
//! - other keys for the name and the arguments: `{"tool", "args"}`, `{"name", "parameters"}`
//!   (Llama), `{"name", "input"}` (Anthropic's `tool_use`), …;
//! - the call inside `{"function": {…}}`, `{"type": "function", "function": {…}}` (an OpenAI
//!   tool call, `id` included), `{"tool_calls": [one call]}`, `{"toolCalls": […]}`, a list
//!   of one call, or one key such as `tool_call`;
//! - the tool as the key: `{"get_weather": {…}}`;
//! - the call under the answer: `{"answer": "add_to_list", "arguments": {…}}`;
//! - the arguments as a JSON string (`"{\"city\": \"Paris\"}"`, as OpenAI sends them);
//! - a bare tool name, or a call without arguments, for a tool that takes none required.
//!
//! Each is read only where the reply does not fit as written, and only where its reading is
//! the one call it names: a known tool (or, for the first kind, keys that can only be a
//! call's, so that a misspelled tool name is reported as such), no key besides the call's
//! and an API's own (`id`, `type`, `index`). Several calls in one envelope are not read as
//! one. The reading is reported as [`FixKind::CallEnvelope`]; a name written in another
//! case as [`FixKind::EnumCase`] and arguments decoded from a string as
//! [`FixKind::DoubleEncoded`].

use serde_json::{Map, Value};

use crate::extract::candidates;
use crate::repair::{Fix, FixKind, Location, repair};
use crate::schema::Schema;
pub(crate) use crate::schema::union::ToolUnion;
use crate::schema::union::UnionTool;
use crate::suggest;

/// Keys that name the tool.
const NAME_KEYS: &[&str] = &[
    "name",
    "tool",
    "tool_name",
    "toolName",
    "function",
    "function_name",
    "functionName",
];

/// Keys that hold the arguments.
const ARGUMENT_KEYS: &[&str] = &["arguments", "args", "parameters", "params", "input"];

/// Keys that hold the call itself.
const CALL_KEYS: &[&str] = &[
    "function",
    "tool_calls",
    "toolCalls",
    "tool_call",
    "toolCall",
    "function_call",
    "functionCall",
    "tool_use",
    "call",
];

/// Keys that hold a list of calls.
pub(crate) const LIST_KEYS: &[&str] = &[
    "tool_calls",
    "toolCalls",
    "function_calls",
    "functionCalls",
    "calls",
    "tool_uses",
];

/// How deep envelopes may be nested: `{"tool_calls": [{"function": {…}}]}` is three.
const MAX_NESTING: usize = 4;

/// A call read out of an envelope.
struct EnvelopedCall {
    name: String,
    arguments: Value,
    /// The envelope, as written: `{"tool", "args"}`; `None` for `{"name", "arguments"}`.
    shape: Option<String>,
    fixes: Vec<Fix>,
}

impl<'s> ToolUnion<'s> {
    /// The union's name of the tool `name` names: exactly, or once case and separators are
    /// ignored.
    pub(crate) fn tool_name(&self, name: &str) -> Option<&'s str> {
        self.tool(name).map(|t| t.name)
    }

    /// Whether `name` is a near miss of a tool's name (`get_wether`).
    pub(crate) fn near_miss(&self, name: &str) -> bool {
        suggest::closest(name, self.tools.iter().map(|t| t.name)).is_some()
    }

    /// The names of the parameters of the tool `name` names, in the schema's order.
    pub(crate) fn parameters(&self, schema: &'s Schema, name: &str) -> Option<Vec<&'s str>> {
        let arguments = schema.resolve(self.tool(name)?.arguments);
        Some(
            arguments
                .properties
                .iter()
                .map(|p| p.name.as_str())
                .collect(),
        )
    }

    /// Reads a call written in another envelope as `{"name", "arguments"}`, where the value
    /// does not fit as written.
    pub(crate) fn normalize(&self, schema: &Schema, value: &mut Value, fixes: &mut Vec<Fix>) {
        let fits = schema.is_valid(value);
        self.normalize_at(schema, fits, "", value, fixes);
    }

    /// [`ToolUnion::normalize`] for a call at `pointer` (an item of a list of calls), `fits`
    /// saying whether it fits as written.
    pub(crate) fn normalize_at(
        &self,
        schema: &Schema,
        fits: bool,
        pointer: &str,
        value: &mut Value,
        fixes: &mut Vec<Fix>,
    ) {
        if fits {
            return;
        }
        let Some(call) = self.read(schema, value, 0) else {
            return;
        };
        if call.shape.is_none() && call.fixes.is_empty() {
            return;
        }
        if let Some(shape) = call.shape {
            let kind = FixKind::CallEnvelope { shape };
            fixes.push(Fix::new(kind, Location::Pointer(pointer.to_owned())));
        }
        fixes.extend(call.fixes.into_iter().map(|f| match f.location() {
            Location::Pointer(p) if !pointer.is_empty() => {
                Fix::new(f.kind().clone(), Location::Pointer(format!("{pointer}{p}")))
            }
            _ => f,
        }));
        let mut map = Map::new();
        map.insert("name".into(), Value::String(call.name));
        map.insert("arguments".into(), call.arguments);
        *value = Value::Object(map);
    }

    fn read(&self, schema: &Schema, value: &Value, depth: usize) -> Option<EnvelopedCall> {
        if depth > MAX_NESTING {
            return None;
        }
        match value {
            // A bare tool name.
            Value::String(name) => {
                let tool = self.tool(name)?;
                let arguments = Value::Object(Map::new());
                schema
                    .passes(tool.arguments, &arguments)
                    .then(|| EnvelopedCall {
                        name: tool.name.to_owned(),
                        arguments,
                        shape: Some("a bare tool name".into()),
                        fixes: Vec::new(),
                    })
            }
            // One call in a list.
            Value::Array(items) => match items.as_slice() {
                [one] => {
                    let call = self.read(schema, one, depth + 1)?;
                    Some(call.within(|inner| format!("[{inner}]")))
                }
                _ => None,
            },
            Value::Object(map) => self.object(schema, map, depth),
            _ => None,
        }
    }

    fn object(
        &self,
        schema: &Schema,
        map: &Map<String, Value>,
        depth: usize,
    ) -> Option<EnvelopedCall> {
        let own: Vec<&str> = map
            .keys()
            .map(String::as_str)
            .filter(|k| !is_metadata(k, map))
            .collect();
        let name_keys: Vec<&str> = own
            .iter()
            .copied()
            .filter(|k| NAME_KEYS.contains(k) && map[*k].is_string())
            .collect();
        let argument_keys: Vec<&str> = own
            .iter()
            .copied()
            .filter(|k| ARGUMENT_KEYS.contains(k))
            .collect();
        match (
            own.as_slice(),
            name_keys.as_slice(),
            argument_keys.as_slice(),
        ) {
            // The call inside one key: `{"function": {…}}`, `{"tool_calls": [{…}]}`.
            ([key], [], []) if CALL_KEYS.contains(key) => {
                let call = self.read(schema, &map[*key], depth + 1)?;
                Some(call.within(|inner| format!("{{{}: {inner}}}", quoted(key))))
            }
            // The tool as the key: `{"get_weather": {…}}`.
            ([key], [], []) => {
                let tool = self.tool(key)?;
                map[*key].is_object().then(|| EnvelopedCall {
                    name: tool.name.to_owned(),
                    arguments: map[*key].clone(),
                    shape: Some(r#"{"<tool name>": {…}}"#.into()),
                    fixes: Vec::new(),
                })
            }
            // `{"name": …, "arguments": …}` under other keys. A name that is no tool is
            // kept, to be reported as a misspelled tool.
            ([_, _], [name_key], [arguments_key]) => {
                let written = map[*name_key].as_str()?;
                // The keys as written, an API's own included: `{"type", "name", "input"}`.
                let keys: Vec<&str> = map.keys().map(String::as_str).collect();
                let shape = (keys != ["name", "arguments"]).then(|| {
                    let keys: Vec<String> = keys.iter().map(|k| quoted(k)).collect();
                    format!("{{{}}}", keys.join(", "))
                });
                let mut fixes = Vec::new();
                let name = match self.tool(written) {
                    Some(tool) if tool.name != written => {
                        let (from, to) = (written.to_owned(), tool.name.to_owned());
                        let at = Location::Pointer("/name".into());
                        fixes.push(Fix::new(FixKind::EnumCase { from, to }, at));
                        tool.name.to_owned()
                    }
                    _ => written.to_owned(),
                };
                let arguments = decoded(&map[*arguments_key], &mut fixes);
                Some(EnvelopedCall {
                    name,
                    arguments,
                    shape,
                    fixes,
                })
            }
            // The call under the answer: `{"answer": "add_to_list", "arguments": {…}}`.
            (["answer", _] | [_, "answer"], [], [arguments_key]) if self.answer.is_some() => {
                let tool = self.tool(map["answer"].as_str()?)?;
                let mut fixes = Vec::new();
                let arguments = decoded(&map[*arguments_key], &mut fixes);
                Some(EnvelopedCall {
                    name: tool.name.to_owned(),
                    arguments,
                    shape: Some(format!(
                        r#"{{"answer": "<tool name>", {}}}"#,
                        quoted(arguments_key)
                    )),
                    fixes,
                })
            }
            // A call without arguments, to a tool that takes none required.
            ([_], [name_key], []) => {
                let tool = self.tool(map[*name_key].as_str()?)?;
                let arguments = Value::Object(Map::new());
                schema
                    .passes(tool.arguments, &arguments)
                    .then(|| EnvelopedCall {
                        name: tool.name.to_owned(),
                        arguments,
                        shape: Some(format!("{{{}}} without arguments", quoted(name_key))),
                        fixes: Vec::new(),
                    })
            }
            _ => None,
        }
    }

    /// The tool `name` names: exactly, or once case and separators are ignored (the dots of
    /// `math.triangle_area`, which the model-facing name `math_triangle_area` replaced).
    fn tool(&self, name: &str) -> Option<&UnionTool<'s>> {
        if let Some(tool) = self.tools.iter().find(|t| t.name == name) {
            return Some(tool);
        }
        let folded = fold(name);
        let mut matching = self.tools.iter().filter(|t| fold(t.name) == folded);
        match (matching.next(), matching.next()) {
            (Some(tool), None) => Some(tool),
            _ => None,
        }
    }
}

/// The reply with the tool names its calls spell another way (as their servers do:
/// `weather:alerts now`) written as the union's, `rename` giving the union's name of a
/// spelling; `None` where no call spells a name so. Each JSON value of the reply that
/// holds such calls (one per `<tool_call>` block, say) is written again as JSON with only
/// the names of its calls renamed, never a value inside their arguments or an answer;
/// the rest of the reply stays as written. The fixes are each renamed value's extraction
/// and repair, and one [`FixKind::EnumCase`] per name renamed.
pub(crate) fn renamed_calls(
    raw: &str,
    rename: &dyn Fn(&str) -> Option<String>,
) -> Option<(String, Vec<Fix>)> {
    let mut text = raw.to_owned();
    let mut fixes = Vec::new();
    for candidate in candidates(raw) {
        let Ok((mut value, repair_fixes)) = repair(&candidate.text) else {
            continue;
        };
        let mut renamed = Vec::new();
        rename_in(&mut value, "", 0, rename, &mut renamed);
        // A value inside one renamed already, or holding one, is no longer in the text.
        let Some(at) = renamed
            .first()
            .and_then(|_| text.find(candidate.text.as_str()))
        else {
            continue;
        };
        text.replace_range(at..at + candidate.text.len(), &value.to_string());
        fixes.extend(candidate.fixes);
        fixes.extend(repair_fixes);
        fixes.extend(renamed);
    }
    (!fixes.is_empty()).then_some((text, fixes))
}

/// [`renamed_calls`] in a value at `pointer`: a call, a list of calls, or calls under the
/// keys that hold them.
fn rename_in(
    value: &mut Value,
    pointer: &str,
    depth: usize,
    rename: &dyn Fn(&str) -> Option<String>,
    fixes: &mut Vec<Fix>,
) {
    if depth > MAX_NESTING {
        return;
    }
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                rename_in(item, &format!("{pointer}/{i}"), depth + 1, rename, fixes);
            }
        }
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                let at = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
                match value {
                    Value::String(name) if NAME_KEYS.contains(&key.as_str()) => {
                        if let Some(to) = rename(name) {
                            let from = std::mem::replace(name, to.clone());
                            let kind = FixKind::EnumCase { from, to };
                            fixes.push(Fix::new(kind, Location::Pointer(at)));
                        }
                    }
                    // The arguments and the answer are the model's values, whatever they
                    // spell; only keys that hold calls are entered.
                    _ if CALL_KEYS.contains(&key.as_str()) || LIST_KEYS.contains(&key.as_str()) => {
                        rename_in(value, &at, depth + 1, rename, fixes);
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

impl EnvelopedCall {
    /// The call as written inside another envelope.
    fn within(mut self, outer: impl FnOnce(&str) -> String) -> EnvelopedCall {
        let inner = self.shape.as_deref().unwrap_or(r#"{"name", "arguments"}"#);
        self.shape = Some(outer(inner));
        self
    }
}

/// Keys an API writes beside a call: its id, its index, its type.
fn is_metadata(key: &str, map: &Map<String, Value>) -> bool {
    match key {
        "id" | "call_id" | "index" => map.len() > 1,
        "type" => {
            map.len() > 1
                && matches!(
                    map[key].as_str(),
                    Some("function" | "tool_call" | "tool_use")
                )
        }
        _ => false,
    }
}

/// The arguments, decoded when written as a JSON string holding an object.
fn decoded(arguments: &Value, fixes: &mut Vec<Fix>) -> Value {
    if let Value::String(text) = arguments {
        let text = text.trim();
        if text.starts_with('{')
            && let Ok((inner @ Value::Object(_), inner_fixes)) = repair(text)
        {
            let at = Location::Pointer("/arguments".into());
            fixes.push(Fix::new(FixKind::DoubleEncoded, at));
            fixes.extend(inner_fixes);
            return inner;
        }
    }
    arguments.clone()
}

fn quoted(key: &str) -> String {
    Value::String(key.to_owned()).to_string()
}

/// A name without case and separators: `Get-Weather`, `get weather` and `get.weather`
/// are `getweather`.
fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' ' | '.' | '/'))
        .flat_map(char::to_lowercase)
        .collect()
}
