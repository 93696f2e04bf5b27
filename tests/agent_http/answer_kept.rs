//! An answer sent back only as skipping the function its request names is kept when the
//! model's next reply says that the function does not fit: asked to call it, the model
//! calls it with values the user never wrote (the description's examples, or its
//! own). A call made of the user's values is taken
//! as before, a call of another tool made up is sent back as before
//! (`tool_choice::each_check_of_the_choice_sends_a_reply_back_once`), and an answer
//! rejected for anything besides the skip is never kept.

use serde_json::json;
use toolschema::agent::Answered;
use toolschema::provider::Mode;
use toolschema::{Agent, Choice, FixKind, ViolationKind};
use wiremock::ResponseTemplate;

use crate::copied_example::sports;
use crate::server::{Events, bodies, chat, completion, openai};

/// "sports" names the tool; what is asked is something it does not do.
const REQUEST: &str = "Which sports league is the oldest in the world?";
const ANSWER: &str = r#"{"answer": "The Football League, founded in 1888."}"#;
/// The tool called with its description's examples, none of the user's values.
const COPIED: &str =
    r#"{"name": "sports_get_standings", "arguments": {"league": "Serie A", "season": "2023-24"}}"#;

fn kept_of(fixes: &[toolschema::Fix]) -> Option<usize> {
    fixes.iter().find_map(|fix| match fix.kind() {
        FixKind::AnswerKept { attempt, .. } => Some(*attempt),
        _ => None,
    })
}

/// Asks `request` of the sports tools in `mode`, of a server that replies `replies`:
/// the choice with its attempts, and how many requests the server saw.
async fn asked_of(
    request: &str,
    replies: Vec<ResponseTemplate>,
    mode: Mode,
) -> (Answered<Choice>, usize) {
    let (server, provider) = openai(replies).await;
    let agent = Agent::new(provider).mode(mode);
    let asked = agent
        .ask_tools(&sports(), request)
        .answered()
        .await
        .unwrap_or_else(|e| panic!("{mode}: {e}"));
    (asked, bodies(&server).await.len())
}

#[tokio::test]
async fn a_call_of_the_examples_after_the_question_keeps_the_answer() {
    let (server, provider) = openai(vec![chat(ANSWER), chat(COPIED), chat(ANSWER)]).await;
    let events = Events::default();
    let agent = Agent::new(provider)
        .mode(Mode::JsonObject)
        .on_event(events.listener());
    let asked = agent
        .ask_tools(&sports(), REQUEST)
        .answered()
        .await
        .expect("an answer");
    assert_eq!(
        asked.value,
        Choice::Answer(json!("The Football League, founded in 1888."))
    );
    // Two calls: the answer, questioned; the call of the examples, which keeps it.
    assert_eq!(bodies(&server).await.len(), 2);
    assert_eq!(asked.attempts.len(), 2);
    assert!(matches!(
        asked.attempts[0].violations()[0].kind(),
        ViolationKind::SkippedTool { .. }
    ));
    let taken = &asked.attempts[1];
    assert!(taken.raw().contains("Serie A"), "{}", taken.raw());
    assert_eq!(kept_of(taken.fixes()), Some(1));
    let shown = taken.fixes()[0].to_string();
    assert!(
        shown.contains("kept the answer of attempt 1")
            && shown.contains("are the examples given in the function's description"),
        "{shown}"
    );
    // The call's rejection is reported like any other, then the fix.
    let lines = events.lines();
    let violations = lines
        .iter()
        .position(|l| l.starts_with("violations 2"))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    let fixed = lines
        .iter()
        .position(|l| l.starts_with("fixed locally 2"))
        .unwrap_or_else(|| panic!("{lines:#?}"));
    assert!(violations < fixed, "{lines:#?}");
}

#[tokio::test]
async fn under_auto_the_call_of_the_examples_under_the_grammar_keeps_the_prose_answer() {
    // Auto asks in prose first; the fix of the answer goes on under the grammar, where
    // the dialect wraps the reply in `{"value": …}`.
    let prose = "The Football League, founded in 1888.";
    let wrapped = format!(r#"{{"value": {COPIED}}}"#);
    let (server, provider) = openai(vec![chat(prose), chat(&wrapped), chat(prose)]).await;
    let agent = Agent::new(provider).mode(Mode::Auto);
    let asked = agent
        .ask_tools(&sports(), REQUEST)
        .answered()
        .await
        .expect("an answer");
    assert_eq!(asked.value, Choice::Answer(json!(prose)));
    assert_eq!(bodies(&server).await.len(), 2);
    assert_eq!(asked.attempts[1].mode(), Mode::JsonSchema);
    assert_eq!(kept_of(asked.attempts[1].fixes()), Some(1));
}

#[tokio::test]
async fn a_call_of_values_of_its_own_after_the_question_keeps_the_answer() {
    // Neither the user's values nor the description's examples: the model's own, for a
    // request that only uses a word of the tool ("sports") and asks for something else.
    let own = r#"{"name": "sports_get_standings", "arguments": {"league": "Bundesliga", "season": "2010-11"}}"#;
    for mode in [Mode::JsonObject, Mode::Prompt] {
        let (server, provider) = openai(vec![chat(ANSWER), chat(own), chat(ANSWER)]).await;
        let agent = Agent::new(provider).mode(mode);
        let asked = agent
            .ask_tools(&sports(), REQUEST)
            .answered()
            .await
            .expect("an answer");
        assert_eq!(
            asked.value,
            Choice::Answer(json!("The Football League, founded in 1888.")),
            "{mode}"
        );
        assert_eq!(bodies(&server).await.len(), 2, "{mode}");
        let taken = &asked.attempts[1];
        assert!(taken.raw().contains("Bundesliga"), "{}", taken.raw());
        assert_eq!(kept_of(taken.fixes()), Some(1), "{mode}");
        let shown = taken.fixes()[0].to_string();
        assert!(shown.contains("none of the call's values"), "{shown}");
    }
}

#[tokio::test]
async fn a_call_the_schema_rejects_of_nothing_the_user_wrote_keeps_the_answer() {
    // Told to call the tool, the model writes a call that does not even fit it: with
    // values of its own and the rest left out.
    for call in [
        r#"{"name": "sports_get_standings", "arguments": {"season": "1888-89"}}"#,
        r#"{"name": "sports_get_standings", "arguments": {"league": {"name": "Premier"}, "season": "1888-89"}}"#,
    ] {
        for mode in [Mode::JsonObject, Mode::Prompt, Mode::JsonSchema] {
            let reply = match mode {
                Mode::JsonSchema => format!(r#"{{"value": {call}}}"#),
                _ => call.to_owned(),
            };
            let replies = vec![chat(ANSWER), chat(&reply), chat(ANSWER)];
            let (asked, requests) = asked_of(REQUEST, replies, mode).await;
            assert_eq!(
                asked.value,
                Choice::Answer(json!("The Football League, founded in 1888.")),
                "{mode} {call}"
            );
            assert_eq!(requests, 2, "{mode} {call}");
            let taken = &asked.attempts[1];
            assert_eq!(kept_of(taken.fixes()), Some(1), "{mode} {call}");
            // The fix says what the reply was: the schema's violation, and made up.
            let shown = taken.fixes()[0].to_string();
            assert!(
                shown.contains("none of the call's values")
                    && (shown.contains("missing required field") || shown.contains("expected")),
                "{mode} {call}: {shown}"
            );
        }
    }
}

#[tokio::test]
async fn a_rejected_call_cut_at_the_token_limit_keeps_nothing_yet() {
    // The call the cut left, closed by the reading, says nothing of the tool: the answer
    // is still held, and kept over the next reply's made-up call.
    let cut = completion(
        json!({"role": "assistant", "content": r#"{"name": "sports_get_standings", "arguments": {"season": "1888-89""#}),
        "length",
        (100, 400),
    );
    let replies = vec![chat(ANSWER), cut, chat(COPIED)];
    let (asked, requests) = asked_of(REQUEST, replies, Mode::JsonObject).await;
    assert_eq!(
        asked.value,
        Choice::Answer(json!("The Football League, founded in 1888."))
    );
    assert_eq!(requests, 3);
    assert!(kept_of(asked.attempts[1].fixes()).is_none());
    assert!(
        asked.attempts[1]
            .violations()
            .iter()
            .all(|v| !matches!(v.kind(), ViolationKind::Unstated { .. })),
        "{:?}",
        asked.attempts[1].violations()
    );
    assert_eq!(kept_of(asked.attempts[2].fixes()), Some(1));
}

#[tokio::test]
async fn an_answer_cut_at_the_token_limit_is_asked_whole_then_questioned_and_kept() {
    // The cut answer is sent back as cut alone, not told to call the tool; the whole
    // answer that follows is questioned for the skip and held, and the call of the
    // examples after it keeps that answer.
    let cut = completion(
        json!({"role": "assistant", "content": r#"{"answer": "The Football League, founded in 1888 by"#}),
        "length",
        (100, 400),
    );
    let (server, provider) = openai(vec![cut, chat(ANSWER), chat(COPIED)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let asked = agent
        .ask_tools(&sports(), REQUEST)
        .answered()
        .await
        .expect("an answer");
    assert_eq!(
        asked.value,
        Choice::Answer(json!("The Football League, founded in 1888."))
    );
    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 3);
    let kinds = |i: usize| -> Vec<ViolationKind> {
        let violations = asked.attempts[i].violations();
        violations.iter().map(|v| v.kind().clone()).collect()
    };
    assert!(
        matches!(kinds(0).as_slice(), [ViolationKind::CutOff { .. }]),
        "{:?}",
        kinds(0)
    );
    let second = bodies[1].to_string();
    assert!(second.contains("cut off"), "{second}");
    assert!(!second.contains("asks for what the function"), "{second}");
    assert!(
        matches!(kinds(1).as_slice(), [ViolationKind::SkippedTool { .. }]),
        "{:?}",
        kinds(1)
    );
    assert_eq!(kept_of(asked.attempts[2].fixes()), Some(2));
}

#[tokio::test]
async fn an_empty_call_after_the_question_is_sent_back_with_its_arguments() {
    // `{}` is the form copied: it says nothing of the request, and is sent back with
    // the arguments the function requires; the answer given again is then taken.
    let empty = r#"{"name": "sports_get_standings", "arguments": {}}"#;
    let (server, provider) = openai(vec![chat(ANSWER), chat(empty), chat(ANSWER)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let asked = agent
        .ask_tools(&sports(), REQUEST)
        .answered()
        .await
        .expect("an answer");
    assert_eq!(
        asked.value,
        Choice::Answer(json!("The Football League, founded in 1888."))
    );
    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 3);
    assert!(bodies[2].to_string().contains("had empty"), "{}", bodies[2]);
    assert!(asked.attempts.iter().all(|a| kept_of(a.fixes()).is_none()));
}

#[tokio::test]
async fn a_call_the_schema_rejects_with_a_value_of_the_user_is_sent_back() {
    let request = "Which sports league is the oldest? The Bundesliga, maybe?";
    let call = r#"{"name": "sports_get_standings", "arguments": {"league": "Bundesliga"}}"#;
    let fixed = r#"{"name": "sports_get_standings", "arguments": {"league": "Bundesliga", "season": "1963-64"}}"#;
    let replies = vec![chat(ANSWER), chat(call), chat(fixed)];
    let (asked, requests) = asked_of(request, replies, Mode::JsonObject).await;
    assert!(matches!(asked.value, Choice::Calls(_)), "{:?}", asked.value);
    assert_eq!(requests, 3);
    assert!(asked.attempts.iter().all(|a| kept_of(a.fixes()).is_none()));
}

#[tokio::test]
async fn a_call_of_the_users_values_after_the_question_is_taken() {
    let call = r#"{"name": "sports_get_standings", "arguments": {"league": "Bundesliga", "season": "2022-23"}}"#;
    let (_server, provider) = openai(vec![chat(ANSWER), chat(call)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let asked = agent
        .ask_tools(
            &sports(),
            "Show me the sports table of the Bundesliga for 2022-23.",
        )
        .answered()
        .await
        .expect("a call");
    assert!(matches!(asked.value, Choice::Calls(_)), "{:?}", asked.value);
    assert_eq!(kept_of(asked.attempts[1].fixes()), None);
}

#[tokio::test]
async fn an_answer_held_to_the_last_attempt_is_kept_over_replies_that_do_not_read() {
    // Replies that do not read say nothing of whether the tool fits; once the attempts
    // are spent, the answer held for the skip alone is taken, as it would have been
    // unquestioned, with the fix that says so on the last attempt.
    let broken = r#"{"name": "sports_get_standings", "arguments": {[league]: "#;
    let replies = vec![chat(ANSWER), chat(broken), chat(broken)];
    let (asked, requests) = asked_of(REQUEST, replies, Mode::JsonObject).await;
    assert_eq!(
        asked.value,
        Choice::Answer(json!("The Football League, founded in 1888."))
    );
    assert_eq!(requests, 3);
    assert_eq!(asked.attempts.len(), 3);
    assert!(
        asked.attempts[1]
            .violations()
            .iter()
            .any(|v| matches!(v.kind(), ViolationKind::Syntax { .. }))
    );
    assert_eq!(kept_of(asked.attempts[2].fixes()), Some(1));
    let shown = asked.attempts[2].fixes()[0].to_string();
    assert!(shown.contains("invalid JSON"), "{shown}");
    // Every reply stays reachable: the answer's and the broken ones, as written.
    assert!(asked.attempts[0].raw().contains("1888"));
    assert!(asked.attempts[2].raw().contains("[league]"));

    // With one attempt left after the answer, the same: the answer is not lost to it.
    let (_server, provider) = openai(vec![chat(ANSWER), chat(broken)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject).max_attempts(2);
    let asked = agent
        .ask_tools(&sports(), REQUEST)
        .answered()
        .await
        .expect("the held answer");
    assert_eq!(kept_of(asked.attempts[1].fixes()), Some(1));
}

#[tokio::test]
async fn an_answer_on_the_last_attempt_is_not_questioned_for_the_skip() {
    // No attempt is left to call the tool: the answer is taken as it would be
    // unquestioned, in one call with one attempt, and on the third of three.
    let (server, provider) = openai(vec![chat(ANSWER)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject).max_attempts(1);
    let asked = agent
        .ask_tools(&sports(), REQUEST)
        .answered()
        .await
        .expect("the answer");
    assert_eq!(
        asked.value,
        Choice::Answer(json!("The Football League, founded in 1888."))
    );
    assert_eq!(bodies(&server).await.len(), 1);
    assert!(asked.attempts[0].violations().is_empty());

    // Two replies that do not read, then the answer: taken on the last attempt.
    let broken = r#"{"name": "sports_get_standings", "arguments": {[league]: "#;
    let replies = vec![chat(broken), chat(broken), chat(ANSWER)];
    let (asked, requests) = asked_of(REQUEST, replies, Mode::JsonObject).await;
    assert_eq!(
        asked.value,
        Choice::Answer(json!("The Football League, founded in 1888."))
    );
    assert_eq!(requests, 3);

    // Before the last attempt it is questioned, as ever.
    let replies = vec![chat(ANSWER), chat(ANSWER)];
    let (asked, requests) = asked_of(REQUEST, replies, Mode::JsonObject).await;
    assert_eq!(requests, 2);
    assert!(matches!(
        asked.attempts[0].violations()[0].kind(),
        ViolationKind::SkippedTool { .. }
    ));
}

#[tokio::test]
async fn only_an_answer_questioned_for_the_skip_alone_is_kept() {
    // No answer was questioned: two calls of the examples have the answer alone asked for,
    // as before, and nothing is kept.
    let (_server, provider) = openai(vec![chat(COPIED), chat(COPIED), chat(ANSWER)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let asked = agent
        .ask_tools(&sports(), REQUEST)
        .answered()
        .await
        .expect("an answer");
    assert!(asked.attempts.iter().all(|a| kept_of(a.fixes()).is_none()));

    // An answer cut at the token limit, its value whole, is questioned for the cut too:
    // it may lack what the cut took, so it is not kept.
    let cut = completion(
        json!({"role": "assistant", "content": ANSWER}),
        "length",
        (100, 20),
    );
    let (_server, provider) = openai(vec![cut, chat(COPIED), chat(COPIED)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let error = agent.ask_tools(&sports(), REQUEST).await.unwrap_err();
    assert!(
        error
            .attempts()
            .iter()
            .all(|a| kept_of(a.fixes()).is_none())
    );

    // The checks of the conversation off: the answer is never questioned, so never kept.
    let (_server, provider) = openai(vec![chat(ANSWER)]).await;
    let agent = Agent::new(provider)
        .mode(Mode::JsonObject)
        .grounded_calls(false);
    let asked = agent
        .ask_tools(&sports(), REQUEST)
        .answered()
        .await
        .expect("an answer");
    assert_eq!(asked.attempts.len(), 1);
    assert!(kept_of(asked.attempts[0].fixes()).is_none());
}
