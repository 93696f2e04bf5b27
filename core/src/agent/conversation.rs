//! Earlier messages, as each mode sends them.
//!
//! With tools in the request, earlier calls and their results go in the provider's own
//! protocol, the calls under the names the model was shown. Without tools a provider
//! may reject them (Anthropic does), so they go as text, the way the tool loop writes
//! them in text modes: each result in a user message that quotes the call it answers.
//! The assistant turn that holds only calls is left out: small models copy such a turn
//! instead of answering.

use serde_json::{Value, json};

use crate::message::{Arguments, Message, Role, ToolCall};
use crate::tool_union::ToolNames;

/// `history` as a request carries it, natively where the request defines tools
/// (`native`), else as text; the calls under the names the model is shown.
pub(super) fn in_mode(history: &[Message], native: bool, names: &ToolNames) -> Vec<Message> {
    let named: Vec<Message> = history
        .iter()
        .map(|m| {
            let mut m = m.clone();
            for call in &mut m.tool_calls {
                call.name = names.model(&call.name).to_owned();
            }
            m
        })
        .collect();
    if native { named } else { as_text(&named) }
}

/// Calls and results as text: the results that follow one another in one user message.
fn as_text(history: &[Message]) -> Vec<Message> {
    let mut out = Vec::new();
    // Calls not answered yet, in order.
    let mut open: Vec<ToolCall> = Vec::new();
    let mut results: Vec<String> = Vec::new();
    for message in history {
        if message.role == Role::Tool {
            let call = take_call(&mut open, message.tool_call_id.as_deref());
            results.push(result_text(call.as_ref(), message));
            continue;
        }
        if !results.is_empty() {
            out.push(Message::user(results.join("\n")));
            results.clear();
        }
        if message.role == Role::Assistant && !message.tool_calls.is_empty() {
            open = message.tool_calls.clone();
            if !message.content.trim().is_empty() {
                out.push(Message::assistant(message.content.clone()));
            }
            continue;
        }
        out.push(message.clone());
    }
    if !results.is_empty() {
        out.push(Message::user(results.join("\n")));
    }
    out
}

/// The call a result answers: the one with its id, or the first still open.
fn take_call(open: &mut Vec<ToolCall>, id: Option<&str>) -> Option<ToolCall> {
    let at = match id {
        Some(id) => open.iter().position(|c| c.id.as_deref() == Some(id)),
        None => (!open.is_empty()).then_some(0),
    };
    at.map(|i| open.remove(i))
}

/// `You called {"name": …, "arguments": …}. Result of name: …` (or `Error from name: …`).
/// How a result written as text begins, in the tool loop and in [`in_mode`] alike.
pub(crate) const CALLED: &str = "You called ";

/// Whether the conversation already holds results of calls: tool messages, or results
/// written as text in a user message (the tool loop in a text mode).
pub(crate) fn results_in(history: &[Message]) -> bool {
    history.iter().any(|m| match m.role {
        Role::Tool => true,
        Role::User => m.content.starts_with(CALLED),
        Role::System | Role::Assistant => false,
    })
}

fn result_text(call: Option<&ToolCall>, result: &Message) -> String {
    let Some(call) = call else {
        let id = result.tool_call_id.as_deref().unwrap_or("?");
        let outcome = if result.is_error { "Error" } else { "Result" };
        return format!("{outcome} of the tool call {id}: {}", result.content);
    };
    let arguments = match &call.arguments {
        Arguments::Json(value) => value.clone(),
        Arguments::Text(text) => {
            serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.clone()))
        }
    };
    let called = json!({ "name": call.name, "arguments": arguments });
    let name = &call.name;
    // The tool loop's results already say whose they are.
    let said = result.content.starts_with(&format!("Result of {name}"))
        || result.content.starts_with(&format!("Error from {name}"));
    let outcome = match (said, result.is_error) {
        (true, _) => result.content.clone(),
        (false, true) => format!("Error from {name}: {}", result.content),
        (false, false) => format!("Result of {name}: {}", result.content),
    };
    format!("{CALLED}{called}. {outcome}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn history() -> Vec<Message> {
        vec![
            Message::user("Turn on the bedroom light and tell me the time"),
            Message::assistant_calls(
                "",
                vec![
                    ToolCall::new("call_1", "lights/turn on", json!({ "name": "bedroom" })),
                    ToolCall::new("call_2", "time.now", json!({})),
                ],
            ),
            Message::tool_error(Some("call_1".into()), "the light is unreachable"),
            Message::tool_result(Some("call_2".into()), "14:00"),
        ]
    }

    #[test]
    fn without_tools_calls_and_results_go_as_one_user_message() {
        let text = in_mode(&history(), false, &ToolNames::default());
        assert_eq!(text.len(), 2);
        assert_eq!(text[0], history()[0]);
        assert_eq!(text[1].role, Role::User);
        assert_eq!(
            text[1].content,
            "You called {\"name\":\"lights/turn on\",\"arguments\":{\"name\":\"bedroom\"}}. \
             Error from lights/turn on: the light is unreachable\n\
             You called {\"name\":\"time.now\",\"arguments\":{}}. Result of time.now: 14:00"
        );
    }

    fn names() -> ToolNames {
        ToolNames::new([
            ("lights/turn on".to_owned(), "lights_turn_on".to_owned()),
            ("time.now".to_owned(), "time_now".to_owned()),
        ])
    }

    #[test]
    fn with_tools_the_calls_take_the_names_the_model_was_shown() {
        let names = names();
        let native = in_mode(&history(), true, &names);
        let called: Vec<&str> = native[1]
            .tool_calls
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(called, ["lights_turn_on", "time_now"]);
        assert!(native[2].is_error);
        assert_eq!(native[2..], history()[2..]);
        assert_eq!(names.model("lights/turn on"), "lights_turn_on");
        assert_eq!(names.model("other"), "other");
    }

    #[test]
    fn as_text_the_calls_take_the_names_the_model_was_shown() {
        let text = in_mode(&history(), false, &names());
        assert_eq!(
            text[1].content,
            "You called {\"name\":\"lights_turn_on\",\"arguments\":{\"name\":\"bedroom\"}}. \
             Error from lights_turn_on: the light is unreachable\n\
             You called {\"name\":\"time_now\",\"arguments\":{}}. Result of time_now: 14:00"
        );
    }

    #[test]
    fn results_of_the_tool_loop_are_not_labelled_twice() {
        let history = [
            Message::assistant_calls("Let me look.", vec![ToolCall::new("a", "t", json!({}))]),
            Message::tool_result(Some("a".into()), "Result of t: 3"),
            Message::tool_result(Some("zzz".into()), "orphan"),
        ];
        let text = as_text(&history);
        assert_eq!(text[0], Message::assistant("Let me look."));
        assert_eq!(
            text[1].content,
            "You called {\"name\":\"t\",\"arguments\":{}}. Result of t: 3\n\
             Result of the tool call zzz: orphan"
        );
    }
}
