//! Tool lists as providers and servers write them.
//!
//! Each entry's problems are located by a pointer into the list given (`/2/function/name`,
//! `/tools/0/inputSchema/if`) and name the tool, and every problem of every entry is
//! reported at once.
//!
//! Type names written outside JSON Schema's vocabulary, as Python, the Gorilla function
//! format and Gemini write them (`"float"`, `"dict"`, `"tuple"`, `"any"`, `"STRING"`), are
//! read as the JSON Schema types they stand for (see `type_names`); a schema given to
//! [`Toolset::tool`] is JSON Schema as written.

use serde_json::{Value, json};

use super::{Toolset, type_names};
use crate::Error;
use crate::error::{Violation, ViolationKind};

/// Where a list keeps a tool's name, description and schema.
struct Layout {
    /// The pointer inside an entry to the object holding the three keys (`/function` for
    /// OpenAI's chat tools, `` for the others).
    inner: &'static str,
    schema_key: &'static str,
    /// What the list is, for messages.
    what: &'static str,
}

impl Toolset {
    /// The tools of an OpenAI `tools` array:
    /// `[{"type": "function", "function": {name, description, parameters}}]`. The flat
    /// form of the Responses API (`{"type": "function", name, description, parameters}`)
    /// and `{"tools": […]}` are read too; a function without `parameters` takes none.
    /// Python's and Gemini's type names (`"float"`, `"dict"`, `"list"`, `"any"`,
    /// `"STRING"`) are read as JSON Schema's (`"number"`, `"object"`, `"array"`, any value,
    /// `"string"`), and the tools are sent to providers that way.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::Toolset;
    ///
    /// let tools = Toolset::from_openai_tools(&json!([
    ///     { "type": "function", "function": { "name": "get_time", "parameters": { "type": "object", "properties": {} } } },
    ///     { "type": "function", "function": { "description": "No name." } },
    /// ]));
    /// assert_eq!(tools.unwrap_err().to_string(), r#"/1/function/name: missing: each tool of an OpenAI tools array needs a "name" string"#);
    /// ```
    pub fn from_openai_tools(tools: &Value) -> Result<Toolset, Error> {
        let (list, at) = list(tools, "an OpenAI tools array")?;
        let mut set = Toolset::new();
        let mut errors = Vec::new();
        for (i, entry) in list.iter().enumerate() {
            let nested = entry.get("function").is_some_and(Value::is_object);
            let layout = Layout {
                inner: if nested { "/function" } else { "" },
                schema_key: "parameters",
                what: "an OpenAI tools array",
            };
            if let Some(kind) = entry.get("type").and_then(Value::as_str)
                && kind != "function"
            {
                errors.push(invalid(
                    &format!("{at}/{i}/type"),
                    format!(
                        "a tool of type {kind:?} is run by OpenAI, not by the caller; only \
                         \"function\" tools can be read"
                    ),
                ));
                continue;
            }
            add(&mut set, entry, &format!("{at}/{i}"), &layout, &mut errors);
        }
        finish(set, errors)
    }

    /// The tools of an MCP `tools/list` result: `{"tools": [{name, description,
    /// inputSchema}]}` (the bare array, and a JSON-RPC response holding the result, are
    /// read too).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::Toolset;
    ///
    /// let tools = Toolset::from_mcp_tools(&json!({ "tools": [{
    ///     "name": "get_current_time",
    ///     "inputSchema": { "type": "object", "properties": { "timezone": { "type": "string" } }, "if": {} }
    /// }]}));
    /// assert_eq!(
    ///     tools.unwrap_err().to_string(),
    ///     r#"/tools/0/inputSchema/if: tool "get_current_time": the keyword "if" is not supported by toolschema"#
    /// );
    /// ```
    pub fn from_mcp_tools(result: &Value) -> Result<Toolset, Error> {
        let result = result.get("result").unwrap_or(result);
        let (list, at) = list(result, "an MCP tools/list result")?;
        let layout = Layout {
            inner: "",
            schema_key: "inputSchema",
            what: "an MCP tools/list result",
        };
        let mut set = Toolset::new();
        let mut errors = Vec::new();
        for (i, entry) in list.iter().enumerate() {
            add(&mut set, entry, &format!("{at}/{i}"), &layout, &mut errors);
        }
        finish(set, errors)
    }

    /// The tools of an Anthropic `tools` array: `[{name, description, input_schema}]`.
    /// A server tool (`{"type": "web_search_20250305", …}`), which Anthropic runs, is an
    /// error.
    pub fn from_anthropic_tools(tools: &Value) -> Result<Toolset, Error> {
        let (list, at) = list(tools, "an Anthropic tools array")?;
        let layout = Layout {
            inner: "",
            schema_key: "input_schema",
            what: "an Anthropic tools array",
        };
        let mut set = Toolset::new();
        let mut errors = Vec::new();
        for (i, entry) in list.iter().enumerate() {
            if let Some(kind) = entry.get("type").and_then(Value::as_str)
                && kind != "custom"
            {
                errors.push(invalid(
                    &format!("{at}/{i}/type"),
                    format!(
                        "a tool of type {kind:?} is run by Anthropic, not by the caller; only \
                         client tools (no type, or \"custom\") can be read"
                    ),
                ));
                continue;
            }
            add(&mut set, entry, &format!("{at}/{i}"), &layout, &mut errors);
        }
        finish(set, errors)
    }
}

/// The entries of a list, given as an array or as `{"tools": […]}`, and the pointer to it.
fn list<'a>(value: &'a Value, what: &str) -> Result<(&'a Vec<Value>, &'static str), Error> {
    match value {
        Value::Array(list) => Ok((list, "")),
        Value::Object(map) => match map.get("tools") {
            Some(Value::Array(list)) => Ok((list, "/tools")),
            _ => Err(Error::single(invalid(
                "",
                format!("expected {what}: a list of tools, or an object with a \"tools\" list"),
            ))),
        },
        other => Err(Error::single(invalid(
            "",
            format!(
                "expected {what}: a list of tools, found {}",
                crate::value::describe_value(other)
            ),
        ))),
    }
}

/// Adds one entry, or records why it cannot be added.
fn add(set: &mut Toolset, entry: &Value, at: &str, layout: &Layout, errors: &mut Vec<Violation>) {
    let inner_at = format!("{at}{}", layout.inner);
    let Some(Value::Object(tool)) = entry.pointer(layout.inner) else {
        errors.push(invalid(
            at,
            format!("each entry of {} is an object", layout.what),
        ));
        return;
    };
    let Some(name) = tool.get("name").and_then(Value::as_str) else {
        errors.push(invalid(
            &format!("{inner_at}/name"),
            format!(
                "missing: each tool of {} needs a \"name\" string",
                layout.what
            ),
        ));
        return;
    };
    let description = match tool.get("description") {
        Some(Value::String(d)) => d.as_str(),
        None | Some(Value::Null) => "",
        Some(_) => {
            errors.push(invalid(
                &format!("{inner_at}/description"),
                format!("tool {}: the description must be a string", quoted(name)),
            ));
            return;
        }
    };
    let mut schema = match tool.get(layout.schema_key) {
        Some(schema) => schema.clone(),
        // A tool that declares no arguments takes none.
        None => json!({ "type": "object", "properties": {} }),
    };
    // Lists written outside JSON Schema's vocabulary (`"float"`, `"dict"`, `"STRING"`).
    type_names::read_as_json_schema(name, &mut schema);
    let schema_at = format!("{inner_at}/{}", layout.schema_key);
    let name_at = format!("{inner_at}/name");
    if let Err(e) = set.add_json(name, description, schema, &name_at, &schema_at) {
        errors.extend(e.into_violations());
    }
}

fn finish(set: Toolset, errors: Vec<Violation>) -> Result<Toolset, Error> {
    if errors.is_empty() {
        Ok(set)
    } else {
        Err(Error::new(errors))
    }
}

fn invalid(pointer: &str, message: String) -> Violation {
    Violation::new(pointer, ViolationKind::Invalid { message })
}

fn quoted(name: &str) -> String {
    crate::error::quote(name)
}
