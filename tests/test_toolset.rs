//! Unions of tools known only at run time (`Toolset`): the same schema, violations and
//! repair prompts as a derived union of the same tools; names as servers spell them;
//! several calls; semantic checks; dialects; bad input.

use proptest::prop_assert;
use proptest::prop_assert_eq;
use serde_json::{Value, json};
use toolschema::feedback::RepairPrompt;
use toolschema::toolset::{ReadError, Rejection, one_of};
use toolschema::{Choice, Dialect, Parser, RepairStrategy, ToolSchema, Toolset};

/// The pointer and text of each violation.
fn violations(err: &toolschema::Error) -> Vec<(String, String)> {
    err.violations()
        .iter()
        .map(|v| (v.pointer().to_owned(), v.to_string()))
        .collect()
}

fn calls(choice: Choice) -> Vec<(String, Value)> {
    match choice {
        Choice::Calls(calls) => calls
            .into_iter()
            .map(|c| (c.name().to_owned(), c.into_arguments()))
            .collect(),
        Choice::Answer(answer) => panic!("expected calls, got the answer {answer}"),
    }
}

/// The agent holds sets across `await`s and threads.
#[test]
fn a_set_is_send_sync_and_cheap_to_share() {
    fn send_sync<T: Send + Sync + Clone + 'static>() {}
    send_sync::<Toolset>();
    send_sync::<Choice>();
    send_sync::<ReadError>();
}

#[path = "toolset/same_as_derived.rs"]
mod same_as_derived;

#[path = "toolset/home_assistant.rs"]
mod home_assistant;

#[path = "toolset/names.rs"]
mod names;

#[path = "toolset/several_calls.rs"]
mod several_calls;

#[path = "toolset/bad_input.rs"]
mod bad_input;

#[path = "toolset/dialects.rs"]
mod dialects;

#[path = "toolset/agreement.rs"]
mod agreement;

#[path = "toolset/type_names.rs"]
mod type_names;

/// The names of 0.1 still compile, deprecated, and name the same types as the new ones:
/// `Call` is `ValidCall` (a validated call, apart from the `ToolCall` a model wrote) and
/// `mcp::McpCall` is `mcp::McpToolRun`.
#[test]
#[allow(deprecated)]
fn the_former_names_name_the_same_types() {
    let tools = Toolset::from_openai_tools(&json!([{"type": "function", "function": {
        "name": "get_weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}
    }}]))
    .unwrap();
    let Choice::Calls(calls) = tools
        .parse(r#"{"name": "get_weather", "arguments": {"city": "Oslo"}}"#)
        .unwrap()
    else {
        panic!("a call was written");
    };
    let old: Vec<toolschema::Call> = calls;
    let new: Vec<toolschema::ValidCall> = old;
    assert_eq!(new[0].name(), "get_weather");
    assert_eq!(new[0].arguments(), &json!({"city": "Oslo"}));
    let same: fn(toolschema::mcp::McpCall) -> toolschema::mcp::McpToolRun = |run| run;
    let _ = same;
}
