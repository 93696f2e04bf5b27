//! The checks of a conversation on calls of the values a tool's documentation gives as
//! examples.

use serde_json::json;

use super::examples;
use super::tests::asked;

/// A sports tool documented with examples, as servers hand them over.
fn standings() -> (String, Vec<Vec<String>>) {
    let description = "Returns a football league's table for a season.";
    let arguments = json!({
        "type": "object",
        "properties": {
            "league": {"type": "string", "description": "The league, e.g. 'Serie A'."},
            "season": {"type": "string", "description": "The season, e.g. '2023-24'."}
        },
        "required": ["league", "season"]
    });
    let about = format!("sports.get_standings {description} league season");
    (about, examples::of(description, &arguments))
}

#[test]
fn a_call_of_the_documentations_examples_is_questioned_though_the_request_names_its_subject() {
    let (about, examples) = standings();
    let call = json!({"name": "sports.get_standings", "arguments": {"league": "Serie A", "season": "2023-24"}});
    let request = asked("Explain the offside rule in football in one sentence.");
    // Without the examples, "football" in the description lets the call stand.
    assert!(request.ungrounded(&call, &about, &[]).is_none());
    let violation = request
        .ungrounded(&call, &about, &examples)
        .expect("copied examples");
    assert_eq!(violation.pointer(), "/arguments");
    assert!(
        matches!(violation.kind(), crate::ViolationKind::CopiedExample { values } if values == &["\"Serie A\"", "\"2023-24\""]),
        "{violation:?}"
    );
    assert!(
        violation
            .to_string()
            .contains("examples given in the function's description"),
        "{violation}"
    );
}

#[test]
fn an_example_the_user_wrote_too_is_the_users() {
    let (about, examples) = standings();
    for (request, arguments) in [
        (
            "Serie A table for 2023-24 please",
            json!({"league": "Serie A", "season": "2023-24"}),
        ),
        // One value of the user's is enough for the call to stand, examples beside it.
        (
            "How does the Premier League table look?",
            json!({"league": "Premier League", "season": "2023-24"}),
        ),
        (
            "serie a standings",
            json!({"league": "Serie A", "season": "2024-25"}),
        ),
    ] {
        let call = json!({"name": "sports.get_standings", "arguments": arguments});
        assert!(
            asked(request)
                .ungrounded(&call, &about, &examples)
                .is_none(),
            "{request}"
        );
    }
}

#[test]
fn a_value_of_the_models_own_that_is_no_example_keeps_the_old_rule() {
    let (about, examples) = standings();
    // A made-up value, not the documentation's: the request names the tool's subject.
    let call = json!({"name": "sports.get_standings", "arguments": {"league": "Bundesliga", "season": "2021-22"}});
    let request = asked("Explain the offside rule in football in one sentence.");
    assert!(request.ungrounded(&call, &about, &examples).is_none());
    // A default written in a description is no example.
    let description = "The current time in a time zone. The zone defaults to UTC.";
    let arguments = json!({"properties": {"timezone": {"type": "string", "description": "IANA zone; UTC when left out."}}});
    let call = json!({"name": "time_now", "arguments": {"timezone": "UTC"}});
    let about = format!("time_now {description} timezone");
    let examples = examples::of(description, &arguments);
    assert!(
        asked("Time?")
            .ungrounded(&call, &about, &examples)
            .is_none()
    );
}

proptest::proptest! {
    /// Whatever the documentation's examples, a call holding a value the user wrote is
    /// never questioned as made of them.
    #[test]
    fn a_call_with_a_value_of_the_request_is_never_questioned_as_copied(
        value in "[A-Z][a-z]{2,9}( [A-Z][a-z]{2,9})?",
        example in "[A-Z][a-z]{2,9}",
        lead in "(Please|Show me|What about|I need|Hey,) ",
    ) {
        let description = format!("Looks things up, e.g. '{example}' or '{value}'.");
        let arguments = json!({"properties": {
            "first": {"type": "string", "description": format!("For example {example}.")},
            "second": {"type": "string", "examples": [value.clone()]}
        }});
        let examples = examples::of(&description, &arguments);
        let request = format!("{lead}{value}");
        let call = json!({"name": "lookup", "arguments": {"first": example, "second": value}});
        proptest::prop_assert!(asked(&request).ungrounded(&call, "lookup", &examples).is_none());
    }
}
