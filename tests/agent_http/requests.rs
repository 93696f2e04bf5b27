//! What each provider sends, exactly, in each mode: whole bodies (snapshots) and headers.

use serde_json::json;
use toolschema::agent::Toolbox;
use toolschema::provider::{Mode, ProviderError};
use toolschema::{Agent, AskError, ToolSchema};

use crate::server::{
    ANTHROPIC_PATH, FAST, OPENAI_PATH, anthropic, bodies, chat, message, openai, requests,
    tool_calls,
};

fn header<'a>(request: &'a wiremock::Request, name: &str) -> Option<&'a str> {
    request.headers.get(name).and_then(|v| v.to_str().ok())
}

#[tokio::test]
async fn openai_prompt_mode_sends_the_compact_shape_and_bearer_auth() {
    /// An invoice line.
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Line {
        sku: String,
        #[schema(range(min = 1, max = 99))]
        quantity: u8,
    }

    let (server, provider) = openai(vec![chat(r#"{"sku": "A-1", "quantity": 2}"#)]).await;
    let agent = Agent::new(provider.api_key("sk-test-123"))
        .mode(Mode::Prompt)
        .system("You read invoices.")
        .temperature(0.2)
        .max_tokens(200);
    let line: Line = agent.ask("2 of A-1").await.expect("a line");
    assert_eq!(
        line,
        Line {
            sku: "A-1".into(),
            quantity: 2
        }
    );

    let sent = requests(&server).await;
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].url.path(), OPENAI_PATH);
    assert_eq!(
        header(&sent[0], "authorization"),
        Some("Bearer sk-test-123")
    );
    assert_eq!(header(&sent[0], "content-type"), Some("application/json"));
    insta::assert_json_snapshot!("openai_prompt", bodies(&server).await[0]);
}

#[tokio::test]
async fn openai_json_object_mode_sets_the_response_format() {
    #[derive(ToolSchema, Debug)]
    struct City {
        name: String,
        population: u32,
    }

    let (server, provider) = openai(vec![chat(r#"{"name": "Oslo", "population": 709000}"#)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let city: City = agent
        .ask("The largest city in Norway?")
        .await
        .expect("a city");
    assert_eq!((city.name.as_str(), city.population), ("Oslo", 709_000));

    let sent = requests(&server).await;
    // No key, no authorization header at all.
    assert_eq!(header(&sent[0], "authorization"), None);
    insta::assert_json_snapshot!("openai_json_object", bodies(&server).await[0]);
}

#[tokio::test]
async fn openai_json_schema_mode_sends_the_strict_dialect_and_reads_null_as_absent() {
    /// A meeting in the calendar.
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Meeting {
        title: String,
        room: Option<String>,
        #[serde(default)]
        online: bool,
    }

    // OpenAI strict mode makes every key required; `online` became nullable, and a
    // null there means "absent", so the default applies.
    let reply = r#"{"title": "Standup", "room": null, "online": null}"#;
    let (server, provider) = openai(vec![chat(reply)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonSchema);
    let meeting: Meeting = agent.ask("Standup, no room").await.expect("a meeting");
    assert_eq!(
        meeting,
        Meeting {
            title: "Standup".into(),
            room: None,
            online: false
        }
    );
    assert_eq!(agent.metrics().first_try, 1);

    let body = &bodies(&server).await[0];
    let format = &body["response_format"];
    assert_eq!(format["type"], "json_schema");
    assert_eq!(format["json_schema"]["name"], "meeting");
    assert_eq!(format["json_schema"]["strict"], true);
    assert_eq!(
        format["json_schema"]["schema"]["required"],
        json!(["title", "room", "online"])
    );
    insta::assert_json_snapshot!("openai_json_schema", body);
}

#[tokio::test]
async fn openai_tools_mode_sends_tools_tool_choice_and_tool_results() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct GetWeather {
        city: String,
    }

    #[derive(ToolSchema, Debug, PartialEq)]
    enum Step {
        /// Look up the weather for a city.
        #[tool]
        GetWeather(GetWeather),
        #[answer]
        Answer(String),
    }

    let (server, provider) = openai(vec![
        tool_calls(&[("call_1", "get_weather", r#"{"city": "Oslo"}"#)]),
        chat(r#"{"answer": "It is 3°C in Oslo."}"#),
    ])
    .await;
    let tools = Toolbox::new().tool("get_weather", |args: GetWeather| async move {
        Ok::<_, String>(format!("3°C in {}", args.city))
    });
    let agent = Agent::new(provider).mode(Mode::Tools);
    let answer: Step = agent
        .ask("Weather in Oslo?")
        .run(&tools)
        .await
        .expect("an answer");
    assert_eq!(answer, Step::Answer("It is 3°C in Oslo.".into()));

    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    // A union with an answer lets the model choose: tool_choice "auto".
    assert_eq!(bodies[0]["tool_choice"], "auto");
    // The answer is a tool of its own, listed first.
    assert_eq!(bodies[0]["tools"][0]["function"]["name"], "answer");
    assert_eq!(bodies[0]["tools"][1]["function"]["name"], "get_weather");
    // The call and its result go back as OpenAI's assistant tool_calls and tool message.
    let messages = bodies[1]["messages"].as_array().expect("messages");
    assert_eq!(messages[2]["tool_calls"][0]["id"], "call_1");
    assert_eq!(
        messages[3],
        json!({ "role": "tool", "content": "Result of get_weather: 3°C in Oslo", "tool_call_id": "call_1" })
    );
    insta::assert_json_snapshot!("openai_tools_first", bodies[0]);
    insta::assert_json_snapshot!("openai_tools_after_result", bodies[1]);
}

#[tokio::test]
async fn openai_tools_mode_for_a_plain_type_forces_its_one_tool() {
    /// A city and how many live there.
    #[derive(ToolSchema, Debug)]
    struct CityFact {
        name: String,
        population: u32,
    }

    let (server, provider) = openai(vec![tool_calls(&[(
        "call_9",
        "city_fact",
        r#"{"name": "Oslo", "population": 709000}"#,
    )])])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let fact: CityFact = agent.ask("Oslo?").await.expect("a fact");
    assert_eq!(fact.population, 709_000);

    let body = &bodies(&server).await[0];
    assert_eq!(
        body["tool_choice"],
        json!({ "type": "function", "function": { "name": "city_fact" } })
    );
    assert_eq!(
        body["tools"][0],
        json!({
            "type": "function",
            "function": {
                "name": "city_fact",
                "description": "A city and how many live there.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "name": { "type": "string" },
                        "population": { "type": "integer", "minimum": 0, "maximum": 4294967295u64 },
                    },
                    "required": ["name", "population"],
                    "additionalProperties": false,
                },
                "strict": true,
            }
        })
    );
}

#[tokio::test]
async fn anthropic_tools_mode_sends_tool_use_and_tool_result_blocks() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct GetWeather {
        city: String,
    }

    #[derive(ToolSchema, Debug, PartialEq)]
    struct GetTime {
        city: String,
    }

    #[derive(ToolSchema, Debug, PartialEq)]
    enum Step {
        /// Look up the weather for a city.
        #[tool]
        GetWeather(GetWeather),
        /// The local time in a city.
        #[tool]
        GetTime(GetTime),
        #[answer]
        Answer(String),
    }

    let (server, provider) = anthropic(vec![
        message(
            json!([
                { "type": "text", "text": "Let me look." },
                { "type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": { "city": "Oslo" } },
                { "type": "tool_use", "id": "toolu_2", "name": "get_time", "input": { "city": "Oslo" } },
            ]),
            "tool_use",
        ),
        message(
            json!([{ "type": "text", "text": "It is 3°C and 14:00 in Oslo." }]),
            "end_turn",
        ),
    ])
    .await;
    let tools = Toolbox::new()
        .tool("get_weather", |args: GetWeather| async move {
            Ok::<_, String>(format!("3°C in {}", args.city))
        })
        .tool("get_time", |_: GetTime| async move {
            Err::<String, _>("the clock is broken")
        });
    // Mode::Auto picks native tools first for Anthropic.
    let agent = Agent::new(provider.api_key("sk-ant-test"))
        .system("You are terse.")
        .backoff(FAST);
    let answer: Step = agent
        .ask("Weather and time in Oslo?")
        .run(&tools)
        .await
        .expect("an answer");
    // Plain text without a tool call is the answer itself.
    assert_eq!(answer, Step::Answer("It is 3°C and 14:00 in Oslo.".into()));

    let sent = requests(&server).await;
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[0].url.path(), ANTHROPIC_PATH);
    assert_eq!(header(&sent[0], "x-api-key"), Some("sk-ant-test"));
    assert_eq!(header(&sent[0], "anthropic-version"), Some("2023-06-01"));
    assert_eq!(header(&sent[0], "authorization"), None);

    let bodies = bodies(&server).await;
    assert_eq!(bodies[0]["tool_choice"], json!({ "type": "auto" }));
    // Both results answer their calls in one user message, as Anthropic asks; the
    // tool's error is marked as one.
    assert_eq!(
        bodies[1]["messages"][2],
        json!({ "role": "user", "content": [
            { "type": "tool_result", "tool_use_id": "toolu_1", "content": "Result of get_weather: 3°C in Oslo" },
            { "type": "tool_result", "tool_use_id": "toolu_2", "content": "Error from get_time: the clock is broken", "is_error": true },
        ]})
    );
    insta::assert_json_snapshot!("anthropic_tools_first", bodies[0]);
    insta::assert_json_snapshot!("anthropic_tools_after_results", bodies[1]);
}

#[tokio::test]
async fn anthropic_prompt_mode_puts_the_shape_in_the_system_prompt() {
    #[derive(ToolSchema, Debug)]
    struct Person {
        name: String,
        age: u8,
    }

    let (server, provider) = anthropic(vec![message(
        json!([{ "type": "text", "text": "{\"name\": \"Ann\", \"age\": 31}" }]),
        "end_turn",
    )])
    .await;
    // With no cap of the agent's own, the provider's default is sent (the API needs one).
    let agent = Agent::new(provider.api_key("sk-ant-test").default_max_tokens(300))
        .mode(Mode::Prompt)
        .reply_cap(toolschema::agent::ReplyCap::Unlimited)
        .system("You extract people.");
    let person: Person = agent.ask("Ann is 31.").await.expect("a person");
    assert_eq!((person.name.as_str(), person.age), ("Ann", 31));

    let body = &bodies(&server).await[0];
    assert!(body.get("tools").is_none());
    assert_eq!(body["max_tokens"], 300);
    insta::assert_json_snapshot!("anthropic_prompt", body);
}

#[tokio::test]
async fn api_keys_never_show_in_debug_or_errors() {
    #[derive(ToolSchema, Debug)]
    struct Person {
        name: String,
    }

    const KEY: &str = "sk-secret-4f9a";

    // A server (a misconfigured proxy, say) that echoes the key in its error body.
    let echo = wiremock::ResponseTemplate::new(401)
        .set_body_string(format!("invalid key {KEY}; check your Bearer {KEY}"));
    let (_server, provider) = openai(vec![echo]).await;
    let provider = provider.api_key(KEY);
    assert!(!format!("{provider:?}").contains(KEY));
    let agent = Agent::new(provider).mode(Mode::Prompt);
    let err = agent.ask::<Person>("Ann").await.unwrap_err();
    assert!(matches!(
        err.provider_error(),
        Some(ProviderError::Http { status: 401, .. })
    ));
    for shown in [err.to_string(), format!("{err:?}")] {
        assert!(!shown.contains(KEY), "{shown}");
        assert!(shown.contains("invalid key [redacted]"), "{shown}");
    }

    let echo = wiremock::ResponseTemplate::new(403).set_body_string(format!("bad key {KEY}"));
    let (_server, provider) = anthropic(vec![echo]).await;
    let provider = provider.api_key(KEY);
    assert!(!format!("{provider:?}").contains(KEY));
    let err = Agent::new(provider)
        .mode(Mode::Prompt)
        .ask::<Person>("Ann")
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the provider failed: HTTP 403: bad key [redacted]"
    );
    assert!(!format!("{err:?}").contains(KEY));

    // A connection error names the URL, never the headers.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}/v1", closed.local_addr().expect("an address"));
    drop(closed);
    let provider = toolschema::provider::OpenAi::new(url, "m").api_key(KEY);
    let err = Agent::new(provider)
        .mode(Mode::Prompt)
        .backoff(FAST.with_retries(1))
        .ask::<Person>("Ann")
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        AskError::Provider {
            error: ProviderError::Connection(_),
            ..
        }
    ));
    for shown in [err.to_string(), format!("{err:?}")] {
        assert!(!shown.contains(KEY), "{shown}");
    }
}

#[tokio::test]
async fn an_empty_reply_is_left_out_of_the_anthropic_repair() {
    #[derive(ToolSchema, Debug)]
    struct Place {
        city: String,
    }

    let (server, provider) = anthropic(vec![
        message(json!([]), "end_turn"),
        message(
            json!([{ "type": "text", "text": "{\"city\": \"Oslo\"}" }]),
            "end_turn",
        ),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::Prompt);
    let place: Place = agent.ask("Which city?").await.expect("a city");
    assert_eq!(place.city, "Oslo");
    let bodies = bodies(&server).await;
    let messages = bodies[1]["messages"].as_array().expect("messages");
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(roles, ["user", "user"]);
    let repair = messages[1]["content"].as_str().unwrap_or_default();
    assert!(repair.contains("Your reply had no JSON in it"), "{repair}");
}
