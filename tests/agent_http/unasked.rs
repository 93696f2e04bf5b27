//! Optional arguments the user never gave, left out of a call, against a real HTTP
//! server: what counts as given (the developer's system text, the conversation in any
//! script), and what is never left out (a value the schema needs, one written to fix a
//! violation).

use serde_json::{Value, json};
use toolschema::provider::Mode;
use toolschema::{Agent, Choice, Message, Toolset};

use crate::server::{Events, bodies, chat, openai, tool_calls};

/// A calendar whose events take an optional time zone and length; the description of the
/// time zone names one, as tool servers' descriptions often do.
fn calendar() -> Toolset {
    Toolset::from_openai_tools(&json!([{"type": "function", "function": {
        "name": "calendar.add_event",
        "description": "Adds an event to the user's calendar.",
        "parameters": {"type": "object", "properties": {
            "title": {"type": "string"},
            "hour": {"type": "integer"},
            "timezone": {"type": "string", "description": "An IANA time zone such as Europe/Oslo."},
            "minutes": {"type": "integer", "description": "How long the event lasts."}
        }, "required": ["title", "hour"]}
    }}]))
    .expect("the tools load")
    .with_answer()
}

const STANDUP: &str = "Put the standup in my calendar at 9.";

/// The arguments of the one call an agent made for `request` with this reply.
async fn arguments(agent: Agent<toolschema::provider::OpenAi>, history: &[Message]) -> Value {
    let choice = agent
        .ask_tools(&calendar(), STANDUP)
        .history(history)
        .await
        .expect("a call");
    let Choice::Calls(calls) = choice else {
        panic!("a call: {choice:?}")
    };
    calls[0].arguments().clone()
}

fn event(extra: Value) -> String {
    let mut arguments = json!({"title": "standup", "hour": 9});
    if let (Some(arguments), Value::Object(extra)) = (arguments.as_object_mut(), extra) {
        arguments.extend(extra);
    }
    json!({"name": "calendar_add_event", "arguments": arguments}).to_string()
}

#[tokio::test]
async fn a_value_given_only_in_the_agent_s_system_text_is_kept() {
    for (system, extra) in [
        (
            "The user's time zone is Europe/Oslo.",
            json!({"timezone": "Europe/Oslo"}),
        ),
        ("Meetings last 45 minutes.", json!({"minutes": 45})),
        (
            "The user lives in Oslo; meetings last fifteen minutes.",
            json!({"timezone": "Europe/Oslo", "minutes": 15}),
        ),
    ] {
        let (server, provider) = openai(vec![chat(&event(extra.clone()))]).await;
        let agent = Agent::new(provider).mode(Mode::JsonObject).system(system);
        let arguments = arguments(agent, &[]).await;
        for (key, value) in extra.as_object().into_iter().flatten() {
            assert_eq!(arguments.get(key), Some(value), "{system}: {arguments}");
        }
        assert_eq!(bodies(&server).await.len(), 1, "{system}");
    }
}

#[tokio::test]
async fn a_value_given_only_in_a_system_message_of_the_history_is_kept() {
    let history = [Message::system("The user's time zone is Europe/Oslo.")];
    let extra = json!({"timezone": "Europe/Oslo"});
    let (server, provider) = openai(vec![chat(&event(extra))]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let arguments = arguments(agent, &history).await;
    assert_eq!(arguments["timezone"], json!("Europe/Oslo"), "{arguments}");
    assert_eq!(bodies(&server).await.len(), 1);
}

#[tokio::test]
async fn a_value_found_only_in_a_tool_s_description_is_still_left_out() {
    // The library's own prompt (tool descriptions, examples) is no part of the
    // conversation, beside the developer's system text or without it.
    for system in [None, Some("You keep the user's calendar.")] {
        let extra = json!({"timezone": "Europe/Oslo"});
        let (_server, provider) = openai(vec![chat(&event(extra))]).await;
        let events = Events::default();
        let mut agent = Agent::new(provider)
            .mode(Mode::JsonObject)
            .on_event(events.listener());
        if let Some(system) = system {
            agent = agent.system(system);
        }
        let arguments = arguments(agent, &[]).await;
        assert_eq!(
            arguments,
            json!({"title": "standup", "hour": 9}),
            "{system:?}"
        );
        assert!(
            events
                .lines()
                .iter()
                .any(|l| l.contains("/arguments/timezone: left out")),
            "{:?}",
            events.lines()
        );
    }
}

#[tokio::test]
async fn a_value_in_a_script_written_without_spaces_is_kept_where_the_user_wrote_it() {
    let weather = Toolset::from_openai_tools(&json!([{"type": "function", "function": {
        "name": "weather.forecast",
        "description": "The forecast for a city.",
        "parameters": {"type": "object", "properties": {
            "city": {"type": "string"},
            "days": {"type": "integer"}
        }, "required": []}
    }}]))
    .expect("the tools load")
    .with_answer();
    // "The weather in Shanghai for the next 3 days?"
    let request = "未来3天上海天气怎么样";
    for (city, kept) in [("上海", true), ("北京", false)] {
        let call = json!({"name": "weather_forecast", "arguments": {"city": city, "days": 3}});
        let (server, provider) = openai(vec![chat(&call.to_string())]).await;
        let agent = Agent::new(provider).mode(Mode::JsonObject);
        let Choice::Calls(calls) = agent.ask_tools(&weather, request).await.expect("a call") else {
            panic!("a call")
        };
        assert_eq!(
            calls[0].arguments().get("city").is_some(),
            kept,
            "{city}: {:?}",
            calls[0].arguments()
        );
        assert_eq!(bodies(&server).await.len(), 1);
    }
}

/// Tools whose arguments' schemas need an optional argument in some other way: one of
/// two keys (`anyOf` of `required`), at least one key (`minProperties`), a key that goes
/// with another (`dependentRequired`).
fn directory() -> Toolset {
    Toolset::from_openai_tools(&json!([
        {"type": "function", "function": {
            "name": "contacts.find",
            "description": "Finds a contact by e-mail address or phone number.",
            "parameters": {"type": "object", "properties": {
                "name": {"type": "string"},
                "email": {"type": "string"},
                "phone": {"type": "string"}
            }, "required": ["name"],
            "anyOf": [{"required": ["email"]}, {"required": ["phone"]}]}
        }},
        {"type": "function", "function": {
            "name": "profile.update",
            "description": "Updates the user's profile.",
            "parameters": {"type": "object", "properties": {
                "nickname": {"type": "string"},
                "city": {"type": "string"}
            }, "minProperties": 1}
        }},
        {"type": "function", "function": {
            "name": "weight.convert",
            "description": "Converts a weight.",
            "parameters": {"type": "object", "properties": {
                "amount": {"type": "number"},
                "unit": {"type": "string"}
            }, "dependentRequired": {"amount": ["unit"]}}
        }}
    ]))
    .expect("the tools load")
    .with_answer()
}

/// The call an agent makes of `reply` for `request`, the requests it sent and the fixes
/// it reported.
async fn called(request: &str, reply: &str) -> (Value, usize, Vec<String>) {
    let (server, provider) = openai(vec![chat(reply)]).await;
    let events = Events::default();
    let agent = Agent::new(provider)
        .mode(Mode::JsonObject)
        .on_event(events.listener());
    let Choice::Calls(calls) = agent
        .ask_tools(&directory(), request)
        .await
        .expect("a call")
    else {
        panic!("a call")
    };
    let fixed = events
        .lines()
        .into_iter()
        .filter(|l| l.starts_with("fixed locally"))
        .collect();
    (
        calls[0].arguments().clone(),
        bodies(&server).await.len(),
        fixed,
    )
}

#[tokio::test]
async fn an_argument_the_schema_needs_in_another_way_is_kept_as_written() {
    for (request, arguments) in [
        (
            "Find Ann in my contacts.",
            json!({"name": "contacts_find", "arguments": {"name": "Ann", "email": "berg@mail.no"}}),
        ),
        (
            "Update my profile.",
            json!({"name": "profile_update", "arguments": {"nickname": "Zed"}}),
        ),
        (
            "Convert 12 for me.",
            json!({"name": "weight_convert", "arguments": {"amount": 12, "unit": "stone"}}),
        ),
    ] {
        let (kept, sent, fixed) = called(request, &arguments.to_string()).await;
        assert_eq!(kept, arguments["arguments"], "{request}");
        assert_eq!(sent, 1, "{request}");
        assert_eq!(fixed, Vec::<String>::new(), "{request}");
    }
}

#[tokio::test]
async fn an_argument_the_call_does_without_is_still_left_out() {
    // The phone number the user gave is the key the lookup needs; the e-mail is no
    // one's.
    let reply = json!({"name": "contacts_find", "arguments": {
        "name": "Ann", "email": "berg@mail.no", "phone": "555 0100"
    }});
    let (kept, sent, fixed) = called("Find Ann, 555 0100.", &reply.to_string()).await;
    assert_eq!(kept, json!({"name": "Ann", "phone": "555 0100"}));
    assert_eq!(sent, 1);
    assert_eq!(fixed.len(), 1, "{fixed:?}");
    assert!(fixed[0].contains("/arguments/email: left out"), "{fixed:?}");
    // Of two the user never gave where the schema needs one, the first is left out and
    // the other stays.
    let reply = json!({"name": "contacts_find", "arguments": {
        "name": "Ann", "email": "berg@mail.no", "phone": "555 0199"
    }});
    let (kept, _, fixed) = called("Find Ann in my contacts.", &reply.to_string()).await;
    assert_eq!(kept, json!({"name": "Ann", "phone": "555 0199"}));
    assert_eq!(fixed.len(), 1, "{fixed:?}");
}

#[tokio::test]
async fn a_native_call_is_checked_as_it_was_read() {
    let arguments = r#"{"name": "Ann", "email": "berg@mail.no", "phone": "555 0100"}"#;
    let (_server, provider) =
        openai(vec![tool_calls(&[("call_1", "contacts_find", arguments)])]).await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let Choice::Calls(calls) = agent
        .ask_tools(&directory(), "Find Ann, 555 0100.")
        .await
        .expect("a call")
    else {
        panic!("a call")
    };
    assert_eq!(
        calls[0].arguments(),
        &json!({"name": "Ann", "phone": "555 0100"})
    );
}

#[tokio::test]
async fn a_value_written_to_fix_a_violation_is_kept_when_the_calls_grow_in_number() {
    // The first reply has one call, the violation is at `/arguments/currency`; the
    // second has two, and the fixed value is at `/0/arguments/currency`.
    let wrong = r#"{"name": "finance_loan_payment", "arguments": {"principal": 250000, "annual_rate": 3.5, "years": 30, "currency": {"code": "EUR"}}}"#;
    let two = r#"[{"name": "finance_loan_payment", "arguments": {"principal": 250000, "annual_rate": 3.5, "years": 30, "currency": "EUR"}},
                  {"name": "finance_stock_quote", "arguments": {"ticker": "MSFT"}}]"#;
    let (server, provider) = openai(vec![chat(wrong), chat(two)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let request = "Monthly payment on 250,000 at 3.5 percent over 30 years? And MSFT's price?";
    let tools = crate::tool_choice::finance();
    let Choice::Calls(calls) = agent.ask_tools(&tools, request).await.expect("calls") else {
        panic!("calls")
    };
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].arguments()["currency"], json!("EUR"));
    assert_eq!(bodies(&server).await.len(), 2);
}

#[tokio::test]
async fn an_argument_the_tool_does_not_list_with_a_value_never_given_is_left_out() {
    // `compounds_per_year` is another tool's argument, `color` an object of numbers the
    // user never wrote, `private` a boolean no one asked for; `title` the user gave.
    let reply = event(json!({"compounds_per_year": 12, "color": {"r": 0}, "private": true}));
    let (_server, provider) = openai(vec![chat(&reply)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let answered = agent
        .ask_tools(&calendar(), STANDUP)
        .answered()
        .await
        .expect("a call");
    let Choice::Calls(calls) = &answered.value else {
        panic!("a call: {:?}", answered.value)
    };
    assert_eq!(
        calls[0].arguments(),
        &json!({"title": "standup", "hour": 9})
    );
    let fixes: Vec<String> = answered.attempts[0]
        .fixes()
        .iter()
        .map(|f| f.kind().to_string())
        .collect();
    assert_eq!(fixes.len(), 3, "{fixes:?}");
    for (fix, key) in fixes.iter().zip(["compounds_per_year", "color", "private"]) {
        assert!(fix.contains(key), "{fixes:?}");
    }

    // A key the tool does not list, with a value the user gave, stays.
    let (_server, provider) = openai(vec![chat(&event(json!({"place": "standup room"})))]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let kept = arguments(agent, &[]).await;
    assert_eq!(kept["place"], "standup room");
}

/// A playlist tool whose tracks are objects of a title and an artist, beside a volume
/// tool whose argument the model carries into the tracks, and a recipe tool whose
/// servings it repeats in every ingredient.
fn music_and_recipes() -> Toolset {
    Toolset::from_openai_tools(&json!([
        {"type": "function", "function": {
            "name": "music.create_playlist",
            "description": "Creates a playlist from tracks given by title and artist.",
            "parameters": {"type": "object", "properties": {
                "name": {"type": "string"},
                "tracks": {"type": "array", "items": {"type": "object", "properties": {
                    "title": {"type": "string"}, "artist": {"type": "string"}
                }, "required": ["title", "artist"]}},
                "public": {"type": "boolean"}
            }, "required": ["name", "tracks"]}
        }},
        {"type": "function", "function": {
            "name": "music.set_volume",
            "description": "Sets the volume.",
            "parameters": {"type": "object", "properties": {"level": {"type": "integer"}},
                "required": ["level"]}
        }},
        {"type": "function", "function": {
            "name": "cooking.scale_recipe",
            "description": "Scales a recipe's ingredients to another number of servings.",
            "parameters": {"type": "object", "properties": {
                "ingredients": {"type": "array", "items": {"type": "object", "properties": {
                    "name": {"type": "string"}, "amount": {"type": "number"},
                    "unit": {"type": "string"}
                }}},
                "original_servings": {"type": "integer"},
                "target_servings": {"type": "integer"}
            }, "required": ["ingredients", "original_servings", "target_servings"]}
        }}
    ]))
    .expect("the tools load")
    .with_answer()
}

/// The call an agent makes of `reply` for `request` with [`music_and_recipes`], and the
/// fixes its attempt reports, with their pointers.
async fn called_inside(request: &str, reply: Value) -> (Value, Vec<String>) {
    let (server, provider) = openai(vec![chat(&reply.to_string())]).await;
    let agent = Agent::new(provider).mode(Mode::Prompt);
    let answered = agent
        .ask_tools(&music_and_recipes(), request)
        .answered()
        .await
        .expect("a call");
    assert_eq!(bodies(&server).await.len(), 1, "{request}");
    let Choice::Calls(calls) = &answered.value else {
        panic!("a call: {:?}", answered.value)
    };
    let fixes = answered.attempts[0]
        .fixes()
        .iter()
        .map(ToString::to_string)
        .collect();
    (calls[0].arguments().clone(), fixes)
}

#[tokio::test]
async fn keys_the_tool_does_not_take_inside_its_arguments_are_left_out() {
    let request =
        "Create a playlist called 'Road Trip' with 'Africa' by Toto and 'Rosanna' by Toto.";
    let reply = json!({"name": "music_create_playlist", "arguments": {
        "name": "Road Trip",
        "tracks": [
            {"title": "Africa", "artist": "Toto", "level": 50},
            {"title": "Rosanna", "artist": "Toto", "level": 50, "loved": true}
        ],
        "public": false
    }});
    let (arguments, fixes) = called_inside(request, reply).await;
    assert_eq!(
        arguments,
        json!({"name": "Road Trip", "tracks": [
            {"title": "Africa", "artist": "Toto"},
            {"title": "Rosanna", "artist": "Toto"}
        ], "public": false})
    );
    assert_eq!(fixes.len(), 3, "{fixes:?}");
    for (fix, at) in fixes.iter().zip([
        "/arguments/tracks/0/level",
        "/arguments/tracks/1/level",
        "/arguments/tracks/1/loved",
    ]) {
        assert!(fix.contains(at), "{fixes:?}");
    }
}

#[tokio::test]
async fn an_argument_repeated_inside_its_items_is_left_out_there_only() {
    let request = "Scale this recipe from 4 servings to 6: 200 g flour, 50 g sugar.";
    let item = |name: &str, amount: u32| json!({"name": name, "amount": amount, "unit": "g", "original_servings": 4, "target_servings": 6});
    let reply = json!({"name": "cooking_scale_recipe", "arguments": {
        "ingredients": [item("flour", 200), item("sugar", 50)],
        "original_servings": 4, "target_servings": 6
    }});
    let (arguments, fixes) = called_inside(request, reply).await;
    assert_eq!(
        arguments,
        json!({"ingredients": [
            {"name": "flour", "amount": 200, "unit": "g"},
            {"name": "sugar", "amount": 50, "unit": "g"}
        ], "original_servings": 4, "target_servings": 6})
    );
    assert_eq!(fixes.len(), 4, "{fixes:?}");
    assert!(
        fixes.iter().all(|f| f.contains("repeats an argument")),
        "{fixes:?}"
    );

    // A key the user gave a value of, that the call gives nowhere else, stays: the
    // tool may read it, and nothing says the model made it up.
    let reply = json!({"name": "cooking_scale_recipe", "arguments": {
        "ingredients": [{"name": "flour", "amount": 200, "unit": "g", "sifted": "sifted"}],
        "original_servings": 4, "target_servings": 6
    }});
    let (arguments, fixes) =
        called_inside("Scale 200 g sifted flour from 4 to 6 servings.", reply).await;
    assert_eq!(arguments["ingredients"][0]["sifted"], "sifted");
    assert_eq!(fixes, Vec::<String>::new());
}

#[tokio::test]
async fn a_call_with_only_the_tool_s_keys_is_untouched_inside() {
    let request = "Create a playlist called 'Road Trip' with 'Africa' by Toto.";
    let reply = json!({"name": "music_create_playlist", "arguments": {
        "name": "Road Trip", "tracks": [{"title": "Africa", "artist": "Toto"}]
    }});
    let (arguments, fixes) = called_inside(request, reply.clone()).await;
    assert_eq!(arguments, reply["arguments"]);
    assert_eq!(fixes, Vec::<String>::new());
}
