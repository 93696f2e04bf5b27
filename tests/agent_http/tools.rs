//! Tool calls as servers really send them: malformed `arguments` strings, calls written
//! as text, several calls in one reply.

use std::sync::{Arc, Mutex};

use serde_json::json;
use toolschema::agent::Toolbox;
use toolschema::provider::Mode;
use toolschema::{Agent, ToolSchema};

use crate::server::{Events, FAST, anthropic, bodies, chat, message, openai, tool_calls};

#[derive(ToolSchema, Debug, Clone, PartialEq)]
struct GetWeather {
    city: String,
    #[schema(range(min = 1, max = 7))]
    days: u8,
}

#[derive(ToolSchema, Debug, Clone, PartialEq)]
struct GetTime {
    city: String,
}

#[derive(ToolSchema, Debug, PartialEq)]
enum Step {
    /// The forecast for a city.
    #[tool]
    GetWeather(GetWeather),
    /// The local time in a city.
    #[tool]
    GetTime(GetTime),
    #[answer]
    Answer(String),
}

fn oslo(days: u8) -> Step {
    Step::GetWeather(GetWeather {
        city: "Oslo".into(),
        days,
    })
}

#[tokio::test]
async fn malformed_arguments_strings_are_repaired_locally() {
    // Single quotes, an unquoted key, a trailing comma, a number as a string.
    let arguments = "{'city': 'Oslo', days: \"3\",}";
    let (server, provider) =
        openai(vec![tool_calls(&[("call_1", "get_weather", arguments)])]).await;
    let events = Events::default();
    let agent = Agent::new(provider)
        .mode(Mode::Tools)
        .on_event(events.listener());
    let step: Step = agent
        .ask("Weather in Oslo for 3 days?")
        .await
        .expect("a step");
    assert_eq!(step, oslo(3));
    assert_eq!(bodies(&server).await.len(), 1);

    let lines = events.lines();
    assert_eq!(lines[0], "attempt 1 (tools)");
    assert_eq!(lines[1], "reply 1 (ToolCalls)");
    let fixed = &lines[2];
    assert!(fixed.starts_with("fixed locally 1: "), "{lines:?}");
    for fix in [
        "single quotes",
        "unquoted key",
        "trailing comma",
        "/arguments/days",
    ] {
        assert!(fixed.contains(fix), "{fix} not in {fixed}");
    }
    assert_eq!(agent.metrics().fixed_locally, 1);
}

#[tokio::test]
async fn arguments_beyond_repair_go_back_to_the_model() {
    let (server, provider) = openai(vec![
        tool_calls(&[("call_1", "get_weather", r#"{"city": "Oslo", "days": 30}"#)]),
        tool_calls(&[("call_2", "get_weather", r#"{"city": "Oslo", "days": 7}"#)]),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let step: Step = agent
        .ask("Weather in Oslo for a month?")
        .await
        .expect("a step");
    assert_eq!(step, oslo(7));

    let bodies = bodies(&server).await;
    let messages = bodies[1]["messages"].as_array().expect("messages");
    // The failed call is quoted in the target's form, then what is wrong with it.
    assert_eq!(
        messages[2]["content"],
        r#"{"name": "get_weather", "arguments": {"city": "Oslo", "days": 30}}"#
    );
    let repair = messages[3]["content"].as_str().expect("a repair message");
    assert!(
        repair.contains("- /arguments/days: 30 is above the maximum of 7"),
        "{repair}"
    );
    // Still in tools mode: the tools are offered again.
    assert_eq!(bodies[1]["tools"], bodies[0]["tools"]);
}

#[tokio::test]
async fn a_tool_call_written_as_text_is_read_from_the_content() {
    // Small local models behind llama.cpp answer `tools` with the call as text.
    let text = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\", \"days\": 2}}\n</tool_call>";
    let (server, provider) = openai(vec![chat(text)]).await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let step: Step = agent.ask("Weather in Oslo, 2 days?").await.expect("a step");
    assert_eq!(step, oslo(2));
    assert_eq!(bodies(&server).await.len(), 1);

    // Under Mode::Auto the fallback to text is visible, and the next attempt of the ask
    // no longer asks for native tools.
    let (server, provider) = anthropic(vec![
        message(
            json!([{ "type": "text", "text": "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\"}}" }]),
            "end_turn",
        ),
        message(
            json!([{ "type": "text", "text": "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\", \"days\": 1}}" }]),
            "end_turn",
        ),
    ])
    .await;
    let events = Events::default();
    let agent = Agent::new(provider)
        .backoff(FAST)
        .on_event(events.listener());
    let step: Step = agent.ask("Weather in Oslo today?").await.expect("a step");
    assert_eq!(step, oslo(1));
    assert_eq!(
        events.lines(),
        [
            "attempt 1 (tools)",
            "reply 1 (Stop)",
            // The verdict on the reply first, then what follows from it.
            "violations 1: 1",
            "mode fallback tools -> prompt",
            "repair sent 1",
            "attempt 2 (prompt)",
            "reply 2 (Stop)",
            "done after 2",
        ]
    );
    let bodies = bodies(&server).await;
    assert!(bodies[0].get("tools").is_some());
    assert!(bodies[1].get("tools").is_none());
}

#[tokio::test]
async fn several_tool_calls_in_one_reply_run_through_the_toolbox() {
    let (server, provider) = openai(vec![
        tool_calls(&[
            ("call_a", "get_weather", r#"{"city": "Oslo", "days": 1}"#),
            ("call_b", "get_time", r#"{"city": "Oslo"}"#),
            ("call_c", "get_weather", r#"{"city": "Bergen", "days": 2"#),
        ]),
        chat(r#"{"answer": "Oslo: 3°C at 14:00; Bergen: rain."}"#),
    ])
    .await;
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let (weather_seen, time_seen) = (seen.clone(), seen.clone());
    let tools = Toolbox::new()
        .tool("get_weather", move |args: GetWeather| {
            let seen = weather_seen.clone();
            async move {
                seen.lock()
                    .expect("lock")
                    .push(format!("weather {} {}", args.city, args.days));
                Ok::<_, String>(if args.city == "Oslo" { "3°C" } else { "rain" }.to_owned())
            }
        })
        .tool("get_time", move |args: GetTime| {
            let seen = time_seen.clone();
            async move {
                seen.lock()
                    .expect("lock")
                    .push(format!("time {}", args.city));
                Ok::<_, String>("14:00".to_owned())
            }
        });
    let agent = Agent::new(provider).mode(Mode::Tools);
    let answer: Step = agent
        .ask("Weather and time?")
        .run(&tools)
        .await
        .expect("an answer");
    assert_eq!(
        answer,
        Step::Answer("Oslo: 3°C at 14:00; Bergen: rain.".into())
    );
    assert_eq!(
        *seen.lock().expect("lock"),
        ["weather Oslo 1", "time Oslo", "weather Bergen 2"]
    );

    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    let messages = bodies[1]["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 6);
    let ids: Vec<&str> = messages[2]["tool_calls"]
        .as_array()
        .expect("tool calls")
        .iter()
        .map(|c| c["id"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(ids, ["call_a", "call_b", "call_c"]);
    // The third call's arguments went back repaired, as the tool received them.
    assert_eq!(
        messages[2]["tool_calls"][2]["function"]["arguments"],
        r#"{"city":"Bergen","days":2}"#
    );
    let results: Vec<(&str, &str)> = messages[3..]
        .iter()
        .map(|m| {
            (
                m["tool_call_id"].as_str().unwrap_or_default(),
                m["content"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        results,
        [
            ("call_a", "Result of get_weather: 3°C"),
            ("call_b", "Result of get_time: 14:00"),
            ("call_c", "Result of get_weather: rain"),
        ]
    );
}

#[tokio::test]
async fn the_tool_loop_stops_at_its_step_limit() {
    let call = || tool_calls(&[("call_1", "get_time", r#"{"city": "Oslo"}"#)]);
    let (server, provider) = openai(vec![call(), call(), call()]).await;
    let tools = Toolbox::new()
        .tool("get_time", |_: GetTime| async {
            Ok::<_, String>("14:00".to_owned())
        })
        .max_steps(2);
    let err = Agent::new(provider)
        .mode(Mode::Tools)
        .ask::<Step>("Time?")
        .run(&tools)
        .await
        .unwrap_err();
    assert_eq!(err.to_string(), "no answer after 2 tool-loop steps");
    assert_eq!(bodies(&server).await.len(), 2);
}

#[tokio::test]
async fn null_for_an_absent_argument_is_read_as_absent() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Search {
        query: String,
        #[serde(default)]
        exact: bool,
    }

    #[derive(ToolSchema, Debug, PartialEq)]
    enum Action {
        #[tool]
        Search(Search),
        #[answer]
        Answer(String),
    }

    let (server, provider) = openai(vec![tool_calls(&[(
        "call_1",
        "search",
        r#"{"query": "fjords", "exact": null}"#,
    )])])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let action: Action = agent.ask("Find fjords").await.expect("an action");
    assert_eq!(
        action,
        Action::Search(Search {
            query: "fjords".into(),
            exact: false
        })
    );
    assert_eq!(agent.metrics().first_try, 1);
    // OpenAI strict mode required the key and allowed null for it.
    let body = &bodies(&server).await[0];
    // After the answer's tool.
    let parameters = &body["tools"][1]["function"]["parameters"];
    assert_eq!(parameters["required"], json!(["query", "exact"]));
    assert_eq!(
        parameters["properties"]["exact"]["type"],
        json!(["boolean", "null"])
    );
}
