//! The agent's tool loop over real MCP servers (child processes): the model is scripted,
//! the servers are not. The loop is the same request as a toolbox's:
//! `agent.ask_tools(&tools, prompt).run(&servers)`, or `.run(&tools)` with the tools
//! `Servers::loop_tools` prepares. Each validated call goes to `tools/call`; results, tool
//! errors and failed servers go back to the model; the run keeps every call and every
//! attempt.

use std::time::{Duration, Instant};

use serde_json::json;
use toolschema::agent::{AskError, ToolRun};
use toolschema::mcp::{McpError, McpRunError, ServerFailure, ServerSpec, Servers, Timeouts};
use toolschema::provider::Scripted;
use toolschema::{Agent, Toolset};

#[path = "reference_servers.rs"]
mod reference_servers;
use reference_servers::time_server;

const TEST_SERVER: &str = env!("CARGO_BIN_EXE_mcp-test-server");

async fn rust_servers(call_timeout: Duration) -> Servers {
    let timeouts = Timeouts::new()
        .with_connect(Duration::from_secs(20))
        .with_call(call_timeout);
    Servers::connect([ServerSpec::stdio("rust", TEST_SERVER).timeouts(timeouts)])
        .await
        .expect("the test server connects")
}

/// The servers' tools and the answer: the union the model chooses from.
fn union(servers: &Servers) -> Toolset {
    servers.toolset().expect("the tools load").with_answer()
}

/// `(tool, result)` of each call.
fn results(calls: &[ToolRun]) -> Vec<(&str, Result<&str, &str>)> {
    calls
        .iter()
        .map(|c| (c.tool.as_str(), c.result.as_deref().map_err(String::as_str)))
        .collect()
}

fn alive(pid: u32) -> bool {
    std::process::Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[tokio::test]
async fn validated_calls_reach_the_server_and_the_results_reach_the_model() {
    let servers = rust_servers(Duration::from_secs(20)).await;
    let model = Scripted::new([
        // Missing an argument: repaired by the model before the server sees anything.
        r#"{"name": "rust_add", "arguments": {"a": 2}}"#,
        r#"{"name": "rust_add", "arguments": {"a": 2, "b": 3}}"#,
        r#"{"answer": "2 + 3 = 5"}"#,
    ]);
    let agent = Agent::new(model.clone()).max_attempts(2);
    let ran = agent
        .ask_tools(&union(&servers), "What is 2 + 3?")
        .run(&servers)
        .ran()
        .await
        .expect("an answer");
    assert_eq!(ran.answer, json!("2 + 3 = 5"));
    assert_eq!(ran.calls.len(), 1, "{:?}", ran.calls);
    assert_eq!(ran.calls[0].name, "rust_add");
    assert_eq!(ran.calls[0].tool, "rust.add");
    assert_eq!(ran.calls[0].arguments, json!({"a": 2, "b": 3}));
    assert_eq!(ran.calls[0].result, Ok("5".to_owned()));
    assert_eq!((ran.steps, ran.attempts.len()), (2, 3));
    let requests = model.request_texts();
    assert!(
        requests[1].contains("/arguments/b: missing required field"),
        "{}",
        requests[1]
    );
    assert!(
        requests[2].contains("Result of rust_add: 5"),
        "{}",
        requests[2]
    );
}

#[tokio::test]
async fn a_tool_error_goes_back_to_the_model_as_an_error() {
    let servers = rust_servers(Duration::from_secs(20)).await;
    let model = Scripted::new([
        r#"{"name": "rust_fail", "arguments": {"message": "the disk is full"}}"#,
        r#"{"answer": "The disk is full."}"#,
    ]);
    let ran = Agent::new(model.clone())
        .ask_tools(&union(&servers), "Fail with the message: the disk is full")
        .run(&servers)
        .ran()
        .await
        .expect("an answer");
    assert_eq!(ran.answer, json!("The disk is full."));
    assert_eq!(
        results(&ran.calls),
        [("rust.fail", Err("the disk is full"))]
    );
    assert!(
        model.request_texts()[1].contains("Error from rust_fail: the disk is full"),
        "{}",
        model.request_texts()[1]
    );
}

/// Waits up to ten seconds for the process to be gone.
async fn assert_gone(pid: u32) {
    let start = Instant::now();
    while alive(pid) && start.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(!alive(pid), "process {pid} is still there");
}

#[tokio::test]
async fn a_server_that_crashes_ends_the_run_with_its_evidence() {
    let servers = rust_servers(Duration::from_secs(20)).await;
    let pid = servers.servers()[0].pid().expect("a pid");
    let model = Scripted::new([
        "no call yet",
        r#"{"name": "rust_crash", "arguments": {}}"#,
        r#"{"answer": "never asked for"}"#,
    ]);
    let err = Agent::new(model.clone())
        .max_attempts(2)
        .ask_tools(&union(&servers), "Crash it")
        .run(&servers)
        .await
        .expect_err("the server died");
    assert_eq!(
        model.calls(),
        2,
        "the model is not asked after the server died"
    );
    let AskError::ToolFailed { tool, error, .. } = &err else {
        panic!("expected the server's failure to end the run, got {err:?}");
    };
    assert_eq!(tool, "rust.crash");
    let Some(McpError::Disconnected { server, stderr, .. }) = error.downcast_ref::<McpError>()
    else {
        panic!("expected the server's death, got {error:?}");
    };
    assert_eq!(server, "rust");
    assert!(
        stderr
            .iter()
            .any(|l| l == "mcp-test-server: crashing on purpose")
    );
    let raw: Vec<&str> = err.attempts().iter().map(|a| a.raw()).collect();
    assert_eq!(
        raw,
        ["no call yet", r#"{"name": "rust_crash", "arguments": {}}"#]
    );
    // Said once, with the server's last words.
    let shown = err.to_string();
    assert!(
        shown.starts_with(
            "the tool \"rust.crash\" failed and ended the run: the MCP server \"rust\" \
             closed the connection during tools/call of \"crash\""
        ),
        "{shown}"
    );
    assert_eq!(shown.matches("crashing on purpose").count(), 1, "{shown}");
    assert_gone(pid).await;
}

#[tokio::test]
async fn a_server_failure_told_to_the_model_is_kept_with_its_evidence() {
    let servers = rust_servers(Duration::from_secs(20)).await;
    let pid = servers.servers()[0].pid().expect("a pid");
    let model = Scripted::new([
        r#"{"name": "rust_crash", "arguments": {}}"#,
        r#"{"name": "rust_echo", "arguments": {"text": "still there?"}}"#,
        r#"{"answer": "The server is gone."}"#,
    ]);
    let tools = servers
        .loop_tools()
        .expect("tools")
        .on_server_failure(ServerFailure::ToldToModel);
    let ran = Agent::new(model.clone())
        .ask_tools(tools.toolset(), "Crash it")
        .run(&tools)
        .ran()
        .await
        .expect("an answer");
    assert_eq!(ran.answer, json!("The server is gone."));
    assert!(
        ran.calls.iter().all(|c| c.result.is_err()),
        "{:?}",
        ran.calls
    );
    // The record of MCP calls keeps the evidence: the server's stderr.
    let calls = tools.calls();
    let failures: Vec<&McpError> = calls
        .iter()
        .filter_map(|c| c.result.as_ref().err().map(AsRef::as_ref))
        .collect();
    assert_eq!(failures.len(), 2, "{calls:?}");
    assert!(
        failures[0]
            .stderr()
            .iter()
            .any(|l| l == "mcp-test-server: crashing on purpose")
    );
    let requests = model.request_texts();
    // The model reads what happened, not the server's stderr.
    assert!(
        requests[1].contains(
            r#"Error from rust_crash: the MCP server "rust" closed the connection during tools/call of "crash""#
        ),
        "{}",
        requests[1]
    );
    assert!(
        !requests[1].contains("crashing on purpose"),
        "{}",
        requests[1]
    );
    assert!(
        requests[2].contains("Error from rust_echo: the MCP server \"rust\""),
        "{}",
        requests[2]
    );
    assert_gone(pid).await;
}

#[tokio::test]
async fn a_hanging_tool_ends_the_run_with_a_timeout() {
    let servers = rust_servers(Duration::from_millis(700)).await;
    let model = Scripted::new([
        r#"{"name": "rust_hang", "arguments": {}}"#,
        r#"{"answer": "never asked for"}"#,
    ]);
    let err = Agent::new(model.clone())
        .ask_tools(&union(&servers), "Wait for it")
        .run(&servers)
        .await
        .expect_err("the server hung");
    let AskError::ToolFailed { error, .. } = &err else {
        panic!("expected the server's failure to end the run, got {err:?}");
    };
    assert!(
        matches!(error.downcast_ref(), Some(McpError::Timeout { .. })),
        "{err:?}"
    );
    assert_eq!(model.calls(), 1);
    assert!(
        err.to_string()
            .contains(r#"the MCP server "rust" did not answer tools/call of "hang" within 0.7 s"#),
        "{err}"
    );
}

#[tokio::test]
async fn a_refused_call_goes_back_to_the_model() {
    let servers = rust_servers(Duration::from_secs(20)).await;
    let model = Scripted::new([
        r#"{"name": "rust_refuse", "arguments": {}}"#,
        r#"{"answer": "It was refused."}"#,
    ]);
    let ran = Agent::new(model.clone())
        .ask_tools(&union(&servers), "Try it")
        .run(&servers)
        .ran()
        .await
        .expect("an answer");
    let refused = ran.calls[0].result.as_ref().expect_err("refused");
    assert!(
        refused.starts_with(r#"the MCP server "rust" answered"#),
        "{refused}"
    );
    assert!(
        model.request_texts()[1]
            .contains("Error from rust_refuse: the MCP server \"rust\" answered"),
        "{}",
        model.request_texts()[1]
    );
}

#[tokio::test]
async fn a_run_without_an_answer_keeps_every_attempt_and_every_call() {
    let servers = rust_servers(Duration::from_secs(20)).await;
    let model = Scripted::new([
        r#"{"name": "rust_echo", "arguments": {"text": "one"}}"#,
        r#"{"nope": 1}"#,
        r#"{"name": "rust_echo", "arguments": {"text": "two"}}"#,
    ]);
    let tools = servers.loop_tools().expect("tools");
    let err = Agent::new(model)
        .max_attempts(2)
        .ask_tools(tools.toolset(), "Echo forever")
        .run(&tools)
        .max_steps(2)
        .await
        .unwrap_err();
    assert!(
        matches!(err, AskError::StepLimit { steps: 2, .. }),
        "{err:?}"
    );
    let calls = tools.calls();
    let raw: Vec<&str> = err.attempts().iter().map(|a| a.raw()).collect();
    assert_eq!(
        raw,
        [
            r#"{"name": "rust_echo", "arguments": {"text": "one"}}"#,
            r#"{"nope": 1}"#,
            r#"{"name": "rust_echo", "arguments": {"text": "two"}}"#,
        ]
    );
    let texts: Vec<&str> = calls
        .iter()
        .filter_map(|c| c.result.as_ref().ok().map(|o| o.text.as_str()))
        .collect();
    assert_eq!(texts, ["one", "two"]);
}

#[tokio::test]
async fn local_rust_tools_and_server_tools_in_one_loop() {
    use toolschema::ToolSchema;
    use toolschema::agent::Toolbox;

    #[derive(ToolSchema, Debug)]
    struct Remember {
        note: String,
    }

    // Only the union's description is used: its calls run as handlers.
    #[allow(dead_code)]
    #[derive(ToolSchema, Debug)]
    enum Local {
        /// Keep a note for later.
        #[tool]
        Remember(Remember),
    }

    let servers = rust_servers(Duration::from_secs(20)).await;
    let tools = servers
        .loop_tools()
        .expect("tools")
        .with_local::<Local>(|toolbox: Toolbox| {
            toolbox.tool("remember", |args: Remember| async move {
                Ok::<_, String>(format!("noted: {}", args.note))
            })
        })
        .expect("the union");
    assert!(tools.toolset().names().any(|n| n == "remember"));
    assert!(tools.toolset().names().any(|n| n == "rust.echo"));
    let model = Scripted::new([
        r#"[{"name": "rust_echo", "arguments": {"text": "hi"}}, {"name": "remember", "arguments": {"note": "said hi"}}]"#,
        r#"{"answer": "Done."}"#,
    ]);
    let ran = Agent::new(model.clone())
        .ask_tools(tools.toolset(), "Say hi and remember it")
        .run(&tools)
        .ran()
        .await
        .expect("an answer");
    assert_eq!(ran.answer, json!("Done."));
    assert_eq!(
        results(&ran.calls),
        [("rust.echo", Ok("hi")), ("remember", Ok("noted: said hi"))]
    );
    // Only the server's call is an MCP call.
    let calls = tools.calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].tool, "rust.echo");
    let request = &model.request_texts()[1];
    assert!(request.contains("Result of rust_echo: hi"), "{request}");
    assert!(
        request.contains("Result of remember: noted: said hi"),
        "{request}"
    );
}

#[tokio::test]
async fn the_reference_time_server_in_the_loop() {
    let servers = Servers::connect([time_server()])
        .await
        .expect("mcp-server-time connects");
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let tools = servers
        .loop_tools_observed(move |call| log.lock().expect("the log").push(call.to_string()))
        .expect("tools");
    let model = Scripted::new([
        // A time zone that does not exist: the server's error goes back to the model.
        r#"{"name": "time_convert_time", "arguments": {"source_timezone": "UTC", "time": "09:30", "target_timezone": "Tokyo"}}"#,
        r#"{"name": "time_convert_time", "arguments": {"source_timezone": "UTC", "time": "09:30", "target_timezone": "Asia/Tokyo"}}"#,
        r#"{"answer": "18:30 in Tokyo."}"#,
    ]);
    let ran = Agent::new(model.clone())
        .ask_tools(tools.toolset(), "09:30 UTC in Tokyo?")
        .run(&tools)
        .ran()
        .await
        .expect("an answer");
    assert_eq!(ran.answer, json!("18:30 in Tokyo."));
    let calls = tools.calls();
    assert_eq!(calls.len(), 2);
    assert_eq!(ran.calls.len(), 2);
    let first = calls[0].result.as_ref().expect("the server answered");
    assert!(first.is_error, "{}", first.text);
    let second = calls[1].result.as_ref().expect("the server answered");
    assert!(second.text.contains("\"datetime\""), "{}", second.text);
    assert!(second.text.contains("T18:30:00+09:00"), "{}", second.text);
    let requests = model.request_texts();
    assert!(
        requests[1].contains("Error from time_convert_time: "),
        "{}",
        requests[1]
    );
    assert!(
        requests[2].contains("Result of time_convert_time: "),
        "{}",
        requests[2]
    );
    let seen = seen.lock().expect("the log");
    assert_eq!(seen.len(), 2);
    assert!(seen[0].starts_with("time.convert_time("), "{}", seen[0]);
}

#[tokio::test]
async fn a_typo_in_a_local_handler_s_name_ends_the_loop_before_any_model_call() {
    use toolschema::ToolSchema;
    use toolschema::agent::Toolbox;

    #[derive(ToolSchema, Debug)]
    struct Remember {
        note: String,
    }

    #[allow(dead_code)]
    #[derive(ToolSchema, Debug)]
    enum Local {
        /// Keep a note for later.
        #[tool]
        Remember(Remember),
    }

    let servers = rust_servers(Duration::from_secs(20)).await;
    let tools = servers
        .loop_tools()
        .expect("tools")
        .with_local::<Local>(|toolbox: Toolbox| {
            toolbox.tool("Remember", |args: Remember| async move {
                Ok::<_, String>(format!("noted: {}", args.note))
            })
        })
        .expect("the union");
    let model = Scripted::new([r#"{"answer": "never asked for"}"#]);
    let err = Agent::new(model.clone())
        .ask_tools(tools.toolset(), "Remember this")
        .run(&tools)
        .await
        .expect_err("a handler names no tool");
    let AskError::UnknownHandlers { handlers, .. } = &err else {
        panic!("expected the unknown handler, got {err:?}");
    };
    assert_eq!(handlers[0].name, "Remember");
    assert_eq!(handlers[0].did_you_mean.as_deref(), Some("remember"));
    assert_eq!(model.calls(), 0);
}

/// `run_mcp` and `run_mcp_tools` are deprecated, and run the same loop.
#[tokio::test]
#[allow(deprecated)]
async fn the_deprecated_entry_points_run_the_same_loop() {
    let servers = rust_servers(Duration::from_secs(20)).await;
    let model = Scripted::new([
        r#"{"name": "rust_add", "arguments": {"a": 2, "b": 3}}"#,
        r#"{"answer": "5"}"#,
    ]);
    let run = Agent::new(model)
        .run_mcp(&servers, "What is 2 + 3?")
        .await
        .expect("an answer");
    assert_eq!(run.answer, json!("5"));
    assert_eq!(run.calls.len(), 1);
    assert_eq!(run.calls[0].tool, "rust.add");
    assert_eq!(
        run.calls[0].result.as_ref().map(|o| o.text.as_str()).ok(),
        Some("5")
    );
    assert_eq!(run.server_failures().count(), 0);

    let model = Scripted::new([
        r#"{"name": "rust_echo", "arguments": {"text": "one"}}"#,
        r#"{"name": "rust_echo", "arguments": {"text": "two"}}"#,
    ]);
    let tools = servers.loop_tools().expect("tools").max_steps(1);
    let err = Agent::new(model)
        .run_mcp_tools(&tools, "Echo one forever")
        .await
        .unwrap_err();
    let McpRunError::Ask { error, calls } = &err else {
        panic!("expected the step limit, got {err:?}");
    };
    assert!(
        matches!(error, AskError::StepLimit { steps: 1, .. }),
        "{error:?}"
    );
    assert_eq!(calls.len(), 1);
    assert_eq!(err.attempts().len(), 1);
}

#[allow(dead_code)]
#[path = "agent_http/server.rs"]
mod server;

/// A model behind a real HTTP server calls a server's tool natively; the call goes to
/// the MCP server and its result back to the model in the provider's protocol.
#[tokio::test]
async fn native_calls_from_an_http_model_reach_the_mcp_server() {
    use toolschema::agent::Event;
    use toolschema::provider::Mode;

    let servers = rust_servers(Duration::from_secs(20)).await;
    let (http, provider) = server::openai(vec![
        server::tool_calls(&[("call_7", "rust_add", r#"{"a": 2, "b": 3}"#)]),
        server::chat(r#"{"answer": "2 + 3 = 5"}"#),
    ])
    .await;
    let events = server::Events::default();
    let ran = Agent::new(provider)
        .mode(Mode::Tools)
        .on_event(events.listener())
        .ask_tools(&union(&servers), "What is 2 + 3?")
        .run(&servers)
        .ran()
        .await
        .expect("an answer");
    assert_eq!(ran.answer, json!("2 + 3 = 5"));
    assert_eq!(results(&ran.calls), [("rust.add", Ok("5"))]);
    assert_eq!(ran.calls[0].id.as_deref(), Some("call_7"));
    let sent = server::bodies(&http).await;
    assert_eq!(sent.len(), 2);
    let messages = sent[1]["messages"].as_array().expect("messages");
    assert_eq!(
        messages.last(),
        Some(
            &json!({ "role": "tool", "content": "Result of rust_add: 5", "tool_call_id": "call_7" })
        )
    );
    let calls: Vec<String> = events
        .all()
        .iter()
        .filter(|e| matches!(e, Event::ToolCalled { .. } | Event::ToolReturned { .. }))
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        calls,
        [
            r#"step 1: calling rust.add({"a":2,"b":3})"#,
            "step 1: rust.add → 5"
        ]
    );
}
