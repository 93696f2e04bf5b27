//! The naive rows of `--set choice`: the loop a user writes without toolschema.
//!
//! The tools array pasted as pretty JSON into the user's message with one sentence on how
//! to call a function or answer: after the request (`naive`), or before it, the sentence
//! between them (`naive+first`), an order small models call far more often in; the
//! reply's fenced block (or the whole reply) through `serde_json`; an object with `name`
//! (one of the tools) and `arguments` (an object the `jsonschema` crate finds valid
//! against that tool's parameters), or an object with `answer`. On failure the reply goes back with
//! `Error: {error}` and "Please fix the JSON and try again.", up to the attempt limit.

use serde_json::{Value, json};

use crate::chat::{Chat, message};
use crate::naive::{attempts, fenced, fix_message};
use crate::score::Trace;

/// What the user's message says after the request and the tools.
const HOW_TO_REPLY: &str = "To call a function reply with JSON {\"name\": \"<function name>\", \
\"arguments\": {…}}. If none of the functions fits the request, reply {\"answer\": \"<your answer>\"}.";

/// Where the user's message puts the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// The request, the tools, how to reply (`naive`).
    RequestFirst,
    /// The tools, how to reply, the request (`naive+first`).
    ToolsFirst,
}

pub struct NaiveChoiceRow {
    chat: Chat,
    max_attempts: usize,
    order: Order,
}

/// A function of the tools array and the validator of its parameters.
struct Function {
    name: String,
    validator: jsonschema::Validator,
}

impl NaiveChoiceRow {
    pub fn new(chat: Chat, max_attempts: usize, order: Order) -> Self {
        NaiveChoiceRow {
            chat,
            max_attempts,
            order,
        }
    }

    pub async fn run(&self, tools: &Value, request: &str) -> Trace {
        let mut trace = Trace::default();
        let functions = match functions(tools) {
            Ok(functions) => functions,
            Err(e) => {
                trace.error = Some(e);
                return trace;
            }
        };
        let messages = vec![message("user", &opening(tools, request, self.order))];
        let read = |reply: &str| read(&functions, reply);
        attempts(
            &self.chat,
            messages,
            self.max_attempts,
            trace,
            read,
            fix_message,
        )
        .await
    }
}

/// The user's message: the request, the tools as pretty JSON and how to reply, in `order`.
fn opening(tools: &Value, request: &str, order: Order) -> String {
    let pretty = serde_json::to_string_pretty(tools).unwrap_or_else(|_| tools.to_string());
    match order {
        Order::RequestFirst => format!("{request}\n\n{pretty}\n\n{HOW_TO_REPLY}"),
        Order::ToolsFirst => format!("{pretty}\n\n{HOW_TO_REPLY}\n\n{request}"),
    }
}

/// Each function of an OpenAI tools array with a validator of its parameters.
fn functions(tools: &Value) -> Result<Vec<Function>, String> {
    let list = tools.as_array().ok_or("the tools are not an array")?;
    list.iter()
        .map(|tool| {
            let name = tool
                .pointer("/function/name")
                .and_then(Value::as_str)
                .ok_or("a tool has no name")?;
            let parameters = tool
                .pointer("/function/parameters")
                .cloned()
                .unwrap_or_else(|| json!({"type": "object"}));
            let validator = jsonschema::validator_for(&parameters)
                .map_err(|e| format!("the jsonschema crate rejects {name}'s parameters: {e}"))?;
            Ok(Function {
                name: name.to_owned(),
                validator,
            })
        })
        .collect()
}

/// The reply as a call `{"name", "arguments"}` or an answer `{"answer"}`; or the error
/// text the user sends back.
fn read(functions: &[Function], reply: &str) -> Result<Value, String> {
    let value: Value = serde_json::from_str(fenced(reply)).map_err(|e| e.to_string())?;
    let Value::Object(object) = &value else {
        return Err(format!("expected a JSON object, found {value}"));
    };
    let Some(name) = object.get("name") else {
        return match object.get("answer") {
            Some(_) => Ok(value),
            None => {
                Err("expected an object with \"name\" and \"arguments\", or with \"answer\"".into())
            }
        };
    };
    let names = || {
        let names: Vec<&str> = functions.iter().map(|f| f.name.as_str()).collect();
        names.join(", ")
    };
    let function = name
        .as_str()
        .and_then(|name| functions.iter().find(|f| f.name == name))
        .ok_or_else(|| format!("{name} is not one of the functions: {}", names()))?;
    let arguments = match object.get("arguments") {
        Some(arguments @ Value::Object(_)) => arguments,
        Some(other) => return Err(format!("\"arguments\" must be an object, found {other}")),
        None => return Err("\"arguments\" is missing".into()),
    };
    let errors: Vec<String> = function
        .validator
        .iter_errors(arguments)
        .map(|e| match e.instance_path().as_str() {
            "" => e.to_string(),
            path => format!("{path}: {e}"),
        })
        .collect();
    if errors.is_empty() {
        Ok(json!({"name": function.name, "arguments": arguments}))
    } else {
        Err(errors.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tools() -> Value {
        json!([{"type": "function", "function": {
            "name": "math.triangle_area",
            "description": "Area of a triangle.",
            "parameters": {"type": "object", "properties": {
                "base": {"type": "number"},
                "height": {"type": "number"}
            }, "required": ["base", "height"]}
        }}])
    }

    fn read_reply(reply: &str) -> Result<Value, String> {
        read(&functions(&tools()).expect("the tools compile"), reply)
    }

    #[test]
    fn a_call_is_read_from_a_fence_or_the_whole_reply() {
        let call = json!({"name": "math.triangle_area", "arguments": {"base": 3, "height": 4.5}});
        let fenced = format!("Sure:\n```json\n{call}\n```\nDone.");
        assert_eq!(read_reply(&fenced), Ok(call.clone()));
        assert_eq!(read_reply(&format!("  {call}\n")), Ok(call));
    }

    #[test]
    fn an_answer_is_read_as_it_is() {
        let answer = json!({"answer": "Paris is the capital of France."});
        assert_eq!(read_reply(&answer.to_string()), Ok(answer));
    }

    #[test]
    fn what_the_loop_sends_back() {
        let unknown = read_reply(r#"{"name": "triangle_area", "arguments": {}}"#);
        assert_eq!(
            unknown,
            Err("\"triangle_area\" is not one of the functions: math.triangle_area".into())
        );
        let invalid = read_reply(
            r#"{"name": "math.triangle_area", "arguments": {"base": "3", "height": 4}}"#,
        )
        .unwrap_err();
        assert!(invalid.starts_with("/base: "), "{invalid}");
        let missing =
            read_reply(r#"{"name": "math.triangle_area", "arguments": {"base": 3}}"#).unwrap_err();
        assert!(missing.contains("height"), "{missing}");
        assert!(read_reply("The area is 6.").is_err());
        let neither = read_reply(r#"{"area": 6}"#).unwrap_err();
        assert!(neither.contains("\"answer\""), "{neither}");
        let arguments = read_reply(r#"{"name": "math.triangle_area", "arguments": "3, 4"}"#);
        assert!(arguments.is_err_and(|e| e.contains("must be an object")));
    }

    #[test]
    fn the_users_message_is_the_request_the_tools_and_how_to_reply() {
        let request = "Area of a triangle, base 3 height 4?";
        let first = opening(&tools(), request, Order::ToolsFirst);
        assert!(first.starts_with("[\n  {\n"), "{first}");
        assert!(
            first.ends_with(&format!("]\n\n{HOW_TO_REPLY}\n\n{request}")),
            "{first}"
        );
        let text = opening(&tools(), request, Order::RequestFirst);
        assert!(
            text.starts_with("Area of a triangle, base 3 height 4?\n\n[\n  {\n"),
            "{text}"
        );
        assert!(text.contains("\"name\": \"math.triangle_area\""), "{text}");
        assert!(text.ends_with(&format!("]\n\n{HOW_TO_REPLY}")), "{text}");
        assert!(HOW_TO_REPLY.starts_with("To call a function reply with JSON {\"name\": \"<function name>\", \"arguments\": {…}}. If none"));
    }
}
