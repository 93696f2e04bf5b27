//! A reply that writes back the union's shape a repair showed it, where no reply before it
//! called one of the union's functions or the calls before it were made of nothing the
//! user wrote, says that none fits: the model is asked for its answer alone next. After a
//! call of one of the functions sent back for its schema alone, the shape written back is
//! sent back as before, and the call that follows is taken.

use serde_json::{Value, json};
use toolschema::provider::Mode;
use toolschema::{AskError, Choice, FixKind, ViolationKind};

use crate::no_function_fits::{agent, tools};
use crate::server::{bodies, chat, contents, openai, tool_calls};

/// The union's shape in the notation a repair shows it, written back as a small model
/// writes it.
const SHAPE: &str = r#"| {
    name: "geography_get_country_info",
    arguments: {
      country: string,
      fields?: string[],
      [key: string]: any,
    },
  }
| {
    name: "recipes_search",
    arguments: {
      ingredients: string[],
      [key: string]: any,
    },
  }
| { answer: string }"#;

const ASKED: &str = "None of the functions does what the request asks, so answer it yourself";

fn echoed(error: Option<&toolschema::Error>) -> bool {
    error.is_some_and(|e| {
        e.violations()
            .iter()
            .any(|v| *v.kind() == ViolationKind::SchemaEchoed)
    })
}

#[tokio::test]
async fn the_shape_written_back_before_any_call_asks_for_the_answer_alone() {
    // First a value of the request where the name goes (a command: one sign, sent back),
    // or prose that names the tools; then the shape.
    let firsts = [
        r#"{"name": "good morning", "arguments": {"text": "good morning"}}"#,
        "You can use geography_get_country_info or recipes_search for this.",
    ];
    for mode in [Mode::Tools, Mode::JsonObject, Mode::Prompt] {
        for first in firsts {
            let (server, provider) = openai(vec![chat(first), chat(SHAPE), chat("Bom dia.")]).await;
            let (agent, events) = agent(provider, mode);
            let result = agent
                .ask_tools(&tools(), "Translate 'good morning' into Portuguese.")
                .answered()
                .await
                .expect("the answer, asked alone");
            assert_eq!(result.value, Choice::Answer(json!("Bom dia.")), "{mode}");
            assert_eq!(result.attempts.len(), 3, "{mode}: {first}");
            assert!(echoed(result.attempts[1].error()), "{mode}: {first}");
            let bodies: Vec<Value> = bodies(&server).await;
            let third = contents(&bodies[2]);
            assert!(third[0].starts_with(ASKED), "{mode}: {third:?}");
            assert!(bodies[2].get("tools").is_none(), "{mode}: {}", bodies[2]);
            assert_eq!(
                *events.lock().unwrap(),
                ["after attempt 2, the replies say no function fits: asking for the answer"],
                "{mode}: {first}"
            );
        }
    }
}

#[tokio::test]
async fn the_shape_written_back_after_a_made_up_call_asks_for_the_answer_alone() {
    // A call of a tool the request names nowhere, with none of its values (sent back as
    // ungrounded), then the shape.
    let (server, provider) = openai(vec![
        tool_calls(&[(
            "c1",
            "geography_get_country_info",
            r#"{"country": "France"}"#,
        )]),
        chat(SHAPE),
        chat("Bom dia."),
    ])
    .await;
    let (agent, events) = agent(provider, Mode::Tools);
    let result = agent
        .ask_tools(&tools(), "Translate 'good morning' into Portuguese.")
        .answered()
        .await
        .expect("the answer, asked alone");
    assert_eq!(result.value, Choice::Answer(json!("Bom dia.")));
    let first = result.attempts[0].error().expect("sent back").to_string();
    assert!(first.contains("France"), "{first}");
    assert!(echoed(result.attempts[1].error()));
    let bodies: Vec<Value> = bodies(&server).await;
    assert!(contents(&bodies[2])[0].starts_with(ASKED), "{}", bodies[2]);
    assert_eq!(events.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn the_shape_written_back_after_a_call_of_a_function_is_sent_back() {
    // A native call of one of the functions that misses its required argument, the
    // shape, then the call whole: the call is taken, and the answer never asked alone.
    let (server, provider) = openai(vec![
        tool_calls(&[("c1", "recipes_search", r#"{"dish": "risotto"}"#)]),
        chat(SHAPE),
        tool_calls(&[(
            "c2",
            "recipes_search",
            r#"{"ingredients": ["mushrooms", "rice"]}"#,
        )]),
    ])
    .await;
    let (agent, events) = agent(provider, Mode::Tools);
    let result = agent
        .ask_tools(&tools(), "Find me a recipe with mushrooms and rice.")
        .answered()
        .await
        .expect("the call");
    let Choice::Calls(calls) = &result.value else {
        panic!("not a call: {:?}", result.value);
    };
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].name(), "recipes.search");
    assert!(echoed(result.attempts[1].error()));
    let bodies: Vec<Value> = bodies(&server).await;
    assert_eq!(bodies.len(), 3);
    assert!(!contents(&bodies[2])[0].starts_with(ASKED), "{}", bodies[2]);
    assert!(bodies[2].get("tools").is_some(), "{}", bodies[2]);
    assert!(events.lock().unwrap().is_empty());
}

#[tokio::test]
async fn the_shape_written_back_twice_after_a_call_fails_with_every_reply_kept() {
    let (_server, provider) = openai(vec![
        tool_calls(&[("c1", "recipes_search", r#"{"dish": "risotto"}"#)]),
        chat(SHAPE),
        chat(SHAPE),
    ])
    .await;
    let (agent, events) = agent(provider, Mode::Tools);
    let error = agent
        .ask_tools(&tools(), "Find me a recipe with mushrooms and rice.")
        .await
        .expect_err("no call was made whole");
    let AskError::Exhausted { attempts, .. } = &error else {
        panic!("not exhausted: {error}");
    };
    assert_eq!(attempts.len(), 3);
    assert!(attempts[0].raw().contains("risotto"));
    assert!(echoed(attempts[1].error()) && echoed(attempts[2].error()));
    assert!(events.lock().unwrap().is_empty());
}

/// A speaker's volume and playback, as a server hands them over, with an answer.
fn music() -> toolschema::Toolset {
    toolschema::Toolset::from_openai_tools(&json!([
        {"type": "function", "function": {
            "name": "music.set_volume",
            "description": "Sets the volume of the active speaker.",
            "parameters": {"type": "object", "properties": {
                "level": {"type": "integer", "minimum": 0, "maximum": 100}
            }, "required": ["level"]}
        }},
        {"type": "function", "function": {
            "name": "music.play",
            "description": "Starts playing a track, album, artist or playlist.",
            "parameters": {"type": "object", "properties": {
                "query": {"type": "string"},
                "shuffle": {"type": "boolean"}
            }, "required": ["query"]}
        }}
    ]))
    .expect("the tools load")
    .with_answer()
}

/// The music union's shape written back, with an optional argument (`shuffle?`): left
/// out as an argument the user never gave, the rest would read as a call of
/// `music_play` for the query "string".
const MUSIC_SHAPE: &str = "| {\n    name: \"music_set_volume\",\n    arguments: {\n      level: int /* 0..=100 */,\n    },\n  }\n| {\n    name: \"music_play\",\n    arguments: {\n      query: string,\n      shuffle?: boolean,\n    },\n  }\n| { answer: string }";

#[tokio::test]
async fn the_shape_written_back_is_never_read_as_a_call_of_its_types() {
    let request = "What volume of water fills an Olympic swimming pool?";
    // After a call of one of the functions sent back for its schema (a level above the
    // maximum): the shape is sent back as the shape, twice, and the ask fails with the
    // shape's violation, not a call's.
    let (_server, provider) = openai(vec![
        tool_calls(&[("c1", "music_set_volume", r#"{"level": 250}"#)]),
        chat(MUSIC_SHAPE),
        chat(MUSIC_SHAPE),
    ])
    .await;
    let (first, _) = agent(provider, Mode::Tools);
    let error = first
        .ask_tools(&music(), request)
        .await
        .expect_err("no reply to take");
    let AskError::Exhausted { attempts, .. } = &error else {
        panic!("not exhausted: {error}");
    };
    assert!(!echoed(attempts[0].error()), "{:?}", attempts[0].error());
    for attempt in &attempts[1..] {
        let error = attempt.error().expect("rejected");
        assert_eq!(error.violations().len(), 1, "{error}");
        assert!(echoed(Some(error)), "{error}");
        assert!(attempt.fixes().is_empty(), "{:?}", attempt.fixes());
    }
    // Before any call: the answer alone is asked for next.
    let (_server, provider) = openai(vec![
        chat("I would use music_set_volume for that."),
        chat(MUSIC_SHAPE),
        chat("About 2,500,000 litres."),
    ])
    .await;
    let (second, events) = agent(provider, Mode::Tools);
    let choice = second
        .ask_tools(&music(), request)
        .await
        .expect("the answer, asked alone");
    assert_eq!(choice, Choice::Answer(json!("About 2,500,000 litres.")));
    assert_eq!(events.lock().unwrap().len(), 1);
}

/// The sports union's shape written back: read as JSON, a call of `sports_get_standings`
/// for the league "string" of the season "string".
const SPORTS_SHAPE: &str = "| {\n    name: \"sports_get_standings\",\n    arguments: {\n      league: string,\n      season: string,\n    },\n  }\n| { answer: string }";

#[tokio::test]
async fn the_shape_written_back_after_a_held_answer_keeps_the_answer() {
    // The answer, sent back as skipping the tool the request names ("sports"), is held;
    // asked to call the tool, the model writes back the shape: it has no call to make,
    // and the answer stands. The shape is read as no call: its types (`league: string`)
    // are never reported as a call's values.
    let answer = "The Football League, founded in 1888.";
    for mode in [Mode::JsonObject, Mode::Prompt, Mode::Tools] {
        let (server, provider) = openai(vec![
            chat(&format!(r#"{{"answer": "{answer}"}}"#)),
            chat(SPORTS_SHAPE),
        ])
        .await;
        let (agent, events) = agent(provider, mode);
        let asked = agent
            .ask_tools(
                &crate::copied_example::sports(),
                "Which sports league is the oldest in the world?",
            )
            .answered()
            .await
            .unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert_eq!(asked.value, Choice::Answer(json!(answer)), "{mode}");
        assert_eq!(bodies(&server).await.len(), 2, "{mode}");
        assert!(
            matches!(
                asked.attempts[0].violations()[0].kind(),
                ViolationKind::SkippedTool { .. }
            ),
            "{mode}"
        );
        let taken = &asked.attempts[1];
        assert!(taken.raw().contains("league: string"), "{mode}");
        let kept = taken.fixes().iter().find_map(|f| match f.kind() {
            FixKind::AnswerKept { attempt, instead } => Some((*attempt, instead.clone())),
            _ => None,
        });
        let (attempt, instead) = kept.unwrap_or_else(|| panic!("{mode}: {:?}", taken.fixes()));
        assert_eq!(attempt, 1, "{mode}");
        assert!(instead.contains("schema sent back"), "{mode}: {instead}");
        assert!(
            !instead.contains("\"string\"") && !instead.contains("call's values"),
            "{mode}: {instead}"
        );
        assert!(events.lock().unwrap().is_empty(), "{mode}");
    }
}
