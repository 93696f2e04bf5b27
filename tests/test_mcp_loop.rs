//! The agent's tool loop over real MCP servers (child processes): the model is scripted,
//! the servers are not. Each validated call goes to `tools/call`; results, tool errors
//! and failed servers go back to the model; the run keeps every call and every attempt.

use std::time::{Duration, Instant};

use serde_json::json;
use toolschema::Agent;
use toolschema::agent::AskError;
use toolschema::mcp::{McpError, McpRunError, ServerFailure, ServerSpec, Servers, Timeouts};
use toolschema::provider::Scripted;

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
    let run = agent
        .run_mcp(&servers, "What is 2 + 3?")
        .await
        .expect("an answer");
    assert_eq!(run.answer, json!("2 + 3 = 5"));
    assert_eq!(run.calls.len(), 1, "{:?}", run.calls);
    assert_eq!(run.calls[0].tool, "rust.add");
    assert_eq!(run.calls[0].arguments, json!({"a": 2, "b": 3}));
    assert_eq!(
        run.calls[0].result.as_ref().map(|o| o.text.as_str()).ok(),
        Some("5")
    );
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
    let run = Agent::new(model.clone())
        .run_mcp(&servers, "Fail with the message: the disk is full")
        .await
        .expect("an answer");
    assert_eq!(run.answer, json!("The disk is full."));
    assert!(run.calls[0].result.as_ref().is_ok_and(|o| o.is_error));
    assert_eq!(run.server_failures().count(), 0);
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
        .run_mcp(&servers, "Crash it")
        .await
        .expect_err("the server died");
    assert_eq!(
        model.calls(),
        2,
        "the model is not asked after the server died"
    );
    let Some(McpError::Disconnected { server, stderr, .. }) = err.server_failure() else {
        panic!("expected the server's death, got {err:?}");
    };
    assert_eq!(server, "rust");
    assert!(
        stderr
            .iter()
            .any(|l| l == "mcp-test-server: crashing on purpose")
    );
    let McpRunError::Ask { error, calls } = &err else {
        panic!("expected the ask's error, got {err:?}");
    };
    assert!(matches!(error, AskError::ToolFailed { tool, .. } if tool == "rust.crash"));
    assert_eq!(calls.len(), 1);
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
    let run = Agent::new(model.clone())
        .run_mcp_tools(&tools, "Crash it")
        .await
        .expect("an answer");
    assert_eq!(run.answer, json!("The server is gone."));
    let failures: Vec<&McpError> = run.server_failures().collect();
    assert_eq!(failures.len(), 2, "{:?}", run.calls);
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
        .run_mcp(&servers, "Wait for it")
        .await
        .expect_err("the server hung");
    assert!(
        matches!(err.server_failure(), Some(McpError::Timeout { .. })),
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
    let run = Agent::new(model.clone())
        .run_mcp(&servers, "Try it")
        .await
        .expect("an answer");
    assert!(
        matches!(run.server_failures().next(), Some(McpError::Refused { .. })),
        "{:?}",
        run.calls
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
    let tools = servers.loop_tools().expect("tools").max_steps(2);
    let err = Agent::new(model)
        .max_attempts(2)
        .run_mcp_tools(&tools, "Echo forever")
        .await
        .unwrap_err();
    let McpRunError::Ask { error, calls } = &err else {
        panic!("expected the step limit, got {err:?}");
    };
    assert!(
        matches!(error, AskError::StepLimit { steps: 2, .. }),
        "{error:?}"
    );
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
    let run = Agent::new(model.clone())
        .run_mcp_tools(&tools, "Say hi and remember it")
        .await
        .expect("an answer");
    assert_eq!(run.answer, json!("Done."));
    // Only the server's call is an MCP call.
    assert_eq!(run.calls.len(), 1);
    assert_eq!(run.calls[0].tool, "rust.echo");
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
    let run = Agent::new(model.clone())
        .run_mcp_tools(&tools, "09:30 UTC in Tokyo?")
        .await
        .expect("an answer");
    assert_eq!(run.answer, json!("18:30 in Tokyo."));
    assert_eq!(run.calls.len(), 2);
    let first = run.calls[0].result.as_ref().expect("the server answered");
    assert!(first.is_error, "{}", first.text);
    let second = run.calls[1].result.as_ref().expect("the server answered");
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
