//! The tasks of `--set runtime`: requests to a home assistant that holds Home
//! Assistant-style intents and the tools of two MCP servers (`runtime_tools.rs`), each
//! with the exact call expected, under the tool's name as the server spells it, or a
//! direct answer.
//!
//! Written for this evaluation, apart from the existing sets' tasks. Some are hard on
//! purpose: a device class beside a domain ("the blinds"), IANA zones from city names,
//! times in words that must become HH:MM, an optional field to leave out.

use serde_json::{Value, json};

use crate::tasks::Task;
use crate::types::AnswerType;

/// The union of every run-time tool, reported under `group`.
fn step(group: &'static str) -> AnswerType {
    AnswerType {
        name: group,
        union: true,
        schema: crate::runtime_tools::naive_schema,
        roundtrip: crate::runtime_check::roundtrip,
        ask: crate::agent_row::ask_as::<crate::runtime_tools::RuntimeStep>,
        ask_tools: Some(crate::agent_row::ask_runtime_tools),
    }
}

fn tool(name: &str, arguments: Value) -> Value {
    json!({ "name": name, "arguments": arguments })
}

fn direct_answer() -> Value {
    json!({ "answer": "(any text)" })
}

/// Every run-time task, grouped by where its tool comes from.
pub fn all() -> Vec<Task> {
    let mut tasks = Vec::new();
    for (group, list) in [
        ("Home", home()),
        ("TimeServer", time()),
        ("NotesServer", notes()),
        ("Direct", direct()),
    ] {
        for (prompt, expected) in list {
            tasks.push(Task {
                answer: step(group),
                prompt,
                expected,
            });
        }
    }
    tasks
}

fn home() -> Vec<(&'static str, Value)> {
    vec![
        (
            "Turn on the lights in the kitchen.",
            tool(
                "HassTurnOn",
                json!({"area": "kitchen", "domain": ["light"]}),
            ),
        ),
        (
            "Switch off the coffee maker.",
            tool("HassTurnOff", json!({"name": "coffee maker"})),
        ),
        (
            "Turn on the fans in the bedroom.",
            tool("HassTurnOn", json!({"area": "bedroom", "domain": ["fan"]})),
        ),
        (
            "Close the blinds in the living room.",
            tool(
                "HassTurnOff",
                json!({"area": "living room", "domain": ["cover"], "device_class": ["blind"]}),
            ),
        ),
        (
            "Turn off every switch in the garage.",
            tool(
                "HassTurnOff",
                json!({"area": "garage", "domain": ["switch"]}),
            ),
        ),
        (
            "Set the office lights to 40% brightness.",
            tool("HassLightSet", json!({"area": "office", "brightness": 40})),
        ),
        (
            "Dim the reading lamp to fifteen percent.",
            tool(
                "HassLightSet",
                json!({"name": "reading lamp", "brightness": 15}),
            ),
        ),
        (
            "Make it 21 degrees in the bedroom.",
            tool(
                "HassClimateSetTemperature",
                json!({"area": "bedroom", "temperature": 21}),
            ),
        ),
        (
            "Set the thermostat called Hallway to 19.5 °C.",
            tool(
                "HassClimateSetTemperature",
                json!({"name": "Hallway", "temperature": 19.5}),
            ),
        ),
        (
            "Add oat milk to the shopping list.",
            tool(
                "HassListAddItem",
                json!({"item": "oat milk", "name": "shopping"}),
            ),
        ),
        (
            "Put 'renew passport' on my to-do list.",
            tool(
                "HassListAddItem",
                json!({"item": "renew passport", "name": "todo"}),
            ),
        ),
    ]
}

fn time() -> Vec<(&'static str, Value)> {
    vec![
        (
            "What time is it in Tokyo right now?",
            tool("time.get_current_time", json!({"timezone": "Asia/Tokyo"})),
        ),
        (
            "What's the current time in New York?",
            tool(
                "time.get_current_time",
                json!({"timezone": "America/New_York"}),
            ),
        ),
        (
            "If it is 09:30 in Paris, what time is it in Los Angeles?",
            tool(
                "time.convert_time",
                json!({"source_timezone": "Europe/Paris", "time": "09:30", "target_timezone": "America/Los_Angeles"}),
            ),
        ),
        (
            "When it's 4 pm in London, what time is it in Sydney?",
            tool(
                "time.convert_time",
                json!({"source_timezone": "Europe/London", "time": "16:00", "target_timezone": "Australia/Sydney"}),
            ),
        ),
    ]
}

fn notes() -> Vec<(&'static str, Value)> {
    vec![
        (
            "Save a note titled 'Wi-Fi' with the text 'guest password tulip42'.",
            tool(
                "notes/add note",
                json!({"title": "Wi-Fi", "body": "guest password tulip42"}),
            ),
        ),
        (
            "New note 'Dentist': 'Tuesday 10:00, bring insurance card'. Tag it health.",
            tool(
                "notes/add note",
                json!({"title": "Dentist", "body": "Tuesday 10:00, bring insurance card", "tags": ["health"]}),
            ),
        ),
        (
            "Search my notes for invoice.",
            tool("notes/search", json!({"query": "invoice"})),
        ),
        (
            "Find at most 5 of my notes about the garden.",
            tool("notes/search", json!({"query": "garden", "limit": 5})),
        ),
    ]
}

fn direct() -> Vec<(&'static str, Value)> {
    vec![
        ("Hi! What can you help me with?", direct_answer()),
        ("Thanks, that's all for now.", direct_answer()),
        ("What is 12 times 12?", direct_answer()),
        ("Tell me a short joke about thermostats.", direct_answer()),
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_expected_call_fits_both_unions_and_the_naive_schema() {
        let tasks = super::all();
        assert_eq!(crate::tasks::problems(&tasks), Vec::<String>::new());
        assert!(tasks.len() >= 20, "{} tasks", tasks.len());
    }
}
