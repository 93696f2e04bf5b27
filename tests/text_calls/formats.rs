//! Each format: one call, several, prose around, blank and newlines, dotted names, nested
//! arguments, strings holding brackets, quotes, commas and parentheses, unicode.

use serde_json::json;

use super::{call, reads, reads_with_fix};

const HERMES: &str = "<tool_call>{…}</tool_call>";
const MISTRAL_LIST: &str = "[TOOL_CALLS][{…}]";
const MISTRAL_ARGS: &str = "[TOOL_CALLS]name[ARGS]{…}";
const LLAMA_FUNCTION: &str = "<function=name>{…}</function>";
const PYTHON_TAG: &str = "<|python_tag|>{…}";
const PYTHON: &str = "name(key=value)";
const OBJECT: &str = "name({…})";

fn paris() -> super::Call {
    call("get_weather", json!({ "city": "Paris", "days": 3 }))
}

fn lamp() -> super::Call {
    call("switch_lamp", json!({ "name": "desk", "on": true }))
}

fn event() -> super::Call {
    call(
        "create_event",
        json!({
            "title": "Q3 review (final), \"all hands\" [x]",
            "attendees": ["Zoë", "李雷", "O'Brien"],
            "place": { "room": "B2{}", "floor": -1 }
        }),
    )
}

const PARIS: &str = r#"{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}"#;
const LAMP: &str = r#"{"name": "switch_lamp", "arguments": {"name": "desk", "on": true}}"#;
const EVENT_ARGS: &str = r#"{"title": "Q3 review (final), \"all hands\" [x]", "attendees": ["Zoë", "李雷", "O'Brien"], "place": {"room": "B2{}", "floor": -1}}"#;

#[test]
fn hermes_tool_call_blocks() {
    let event_call = format!(r#"{{"name": "create_event", "arguments": {EVENT_ARGS}}}"#);
    // One block of JSON is the JSON in a wrapper, as the extractor has always read it.
    reads_with_fix(
        &format!("<tool_call>\n{PARIS}\n</tool_call>"),
        "took the JSON out of a <tool_call> tag",
        &[paris()],
    );
    reads(
        &format!("<tool_call>\n{PARIS}\n</tool_call>\n<tool_call>\n{LAMP}\n</tool_call>"),
        HERMES,
        &[paris(), lamp()],
    );
    // Prose and reasoning around, no blank, the last block unclosed.
    reads(
        &format!(
            "<think>\nThe user wants two things.\n</think>\nSure, doing both.<tool_call>{PARIS}</tool_call>  <tool_call>{event_call}"
        ),
        HERMES,
        &[paris(), event()],
    );
    // Three blocks, one a list, single quotes repaired.
    reads(
        &format!(
            "<tool_call>[{PARIS}, {LAMP}]</tool_call>\n<tool_call>{{'name': 'create_event', 'arguments': {EVENT_ARGS}}}</tool_call>"
        ),
        HERMES,
        &[paris(), lamp(), event()],
    );
    // A Python call inside the block.
    reads(
        "<tool_call>\nget_weather(city=\"Paris\", days=3)\n</tool_call>\n<tool_call>switch_lamp(name='desk', on=True)</tool_call>",
        HERMES,
        &[paris(), lamp()],
    );
}

#[test]
fn mistral_tool_calls() {
    // A list of one call after the marker is a one-call envelope in prose.
    reads_with_fix(
        &format!("[TOOL_CALLS] [{PARIS}]"),
        r#"(root): read a tool call written as [{"name", "arguments"}] as {"name": …, "arguments": …}"#,
        &[paris()],
    );
    // A list of calls after one marker is the list in prose, as read before.
    reads_with_fix(
        &format!("[TOOL_CALLS][{PARIS},\n {LAMP}]</s>"),
        "left out the text around the JSON",
        &[paris(), lamp()],
    );
    reads(
        &format!("I will check.\n[TOOL_CALLS][{PARIS}][TOOL_CALLS][{LAMP}]"),
        MISTRAL_LIST,
        &[paris(), lamp()],
    );
    reads(
        r#"[TOOL_CALLS]get_weather[ARGS]{"city": "Paris", "days": 3}"#,
        MISTRAL_ARGS,
        &[paris()],
    );
    reads(
        &format!(
            "[TOOL_CALLS]get_weather[ARGS]{{\"city\": \"Paris\", \"days\": 3}}[TOOL_CALLS]create_event[ARGS] {EVENT_ARGS}\n[TOOL_CALLS]switch_lamp[CALL_ID]a1b2c3d4e[ARGS]{{\"name\": \"desk\", \"on\": true}}"
        ),
        MISTRAL_ARGS,
        &[paris(), event(), lamp()],
    );
    // Calls one after another after one marker.
    reads(
        r#"[TOOL_CALLS]get_weather[ARGS]{"city": "Paris", "days": 3}switch_lamp[ARGS]{"name": "desk", "on": true}"#,
        MISTRAL_ARGS,
        &[paris(), lamp()],
    );
}

#[test]
fn llama_function_tags() {
    reads(
        r#"<function=get_weather>{"city": "Paris", "days": 3}</function>"#,
        LLAMA_FUNCTION,
        &[paris()],
    );
    // Without the closing tag, with prose before.
    reads(
        "Let me look.\n<function=get_weather>\n{\"city\": \"Paris\", \"days\": 3}",
        LLAMA_FUNCTION,
        &[paris()],
    );
    reads(
        &format!(
            "<function=get_weather>{{\"city\": \"Paris\", \"days\": 3}}</function>\n<function=create_event>{EVENT_ARGS}</function><function=switch_lamp>{{\"name\": \"desk\", \"on\": true}}"
        ),
        LLAMA_FUNCTION,
        &[paris(), event(), lamp()],
    );
}

#[test]
fn llama_python_tag() {
    // One JSON call after the tag is an envelope in prose.
    reads_with_fix(
        r#"<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris", "days": 3}}<|eom_id|>"#,
        r#"(root): read a tool call written as {"name", "parameters"} as {"name": …, "arguments": …}"#,
        &[paris()],
    );
    reads(
        &format!(
            "<|python_tag|>{{\"name\": \"get_weather\", \"parameters\": {{\"city\": \"Paris\", \"days\": 3}}}}; {{\"name\": \"create_event\", \"parameters\": {EVENT_ARGS}}};\n{LAMP}<|eot_id|>"
        ),
        PYTHON_TAG,
        &[paris(), event(), lamp()],
    );
    // Python calls after the tag, a dotted name among them.
    reads(
        "<|python_tag|>get_weather(city=\"Paris\", days=3); math.triangle_area(base=10, height=4.5)",
        PYTHON_TAG,
        &[
            paris(),
            call("math_triangle_area", json!({ "base": 10, "height": 4.5 })),
        ],
    );
}

#[test]
fn python_calls() {
    reads(r#"[get_weather(city="Paris", days=3)]"#, PYTHON, &[paris()]);
    reads(r#"get_weather(city="Paris", days=3)"#, PYTHON, &[paris()]);
    reads(
        "[get_weather(city=\"Paris\", days=3), switch_lamp(name='desk', on=True)]",
        PYTHON,
        &[paris(), lamp()],
    );
    reads(
        "[\n  get_weather( city = 'Paris' , days = 3 ),\n  switch_lamp(name=\"desk\", on=True),\n]",
        PYTHON,
        &[paris(), lamp()],
    );
    // Without brackets, one a line; nested lists, tuples, dicts; escapes and unicode.
    reads(
        "get_weather(city='Paris', days=3)\ncreate_event(title='Q3 review (final), \\\"all hands\\\" [x]', attendees=('Zo\\u00eb', \"李雷\", \"O'Brien\"), place={'room': 'B2{}', 'floor': -1})",
        PYTHON,
        &[paris(), event()],
    );
    // A dotted name: the model-facing name has `_` for the dot.
    reads(
        "[math.triangle_area(base=10, height=-2.5e0)]",
        PYTHON,
        &[call(
            "math_triangle_area",
            json!({ "base": 10, "height": -2.5 }),
        )],
    );
    // In prose, and in a code fence; None for an optional argument.
    reads(
        "Sure! I'll call get_weather(city=\"Paris\", days=3) and then switch_lamp(name=\"desk\", on=True).",
        PYTHON,
        &[paris(), lamp()],
    );
    reads(
        "```python\nget_weather(city=\"Paris\", days=None)\n```",
        PYTHON,
        &[call(
            "get_weather",
            json!({ "city": "Paris", "days": null }),
        )],
    );
    // One argument by position to a tool that has one parameter.
    reads(
        "search('rust \"serde\" (json), [docs]')",
        PYTHON,
        &[call(
            "search",
            json!({ "query": "rust \"serde\" (json), [docs]" }),
        )],
    );
}

#[test]
fn name_and_arguments_object() {
    reads(
        r#"get_weather({"city": "Paris", "days": 3})"#,
        OBJECT,
        &[paris()],
    );
    reads(
        &format!(
            "Calling now: get_weather({{'city': 'Paris', 'days': 3}})\ncreate_event({EVENT_ARGS})"
        ),
        OBJECT,
        &[paris(), event()],
    );
    reads(
        r#"switch_lamp({"name": "desk", "on": true})"#,
        OBJECT,
        &[lamp()],
    );
}

#[test]
fn a_dotted_name_is_the_tool_the_server_spells_so() {
    let choice = super::toolset()
        .parse("[math.triangle_area(base=10, height=4)]")
        .unwrap();
    let toolschema::Choice::Calls(calls) = choice else {
        panic!("{choice}")
    };
    assert_eq!(calls[0].name(), "math.triangle_area");
    assert_eq!(calls[0].model_name(), "math_triangle_area");
    let (_, fixes) = super::derived("math.triangle_area(base=10, height=4)", 1);
    assert!(
        fixes.contains(
            &r#"/name: matched "math.triangle_area" to the allowed value "math_triangle_area""#
                .to_owned()
        ),
        "{fixes:?}"
    );
}

#[test]
fn calls_are_read_as_text_at_every_coercion_level() {
    let parsed = toolschema::Parser::new()
        .coercion(toolschema::Coercion::None)
        .parse::<super::Step>(r#"[TOOL_CALLS]get_weather[ARGS]{"city": "Paris", "days": 3}"#)
        .unwrap();
    assert_eq!(parsed.value, super::steps(&[paris()])[0]);
    assert_eq!(
        super::lines(&parsed.fixes),
        [super::text_fix(MISTRAL_ARGS, 1)]
    );
}
