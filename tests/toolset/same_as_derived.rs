//! The same tools as a derived union and as a run-time union: identical schemas,
//! violations and repair prompts; and both kinds mixed in one union.

use super::*;

#[derive(ToolSchema, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Celsius,
    Fahrenheit,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct GetWeather {
    /// City name, e.g. "Paris".
    city: String,
    unit: Unit,
    #[schema(range(min = 1, max = 14))]
    days: Option<u8>,
}

/// Switch a device on.
#[derive(ToolSchema, Debug, PartialEq)]
struct TurnOn {
    #[schema(length(min = 1))]
    name: String,
    #[schema(pattern = "^[a-z_]+$")]
    area: Option<String>,
    brightness: Option<u8>,
}

#[derive(ToolSchema, Debug, PartialEq)]
enum Step {
    /// Look up the weather for a city.
    #[tool]
    GetWeather(GetWeather),
    #[tool]
    TurnOn(TurnOn),
    #[answer]
    Answer(String),
}

/// The run-time twin of `Step`: the same tools, given as JSON.
fn runtime() -> Toolset {
    Toolset::from_openai_tools(&json!([
        {"type": "function", "function": {
            "name": "get_weather",
            "description": "Look up the weather for a city.",
            "parameters": GetWeather::json_schema()
        }},
        {"type": "function", "function": {
            "name": "turn_on",
            "parameters": TurnOn::json_schema()
        }}
    ]))
    .unwrap()
    .with_answer()
}

const REPLIES: &[&str] = &[
    r#"{"name": "get_weather", "arguments": {"city": "Paris", "unit": "kelvin"}}"#,
    r#"{"name": "get_wether", "arguments": {"city": "Paris"}}"#,
    r#"{"name": "weather", "arguments": {}}"#,
    r#"{"name": "turn_on", "arguments": {"name": "", "area": "Living Room", "brightness": 300, "colour": "red"}}"#,
    r#"{"name": "turn_on", "arguments": "{\"name\": 3"}"#,
    r#"{"name": "turn_on", "arguments": "name=lamp"}"#,
    r#"{"tool": "turn_on", "args": {"nme": "lamp"}}"#,
    r#"{"answer": 42}"#,
    r#"{"answr": "It is sunny."}"#,
    r#"{"city": "Paris"}"#,
    r#"Sure! ```json
{"name": "get_weather", "arguments": {"city": "Paris", "unit": "Celsius", "days": 30},}
```"#,
    "It is sunny.",
    "",
];

#[test]
fn schemas_for_the_model_are_identical() {
    let tools = runtime();
    assert_eq!(tools.schema().to_json(), Step::json_schema());
    assert_eq!(tools.compact(), toolschema::render::compact::<Step>());
    assert_eq!(tools.example(), toolschema::render::example::<Step>());
    assert_eq!(tools.markdown(), toolschema::docs::markdown::<Step>());
    for dialect in [
        Dialect::Strict,
        Dialect::OpenAiStrict,
        Dialect::Anthropic,
        Dialect::Gemini,
    ] {
        let definitions = tools.definitions(dialect).unwrap();
        let derived = [
            toolschema::dialect_schema::<GetWeather>(dialect).unwrap(),
            toolschema::dialect_schema::<TurnOn>(dialect).unwrap(),
        ];
        for (definition, derived) in definitions.iter().zip(&derived) {
            let mut theirs = derived.schema.clone();
            // A derived type's own schema names its draft; a tool's parameters do not.
            if let Some(map) = theirs.as_object_mut() {
                map.shift_remove("$schema");
            }
            assert_eq!(definition.parameters, theirs, "{dialect:?}");
        }
    }
}

#[test]
fn violations_and_repair_prompts_are_identical() {
    let tools = runtime();
    for reply in REPLIES {
        let derived = toolschema::parse::<Step>(reply);
        let runtime = tools.parse(reply);
        match (derived, runtime) {
            (Ok(step), Ok(choice)) => {
                // The same value either way.
                let value = match choice {
                    Choice::Answer(a) => json!({ "answer": a }),
                    Choice::Calls(c) => {
                        json!({ "name": c[0].name(), "arguments": c[0].arguments() })
                    }
                };
                assert_eq!(toolschema::from_value::<Step>(value).unwrap(), step);
            }
            (Err(derived), Err(runtime)) => {
                assert_eq!(violations(&runtime), violations(&derived), "{reply}");
                assert_eq!(runtime.to_string(), derived.to_string(), "{reply}");
                assert_eq!(runtime.fixes(), derived.fixes(), "{reply}");
                let request = "What is the weather in Paris?";
                let theirs = RepairPrompt::new::<Step>(reply, &derived)
                    .request(request)
                    .attempt(1, 3);
                let ours = RepairPrompt::for_schema(tools.schema(), reply, &runtime)
                    .request(request)
                    .attempt(1, 3);
                assert_eq!(ours.to_string(), theirs.to_string(), "{reply}");
                let minimal = |p: &RepairPrompt| p.messages(RepairStrategy::Minimal, &[]);
                assert_eq!(minimal(&ours), minimal(&theirs), "{reply}");
            }
            (derived, runtime) => {
                panic!("{reply}: derived {derived:?}, run-time {runtime:?}")
            }
        }
    }
}

/// A derived union and run-time tools in one set: local Rust tools beside a server's.
#[test]
fn derived_and_runtime_tools_mix() {
    let server = Toolset::from_mcp_tools(&json!({ "tools": [{
        "name": "get_current_time",
        "inputSchema": {
            "type": "object",
            "properties": { "timezone": { "type": "string" } },
            "required": ["timezone"]
        }
    }]}))
    .unwrap()
    .namespaced("time");
    let tools = Toolset::new()
        .with_derived::<Step>()
        .unwrap()
        .merge(server)
        .unwrap()
        .with_answer();
    assert_eq!(
        tools.names().collect::<Vec<_>>(),
        ["get_weather", "turn_on", "time.get_current_time"]
    );
    let reply = r#"[
        {"name": "turn_on", "arguments": {"name": "lamp"}},
        {"name": "time_get_current_time", "arguments": {"timezone": "UTC"}}
    ]"#;
    let Choice::Calls(found) = tools.parse(reply).unwrap() else {
        panic!("expected calls")
    };
    assert_eq!(
        found[0].typed::<Step>().unwrap(),
        Step::TurnOn(TurnOn {
            name: "lamp".into(),
            area: None,
            brightness: None
        })
    );
    assert_eq!(found[1].name(), "time.get_current_time");
    assert!(found[1].typed::<Step>().is_err());
    // The derived tools' arguments are checked by their own schema.
    let err = tools
        .parse(r#"{"name": "turn_on", "arguments": {"name": "lamp", "brightness": 256}}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "/arguments/brightness: 256 is above the maximum of 255"
    );
    // A derived type that is not a union of tools is refused.
    let err = Toolset::new().with_derived::<GetWeather>().unwrap_err();
    assert!(
        err.to_string()
            .contains("GetWeather is not a union of tools")
    );
    // The same derived union twice names its tools twice.
    let err = Toolset::new()
        .with_derived::<Step>()
        .unwrap()
        .with_derived::<Step>()
        .unwrap_err();
    assert!(
        err.to_string()
            .contains(r#"the tool "get_weather" is in the set twice"#)
    );
}
