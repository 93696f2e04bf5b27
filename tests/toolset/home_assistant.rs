//! Home Assistant intents given at run time: a device class that is a domain, and a
//! caller's check of the devices the home knows.

use super::*;

const DEVICE_CLASSES: &[&str] = &[
    "awning", "blind", "curtain", "damper", "door", "garage", "gate", "shade", "shutter", "window",
    "outlet", "switch", "tv", "speaker", "receiver",
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
    let fixed =
        r#"{"name": "HassTurnOn", "arguments": {"name": "bedroom light", "domain": ["light"]}}"#;
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
        .parse(r#"{"name": "HassTurnOn", "arguments": {"name": true}}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "/arguments/name: expected a string, found the boolean true"
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
