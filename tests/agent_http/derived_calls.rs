//! Several calls in one reply to a derived union: never the first kept and the rest
//! dropped. Asked for one step, the reply is sent back to make one call; asked for a
//! `Vec` of steps, every call comes back; in the tool loop every call runs.

use serde_json::Value;
use toolschema::agent::Toolbox;
use toolschema::provider::Mode;
use toolschema::{Agent, AskError, ToolSchema};

use crate::server::{bodies, chat, contents, openai};

#[derive(ToolSchema, Debug, PartialEq)]
struct Switch {
    device: String,
}

#[derive(ToolSchema, Debug, PartialEq)]
enum Step {
    /// Switch a device on.
    #[tool]
    TurnOn(Switch),
    /// Switch a device off.
    #[tool]
    TurnOff(Switch),
    #[answer]
    Answer(String),
}

const TWO_BLOCKS: &str = "<tool_call>{\"name\": \"turn_on\", \"arguments\": {\"device\": \"kitchen\"}}</tool_call>\n<tool_call>{\"name\": \"turn_off\", \"arguments\": {\"device\": \"tv\"}}</tool_call>";
const ONE_PER_LINE: &str = "{\"name\": \"turn_on\", \"arguments\": {\"device\": \"kitchen\"}}\n{\"name\": \"turn_off\", \"arguments\": {\"device\": \"tv\"}}";

fn both() -> Vec<Step> {
    vec![
        Step::TurnOn(Switch {
            device: "kitchen".into(),
        }),
        Step::TurnOff(Switch {
            device: "tv".into(),
        }),
    ]
}

#[tokio::test]
async fn asked_for_one_step_several_calls_are_sent_back() {
    for reply in [TWO_BLOCKS, ONE_PER_LINE] {
        let (server, provider) = openai(vec![
            chat(reply),
            chat(r#"{"name": "turn_on", "arguments": {"device": "kitchen"}}"#),
        ])
        .await;
        let agent = Agent::new(provider).mode(Mode::Prompt);
        let answered = agent
            .ask::<Step>("Kitchen on, TV off.")
            .answered()
            .await
            .expect("one call");
        assert_eq!(answered.value, both().remove(0));
        let first = answered.attempts[0].error().expect("sent back").to_string();
        assert!(
            first
                .contains("the reply makes 2 tool calls where one call or the answer is asked for"),
            "{first}"
        );
        let repair = contents(&bodies(&server).await[1]).pop().unwrap();
        assert!(repair.contains("make one call"), "{repair}");
    }
}

#[tokio::test]
async fn asked_for_several_steps_every_call_comes_back() {
    for reply in [TWO_BLOCKS, ONE_PER_LINE] {
        let (_server, provider) = openai(vec![chat(reply)]).await;
        let agent = Agent::new(provider).mode(Mode::Prompt);
        let steps: Vec<Step> = agent.ask("Kitchen on, TV off.").await.expect("both");
        assert_eq!(steps, both(), "{reply}");
    }
}

#[tokio::test]
async fn a_wrong_call_among_several_is_reported_under_its_index() {
    let wrong = "<tool_call>{\"name\": \"turn_on\", \"arguments\": {\"device\": \"kitchen\"}}</tool_call>\n<tool_call>{\"name\": \"turn_off\", \"arguments\": {\"device\": {\"id\": \"tv\"}}}</tool_call>";
    let (_server, provider) = openai(vec![chat(wrong)]).await;
    let agent = Agent::new(provider).mode(Mode::Prompt).max_attempts(1);
    let error = agent.ask::<Step>("Kitchen on, TV off.").await.unwrap_err();
    let AskError::Exhausted { attempts, .. } = &error else {
        panic!("{error:?}")
    };
    let pointers: Vec<&str> = attempts[0]
        .error()
        .expect("rejected")
        .violations()
        .iter()
        .map(|v| v.pointer())
        .collect();
    let error = attempts[0].error().unwrap().to_string();
    assert!(
        pointers.contains(&"/1/arguments/device"),
        "{pointers:?}: {error}"
    );
}

#[tokio::test]
async fn the_tool_loop_runs_every_call_of_a_reply() {
    let (_server, provider) = openai(vec![
        chat(TWO_BLOCKS),
        chat(r#"{"answer": "Kitchen on, TV off."}"#),
    ])
    .await;
    let ran = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let (on, off) = (ran.clone(), ran.clone());
    let toolbox = Toolbox::new()
        .tool("turn_on", move |args: Value| {
            on.lock().unwrap().push(format!("on {}", args["device"]));
            async { Ok::<_, String>("done".to_owned()) }
        })
        .tool("turn_off", move |args: Value| {
            off.lock().unwrap().push(format!("off {}", args["device"]));
            async { Ok::<_, String>("done".to_owned()) }
        });
    let agent = Agent::new(provider).mode(Mode::Prompt);
    let answer: Step = agent
        .ask("Kitchen on, TV off.")
        .run(&toolbox)
        .await
        .expect("the answer");
    assert_eq!(answer, Step::Answer("Kitchen on, TV off.".into()));
    assert_eq!(*ran.lock().unwrap(), ["on \"kitchen\"", "off \"tv\""]);
}
