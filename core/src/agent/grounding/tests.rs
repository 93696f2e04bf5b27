//! The checks of a conversation, on requests and replies of their own.

use serde_json::json;

use super::words::initials;
use super::{Conversation, invented, numbers};

pub(super) fn asked(request: &str) -> Conversation {
    Conversation::new(None, &[], request, request)
}

#[test]
fn a_call_made_of_nothing_the_user_wrote_is_ungrounded() {
    let call = json!({"name": "loan", "arguments": {"principal": 100000, "annual_rate": 4.5, "currency": "USD"}});
    let about = "finance_loan_payment Compute the monthly payment of a loan.";
    let violation = asked("Who wrote the novel Moby-Dick?")
        .ungrounded(&call, about, &[])
        .expect("ungrounded");
    assert_eq!(violation.pointer(), "/arguments");
    assert!(
        violation.to_string().contains("100000, 4.5, \"USD\""),
        "{violation}"
    );
}

#[test]
fn one_value_the_user_wrote_is_enough() {
    let cases = [
        (
            "Translate 'good morning' into German.",
            json!({"text": "good morning", "target_language": "de"}),
        ),
        (
            "ugh turn the kitchen lights on pls",
            json!({"room": "kitchen", "on": true}),
        ),
        (
            "What's 12:00 in Tokyo?",
            json!({"time": "12:00", "zone": "Asia/Tokyo"}),
        ),
        (
            "a loan of 250,000 at 3.5 percent",
            json!({"principal": 250000, "rate": 0.035}),
        ),
        (
            "book it for two nights",
            json!({"nights": 2, "city": "Rome"}),
        ),
        (
            "search my notes for rent",
            json!({"filter": {"terms": ["rent"]}}),
        ),
    ];
    for (request, arguments) in cases {
        let call = json!({"name": "f", "arguments": arguments});
        assert!(
            asked(request).ungrounded(&call, "", &[]).is_none(),
            "{request}: {call}"
        );
    }
}

#[test]
fn calls_with_nothing_to_judge_and_answers_are_left_alone() {
    let conversation = asked("What time is it?");
    for value in [
        json!({"name": "now", "arguments": {}}),
        json!({"name": "lights_off", "arguments": {"all": true, "dim": null}}),
        json!({"answer": "It is noon."}),
        json!("text"),
    ] {
        assert!(
            conversation.ungrounded(&value, "", &[]).is_none(),
            "{value}"
        );
    }
}

#[test]
fn values_from_earlier_results_count() {
    use crate::message::Message;
    let history = [
        Message::user("Where am I, and what's the weather there?"),
        Message::tool_result(Some("1".into()), "You are in Bergen."),
    ];
    let conversation = Conversation::new(None, &history, "", "");
    let call = json!({"name": "weather", "arguments": {"city": "Bergen"}});
    assert!(conversation.ungrounded(&call, "", &[]).is_none());
}

#[test]
fn a_request_that_names_the_tool_lets_its_call_stand() {
    let call = json!({"name": "time_now", "arguments": {"timezone": "UTC"}});
    let about = "time_get_current_time The current time in a time zone.";
    assert!(asked("Time?").ungrounded(&call, about, &[]).is_none());
    assert!(
        asked("what's the current hour")
            .ungrounded(&call, about, &[])
            .is_none()
    );
    // Words every sentence has name nothing.
    let about = "cooking_boiling_time Estimate how long to boil an egg.";
    let call = json!({"name": "boil", "arguments": {"doneness": "medium"}});
    assert!(
        asked("What is the capital of Australia, please?")
            .ungrounded(&call, about, &[])
            .is_some()
    );
}

#[test]
fn an_answer_to_a_request_that_names_a_tool_skips_it() {
    let tools = [
        ("math_gcd", "math.gcd", ""),
        ("math_triangle_area", "math.triangle_area", ""),
    ];
    let answer = json!({"answer": "12"});
    for request in [
        "What is the GCD of 84 and 36?",
        "Find the area of a triangle with a base of 10 and a height of 5.",
        "triangles: base 3, height 4, area?",
    ] {
        let violation = asked(request).skips(&answer, tools).expect(request);
        assert_eq!(violation.pointer(), "/answer");
    }
    let weather = [
        ("weather_get_forecast", "weather.get_forecast", ""),
        ("weather_get_alerts", "weather.get_alerts", ""),
    ];
    let violation = asked("Are there any weather alerts for Queensland?")
        .skips(&answer, weather)
        .expect("alerts");
    assert!(
        violation.to_string().contains("\"weather_get_alerts\""),
        "{violation}"
    );
    let turn_on = [("HassTurnOn", "HassTurnOn", "")];
    assert!(
        asked("please turn on the porch light")
            .skips(&answer, turn_on)
            .is_some()
    );
}

#[test]
fn between_tools_the_request_names_alike_the_one_it_describes_is_named() {
    // Three tools of one service: "weather" is in each name, so the names alone do not
    // tell which the request asks for; the descriptions do.
    let weather = [
        (
            "weather_get_forecast",
            "weather.get_forecast",
            "Returns the daily weather forecast for a city.",
        ),
        (
            "weather_get_alerts",
            "weather.get_alerts",
            "Lists the severe weather warnings in force for a region.",
        ),
        (
            "weather_get_air_quality",
            "weather.get_air_quality",
            "Returns the air quality index and pollutant levels.",
        ),
    ];
    let answer = json!({"answer": "None today."});
    for (request, named) in [
        (
            "Are there any extreme weather warnings in force for Queensland?",
            "weather_get_alerts",
        ),
        (
            "What will the weather be like in Oslo tomorrow? Forecast please",
            "weather_get_forecast",
        ),
        (
            "How bad are the pollutant levels, weather-wise, in Delhi?",
            "weather_get_air_quality",
        ),
        // A name word used outweighs any number of description words.
        (
            "weather alerts for my city, returned daily?",
            "weather_get_alerts",
        ),
    ] {
        let violation = asked(request).skips(&answer, weather).expect(request);
        assert!(
            violation.to_string().contains(&format!("\"{named}\"")),
            "{request}: {violation}"
        );
    }
    // Still tied: the first of them, as before.
    let violation = asked("Weather?").skips(&answer, weather).expect("weather");
    assert!(
        violation.to_string().contains("\"weather_get_forecast\""),
        "{violation}"
    );
    // The descriptions choose among tools the name points at; they never make the
    // check fire: a request that uses no word of any name is answered as it is.
    for request in [
        "Are there severe warnings in force for Queensland?",
        "What are the pollutant levels in Delhi?",
    ] {
        assert!(
            asked(request).skips(&answer, weather).is_none(),
            "{request}"
        );
    }
}

#[test]
fn an_answer_to_a_request_that_names_no_tool_stands() {
    let tools = [
        (
            "weather_get_forecast",
            "weather.get_forecast",
            "The daily forecast: sky, temperature, rain.",
        ),
        ("shop_get_order_status", "shop.get_order_status", ""),
        ("music_play", "music.play", "Plays songs, composers' works."),
    ];
    let answer = json!({"answer": "Rayleigh scattering."});
    for request in [
        "Why is the sky blue?",
        "Who composed The Four Seasons?",
        "Can you get me a list of things to search for?",
        "Cancel my subscription.",
    ] {
        assert!(asked(request).skips(&answer, tools).is_none(), "{request}");
    }
    // A call is no answer.
    let call = json!({"name": "music_play", "arguments": {}});
    assert!(asked("play some music").skips(&call, tools).is_none());
}

#[test]
fn numbers_are_read_as_written() {
    assert_eq!(
        numbers("pay 1,250.50 in -3 days, 4.5%, item 7. Two more"),
        vec![1250.5, -3.0, 4.5, 0.045, 7.0, 2.0]
    );
    assert_eq!(numbers("compounded quarterly, paid twice"), vec![4.0, 2.0]);
    assert_eq!(numbers("CO2-neutral since 2019-05"), vec![2.0, 2019.0, 5.0]);
}

#[test]
fn a_call_of_a_function_like_no_tool_is_an_invention() {
    let tools = [
        ("geography_get_country_info", "geography.get_country_info"),
        ("recipes_search", "recipes.search"),
        ("math_triangle_area", "math.triangle_area"),
    ];
    let call = |name: &str| json!({"name": name, "arguments": {"text": "good morning"}});
    for name in [
        "translateGoodMorning",
        "order_pepperoni_pizza",
        "Chardonnay",
        "get_translation",
    ] {
        assert_eq!(
            invented(&call(name), tools).as_deref(),
            Some(name),
            "{name}"
        );
    }
    // A tool's name in either spelling, misspelled, shortened or reworded, is no invention.
    for name in [
        "geography_get_country_info",
        "geography.get_country_info",
        "GeographyGetCountryInfo",
        "get_country",
        "triangle_area",
        "calculate_triangle_area",
        "recipe_search",
        "math",
        "search",
        "get_info",
    ] {
        assert_eq!(invented(&call(name), tools), None, "{name}");
    }
    // A namespace shared with tools (`home` of `home.*`) is no resemblance.
    let home = [
        ("home_set_thermostat", "home.set_thermostat"),
        ("home_set_lights", "home.set_lights"),
        ("home_lock_door", "home.lock_door"),
    ];
    for name in [
        "home_get_bulb_power",
        "home_cancel_subscription",
        "homeTelevisionOn",
    ] {
        assert_eq!(invented(&call(name), home).as_deref(), Some(name), "{name}");
    }
    for name in [
        "home_set_light",
        "set_lights",
        "lock_the_door",
        "home_thermostat",
        "home",
    ] {
        assert_eq!(invented(&call(name), home), None, "{name}");
    }
    // Answers and values with no name are not calls.
    assert_eq!(invented(&json!({"answer": "Bom dia"}), tools), None);
    assert_eq!(invented(&json!({"text": "Bom dia"}), tools), None);
    assert_eq!(invented(&json!({"name": 3}), tools), None);
}

#[test]
fn initials_are_read_from_words_in_a_row() {
    let found = initials("distance in astronomical units, EU-wide");
    for expected in ["au", "ia", "iau", "dia"] {
        assert!(
            found.contains(&expected.to_owned()),
            "{expected}: {found:?}"
        );
    }
    // Never across a mark: `units, EU` and `EU-wide` are not phrases.
    for not in ["ue", "ew", "da"] {
        assert!(!found.contains(&not.to_owned()), "{not}: {found:?}");
    }
    let conversation = Conversation::new(None, &[], "", "How far apart, in astronomical units?");
    let call = json!({"name": "space.distance", "arguments": {"unit": "au"}});
    assert!(conversation.ungrounded(&call, "", &[]).is_none());
}

#[test]
fn two_sentences_or_messages_make_no_initials_together() {
    // Measured live: the prompt and the request, one after the other, made `pt` of
    // "…into Portuguese" and "Translate…", and a call with `"language": "pt"` stood.
    let request = "Translate 'good morning' into Portuguese.";
    let conversation = Conversation::new(None, &[], request, request);
    let call = json!({"name": "geo.info", "arguments": {"language": "pt"}});
    assert!(conversation.ungrounded(&call, "", &[]).is_some());
    assert!(!initials("Turn it on. Please hurry").contains(&"op".to_owned()));
}

#[test]
fn the_developer_s_system_text_and_system_messages_are_part_of_the_conversation() {
    use crate::message::Message;
    let call = json!({"name": "clock", "arguments": {"timezone": "Europe/Oslo"}});
    let system = "The user's time zone is Europe/Oslo.";
    let told = Conversation::new(Some(system), &[], "Time?", "Time?");
    assert!(told.ungrounded(&call, "", &[]).is_none());
    let history = [Message::system(system)];
    let in_history = Conversation::new(None, &history, "Time?", "Time?");
    assert!(in_history.ungrounded(&call, "", &[]).is_none());
    assert!(asked("Time?").ungrounded(&call, "", &[]).is_some());
}

#[test]
fn the_developer_s_words_name_no_tool_the_user_asks_for() {
    // A system text that says what the assistant is for is not the user asking for it.
    let system = "You are a weather assistant with forecast tools.";
    let conversation = Conversation::new(Some(system), &[], "Hi there!", "Hi there!");
    let tools = [("weather_get_forecast", "weather.get_forecast", "")];
    let answer = json!({"answer": "Hello!"});
    assert!(conversation.skips(&answer, tools).is_none());
}

/// A tool's result of more distinct words than the checks keep, each sorting before any
/// word a user writes: `a0000 a0001 …`.
fn long_result() -> crate::message::Message {
    let words: Vec<String> = (0..5_000).map(|i| format!("a{i:04}")).collect();
    crate::message::Message::tool_result(Some("1".into()), words.join(" "))
}

fn hotel() -> serde_json::Value {
    json!({
        "type": "object",
        "properties": {
            "hotel": {"type": "string"},
            "city": {"type": "string"},
            "unit": {"type": "string"}
        },
        "required": ["hotel"]
    })
}

#[test]
fn the_user_s_words_are_kept_before_a_long_result_s() {
    use crate::message::Message;
    let call = json!({"name": "book", "arguments": {"hotel": "a0001", "city": "Zermatt"}});
    // In the request, in an earlier message of the user's, in the developer's text.
    let cases = [
        (
            None,
            vec![Message::user("Find hotels."), long_result()],
            "Book a0001 in Zermatt.",
        ),
        (
            None,
            vec![Message::user("Hotels in Zermatt?"), long_result()],
            "Book a0001.",
        ),
        (
            Some("The user is in Zermatt."),
            vec![long_result()],
            "Book a0001.",
        ),
    ];
    for (system, history, request) in cases {
        let conversation = Conversation::new(system, &history, request, request);
        assert_eq!(
            conversation.unasked(&call, &hotel()),
            Vec::<String>::new(),
            "{request}"
        );
    }
    // Without it, the city is still one the user never gave.
    let history = [Message::user("Find hotels."), long_result()];
    let conversation = Conversation::new(None, &history, "Book a0001.", "Book a0001.");
    assert_eq!(conversation.unasked(&call, &hotel()), ["city"]);
}

#[test]
fn the_user_s_initials_are_kept_before_a_long_result_s() {
    use crate::message::Message;
    // Phrases whose initials (`aq`, `abq`, `abcd` …) sort before the user's `au`.
    let letters = 'a'..='t';
    let mut phrases = Vec::new();
    for x in letters.clone() {
        for y in letters.clone() {
            for z in letters.clone() {
                phrases.push(format!("aq {x}q {y}q {z}q"));
            }
        }
    }
    let history = [
        Message::user("Distances in astronomical units, please."),
        Message::tool_result(Some("1".into()), phrases.join(", ")),
    ];
    let request = "And to Mars?";
    let conversation = Conversation::new(None, &history, request, request);
    let call = json!({"name": "distance", "arguments": {"hotel": "Mars", "unit": "au"}});
    assert_eq!(conversation.unasked(&call, &hotel()), Vec::<String>::new());
}

fn weather() -> serde_json::Value {
    json!({
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        "required": []
    })
}

#[test]
fn a_value_in_a_script_written_without_spaces_is_found_in_the_text() {
    for (request, city) in [
        ("明天上海天气怎么样", "上海"),
        ("明天上海天气怎么样？", "上海"),
        ("東京の明日の天気は？", "東京"),
        ("明日の天気、東京タワーのあたりは？", "東京タワー"),
        ("พรุ่งนี้อากาศที่กรุงเทพเป็นอย่างไร", "กรุงเทพ"),
        // A tone mark splits Thai into several words; the value is still found whole.
        ("อากาศที่เชียงใหม่พรุ่งนี้", "เชียงใหม่"),
        // Beside words of another script.
        ("Shanghai 明天上海天气怎么样", "上海 Shanghai"),
    ] {
        let call = json!({"name": "weather", "arguments": {"city": city}});
        let conversation = asked(request);
        assert_eq!(
            conversation.unasked(&call, &weather()),
            Vec::<String>::new(),
            "{request}: {city}"
        );
        assert!(
            conversation.ungrounded(&call, "", &[]).is_none(),
            "{request}"
        );
    }
}

#[test]
fn a_value_in_a_script_written_without_spaces_that_the_text_lacks_is_unasked() {
    for (request, city) in [
        ("明天上海天气怎么样", "北京"),
        ("東京の明日の天気は？", "大阪"),
        ("พรุ่งนี้อากาศที่กรุงเทพเป็นอย่างไร", "ภูเก็ต"),
        // Part of it is there, not all of it.
        ("明天上海天气怎么样", "上海市"),
    ] {
        let call = json!({"name": "weather", "arguments": {"city": city}});
        assert_eq!(
            asked(request).unasked(&call, &weather()),
            ["city"],
            "{request}: {city}"
        );
    }
}

#[test]
fn the_text_a_value_without_spaces_is_looked_for_in_is_cut_between_chars() {
    // Three-byte chars after one byte: no cut at 64 KiB falls between two of them.
    let text = format!("a{}", "天".repeat(30_000));
    let bounded = super::words::text_bounded(&text);
    assert!((64 * 1024 - 3..=64 * 1024).contains(&bounded.len()));
    assert!(bounded.starts_with("a天"));
    assert!(bounded.chars().skip(1).all(|c| c == '天'));
    // What lies past the cut is not looked at.
    let request = format!("{text}上海");
    let call = json!({"name": "weather", "arguments": {"city": "上海"}});
    assert_eq!(asked(&request).unasked(&call, &weather()), ["city"]);
}
