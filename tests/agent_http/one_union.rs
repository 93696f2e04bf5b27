//! A derived union and the same tools as a `Toolset` are two typed views of one
//! description: the agent sends the same tool definitions and the same instructions for
//! both, in every mode, and reads a server-spelled name as the tool it names.

use serde_json::Value;
use toolschema::provider::Mode;
use toolschema::{Agent, Choice, ToolSchema, Toolset};

use crate::server::{bodies, chat, openai};

/// Where to look up the weather.
#[derive(ToolSchema, Debug, PartialEq)]
struct GetWeather {
    /// The city, as the user wrote it.
    city: String,
    /// Days ahead, 1 to 7.
    #[schema(range(min = 1, max = 7))]
    days: Option<u8>,
}

/// Switch a lamp.
#[derive(ToolSchema, Debug, PartialEq)]
struct SwitchLamp {
    room: String,
    on: bool,
}

#[derive(ToolSchema, Debug, PartialEq)]
enum Step {
    /// Look up the weather for a city.
    #[tool]
    GetWeather(GetWeather),
    /// Switch a lamp on or off.
    #[tool]
    SwitchLamp(SwitchLamp),
    #[answer]
    Answer(String),
}

fn the_same_tools() -> Toolset {
    Toolset::new()
        .with_derived::<Step>()
        .expect("a derived union")
        .with_answer()
}

const ANSWER: &str = r#"{"answer": "Hello."}"#;

/// The first request the agent sends in `mode` for the derived union and for the set.
async fn first_requests(mode: Mode) -> (Value, Value) {
    let (derived_server, provider) = openai(vec![chat(ANSWER)]).await;
    let step = Agent::new(provider)
        .mode(mode)
        .ask::<Step>("Say hello.")
        .await
        .expect("an answer");
    assert_eq!(step, Step::Answer("Hello.".into()));
    let (set_server, provider) = openai(vec![chat(ANSWER)]).await;
    let choice = Agent::new(provider)
        .mode(mode)
        .ask_tools(&the_same_tools(), "Say hello.")
        .await
        .expect("an answer");
    assert!(matches!(choice, Choice::Answer(_)), "{choice:?}");
    let derived = bodies(&derived_server).await.remove(0);
    let set = bodies(&set_server).await.remove(0);
    (derived, set)
}

#[tokio::test]
async fn native_tools_are_the_same_definitions_for_both_views() {
    let (derived, set) = first_requests(Mode::Tools).await;
    // The two tools, after the answer's.
    assert_eq!(derived["tools"].as_array().map(Vec::len), Some(3));
    assert_eq!(derived["tools"][0]["function"]["name"], "answer");
    assert_eq!(derived["tools"], set["tools"]);
    assert_eq!(derived["tool_choice"], set["tool_choice"]);
    assert_eq!(derived["messages"][0], set["messages"][0]);
}

#[tokio::test]
async fn text_modes_show_both_views_the_same_instructions() {
    for mode in [Mode::Prompt, Mode::JsonObject] {
        let (derived, set) = first_requests(mode).await;
        let system = &derived["messages"][0];
        assert_eq!(system["role"], "system", "{mode:?}");
        assert!(
            system["content"]
                .as_str()
                .is_some_and(|s| s.contains("switch_lamp") && s.contains("get_weather")),
            "{system}"
        );
        assert_eq!(system, &set["messages"][0], "{mode:?}");
    }
}
