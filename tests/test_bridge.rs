//! Bridged fields (`#[schema(bridge)]`): what serde rejects is a violation at its pointer,
//! found in the same pass as the schema's violations, repaired by the agent like any
//! other, and kept in the error; a bridged schema the loader refuses is an error that
//! names the type and the keyword.

use std::borrow::Cow;

use toolschema::provider::Scripted;
use toolschema::{Agent, AskError, ToolSchema, ViolationKind};

/// A meeting, with a bridged id.
#[derive(ToolSchema, Debug, PartialEq)]
struct Meeting {
    #[schema(bridge)]
    id: uuid::Uuid,
    #[schema(length(min = 1))]
    title: String,
    #[schema(range(min = 5, max = 480))]
    minutes: u16,
}

const GOOD: &str =
    r#"{"id": "123e4567-e89b-12d3-a456-426614174000", "title": "Standup", "minutes": 15}"#;

fn pointers(error: &toolschema::Error) -> Vec<&str> {
    error.violations().iter().map(|v| v.pointer()).collect()
}

#[test]
fn a_value_serde_rejects_is_reported_with_the_schema_s_violations() {
    // `format: "uuid"` is asserted on derived types; this id has the shape and not the
    // digits, and a braced id has the digits and not the shape.
    for id in [
        "not-a-uuid",
        "123e4567-e89b-12d3-a456-42661417400z",
        "{123e4567-e89b-12d3-a456-426614174000}",
    ] {
        let text = format!(r#"{{"id": "{id}", "title": "", "minutes": 1}}"#);
        let err = toolschema::from_str::<Meeting>(&text).unwrap_err();
        assert_eq!(pointers(&err), ["/id", "/title", "/minutes"], "{err}");
        let parsed = toolschema::parse::<Meeting>(&text).unwrap_err();
        assert_eq!(pointers(&parsed), ["/id", "/title", "/minutes"], "{parsed}");
    }
}

/// A type whose schema (from schemars) fits the loader but whose serde is stricter: the
/// node carries serde's own check.
#[derive(serde::Deserialize, Debug, PartialEq)]
#[serde(try_from = "String")]
struct Even(u32);

impl TryFrom<String> for Even {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let n: u32 = s.parse().map_err(|_| format!("{s:?} is not a number"))?;
        if n.is_multiple_of(2) {
            Ok(Even(n))
        } else {
            Err(format!("{n} is odd"))
        }
    }
}

impl schemars::JsonSchema for Even {
    fn schema_name() -> Cow<'static, str> {
        "Even".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string" })
    }
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Pair {
    #[schema(bridge)]
    left: Even,
    #[schema(bridge)]
    right: Option<Even>,
}

#[test]
fn serde_s_message_is_the_violation() {
    let err = toolschema::from_str::<Pair>(r#"{"left": "3", "right": "x"}"#).unwrap_err();
    let found: Vec<(String, String)> = err
        .violations()
        .iter()
        .map(|v| (v.pointer().to_owned(), v.kind().to_string()))
        .collect();
    assert_eq!(
        found,
        [
            ("/left".to_owned(), "not a valid Even: 3 is odd".to_owned()),
            (
                "/right".to_owned(),
                "not a valid Option<Even>: \"x\" is not a number".to_owned()
            ),
        ]
    );
    let ok = toolschema::from_str::<Pair>(r#"{"left": "4", "right": null}"#).unwrap();
    assert_eq!(
        ok,
        Pair {
            left: Even(4),
            right: None
        }
    );
}

#[tokio::test]
async fn the_agent_repairs_a_bridged_field() {
    let bad = r#"{"id": "not-a-uuid", "title": "Standup", "minutes": 15}"#;
    let model = Scripted::new([bad, GOOD]);
    let agent = Agent::new(model.clone()).max_attempts(3);
    let meeting: Meeting = agent.ask("Standup, 15 minutes").await.unwrap();
    assert_eq!(
        meeting.id.to_string(),
        "123e4567-e89b-12d3-a456-426614174000"
    );
    assert_eq!(model.calls(), 2);
    let repair = &model.request_texts()[1];
    assert!(
        repair.contains("/id: \"not-a-uuid\" is not a valid uuid"),
        "{repair}"
    );
    let metrics = agent.metrics();
    assert_eq!(
        (metrics.exhausted, metrics.fixed_by_model),
        (0, 1),
        "{metrics:?}"
    );
}

#[tokio::test]
async fn an_exhausted_ask_keeps_every_attempt_and_counts() {
    let replies = [
        r#"{"id": "1", "title": "Standup", "minutes": 15}"#,
        r#"{"id": "2", "title": "Standup", "minutes": 15}"#,
        r#"{"id": "3", "title": "Standup", "minutes": 15}"#,
    ];
    let model = Scripted::new(replies);
    let agent = Agent::new(model.clone()).max_attempts(3);
    let err = agent.ask::<Meeting>("Standup").await.unwrap_err();
    assert!(matches!(err, AskError::Exhausted { .. }), "{err}");
    let raws: Vec<&str> = err.attempts().iter().map(|a| a.raw()).collect();
    assert_eq!(raws, replies);
    for attempt in err.attempts() {
        let pointers: Vec<&str> = attempt.violations().iter().map(|v| v.pointer()).collect();
        assert_eq!(pointers, ["/id"]);
        assert!(!attempt.request().is_empty());
    }
    assert_eq!(agent.metrics().exhausted, 1);
}

/// A bridged type whose schema uses a keyword the loader does not support.
#[derive(serde::Deserialize, Debug, PartialEq)]
struct Conditional(String);

impl schemars::JsonSchema for Conditional {
    fn schema_name() -> Cow<'static, str> {
        "Conditional".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "if": { "minLength": 3 },
            "then": { "pattern": "^a" }
        })
    }
}

#[derive(ToolSchema, Debug)]
#[allow(dead_code)] // read from JSON only
struct Rule {
    #[schema(bridge)]
    when: Conditional,
}

#[test]
fn an_unloadable_bridged_schema_names_the_type_and_the_keyword() {
    let err = toolschema::from_str::<Rule>(r#"{"when": "abc"}"#).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("Conditional"), "{text}");
    assert!(text.contains(r#"keyword "if" is not supported"#), "{text}");
    assert!(matches!(
        err.violations()[0].kind(),
        ViolationKind::Invalid { .. }
    ));
    let problem = toolschema::Schema::of::<Rule>().problem().unwrap();
    assert!(problem.to_string().contains(r#""then""#), "{problem}");
    // Nothing is accepted, not even on the lenient path.
    assert!(toolschema::parse::<Rule>(r#"{"when": "abc"}"#).is_err());
}

#[tokio::test]
async fn an_unloadable_schema_fails_the_ask_before_any_model_call() {
    let model = Scripted::new([r#"{"when": "abc"}"#]);
    let agent = Agent::new(model.clone());
    let err = agent.ask::<Rule>("anything").await.unwrap_err();
    let AskError::Schema { error, attempts } = &err else {
        panic!("expected a schema error, got {err}");
    };
    assert!(error.to_string().contains("Conditional"), "{error}");
    assert!(attempts.is_empty());
    assert_eq!(model.calls(), 0);
}
