//! The answer of a union of tools asked for alone, once the replies say no function fits:
//! where the answer is text, it is asked for in plain text in every mode (no grammar, no
//! JSON format, no tools) and the reply's text is the answer; an answer with a shape of
//! its own is asked for as JSON of that shape, in the loop's mode.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolschema::agent::Event;
use toolschema::provider::{FinishReason, Mode, OpenAi};
use toolschema::{Agent, AskError, Choice, Message, ToolCall, Toolset};

use crate::server::{bodies, chat, completion, contents, openai};

/// How much water a pool holds is no function's: the music player's.
fn tools() -> Toolset {
    Toolset::from_openai_tools(&json!([
        {"type": "function", "function": {
            "name": "music.set_volume",
            "description": "Set the speaker volume.",
            "parameters": {"type": "object", "properties": {
                "level": {"type": "integer", "minimum": 0, "maximum": 100}
            }, "required": ["level"]}
        }}
    ]))
    .expect("the tools load")
}

/// A question that uses no word of the tool's name.
const REQUEST: &str = "How much water fills an Olympic swimming pool?";
/// A function the union lacks and resembles none, named as functions are: the answer
/// alone is asked at once.
const INVENTED: &str = r#"{"name": "lookupWaterCapacity", "arguments": {"pool": "Olympic"}}"#;
const PROSE: &str = "About 2,500 cubic metres: 50 m by 25 m by 2 m.";
const ASKED_IN_PROSE: &str = "None of the functions does what the request asks, so answer it \
                              yourself, briefly, in plain text.";

const MODES: [Mode; 4] = [
    Mode::Prompt,
    Mode::JsonObject,
    Mode::JsonSchema,
    Mode::Tools,
];

/// The mode of each attempt, as the events report it.
fn with_modes(agent: Agent<OpenAi>) -> (Agent<OpenAi>, Arc<Mutex<Vec<Mode>>>) {
    let modes = Arc::new(Mutex::new(Vec::new()));
    let seen = modes.clone();
    let agent = agent.on_event(move |event: &Event| {
        if let Event::AttemptStarted { mode, .. } = event {
            seen.lock().unwrap().push(*mode);
        }
    });
    (agent, modes)
}

#[tokio::test]
async fn a_text_answer_asked_alone_is_asked_in_plain_text_in_every_mode() {
    for mode in MODES {
        let (server, provider) = openai(vec![chat(INVENTED), chat(PROSE)]).await;
        let (agent, modes) = with_modes(Agent::new(provider).mode(mode));
        let result = agent
            .ask_tools(&tools().with_answer(), REQUEST)
            .answered()
            .await
            .expect("an answer");
        assert_eq!(result.value, Choice::Answer(json!(PROSE)), "{mode}");
        let bodies: Vec<Value> = bodies(&server).await;
        assert_eq!(bodies.len(), 2, "{mode}");
        let second = &bodies[1];
        assert_eq!(contents(second), [ASKED_IN_PROSE, REQUEST], "{mode}");
        for key in ["response_format", "tools", "tool_choice", "logprobs"] {
            assert!(second.get(key).is_none(), "{mode}: {key} in {second}");
        }
        // The attempt is reported in the mode it was sent in, the first in the loop's.
        assert_eq!(*modes.lock().unwrap(), [mode, Mode::Prompt], "{mode}");
        let attempts = &result.attempts;
        assert_eq!(attempts[1].mode(), Mode::Prompt, "{mode}");
        assert_eq!(attempts[1].raw(), PROSE, "{mode}");
    }
}

#[tokio::test]
async fn a_text_answer_asked_alone_may_still_be_written_as_json() {
    for mode in MODES {
        let (_server, provider) = openai(vec![
            chat(INVENTED),
            chat(r#"{"answer": "About 2.5 million litres."}"#),
        ])
        .await;
        let choice = Agent::new(provider)
            .mode(mode)
            .ask_tools(&tools().with_answer(), REQUEST)
            .await
            .expect("an answer");
        assert_eq!(
            choice,
            Choice::Answer(json!("About 2.5 million litres.")),
            "{mode}"
        );
    }
}

#[tokio::test]
async fn a_prose_answer_cut_at_the_limit_is_not_taken() {
    let cut = completion(
        json!({"role": "assistant", "content": "An Olympic pool holds 2,500,000 litres, which is"}),
        "length",
        (40, 12),
    );
    let (server, provider) = openai(vec![chat(INVENTED), cut, chat(PROSE)]).await;
    let result = Agent::new(provider)
        .mode(Mode::JsonObject)
        .max_tokens(12)
        .ask_tools(&tools().with_answer(), REQUEST)
        .answered()
        .await
        .expect("the whole answer, asked again");
    assert_eq!(result.value, Choice::Answer(json!(PROSE)));
    assert_eq!(result.attempts.len(), 3);
    assert_eq!(result.attempts[1].finish(), &FinishReason::Length);
    let error = result.attempts[1]
        .error()
        .expect("the cut answer is rejected");
    assert!(error.to_string().contains("cut off"), "{error}");
    // The third request is still in prose, and says the reply was cut.
    let bodies: Vec<Value> = bodies(&server).await;
    assert!(bodies[2].get("response_format").is_none(), "{}", bodies[2]);
    let third = contents(&bodies[2]).join("\n");
    assert!(third.contains("cut off"), "{third}");
}

#[tokio::test]
async fn an_answer_with_a_shape_is_asked_alone_as_json_in_the_loops_mode() {
    let answer = json!({
        "type": "object",
        "properties": {
            "litres": {"type": "integer"},
            "note": {"type": "string"}
        },
        "required": ["litres", "note"],
        "additionalProperties": false
    });
    let tools = tools()
        .with_answer_schema(answer)
        .expect("the answer's schema loads");
    let shaped = r#"{"answer": {"litres": 2500000, "note": "50 by 25 by 2 m"}}"#;
    for mode in [Mode::JsonObject, Mode::JsonSchema] {
        let (server, provider) = openai(vec![chat(INVENTED), chat(shaped)]).await;
        let choice = Agent::new(provider)
            .mode(mode)
            .ask_tools(&tools, REQUEST)
            .await
            .expect("an answer");
        assert_eq!(
            choice,
            Choice::Answer(json!({"litres": 2500000, "note": "50 by 25 by 2 m"})),
            "{mode}"
        );
        let bodies: Vec<Value> = bodies(&server).await;
        let second = &bodies[1];
        let instructions = &contents(second)[0];
        assert!(
            instructions.contains("reply with JSON"),
            "{mode}: {instructions}"
        );
        assert!(instructions.contains("litres"), "{mode}: {instructions}");
        assert!(second.get("response_format").is_some(), "{mode}: {second}");
    }
}

#[tokio::test]
async fn a_prose_answer_that_is_not_text_enough_still_fails_with_every_attempt() {
    // Three attempts: a made-up call, then JSON that is no answer, twice. Nothing is lost.
    let (_server, provider) = openai(vec![
        chat(INVENTED),
        chat(r#"{"volume": 2500}"#),
        chat(r#"{"volume": 2500}"#),
    ])
    .await;
    let error = Agent::new(provider)
        .mode(Mode::JsonSchema)
        .ask_tools(&tools().with_answer(), REQUEST)
        .await
        .expect_err("no answer was written");
    let AskError::Exhausted { attempts, .. } = &error else {
        panic!("not exhausted: {error}");
    };
    assert_eq!(attempts.len(), 3);
    assert_eq!(attempts[0].mode(), Mode::JsonSchema);
    assert_eq!(attempts[1].mode(), Mode::Prompt);
    assert!(attempts[2].raw().contains("volume"));
}

/// A reply of `text` cut at the token limit.
fn cut(text: &str) -> wiremock::ResponseTemplate {
    completion(
        json!({"role": "assistant", "content": text}),
        "length",
        (30, 400),
    )
}

#[tokio::test]
async fn an_answer_cut_at_the_limit_is_asked_for_alone_in_plain_text() {
    let request = "Who invented the safety match?";
    let whole = "Gustaf Erik Pasch, in Sweden, in 1844.";
    for (mode, first) in [
        (
            Mode::Prompt,
            r#"{"answer": "The safety match was invented by"#,
        ),
        (
            Mode::JsonObject,
            r#"{"answer": "18440000000000000000000000"#,
        ),
        (Mode::Tools, "The safety match has a long history. In 1826,"),
    ] {
        let (server, provider) = openai(vec![cut(first), chat(whole)]).await;
        let (agent, modes) = with_modes(Agent::new(provider).mode(mode));
        let result = agent
            .ask_tools(&tools().with_answer(), request)
            .answered()
            .await
            .expect("the answer, asked alone");
        assert_eq!(result.value, Choice::Answer(json!(whole)), "{mode}");
        assert_eq!(*modes.lock().unwrap(), [mode, Mode::Prompt], "{mode}");
        // The cut answer is kept, with the cut as its violation.
        let error = result.attempts[0]
            .error()
            .expect("the cut answer is rejected");
        assert!(error.to_string().contains("cut off"), "{mode}: {error}");
        assert_eq!(result.attempts[0].raw(), first, "{mode}");
        let bodies: Vec<Value> = bodies(&server).await;
        assert_eq!(contents(&bodies[1]), [ASKED_IN_PROSE, request], "{mode}");
    }
}

#[tokio::test]
async fn an_answer_cut_at_the_limit_that_skips_a_tool_is_sent_back_as_cut() {
    // The request asks for what `music.set_volume` does: the cut answer is sent back to
    // be written whole (and questioned then), not taken for the model's last word.
    let request = "Set the music volume to 30.";
    let (server, provider) = openai(vec![
        cut(r#"{"answer": "I have set the music volume to 30 for you, and"#),
        chat(r#"{"name": "music_set_volume", "arguments": {"level": 30}}"#),
    ])
    .await;
    let choice = Agent::new(provider)
        .mode(Mode::JsonObject)
        .ask_tools(&tools().with_answer(), request)
        .await
        .expect("the call");
    let Choice::Calls(calls) = choice else {
        panic!("not a call: {choice:?}")
    };
    assert_eq!(calls[0].arguments(), &json!({"level": 30}));
    let bodies: Vec<Value> = bodies(&server).await;
    let second = contents(&bodies[1]).join("\n");
    assert!(!second.contains(ASKED_IN_PROSE), "{second}");
    assert!(second.contains("cut off"), "{second}");
    assert!(bodies[1].get("response_format").is_some(), "{}", bodies[1]);
}

#[tokio::test]
async fn a_cut_call_is_not_an_answer_at_length() {
    let request = "Who invented the safety match?";
    let (server, provider) = openai(vec![
        cut(r#"{"name": "music_set_volume", "arguments": {"level": 1"#),
        chat(r#"{"answer": "Gustaf Erik Pasch."}"#),
    ])
    .await;
    let choice = Agent::new(provider)
        .mode(Mode::JsonObject)
        .ask_tools(&tools().with_answer(), request)
        .await
        .expect("the answer");
    assert_eq!(choice, Choice::Answer(json!("Gustaf Erik Pasch.")));
    let bodies: Vec<Value> = bodies(&server).await;
    assert!(!contents(&bodies[1])[0].starts_with(ASKED_IN_PROSE));
}

#[tokio::test]
async fn an_answer_cut_after_results_is_sent_back_as_cut() {
    // Once results are in, a long answer reports them: it is sent back to be written
    // whole, with the conversation, not asked for anew.
    let history = vec![
        Message::user("Turn the music down to 20, then tell me what you did."),
        Message::assistant_calls(
            "",
            vec![ToolCall::new(
                "c1",
                "music.set_volume",
                json!({"level": 20}),
            )],
        ),
        Message::tool_result(Some("c1".into()), r#"{"level": 20}"#),
    ];
    let whole = r#"{"answer": "The volume is now 20."}"#;
    let (server, provider) = openai(vec![
        cut(r#"{"answer": "I turned the volume down from its level to 20, which"#),
        chat(whole),
    ])
    .await;
    let choice = Agent::new(provider)
        .mode(Mode::JsonObject)
        .ask_tools(&tools().with_answer(), "")
        .history(&history)
        .await
        .expect("the answer");
    assert_eq!(choice, Choice::Answer(json!("The volume is now 20.")));
    let bodies: Vec<Value> = bodies(&server).await;
    let second = contents(&bodies[1]);
    assert!(!second[0].starts_with(ASKED_IN_PROSE), "{second:?}");
    assert!(
        second.iter().any(|m| m.contains("20}")),
        "the results stay: {second:?}"
    );
    assert!(second.join("\n").contains("cut off"), "{second:?}");
}
