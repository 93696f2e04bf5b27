//! The naive loop: what users write in forty lines before they look for a library.
//!
//! Written here without toolschema: the type's JSON Schema pretty-printed into the
//! system prompt, the first fenced block of the reply (or the whole reply) through
//! `serde_json`, the `jsonschema` crate's validation, and on failure the raw error text
//! sent back after the reply, up to the attempt limit.

use serde_json::{Map, Value};

use crate::chat::{Chat, message};
use crate::score::{AttemptTrace, Trace};
use crate::tasks::Task;

pub struct NaiveRow {
    chat: Chat,
    max_attempts: usize,
}

impl NaiveRow {
    pub fn new(chat: Chat, max_attempts: usize) -> Self {
        NaiveRow { chat, max_attempts }
    }

    pub async fn run(&self, task: &Task) -> Trace {
        let mut trace = Trace::default();
        let schema = (task.answer.schema)();
        let validator = match jsonschema::validator_for(&schema) {
            Ok(validator) => validator,
            Err(e) => {
                trace.error = Some(format!("the jsonschema crate rejects the schema: {e}"));
                return trace;
            }
        };
        let pretty = serde_json::to_string_pretty(&schema).unwrap_or_else(|_| schema.to_string());
        let mut messages = vec![
            message(
                "system",
                &format!(
                    "Reply with a JSON object that matches this JSON Schema:\n```json\n{pretty}\n```"
                ),
            ),
            message("user", task.prompt),
        ];
        for _ in 0..self.max_attempts {
            let reply = match self.chat.complete(&messages, Map::new()).await {
                Ok(reply) => {
                    trace.retries += reply.retries;
                    reply
                }
                Err(e) => {
                    trace.error = Some(e.to_string());
                    return trace;
                }
            };
            match check(&validator, &reply.content) {
                Ok(value) => {
                    trace.attempts.push(AttemptTrace {
                        ok: true,
                        tokens: reply.tokens,
                        ..AttemptTrace::default()
                    });
                    trace.value = Some(value);
                    return trace;
                }
                Err(error) => {
                    messages.push(message("assistant", &reply.content));
                    messages.push(message(
                        "user",
                        &format!(
                            "That JSON is not valid:\n{error}\nReply with the corrected JSON."
                        ),
                    ));
                    trace.attempts.push(AttemptTrace {
                        ok: false,
                        tokens: reply.tokens,
                        error: Some(error),
                        raw: Some(reply.content),
                    });
                }
            }
        }
        trace.error = Some(format!("no valid JSON in {} attempts", self.max_attempts));
        trace
    }
}

/// The reply's JSON, validated; or the error text a user would send back.
fn check(validator: &jsonschema::Validator, reply: &str) -> Result<Value, String> {
    let value: Value = serde_json::from_str(fenced(reply)).map_err(|e| e.to_string())?;
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| match e.instance_path().as_str() {
            "" => e.to_string(),
            path => format!("{path}: {e}"),
        })
        .collect();
    if errors.is_empty() {
        Ok(value)
    } else {
        Err(errors.join("\n"))
    }
}

/// The first ```json block, else the first ``` block, else the whole reply.
fn fenced(reply: &str) -> &str {
    let block = |open: &str| {
        let start = reply.find(open)? + open.len();
        let rest = &reply[start..];
        // Past the rest of the opening line (a language tag, if any).
        let body = &rest[rest.find('\n').map_or(0, |n| n + 1)..];
        let end = body.find("```").unwrap_or(body.len());
        Some(body[..end].trim())
    };
    block("```json")
        .or_else(|| block("```"))
        .unwrap_or_else(|| reply.trim())
}

#[cfg(test)]
mod tests {
    use super::fenced;

    #[test]
    fn the_first_json_fence_then_any_fence_then_the_whole_reply() {
        assert_eq!(
            fenced("Sure:\n```\nx\n```\n```json\n{\"a\": 1}\n```"),
            "{\"a\": 1}"
        );
        assert_eq!(fenced("Here:\n```js\n{\"a\": 2}\n```"), "{\"a\": 2}");
        assert_eq!(fenced("  {\"a\": 3}\n"), "{\"a\": 3}");
        assert_eq!(fenced("```json\n{\"a\": 4}"), "{\"a\": 4}");
    }
}
