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

mod same_as_derived {
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
}

mod home_assistant {
    use super::*;

    const DEVICE_CLASSES: &[&str] = &[
        "awning", "blind", "curtain", "damper", "door", "garage", "gate", "shade", "shutter",
        "window", "outlet", "switch", "tv", "speaker", "receiver",
    ];

    /// Intent tools as a Home Assistant bridge hands them over, OpenAI style.
    fn intents() -> Value {
        let target = json!({
            "type": "object",
            "properties": {
                "name": { "type": "string", "description": "The device's name." },
                "area": { "type": "string", "description": "The area, e.g. a room." },
                "domain": {
                    "type": "array",
                    "items": { "type": "string", "enum": ["light", "switch", "fan", "cover", "media_player"] }
                },
                "device_class": {
                    "type": "array",
                    "items": { "type": "string", "enum": DEVICE_CLASSES }
                }
            }
        });
        json!([
            {"type": "function", "function": {
                "name": "HassTurnOn", "description": "Turns on/opens a device or entity", "parameters": target
            }},
            {"type": "function", "function": {
                "name": "HassTurnOff", "description": "Turns off/closes a device or entity", "parameters": target
            }},
            {"type": "function", "function": {
                "name": "HassLightSet",
                "description": "Sets the brightness or color of a light",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "name": { "type": "string" },
                        "brightness": { "type": "integer", "minimum": 0, "maximum": 100 }
                    }
                }
            }}
        ])
    }

    #[test]
    fn a_device_class_that_is_a_domain_gets_pointed_to_domain() {
        let tools = Toolset::from_openai_tools(&intents())
            .unwrap()
            .with_answer();
        let request = "turn on the bedroom light";
        let reply = r#"{"name": "HassTurnOn", "arguments": {"device_class": ["light"]}}"#;
        let err = tools.parse(reply).unwrap_err();
        let [violation] = err.violations() else {
            panic!("{err}")
        };
        assert_eq!(violation.pointer(), "/arguments/device_class/0");
        assert!(
            violation
                .advice()
                .is_some_and(|a| a.contains(r#"allowed in "domain""#)),
            "{violation}"
        );
        let prompt = RepairPrompt::for_schema(tools.schema(), reply, &err)
            .request(request)
            .attempt(1, 3);
        let [message] = &prompt.messages(RepairStrategy::Minimal, &[])[..] else {
            panic!("one message")
        };
        assert!(message.content.contains(request));
        for class in DEVICE_CLASSES {
            assert!(message.content.contains(&format!("\"{class}\"")), "{class}");
        }
        insta::assert_snapshot!("home_assistant_device_class", message.content);

        // The fix the advice points to is accepted.
        let fixed = r#"{"name": "HassTurnOn", "arguments": {"name": "bedroom light", "domain": ["light"]}}"#;
        assert_eq!(
            calls(tools.parse(fixed).unwrap()),
            [(
                "HassTurnOn".to_owned(),
                json!({ "name": "bedroom light", "domain": ["light"] })
            )]
        );
    }

    fn with_devices() -> Toolset {
        let devices = ["bedroom light", "kitchen light", "living room tv"];
        let areas = ["bedroom", "kitchen", "living room"];
        Toolset::from_openai_tools(&intents())
            .unwrap()
            .check("HassTurnOn", move |args: &Value| {
                Rejection::all([one_of(args, "/name", devices), one_of(args, "/area", areas)])
            })
            .unwrap()
            .check("HassLightSet", |args: &Value| {
                if args.get("name").is_none() {
                    return Err("say which light: give its \"name\"".into());
                }
                Ok(())
            })
            .unwrap()
    }

    #[test]
    fn a_check_lists_the_devices_the_home_knows() {
        let tools = with_devices();
        let request = "turn on the bedroom light";
        let reply =
            r#"{"name": "HassTurnOn", "arguments": {"name": "bedrom light", "area": "upstairs"}}"#;
        let err = tools.parse(reply).unwrap_err();
        assert_eq!(
            violations(&err),
            [
                (
                    "/arguments/name".to_owned(),
                    r#"/arguments/name: "bedrom light" is not one of "bedroom light", "kitchen light", "living room tv"; did you mean "bedroom light"?"#.to_owned()
                ),
                (
                    "/arguments/area".to_owned(),
                    r#"/arguments/area: "upstairs" is not one of "bedroom", "kitchen", "living room""#.to_owned()
                ),
            ]
        );
        let prompt = RepairPrompt::for_schema(tools.schema(), reply, &err)
            .request(request)
            .attempt(2, 3);
        insta::assert_snapshot!("home_assistant_check", prompt.to_string());

        // A message about the arguments as a whole is at `/arguments`.
        let err = tools
            .parse(r#"{"name": "HassLightSet", "arguments": {"brightness": 50}}"#)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"/arguments: say which light: give its "name""#
        );
        // Checks run only once the schema passes.
        let err = tools
            .parse(r#"{"name": "HassTurnOn", "arguments": {"name": 3}}"#)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "/arguments/name: expected a string, found the number 3"
        );
        // The tool a check is for must exist.
        let err = with_devices()
            .check("HassTurnOnn", |_: &Value| Ok(()))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"(root): the set has no tool "HassTurnOnn" to check; did you mean "HassTurnOn"?"#
        );
    }

    #[test]
    fn a_check_that_panics_is_fatal_not_a_violation() {
        let tools = Toolset::from_openai_tools(&intents())
            .unwrap()
            .check("HassTurnOff", |args: &Value| {
                let name = args["name"].as_str().expect("a name");
                Err(format!("no device {name}").into())
            })
            .unwrap();
        let reply = r#"{"name": "HassTurnOff", "arguments": {}}"#;
        match tools.read(&Parser::new(), reply) {
            Err(ReadError::CheckPanicked(panic)) => {
                assert_eq!(panic.tool, "HassTurnOff");
                assert_eq!(panic.message, "a name");
            }
            other => panic!("expected a panicked check, got {other:?}"),
        }
        // Through `parse`, an error that says so.
        let err = tools.parse(reply).unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"/arguments: the check of the tool "HassTurnOff" panicked: a name"#
        );
        // The set still works.
        let err = tools
            .parse(r#"{"name": "HassTurnOff", "arguments": {"name": "tv"}}"#)
            .unwrap_err();
        assert_eq!(err.to_string(), "/arguments: no device tv");
    }
}

mod names {
    use super::*;

    fn server_tools() -> Toolset {
        let long = format!("reports.{}", "quarterly_revenue_by_region_".repeat(4));
        Toolset::from_mcp_tools(&json!({ "tools": [
            { "name": "time.get_current_time", "inputSchema": { "type": "object", "properties": { "tz": { "type": "string" } } } },
            { "name": "files/read file", "inputSchema": { "type": "object", "properties": { "path": { "type": "string" } }, "required": ["path"] } },
            { "name": "time_get_current_time", "inputSchema": { "type": "object" } },
            { "name": long, "inputSchema": { "type": "object" } },
        ]}))
        .unwrap()
    }

    #[test]
    fn models_see_allowed_names_and_calls_carry_the_servers() {
        let tools = server_tools();
        let model_names: Vec<&str> = tools
            .names()
            .map(|n| tools.model_name(n).unwrap())
            .collect();
        let pattern = regex_lite(&model_names);
        assert!(pattern, "{model_names:?}");
        // A name already allowed is its own; another that becomes it gets a hash.
        assert_eq!(model_names[2], "time_get_current_time");
        assert!(model_names[0].starts_with("time_get_current_time_"));
        assert_eq!(model_names[1], "files_read_file");
        assert_eq!(model_names[3].len(), 64);
        for (name, model) in tools.names().zip(&model_names) {
            assert_eq!(tools.original_name(model), Some(name));
        }
        // The union, the docs and the definitions use the model's names.
        // (Open objects, as servers write them, are for dialects that take them.)
        let definitions = tools.definitions(Dialect::Gemini).unwrap();
        let defined: Vec<&str> = definitions.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(defined, model_names);
        assert!(tools.compact().contains("\"files_read_file\""));
        assert!(!tools.compact().contains("files/read file"));

        let reply = format!(
            r#"{{"name": "{}", "arguments": {{"tz": "UTC"}}}}"#,
            model_names[0]
        );
        let found = calls(tools.parse(&reply).unwrap());
        assert_eq!(
            found,
            [("time.get_current_time".to_owned(), json!({ "tz": "UTC" }))]
        );
        let Choice::Calls(call) = tools.parse(&reply).unwrap() else {
            unreachable!()
        };
        assert_eq!(call[0].model_name(), model_names[0]);

        // A reply that spells a tool as the server does is read as the tool it names.
        let parsed = tools
            .read(
                &Parser::new(),
                r#"{"name": "files/read file", "arguments": {"path": "/etc/hosts"}}"#,
            )
            .unwrap();
        assert_eq!(
            calls(parsed.value),
            [(
                "files/read file".to_owned(),
                json!({ "path": "/etc/hosts" })
            )]
        );
        assert_eq!(
            parsed.fixes[0].to_string(),
            r#"/name: matched "files/read file" to the allowed value "files_read_file""#
        );

        // The mapping does not depend on the order the server listed its tools in.
        let reversed = Toolset::from_mcp_tools(&json!({ "tools": tools
            .names()
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .map(|n| json!({ "name": n, "inputSchema": { "type": "object" } }))
            .collect::<Vec<_>>() }))
        .unwrap();
        for name in tools.names() {
            assert_eq!(reversed.model_name(name), tools.model_name(name), "{name}");
        }
    }

    fn regex_lite(names: &[&str]) -> bool {
        names.iter().all(|n| {
            (1..=64).contains(&n.len())
                && n.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        })
    }

    #[test]
    fn servers_are_namespaced_and_duplicates_refused() {
        let list = |names: &[&str]| json!({ "tools": names.iter().map(|n| json!({ "name": n, "inputSchema": { "type": "object" } })).collect::<Vec<_>>() });
        let a = Toolset::from_mcp_tools(&list(&["search", "fetch"])).unwrap();
        let b = Toolset::from_mcp_tools(&list(&["search"])).unwrap();
        let err = a.clone().merge(b.clone()).unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"(root): the tool "search" is in the set twice; tool names must be unique (namespace the tools of each server with Toolset::namespaced)"#
        );
        let both = a.namespaced("web").merge(b.namespaced("docs")).unwrap();
        assert_eq!(
            both.names().collect::<Vec<_>>(),
            ["web.search", "web.fetch", "docs.search"]
        );
        let found = calls(
            both.parse(r#"{"name": "docs_search", "arguments": {}}"#)
                .unwrap(),
        );
        assert_eq!(found[0].0, "docs.search");
        // Two answers cannot be merged.
        let err = Toolset::new()
            .with_answer()
            .merge(Toolset::new().with_answer())
            .unwrap_err();
        assert!(err.to_string().contains("both sets have an answer"));
        // In one list, the second entry of a name is located.
        let err = Toolset::from_mcp_tools(&list(&["search", "fetch", "search"])).unwrap_err();
        assert_eq!(violations(&err)[0].0, "/tools/2/name", "{err}");
    }
}

mod several_calls {
    use super::*;

    fn tools() -> Toolset {
        let args = json!({
            "type": "object",
            "properties": { "name": { "type": "string" } },
            "required": ["name"]
        });
        Toolset::new()
            .tool("turn_on", "Turn on a device.", args.clone())
            .unwrap()
            .tool("turn_off", "Turn off a device.", args)
            .unwrap()
            .with_answer()
    }

    #[test]
    fn every_call_of_a_reply_is_returned() {
        let tools = tools();
        let expected = [
            ("turn_on".to_owned(), json!({ "name": "kitchen" })),
            ("turn_off".to_owned(), json!({ "name": "tv" })),
        ];
        for reply in [
            r#"[{"name": "turn_on", "arguments": {"name": "kitchen"}}, {"name": "turn_off", "arguments": {"name": "tv"}}]"#,
            r#"{"tool_calls": [{"type": "function", "function": {"name": "turn_on", "arguments": "{\"name\": \"kitchen\"}"}}, {"function": {"name": "turn_off", "arguments": {"name": "tv"}}}]}"#,
            "<tool_call>\n{\"name\": \"turn_on\", \"arguments\": {\"name\": \"kitchen\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"turn_off\", \"arguments\": {\"name\": \"tv\"}}\n</tool_call>",
            "{\"name\": \"turn_on\", \"arguments\": {\"name\": \"kitchen\"}}\n{\"name\": \"turn_off\", \"arguments\": {\"name\": \"tv\"}}",
            "```json\n[{'name': 'turn_on', 'arguments': {'name': 'kitchen'}}, {'name': 'turn_off', 'arguments': {'name': 'tv'}},]\n```",
        ] {
            assert_eq!(calls(tools.parse(reply).unwrap()), expected, "{reply}");
        }
    }

    #[test]
    fn one_tool_twice_is_two_calls() {
        let reply = r#"[{"name": "turn_on", "arguments": {"name": "kitchen"}}, {"name": "turn_on", "arguments": {"name": "kitchen"}}]"#;
        let found = calls(tools().parse(reply).unwrap());
        assert_eq!(found.len(), 2);
        assert_eq!(found[0], found[1]);
    }

    #[test]
    fn violations_of_each_call_are_under_its_index() {
        let reply = r#"[{"name": "turn_on", "arguments": {"name": "kitchen"}}, {"name": "turn_of", "arguments": {}}, {"name": "turn_off", "arguments": {"nam": "tv"}}]"#;
        let err = tools().parse(reply).unwrap_err();
        assert_eq!(
            violations(&err),
            [
                (
                    "/1/name".to_owned(),
                    r#"/1/name: "turn_of" is not one of "turn_on", "turn_off"; did you mean "turn_on"?"#.to_owned()
                ),
                (
                    "/2/arguments/name".to_owned(),
                    "/2/arguments/name: missing required field".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn an_answer_beside_calls_is_a_violation() {
        let reply =
            r#"[{"name": "turn_on", "arguments": {"name": "kitchen"}}, {"answer": "Done."}]"#;
        let err = tools().parse(reply).unwrap_err();
        assert_eq!(
            err.to_string(),
            "/1/answer: an answer cannot come with tool calls in one reply: call the tools, and answer once their results are in"
        );
        let err = tools()
            .parse(r#"[{"answer": "Yes."}, {"answer": "No."}]"#)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "/1/answer: a reply holds one answer; give only one"
        );
    }

    #[test]
    fn values_read_elsewhere_are_chosen_with_names_mapped_back() {
        let tools = Toolset::new()
            .tool("media.play", "", json!({ "type": "object" }))
            .unwrap();
        let choice = tools
            .choose(vec![
                json!({ "name": "media_play", "arguments": {} }),
                json!({ "name": "media_play", "arguments": { "loud": true } }),
            ])
            .unwrap();
        assert_eq!(
            calls(choice),
            [
                ("media.play".to_owned(), json!({})),
                ("media.play".to_owned(), json!({ "loud": true }))
            ]
        );
        // Values are validated: the original spelling is not a model-facing name.
        let err = tools
            .choose(vec![json!({ "name": "media.play", "arguments": {} })])
            .unwrap_err();
        assert!(matches!(err, ReadError::Invalid(_)), "{err}");
    }
}

mod bad_input {
    use super::*;

    #[test]
    fn tool_lists_that_cannot_be_read_say_where_and_why() {
        let err = Toolset::from_openai_tools(&json!([
            { "type": "function", "function": { "name": "a", "parameters": { "type": "object", "properties": { "x": { "type": "strin" } } } } },
            { "type": "function", "function": { "name": "b", "parameters": { "type": "object", "contains": {} } } },
            { "type": "function", "function": { "name": "c", "parameters": { "type": "string" } } },
            { "type": "function", "function": { "parameters": {} } },
            { "type": "code_interpreter" },
            { "type": "function", "function": { "name": "d", "description": 7 } },
            { "type": "function", "function": { "name": "e", "parameters": { "type": "object", "properties": { "p": { "pattern": "(?<=a)b" } } } } },
            "not a tool",
        ]))
        .unwrap_err();
        insta::assert_snapshot!("bad_openai_tools", err.to_string());
        assert_eq!(err.violations().len(), 8, "{err}");

        let err = Toolset::from_mcp_tools(&json!({ "tool": [] })).unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"(root): expected an MCP tools/list result: a list of tools, or an object with a "tools" list"#
        );
        let err = Toolset::from_anthropic_tools(&json!([
            { "name": "ok", "input_schema": { "type": "object" } },
            { "type": "web_search_20250305", "name": "web_search" },
            { "name": "ref", "input_schema": { "$ref": "https://example.com/schema.json" } },
        ]))
        .unwrap_err();
        insta::assert_snapshot!("bad_anthropic_tools", err.to_string());
        let err = Toolset::new()
            .with_answer_schema(json!({ "type": "object", "if": {} }))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"/if: the answer: the keyword "if" is not supported by toolschema"#
        );
        let err = Toolset::new().tool("", "", json!({})).unwrap_err();
        assert_eq!(err.to_string(), "(root): a tool name must not be empty");
    }

    #[test]
    fn replies_that_cannot_be_used_say_why() {
        let tools = Toolset::new()
            .tool(
                "turn_on",
                "",
                json!({
                    "type": "object",
                    "properties": { "name": { "type": "string" }, "level": { "type": "integer" } },
                    "required": ["name", "level"],
                    "additionalProperties": false
                }),
            )
            .unwrap();
        let cases = [
            // No tool named.
            (
                r#"{"arguments": {"name": "lamp", "level": 1}}"#,
                r#"(root): matches none of the allowed shapes: a tool call; write a tool call as {"name": "turn_on", "arguments": {...}}"#,
            ),
            (
                r#"{"name": "", "arguments": {"name": "lamp", "level": 1}}"#,
                r#"/name: "" is not allowed here; the only allowed value is "turn_on""#,
            ),
            // An answer where the set has none.
            (
                r#"{"answer": "The lamp is on."}"#,
                "/answer: unknown field; the allowed keys are \"name\", \"arguments\"; remove the others\n/name: missing required field\n/arguments: missing required field",
            ),
            // Arguments as a string that is not JSON, and as JSON cut short.
            (
                r#"{"name": "turn_on", "arguments": "name: lamp"}"#,
                r#"/arguments: expected an object, found the string "name: lamp""#,
            ),
            (
                r#"{"name": "turn_on", "arguments": "{\"name\": \"lamp\", \"lev"}"#,
                "/arguments/level: missing required field",
            ),
            (
                "I cannot do that.",
                r#"(root): matches none of the allowed shapes: a tool call; write a tool call as {"name": "turn_on", "arguments": {...}}"#,
            ),
        ];
        for (reply, expected) in cases {
            let err = tools.parse(reply).unwrap_err();
            assert_eq!(err.to_string(), expected, "{reply}");
        }
        // The cut-off arguments are reported as such, for the repair prompt's hint.
        let reply = r#"{"name": "turn_on", "arguments": "{\"name\": \"lamp\", \"lev"}"#;
        let err = tools.parse(reply).unwrap_err();
        let prompt = RepairPrompt::for_schema(tools.schema(), reply, &err);
        assert!(
            prompt.hints().iter().any(|h| h.contains("cut off")),
            "{:?}",
            err.fixes()
        );
    }

    #[test]
    fn a_thousand_tools_stay_compact() {
        let spec = |i: usize| {
            json!({ "name": format!("device.{i}/set"), "description": format!("Set device {i}."), "inputSchema": {
                "type": "object",
                "properties": {
                    "level": { "type": "integer", "minimum": 0, "maximum": 100 },
                    "mode": { "enum": ["auto", "manual"] }
                },
                "required": ["level"]
            }})
        };
        let list = json!({ "tools": (0..1000).map(spec).collect::<Vec<_>>() });
        let tools = Toolset::from_mcp_tools(&list).unwrap();
        assert_eq!(tools.len(), 1000);
        let compact = tools.compact();
        let schema = tools.schema().to_json().to_string();
        assert!(
            compact.len() * 2 < schema.len(),
            "compact {} vs schema {}",
            compact.len(),
            schema.len()
        );
        // Per tool, the compact form is about one line.
        assert!(
            compact.len() / 1000 < 160,
            "{} per tool",
            compact.len() / 1000
        );
        let reply = r#"{"name": "device_999_set", "arguments": {"level": "70", "mode": "Auto"}}"#;
        assert_eq!(
            calls(tools.parse(reply).unwrap()),
            [(
                "device.999/set".to_owned(),
                json!({ "level": 70, "mode": "auto" })
            )]
        );
        let err = tools
            .parse(r#"{"name": "device_999_sett", "arguments": {"level": 7}}"#)
            .unwrap_err();
        let [violation] = err.violations() else {
            panic!("{err}")
        };
        assert_eq!(violation.pointer(), "/name");
        assert_eq!(violation.suggestion(), Some("device_999_set"));
    }
}

mod dialects {
    use super::*;

    #[test]
    fn dialects_shape_each_tool_and_report_what_they_moved() {
        let tools = Toolset::from_anthropic_tools(&json!([{
            "name": "book",
            "description": "Book a table.",
            "input_schema": {
                "type": "object",
                "properties": {
                    "guests": { "type": "integer", "minimum": 1, "maximum": 12 },
                    "name": { "type": "string", "minLength": 2 },
                    "when": { "const": "tonight" }
                },
                "required": ["guests"]
            }
        }]))
        .unwrap();
        let anthropic = &tools.definitions(Dialect::Anthropic).unwrap()[0];
        assert_eq!(anthropic.name, "book");
        assert_eq!(anthropic.description.as_deref(), Some("Book a table."));
        assert!(
            anthropic.parameters["properties"]["guests"]
                .get("maximum")
                .is_none()
        );
        let moved: Vec<String> = anthropic.changes.iter().map(|c| c.to_string()).collect();
        assert!(
            moved.iter().any(|c| c.contains("from 1 to 12")),
            "{moved:?}"
        );
        // What the dialect dropped is still enforced.
        let err = tools
            .parse(r#"{"name": "book", "arguments": {"guests": 13, "name": "A"}}"#)
            .unwrap_err();
        assert_eq!(
            violations(&err)
                .iter()
                .map(|(p, _)| p.as_str())
                .collect::<Vec<_>>(),
            ["/arguments/guests", "/arguments/name"]
        );
        let gemini = &tools.definitions(Dialect::Gemini).unwrap()[0];
        assert_eq!(
            gemini.parameters["properties"]["when"]["enum"],
            json!(["tonight"])
        );
        let openai = &tools.definitions(Dialect::OpenAiStrict).unwrap()[0];
        assert_eq!(
            openai.parameters["required"],
            json!(["guests", "name", "when"])
        );
        assert_eq!(
            openai.restore(json!({ "guests": 2, "name": null, "when": null })),
            json!({ "guests": 2 })
        );
        assert_eq!(openai.spec().name, "book");
    }

    #[test]
    fn a_schema_a_dialect_cannot_express_names_the_tool_and_the_field() {
        let tools = Toolset::from_openai_tools(&json!([{ "type": "function", "function": {
            "name": "tag.add",
            "parameters": {
                "type": "object",
                "properties": { "labels": { "type": "object", "additionalProperties": { "type": "string" } } }
            }
        }}]))
        .unwrap();
        let err = tools.definitions(Dialect::OpenAiStrict).unwrap_err();
        let text = err.to_string();
        assert!(text.contains(r#"tool "tag.add""#), "{text}");
        assert!(text.contains("labels"), "{text}");
        // Other dialects take it.
        assert!(tools.definitions(Dialect::Gemini).is_ok());
    }
}

mod agreement {
    use super::*;

    /// Tool schemas of the kinds servers list, each checked by the `jsonschema` crate too.
    fn schemas() -> Vec<Value> {
        vec![
            json!({
                "type": "object",
                "properties": {
                    "name": { "type": "string", "minLength": 1, "maxLength": 12 },
                    "domain": { "type": "array", "items": { "enum": ["light", "fan"] }, "uniqueItems": true },
                    "brightness": { "type": "integer", "minimum": 0, "maximum": 100 }
                },
                "required": ["name"],
                "additionalProperties": false
            }),
            json!({
                "type": "object",
                "properties": {
                    "query": { "type": "string", "pattern": "^[a-z ]+$" },
                    // Bounded: past 2^53 the two read a float's `multipleOf` differently (toolschema
                    // as the decimal the JSON text wrote, the crate as the binary value).
                    "limit": { "type": ["integer", "null"], "exclusiveMinimum": 0, "maximum": 1000, "multipleOf": 5 },
                    "filters": {
                        "type": "object",
                        "properties": { "lang": { "const": "en" } },
                        "additionalProperties": { "type": "boolean" }
                    }
                },
                "required": ["query", "filters"]
            }),
            json!({
                "$defs": { "point": { "type": "object", "properties": { "x": { "type": "number" }, "y": { "type": "number" } }, "required": ["x", "y"] } },
                "type": "object",
                "properties": {
                    "path": { "type": "array", "items": { "$ref": "#/$defs/point" }, "minItems": 2 },
                    "shape": { "oneOf": [ { "const": "line" }, { "type": "object", "properties": { "radius": { "type": "number" } }, "required": ["radius"] } ] }
                },
                "required": ["path"]
            }),
        ]
    }

    /// For values generated from each tool's schema (a third meant to be valid, the rest
    /// mutated where validators slip), the set accepts a call exactly when the `jsonschema`
    /// crate accepts its arguments.
    #[test]
    fn a_call_is_accepted_exactly_when_jsonschema_accepts_its_arguments() {
        let schemas = schemas();
        let mut tools = Toolset::new();
        for (i, schema) in schemas.iter().enumerate() {
            tools = tools
                .tool(&format!("tool.{i}"), "", schema.clone())
                .unwrap();
        }
        for (i, schema) in schemas.iter().enumerate() {
            let theirs = jsonschema::validator_for(schema).unwrap();
            let name = tools.model_name(&format!("tool.{i}")).unwrap().to_owned();
            let config = proptest::test_runner::Config {
                cases: 400,
                failure_persistence: None,
                ..Default::default()
            };
            let mut runner = proptest::test_runner::TestRunner::new(config);
            let (accepted, rejected) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
            let result = runner.run(&toolschema_tests::values(schema), |arguments| {
                let expected = theirs.is_valid(&arguments);
                let call = json!({ "name": name, "arguments": arguments });
                let ours = tools.choose(vec![call.clone()]);
                prop_assert_eq!(
                    ours.is_ok(),
                    expected,
                    "tool {}: {} {:?}",
                    i,
                    arguments,
                    ours.err()
                );
                // The lenient parse of the same call as text agrees on valid calls.
                if expected {
                    prop_assert!(tools.parse(&call.to_string()).is_ok(), "{}", call);
                    accepted.set(accepted.get() + 1);
                } else {
                    rejected.set(rejected.get() + 1);
                }
                Ok(())
            });
            if let Err(failure) = result {
                panic!("{failure}");
            }
            let (accepted, rejected) = (accepted.get(), rejected.get());
            assert!(
                accepted > 40 && rejected > 40,
                "tool {i}: {accepted} accepted, {rejected} rejected"
            );
        }
    }
}
