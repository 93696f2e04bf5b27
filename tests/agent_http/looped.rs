//! A reply that loops until the token limit cuts it: a loop of words within text is read
//! as what it said, up to the end of its first round; any other loop is sent back without
//! it, the next request's assistant turn ending after the loop's first round and the
//! repair saying, quoted, what was repeated. A reply cut at the limit with no loop, or a
//! whole one, is sent back whole, as before. (A union's answer cut at the limit is asked
//! for alone instead: see `answer_in_prose`.)

use serde_json::{Value, json};
use toolschema::provider::Mode;
use toolschema::{Agent, Choice, FixKind, ToolSchema};

use crate::copied_example::sports;
use crate::server::{bodies, chat, completion, openai};

/// Asked beside the sports tools, none of which it names.
const REQUEST: &str = "Who painted the Mona Lisa?";
/// A round of words, with no sentence end in it.
const ROUND: &str = ", and it was the first league to be founded by a club";

fn cut(content: &str) -> wiremock::ResponseTemplate {
    completion(
        json!({"role": "assistant", "content": content}),
        "length",
        (100, 400),
    )
}

/// The assistant turn and the user's message after it, of a request that repairs.
fn repair_turns(body: &Value) -> (String, String) {
    let messages = body["messages"].as_array().expect("messages");
    let at = messages
        .iter()
        .rposition(|m| m["role"] == "assistant")
        .expect("an assistant turn");
    let text = |i: usize| {
        messages[i]["content"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    (text(at), text(at + 1))
}

#[tokio::test]
async fn a_looped_answer_is_read_up_to_its_loop() {
    // A loop of words within the answer's text: read as what it said, in one request,
    // with the fix that says so; the reply as the model wrote it stays in the attempt.
    let looped = format!(
        "{{\"answer\": \"Leonardo da Vinci painted it{}{}",
        ROUND.repeat(12),
        &ROUND[..9]
    );
    let (server, provider) = openai(vec![cut(&looped)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let asked = agent
        .ask_tools(&sports(), REQUEST)
        .answered()
        .await
        .expect("an answer");
    let Choice::Answer(Value::String(answer)) = &asked.value else {
        panic!("an answer: {:?}", asked.value)
    };
    assert_eq!(answer, &format!("Leonardo da Vinci painted it{ROUND}"));
    assert_eq!(bodies(&server).await.len(), 1);
    assert_eq!(asked.attempts[0].raw(), looped);
    let fix = asked.attempts[0]
        .fixes()
        .iter()
        .find(|f| matches!(f.kind(), FixKind::LoopCut { .. }))
        .expect("the loop's fix");
    assert!(
        fix.to_string().contains("began to repeat")
            && fix.to_string().contains("first league to be founded"),
        "{fix}"
    );
}

/// A record of one text, whose answers the tests cut. (A union's answer cut at the limit
/// is asked for alone: see `answer_in_prose`.)
#[derive(ToolSchema, Debug)]
struct Volume {
    litres: String,
}

#[tokio::test]
async fn a_looped_number_is_sent_back_without_its_loop() {
    // A round of one digit is no loop of words: `10` is not what `1000…` said. The
    // reply is sent back, shown up to the end of the loop's first round.
    let looped = format!("{{\"litres\": \"1{}", "0".repeat(390));
    let answer = r#"{"litres": "About 2.5 million."}"#;
    let (server, provider) = openai(vec![cut(&looped), chat(answer)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let asked = agent
        .ask::<Volume>("What volume of water fills an Olympic swimming pool?")
        .answered()
        .await
        .expect("an answer");
    assert_eq!(asked.value.litres, "About 2.5 million.");
    let (said, repair) = repair_turns(&bodies(&server).await[1]);
    assert_eq!(said, "{\"litres\": \"10");
    assert!(
        repair
            .contains(r#"Your reply repeated "0" over and over until the token limit cut it off"#),
        "{repair}"
    );
    assert!(!repair.contains("answer more briefly"), "{repair}");
}

#[tokio::test]
async fn a_looped_member_of_a_record_is_named_and_the_reply_cut_after_one_round() {
    #[derive(ToolSchema, Debug)]
    struct Event {
        title: String,
        day: String,
    }

    let looped = format!(
        "{{\"title\": \"Launch\"{}",
        ", \"optional\": false".repeat(30)
    );
    let (server, provider) = openai(vec![
        cut(&looped),
        chat(r#"{"title": "Launch", "day": "2025-05-01"}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::Prompt).max_tokens(400);
    let event: Event = agent
        .ask("The launch is on 1 May 2025.")
        .await
        .expect("an event");
    assert_eq!(event.day, "2025-05-01");
    let (said, repair) = repair_turns(&bodies(&server).await[1]);
    assert_eq!(said, "{\"title\": \"Launch\", \"optional\": false");
    assert!(
        repair.contains(r#"Your reply repeated ", \"optional\": false" over and over"#),
        "{repair}"
    );
}

#[tokio::test]
async fn a_cut_reply_with_no_loop_is_sent_back_whole() {
    let long = format!(
        "{{\"litres\": \"{}",
        (1..=60)
            .map(|n| format!("Point {n} is a different thing."))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let answer = r#"{"litres": "2.5 million."}"#;
    let (server, provider) = openai(vec![cut(&long), chat(answer)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    agent
        .ask::<Volume>("What volume of water fills an Olympic swimming pool?")
        .answered()
        .await
        .expect("an answer");
    let (said, repair) = repair_turns(&bodies(&server).await[1]);
    assert_eq!(said, long);
    assert!(
        repair.contains("Your reply was cut off; answer more briefly."),
        "{repair}"
    );
    assert!(!repair.contains("repeated"), "{repair}");
}

#[tokio::test]
async fn a_whole_reply_that_ends_in_repetition_is_no_loop() {
    // Only a reply the provider cut is read for a loop: a whole one that happens to
    // end in repeated text is sent back as it was written.
    #[derive(ToolSchema, Debug)]
    struct Tally {
        marks: String,
        count: u32,
    }

    let whole = format!("{{\"marks\": \"{}", "|".repeat(80));
    let (server, provider) =
        openai(vec![chat(&whole), chat(r#"{"marks": "||", "count": 2}"#)]).await;
    let agent = Agent::new(provider).mode(Mode::Prompt);
    let tally: Tally = agent.ask("Two marks.").await.expect("a tally");
    assert_eq!(tally.count, 2);
    let (said, repair) = repair_turns(&bodies(&server).await[1]);
    assert_eq!(said, whole);
    assert!(!repair.contains("repeated"), "{repair}");
}

#[tokio::test]
async fn the_best_partial_of_a_looped_reply_is_what_it_said() {
    // Read up to its loop, the record still lacks a field, and the attempts run out:
    // the closest value is the reply as read, not the loop closed at the cut.
    #[derive(ToolSchema, Debug)]
    struct Event {
        title: String,
        day: String,
    }

    let looped = format!(
        "{{\"title\": \"Launch of the spring line{}",
        ", with the team and the press".repeat(20)
    );
    let (_server, provider) = openai(vec![cut(&looped), cut(&looped)]).await;
    let agent = Agent::new(provider)
        .mode(Mode::Prompt)
        .max_attempts(2)
        .max_tokens(400);
    let err = agent
        .ask::<Event>("The spring line launches on 1 May.")
        .await
        .expect_err("no day in any reply");
    assert_eq!(
        err.best_partial(),
        Some(&json!({"title": "Launch of the spring line, with the team and the press"}))
    );
    assert_eq!(err.attempts()[0].raw(), looped);
}
