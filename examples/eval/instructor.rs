//! The instructor-style loop: the schema as one native tool, the error text re-asked.
//!
//! Written here without toolschema, after Python instructor's `Mode.TOOLS`:
//! - one function named after the type, whose `parameters` is the type's JSON Schema
//!   (a root that is not an object, such as a union, is wrapped in an object with one
//!   `content` field, as instructor wraps simple types); `tool_choice` forces that
//!   function, or is `"auto"` once the server has rejected forcing (llama.cpp's server
//!   does not reject it: it logs a warning and uses `"auto"`);
//! - the arguments of the tool call are read; a model that wrote JSON in the content
//!   instead is read as instructor's JSON modes read it (the fenced block, else the
//!   first `{` to the last `}`), and a tool call written as text there
//!   (`{"name": <the function>, "arguments": {...}}`) counts as the call it is;
//! - `serde_json` and the `jsonschema` crate check the arguments; on failure the
//!   assistant message goes back with the error text, in a `tool` message per native
//!   call ("Validation Error found: … Recall the function correctly, fix the errors"),
//!   or in a user message when there was no native call.

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Map, Value, json};

use crate::chat::{Chat, ChatError, Completion, message};
use crate::score::{AttemptTrace, Trace};
use crate::tasks::Task;

pub struct InstructorRow {
    chat: Chat,
    max_attempts: usize,
    /// The server accepts a forced `tool_choice` (until it rejects one).
    forced: AtomicBool,
}

/// The tool sent for a type.
struct Function {
    name: &'static str,
    /// The tool's `parameters`: the type's schema, wrapped when its root is no object.
    parameters: Value,
    wrapped: bool,
    description: String,
}

impl Function {
    fn of(task: &Task) -> Function {
        let schema = (task.answer.schema)();
        let name = task.answer.name;
        let description = schema
            .get("description")
            .and_then(Value::as_str)
            .map_or_else(
                || format!("Correctly extracted `{name}` with all the required parameters with correct types"),
                str::to_owned,
            );
        let is_object = schema.get("type").and_then(Value::as_str) == Some("object");
        if is_object {
            return Function {
                name,
                parameters: schema,
                wrapped: false,
                description,
            };
        }
        // The definitions stay at the root, where the `$ref`s point.
        let mut inner = schema;
        let defs = inner.as_object_mut().and_then(|map| {
            map.remove("$schema");
            map.remove("$defs")
        });
        let mut parameters = json!({
            "type": "object",
            "properties": { "content": inner },
            "required": ["content"],
            "additionalProperties": false,
        });
        if let (Some(defs), Some(map)) = (defs, parameters.as_object_mut()) {
            map.insert("$defs".into(), defs);
        }
        Function {
            name,
            parameters,
            wrapped: true,
            description,
        }
    }

    fn tools(&self) -> Value {
        json!([{
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            }
        }])
    }
}

impl InstructorRow {
    pub fn new(chat: Chat, max_attempts: usize) -> Self {
        InstructorRow {
            chat,
            max_attempts,
            forced: AtomicBool::new(true),
        }
    }

    pub async fn run(&self, task: &Task) -> Trace {
        let mut trace = Trace::default();
        let function = Function::of(task);
        let validator = match jsonschema::validator_for(&function.parameters) {
            Ok(validator) => validator,
            Err(e) => {
                trace.error = Some(format!("the jsonschema crate rejects the schema: {e}"));
                return trace;
            }
        };
        let mut messages = vec![message("user", task.prompt)];
        while trace.attempts.len() < self.max_attempts {
            let reply = match self.complete(&function, &messages).await {
                Ok(reply) => {
                    trace.retries += reply.retries;
                    reply
                }
                Err(ChatError::Status { code, body })
                    if ((400..500).contains(&code) || body.contains("tool_choice"))
                        && self.forced.swap(false, Ordering::Relaxed) =>
                {
                    // The server rejects a forced tool choice: the rest of the run says "auto".
                    trace.fallbacks += 1;
                    continue;
                }
                Err(e) => {
                    trace.error = Some(e.to_string());
                    return trace;
                }
            };
            match arguments(&reply, function.name).and_then(|args| check(&validator, args)) {
                Ok(args) => {
                    trace.attempts.push(AttemptTrace {
                        ok: true,
                        tokens: reply.tokens,
                        ..AttemptTrace::default()
                    });
                    trace.value = Some(if function.wrapped {
                        args.get("content").cloned().unwrap_or(Value::Null)
                    } else {
                        args
                    });
                    return trace;
                }
                Err(error) => {
                    messages.extend(reask(&reply, &error));
                    trace.attempts.push(AttemptTrace {
                        ok: false,
                        tokens: reply.tokens,
                        error: Some(error),
                        raw: Some(raw(&reply)),
                    });
                }
            }
        }
        trace.error = Some(format!("no valid call in {} attempts", self.max_attempts));
        trace
    }

    async fn complete(
        &self,
        function: &Function,
        messages: &[Value],
    ) -> Result<Completion, ChatError> {
        let choice = if self.forced.load(Ordering::Relaxed) {
            json!({ "type": "function", "function": { "name": function.name } })
        } else {
            json!("auto")
        };
        let mut extra = Map::new();
        extra.insert("tools".into(), function.tools());
        extra.insert("tool_choice".into(), choice);
        self.chat.complete(messages, extra).await
    }
}

/// The arguments the model gave the function, as JSON.
fn arguments(reply: &Completion, name: &str) -> Result<Value, String> {
    let call = reply
        .tool_calls
        .iter()
        .find(|(_, called, _)| called == name)
        .or(reply.tool_calls.first());
    if let Some((_, _, args)) = call {
        return serde_json::from_str(args).map_err(|e| e.to_string());
    }
    let value: Value = serde_json::from_str(json_in(&reply.content)).map_err(|e| e.to_string())?;
    // A tool call written as text.
    if value.get("name").and_then(Value::as_str) == Some(name)
        && let Some(args) = value.get("arguments")
    {
        return match args {
            Value::String(text) => serde_json::from_str(text).map_err(|e| e.to_string()),
            other => Ok(other.clone()),
        };
    }
    Ok(value)
}

/// The arguments, validated; or the error text instructor would send back.
fn check(validator: &jsonschema::Validator, args: Value) -> Result<Value, String> {
    let errors: Vec<String> = validator
        .iter_errors(&args)
        .map(|e| match e.instance_path().as_str() {
            "" => e.to_string(),
            path => format!("{path}: {e}"),
        })
        .collect();
    if errors.is_empty() {
        Ok(args)
    } else {
        Err(errors.join("\n"))
    }
}

/// JSON in a text reply, as instructor's JSON modes find it.
fn json_in(content: &str) -> &str {
    if let Some(start) = content.find("```") {
        let rest = &content[start + 3..];
        let body = rest.strip_prefix("json").unwrap_or(rest);
        if let Some(end) = body.find("```") {
            return body[..end].trim();
        }
    }
    match (content.find('{'), content.rfind('}')) {
        (Some(start), Some(end)) if start < end => &content[start..=end],
        _ => content.trim(),
    }
}

/// The messages that ask again: the assistant message, then the error text.
fn reask(reply: &Completion, error: &str) -> Vec<Value> {
    let text =
        format!("Validation Error found:\n{error}\nRecall the function correctly, fix the errors");
    let mut assistant = json!({ "role": "assistant", "content": reply.content });
    if let Some(calls) = reply.message.get("tool_calls")
        && !reply.tool_calls.is_empty()
    {
        assistant["tool_calls"] = calls.clone();
    }
    let mut messages = vec![assistant];
    if reply.tool_calls.is_empty() {
        messages.push(message("user", &text));
    }
    for (id, name, _) in &reply.tool_calls {
        messages.push(json!({ "role": "tool", "tool_call_id": id, "name": name, "content": text }));
    }
    messages
}

/// The reply as text: the content, then each native call.
fn raw(reply: &Completion) -> String {
    let mut text = reply.content.clone();
    for (_, name, args) in &reply.tool_calls {
        text.push_str(&format!("\n[tool call] {name}({args})"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::json_in;

    #[test]
    fn json_in_a_fence_or_between_the_outer_braces() {
        assert_eq!(json_in("```json\n{\"a\": 1}\n```"), "{\"a\": 1}");
        assert_eq!(
            json_in("<tool_call>\n{\"a\": {\"b\": 2}}\n</tool_call>"),
            "{\"a\": {\"b\": 2}}"
        );
        assert_eq!(json_in("no json"), "no json");
    }
}
