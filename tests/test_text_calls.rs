//! Tool calls written in the text formats of open-weight models' chat templates — Hermes
//! `<tool_call>`, Mistral `[TOOL_CALLS]`, Llama 3.1 `<function=…>` and `<|python_tag|>`,
//! Python calls, `name({…})` — read as the union's calls, each reading reported as
//! `FixKind::TextToolCall`; and never where the reply fits as written.
//!
//! `text_calls/formats.rs`: examples of each format, through a derived union and a
//! `Toolset` of the same tools. `text_calls/generated.rs`: calls of random arguments
//! rendered in each format and read back. `text_calls/untouched.rs`: valid replies are
//! read as written. `text_calls/refused.rs`: what is not read, and the errors.
//!
//! The policy is `docs/recovery.md`, "Tool calls written as text".

// Test types are built and compared whole; not every field is read on its own.
#![allow(dead_code)]

use serde_json::{Value, json};
use toolschema::{Choice, Error, Parser, ToolSchema, Toolset};

#[derive(ToolSchema, Debug, PartialEq, Clone)]
struct GetWeather {
    city: String,
    days: Option<u8>,
}

#[derive(ToolSchema, Debug, PartialEq, Clone)]
struct SwitchLamp {
    name: String,
    on: bool,
}

#[derive(ToolSchema, Debug, PartialEq, Clone)]
struct Place {
    room: String,
    floor: i64,
}

#[derive(ToolSchema, Debug, PartialEq, Clone)]
struct CreateEvent {
    title: String,
    attendees: Vec<String>,
    place: Place,
}

#[derive(ToolSchema, Debug, PartialEq, Clone)]
struct Search {
    query: String,
}

/// The union the tests read into.
#[derive(ToolSchema, Debug, PartialEq, Clone)]
enum Step {
    /// Look up the weather.
    #[tool]
    GetWeather(GetWeather),
    /// Switch a lamp on or off.
    #[tool]
    SwitchLamp(SwitchLamp),
    /// Put an event in the calendar.
    #[tool]
    CreateEvent(CreateEvent),
    /// Search the web.
    #[tool]
    Search(Search),
    /// The area of a triangle.
    #[tool(name = "math_triangle_area")]
    TriangleArea { base: f64, height: f64 },
    #[answer]
    Answer(String),
}

/// The same tools as an OpenAI `tools` array; the triangle's name as a server spells it.
fn toolset() -> Toolset {
    let string = json!({ "type": "string" });
    let tool = |name: &str, properties: Value, required: Value| {
        json!({ "type": "function", "function": {
            "name": name,
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": required,
                "additionalProperties": false
            }
        }})
    };
    let tools = json!([
        tool(
            "get_weather",
            json!({ "city": string, "days": { "type": ["integer", "null"], "minimum": 0, "maximum": 255 } }),
            json!(["city"])
        ),
        tool(
            "switch_lamp",
            json!({ "name": string, "on": { "type": "boolean" } }),
            json!(["name", "on"])
        ),
        tool(
            "create_event",
            json!({
                "title": string,
                "attendees": { "type": "array", "items": string },
                "place": {
                    "type": "object",
                    "properties": { "room": string, "floor": { "type": "integer" } },
                    "required": ["room", "floor"],
                    "additionalProperties": false
                }
            }),
            json!(["title", "attendees", "place"])
        ),
        tool("search", json!({ "query": string }), json!(["query"])),
        tool(
            "math.triangle_area",
            json!({ "base": { "type": "number" }, "height": { "type": "number" } }),
            json!(["base", "height"])
        ),
    ]);
    Toolset::from_openai_tools(&tools).unwrap().with_answer()
}

/// A call as a (name, arguments) pair, in the union's names.
type Call = (String, Value);

fn lines(fixes: &[toolschema::Fix]) -> Vec<String> {
    fixes.iter().map(ToString::to_string).collect()
}

/// The calls a derived union reads: one through `Step`, several through `Vec<Step>`, as
/// `(name, arguments)` of the expected steps; and the fixes.
#[track_caller]
fn derived(raw: &str, count: usize) -> (Vec<Step>, Vec<String>) {
    let parser = Parser::new();
    let read = if count == 1 {
        parser.parse::<Step>(raw).map(|p| (vec![p.value], p.fixes))
    } else {
        parser.parse::<Vec<Step>>(raw).map(|p| (p.value, p.fixes))
    };
    match read {
        Ok((steps, fixes)) => (steps, lines(&fixes)),
        Err(e) => panic!("{raw:?} was not read:\n{e}\nfixes: {:?}", lines(e.fixes())),
    }
}

/// The calls a `Toolset` reads, in the model's names, and the fixes.
#[track_caller]
fn from_toolset(raw: &str) -> (Vec<Call>, Vec<String>) {
    match toolset().read(&Parser::new(), raw) {
        Ok(parsed) => {
            let calls = match parsed.value {
                Choice::Calls(calls) => calls
                    .into_iter()
                    .map(|c| (c.model_name().to_owned(), c.into_arguments()))
                    .collect(),
                Choice::Answer(answer) => panic!("{raw:?} read as the answer {answer}"),
            };
            (calls, lines(&parsed.fixes))
        }
        Err(e) => panic!("{raw:?} was not read:\n{e}"),
    }
}

/// The steps the calls are, read strictly from `{"name", "arguments"}`.
fn steps(calls: &[Call]) -> Vec<Step> {
    calls
        .iter()
        .map(|(name, arguments)| {
            toolschema::from_value::<Step>(json!({ "name": name, "arguments": arguments }))
                .unwrap_or_else(|e| panic!("{name} {arguments}: {e}"))
        })
        .collect()
}

/// The fix reported for calls read in `format`.
fn text_fix(format: &str, count: usize) -> String {
    if count == 1 {
        format!("read a tool call written as text, {format}")
    } else {
        format!("read {count} tool calls written as text, {format}")
    }
}

/// Reads `raw` through both unions; both give `calls` and report the format.
#[track_caller]
fn reads(raw: &str, format: &str, calls: &[Call]) {
    reads_with_fix(raw, &text_fix(format, calls.len()), calls);
}

/// Reads `raw` through both unions; both give `calls` and report `fix`.
#[track_caller]
fn reads_with_fix(raw: &str, fix: &str, calls: &[Call]) {
    let fix = fix.to_owned();
    let (found, fixes) = derived(raw, calls.len());
    assert_eq!(found, steps(calls), "derived union, {raw:?}");
    assert!(fixes.contains(&fix), "derived union, {raw:?}: {fixes:?}");
    let (found, fixes) = from_toolset(raw);
    assert_eq!(found, calls, "toolset, {raw:?}");
    assert!(fixes.contains(&fix), "toolset, {raw:?}: {fixes:?}");
}

fn call(name: &str, arguments: Value) -> Call {
    (name.to_owned(), arguments)
}

fn violations(e: &Error) -> Vec<String> {
    e.violations().iter().map(ToString::to_string).collect()
}

#[path = "text_calls/formats.rs"]
mod formats;

#[path = "text_calls/refused.rs"]
mod refused;

#[path = "text_calls/untouched.rs"]
mod untouched;

#[path = "text_calls/generated.rs"]
mod generated;
