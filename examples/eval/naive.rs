//! The naive loop: what users write in forty lines before they look for a library.
//!
//! Written here without toolschema, after the document loop of StreetRace and the like:
//! the request, then the type's JSON Schema pretty-printed under "IMPORTANT: You MUST
//! respond with valid JSON that matches this schema", all in one user message; the reply's
//! fenced block (or the whole reply) through `serde_json`, the `jsonschema` crate's
//! validation, and on failure the reply sent back with `Error: {error}` and "Please fix
//! the JSON and try again.", up to the attempt limit.
//!
//! `naive+system` is the earlier form of the loop: the schema in a system prompt, the
//! request alone as the user's message, and a shorter error message.

use serde_json::{Map, Value};

use crate::chat::{Chat, message};
use crate::score::{AttemptTrace, Trace};
use crate::tasks::Task;

/// Where the naive loop puts the schema, and how it words the error it sends back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NaiveStyle {
    /// The request and the schema in one user message (the `naive` row).
    Document,
    /// The schema in a system prompt (the `naive+system` row).
    System,
}

impl NaiveStyle {
    /// The style a row's variant names: none, or `system`.
    pub fn of(variant: &[&str]) -> Result<NaiveStyle, String> {
        match variant {
            [] => Ok(NaiveStyle::Document),
            ["system"] => Ok(NaiveStyle::System),
            other => Err(format!(
                "unknown naive variant `{}`; expected naive or naive+system",
                other.join("+")
            )),
        }
    }

    /// The conversation's opening messages.
    fn opening(self, prompt: &str, pretty_schema: &str) -> Vec<Value> {
        match self {
            NaiveStyle::Document => vec![message(
                "user",
                &format!(
                    "{prompt}\n\nIMPORTANT: You MUST respond with valid JSON that matches this \
                     schema:\n```json\n{pretty_schema}\n```\n\nDo NOT include any text outside \
                     the JSON object."
                ),
            )],
            NaiveStyle::System => vec![
                message(
                    "system",
                    &format!(
                        "Reply with a JSON object that matches this JSON Schema:\n```json\n{pretty_schema}\n```"
                    ),
                ),
                message("user", prompt),
            ],
        }
    }

    /// The user's message after a reply that failed.
    fn retry(self, error: &str) -> String {
        match self {
            NaiveStyle::Document => fix_message(error),
            NaiveStyle::System => {
                format!("That JSON is not valid:\n{error}\nReply with the corrected JSON.")
            }
        }
    }
}

/// What the document loops send back after a reply that failed.
pub fn fix_message(error: &str) -> String {
    format!("Error: {error}\n\nPlease fix the JSON and try again.")
}

pub struct NaiveRow {
    chat: Chat,
    max_attempts: usize,
    style: NaiveStyle,
}

impl NaiveRow {
    pub fn new(chat: Chat, max_attempts: usize, style: NaiveStyle) -> Self {
        NaiveRow {
            chat,
            max_attempts,
            style,
        }
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
        let messages = self.style.opening(task.prompt, &pretty);
        let retry = |error: &str| self.style.retry(error);
        attempts(
            &self.chat,
            messages,
            self.max_attempts,
            trace,
            |reply| check(&validator, reply),
            retry,
        )
        .await
    }
}

/// The loop itself: each reply read by `read`, and on failure sent back, followed by the
/// user message `retry` writes for the error, up to `max_attempts`.
pub async fn attempts(
    chat: &Chat,
    mut messages: Vec<Value>,
    max_attempts: usize,
    mut trace: Trace,
    read: impl Fn(&str) -> Result<Value, String>,
    retry: impl Fn(&str) -> String,
) -> Trace {
    for _ in 0..max_attempts {
        let reply = match chat.complete(&messages, Map::new()).await {
            Ok(reply) => {
                trace.retries += reply.retries;
                reply
            }
            Err(e) => {
                trace.error = Some(e.to_string());
                return trace;
            }
        };
        match read(&reply.content) {
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
                messages.push(message("user", &retry(&error)));
                trace.attempts.push(AttemptTrace {
                    ok: false,
                    tokens: reply.tokens,
                    error: Some(error),
                    raw: Some(reply.content),
                });
            }
        }
    }
    trace.error = Some(format!("no valid JSON in {max_attempts} attempts"));
    trace
}

/// The reply's JSON, validated; or the error text a user would send back.
pub fn check(validator: &jsonschema::Validator, reply: &str) -> Result<Value, String> {
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
pub fn fenced(reply: &str) -> &str {
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
    use super::*;

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

    #[test]
    fn the_document_loop_sends_one_user_message_and_the_system_loop_two() {
        let schema = "{\n  \"type\": \"object\"\n}";
        let document = NaiveStyle::of(&[])
            .expect("naive")
            .opening("Ann is 3", schema);
        assert_eq!(document.len(), 1);
        assert_eq!(document[0]["role"], "user");
        let text = document[0]["content"].as_str().unwrap_or_default();
        assert!(text.starts_with("Ann is 3\n\nIMPORTANT: You MUST respond with valid JSON that matches this schema:\n```json\n{\n"), "{text}");
        assert!(
            text.ends_with("}\n```\n\nDo NOT include any text outside the JSON object."),
            "{text}"
        );
        let system = NaiveStyle::of(&["system"])
            .expect("naive+system")
            .opening("Ann is 3", schema);
        assert_eq!(
            (system[0]["role"].as_str(), system[1]["content"].as_str()),
            (Some("system"), Some("Ann is 3"))
        );
        assert_eq!(
            NaiveStyle::Document.retry("/age: -1 is less than 0"),
            "Error: /age: -1 is less than 0\n\nPlease fix the JSON and try again."
        );
        assert!(NaiveStyle::of(&["sys"]).is_err());
    }
}
