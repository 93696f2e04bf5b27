//! `toolschema::mcp` over real MCP servers, each a child process: the deterministic
//! server of this package (`mcp_server/`, rmcp's server side) over stdio and over
//! streamable HTTP, and the official reference server `mcp-server-time` from PyPI
//! (installed by `scripts/mcp-servers`, which CI runs first).

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use toolschema::mcp::{McpError, Operation, Server, ServerSpec, Servers, Timeouts};
use toolschema::{Choice, Toolset};

#[path = "reference_servers.rs"]
mod reference_servers;
use reference_servers::time_server;

const TEST_SERVER: &str = env!("CARGO_BIN_EXE_mcp-test-server");

fn rust_server(name: &str) -> ServerSpec {
    ServerSpec::stdio(name, TEST_SERVER).timeouts(short())
}

/// Short enough for the tests that wait for a timeout, long enough for a loaded machine.
fn short() -> Timeouts {
    Timeouts::new()
        .with_connect(Duration::from_secs(20))
        .with_call(Duration::from_secs(20))
}

/// Whether the process `pid` still exists (a zombie counts: it is not reaped yet).
fn alive(pid: u32) -> bool {
    std::process::Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Waits, letting the runtime run, until `pid` is gone; false if it is still there
/// after `within`.
async fn gone_within(pid: u32, within: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < within {
        if !alive(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    !alive(pid)
}

/// The process id a test server wrote to `path` (`--pid-file`); `what` says who wrote it.
fn read_pid(path: &std::path::Path, what: &str) -> u32 {
    std::fs::read_to_string(path)
        .expect(what)
        .trim()
        .parse()
        .expect("a pid")
}

/// Asserts that `pid` exits within 10 s.
async fn assert_gone(pid: u32) {
    assert!(
        gone_within(pid, Duration::from_secs(10)).await,
        "process {pid} is still there"
    );
}

fn calls(choice: Choice) -> Vec<toolschema::ValidCall> {
    match choice {
        Choice::Calls(calls) => calls,
        Choice::Answer(answer) => panic!("expected calls, got the answer {answer}"),
    }
}

#[tokio::test]
async fn the_tools_are_listed_namespaced_by_server_and_calls_are_routed_back() {
    let servers = Servers::connect([rust_server("rust")])
        .await
        .expect("connected");
    let server = servers.server("rust").expect("the server");
    assert_eq!(
        server.implementation(),
        Some(("mcp-test-server".to_owned(), "1.0.0".to_owned()))
    );
    let tools = servers.toolset().expect("a toolset").with_answer();
    assert_eq!(
        tools.names().collect::<Vec<_>>(),
        [
            "rust.add",
            "rust.crash",
            "rust.echo",
            "rust.fail",
            "rust.files/read me",
            "rust.hang",
            "rust.refuse"
        ]
    );
    // What the model is shown, and read back.
    assert_eq!(
        tools.model_name("rust.files/read me"),
        Some("rust_files_read_me")
    );

    let reply = r#"[{"name": "rust_add", "arguments": {"a": 2, "b": 3}},
                    {"name": "rust_files_read_me", "arguments": {"path": "notes.txt"}}]"#;
    let calls = calls(tools.parse(reply).expect("valid calls"));
    assert_eq!(calls[1].name(), "rust.files/read me");
    let sum = servers.call(&calls[0]).await.expect("a result");
    assert_eq!((sum.text.as_str(), sum.is_error), ("5", false));
    let read = servers.call(&calls[1]).await.expect("a result");
    assert_eq!(read.text, "the contents of notes.txt");

    // The same validation as for any union: the server never sees a bad call.
    let err = tools
        .parse(r#"{"name": "rust_add", "arguments": {"a": "2"}}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "/arguments/a: expected an integer, found the string \"2\"\n/arguments/b: missing required field"
    );
}

#[tokio::test]
async fn a_tool_error_comes_back_as_output_marked_as_an_error() {
    let server = Server::connect(rust_server("rust"))
        .await
        .expect("connected");
    let output = server
        .call("fail", json!({"message": "the disk is full"}))
        .await
        .expect("the call ran");
    assert!(output.is_error);
    assert_eq!(output.text, "the disk is full");
    // A handler's `Err` is a tool error too.
    let overflow = server
        .call("add", json!({"a": i64::MAX, "b": 1}))
        .await
        .expect("the call ran");
    assert!(overflow.is_error);
    assert_eq!(overflow.text, "9223372036854775807 + 1 overflows");
}

#[tokio::test]
async fn a_request_the_server_refuses_is_a_clear_error() {
    let server = Server::connect(rust_server("rust"))
        .await
        .expect("connected");
    let err = server.call("nope", json!({})).await.unwrap_err();
    let McpError::Refused {
        operation, code, ..
    } = &err
    else {
        panic!("expected the server's refusal, got {err:?}");
    };
    assert_eq!(operation, &Operation::CallTool("nope".into()));
    assert_eq!(*code, -32602);
    assert!(
        err.to_string().starts_with(
            r#"the MCP server "rust" answered tools/call of "nope" with error -32602"#
        ),
        "{err}"
    );
    let err = server
        .call("echo", json!(["not", "an", "object"]))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"the MCP server "rust" failed during tools/call of "echo": the arguments must be a JSON object, not ["not","an","object"]"#
    );
    // The server is still there.
    let output = server
        .call("echo", json!({"text": "still here"}))
        .await
        .expect("ran");
    assert_eq!(output.text, "still here");
}

#[tokio::test]
async fn a_hanging_tool_times_out_and_the_server_stays_usable() {
    let timeouts = short().with_call(Duration::from_millis(700));
    let server = Server::connect(rust_server("rust").timeouts(timeouts))
        .await
        .expect("connected");
    let started = Instant::now();
    let err = server.call("hang", json!({})).await.unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "took {:?}",
        started.elapsed()
    );
    let McpError::Timeout {
        operation,
        after,
        stderr,
        ..
    } = &err
    else {
        panic!("expected a timeout, got {err:?}");
    };
    assert_eq!(operation, &Operation::CallTool("hang".into()));
    assert_eq!(*after, Duration::from_millis(700));
    assert_eq!(stderr, &["mcp-test-server: started"]);
    assert!(
        err.to_string().starts_with(
            r#"the MCP server "rust" did not answer tools/call of "hang" within 0.7 s; its last lines on stderr:"#
        ),
        "{err}"
    );
    let output = server
        .call("echo", json!({"text": "after"}))
        .await
        .expect("ran");
    assert_eq!(output.text, "after");
}

#[tokio::test]
async fn a_server_that_crashes_mid_call_is_a_clear_error_and_its_process_is_gone() {
    let server = Server::connect(rust_server("rust"))
        .await
        .expect("connected");
    let pid = server.pid().expect("a stdio server has a pid");
    let err = server.call("crash", json!({})).await.unwrap_err();
    let McpError::Disconnected {
        operation, stderr, ..
    } = &err
    else {
        panic!("expected the connection to close, got {err:?}");
    };
    assert_eq!(operation, &Operation::CallTool("crash".into()));
    assert_eq!(
        stderr,
        &[
            "mcp-test-server: started",
            "mcp-test-server: crashing on purpose"
        ]
    );
    assert!(
        err.to_string()
            .contains("| mcp-test-server: crashing on purpose"),
        "{err}"
    );
    // Later calls fail at once, with the same evidence.
    let again = server
        .call("echo", json!({"text": "hello?"}))
        .await
        .unwrap_err();
    assert!(matches!(again, McpError::Disconnected { .. }), "{again:?}");
    drop(server);
    assert_gone(pid).await;
}

#[tokio::test]
async fn dropping_a_server_kills_its_process() {
    let server = Server::connect(rust_server("rust"))
        .await
        .expect("connected");
    let pid = server.pid().expect("a pid");
    assert!(alive(pid));
    // Even in the middle of a call that never ends.
    let call = server.call("hang", json!({}));
    let _ = tokio::time::timeout(Duration::from_millis(300), call).await;
    drop(server);
    assert_gone(pid).await;
}

/// Servers often run under a launcher (`uvx`, `npx`, a shell script): the server is a
/// grandchild, and it goes too.
#[cfg(unix)]
#[tokio::test]
async fn dropping_a_launched_server_kills_the_server_too() {
    let dir = std::env::temp_dir().join(format!("toolschema-mcp-launcher-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let pid_file = dir.join("server.pid");
    let script = r#""$0" --pid-file "$1"; echo launcher: done >&2"#;
    let spec = ServerSpec::stdio("launched", "sh")
        .args(["-c", script, TEST_SERVER])
        .arg(&pid_file)
        .timeouts(short());
    let server = Server::connect(spec).await.expect("connected through sh");
    let launcher = server.pid().expect("the launcher's pid");
    let pid: u32 = read_pid(&pid_file, "the server wrote its pid");
    let _ = std::fs::remove_dir_all(&dir);
    assert_ne!(pid, launcher);
    let output = server
        .call("echo", json!({"text": "through sh"}))
        .await
        .expect("ran");
    assert_eq!(output.text, "through sh");
    drop(server);
    assert_gone(pid).await;
    assert!(
        gone_within(launcher, Duration::from_secs(10)).await,
        "launcher {launcher} is still there"
    );
}

/// A server that outlives its stdin and ignores SIGTERM gets SIGKILL.
#[tokio::test]
async fn a_server_that_ignores_eof_and_sigterm_is_killed_all_the_same() {
    let server = Server::connect(rust_server("stubborn").arg("--stubborn"))
        .await
        .expect("connected");
    let pid = server.pid().expect("a pid");
    drop(server);
    assert!(
        gone_within(pid, Duration::from_secs(15)).await,
        "process {pid} is still there"
    );
}

#[tokio::test]
async fn closing_waits_until_the_process_is_gone() {
    let servers = Servers::connect([rust_server("one"), rust_server("two")])
        .await
        .expect("connected");
    let pids: Vec<u32> = servers.servers().iter().filter_map(Server::pid).collect();
    assert_eq!(pids.len(), 2);
    assert!(pids.iter().all(|&pid| alive(pid)));
    servers.close().await;
    for pid in pids {
        assert!(!alive(pid), "process {pid} is still there after close");
    }
}

#[tokio::test]
async fn a_server_that_exits_before_the_handshake_says_why() {
    let spec = rust_server("early").arg("--exit-at-start");
    let err = Server::connect(spec).await.unwrap_err();
    let McpError::Disconnected {
        operation, stderr, ..
    } = &err
    else {
        panic!("expected the connection to close, got {err:?}");
    };
    assert_eq!(operation, &Operation::Handshake);
    assert_eq!(
        stderr.last().map(String::as_str),
        Some("mcp-test-server: exiting before the handshake, as asked")
    );
}

#[tokio::test]
async fn a_server_that_never_answers_times_out_in_the_handshake_and_is_killed() {
    let dir = std::env::temp_dir().join(format!("toolschema-mcp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let pid_file = dir.join("silent.pid");
    let spec = rust_server("silent")
        .args(["--silent", "--pid-file"])
        .arg(&pid_file)
        .timeouts(short().with_connect(Duration::from_millis(1500)));
    let started = Instant::now();
    let err = Server::connect(spec).await.unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "took {:?}",
        started.elapsed()
    );
    assert!(
        matches!(&err, McpError::Timeout { operation: Operation::Handshake, after, .. } if *after == Duration::from_millis(1500)),
        "{err:?}"
    );
    let pid: u32 = read_pid(&pid_file, "the server wrote its pid");
    let _ = std::fs::remove_dir_all(&dir);
    assert_gone(pid).await;
}

/// A server that writes one line without end to stderr is read with a bounded buffer,
/// and an error quotes the start of the line it has not finished. (The launcher writes
/// the line, then hands the pipe to the server on another descriptor, so that the pipe
/// stays open and the line unfinished.)
#[cfg(unix)]
#[tokio::test]
async fn an_unfinished_endless_line_on_stderr_is_quoted_by_its_start() {
    let script = r#"head -c 6000000 /dev/zero | tr '\0' x >&2; exec 3>&2 2>/dev/null; exec "$0""#;
    let spec = ServerSpec::stdio("noisy", "sh")
        .args(["-c", script, TEST_SERVER])
        .timeouts(short().with_call(Duration::from_millis(700)));
    let server = Server::connect(spec).await.expect("connected through sh");
    let err = server.call("hang", json!({})).await.unwrap_err();
    assert!(
        matches!(&err, McpError::Timeout { .. }),
        "expected a timeout, got {err:?}"
    );
    assert_eq!(err.stderr(), [format!("{}…", "x".repeat(400))]);
    let output = server
        .call("echo", json!({"text": "after"}))
        .await
        .expect("ran");
    assert_eq!(output.text, "after");
}

#[tokio::test]
async fn a_program_that_does_not_exist_is_a_spawn_error_naming_the_command() {
    let err = Server::connect(ServerSpec::stdio("ghost", "toolschema-no-such-server").arg("--x"))
        .await
        .unwrap_err();
    assert!(matches!(err, McpError::Spawn { .. }), "{err:?}");
    assert!(
        err.to_string().starts_with(
            r#"cannot start the MCP server "ghost" (`toolschema-no-such-server --x`): "#
        ),
        "{err}"
    );
}

#[tokio::test]
async fn one_failed_server_among_several_closes_the_others() {
    let dir = std::env::temp_dir().join(format!("toolschema-mcp-several-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let pid_file = dir.join("good.pid");
    let good = rust_server("good").arg("--pid-file").arg(&pid_file);
    let err = Servers::connect([
        good,
        ServerSpec::stdio("ghost", "toolschema-no-such-server"),
    ])
    .await
    .unwrap_err();
    assert_eq!(err.server(), Some("ghost"));
    let pid: u32 = read_pid(&pid_file, "the good server started");
    let _ = std::fs::remove_dir_all(&dir);
    assert_gone(pid).await;
}

#[tokio::test]
async fn server_names_must_namespace() {
    let err = Servers::connect([rust_server("same"), rust_server("same")])
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"invalid MCP server name "same": two servers have this name; each namespaces its own tools"#
    );
}

#[tokio::test]
async fn two_servers_with_the_same_tools_are_told_apart() {
    let servers = Servers::connect([rust_server("left"), rust_server("right")])
        .await
        .expect("connected");
    let tools = servers.toolset().expect("a toolset");
    assert_eq!(tools.len(), 14);
    let calls = calls(
        tools
            .parse(r#"{"name": "right_echo", "arguments": {"text": "from the right"}}"#)
            .expect("a call"),
    );
    assert_eq!(calls[0].name(), "right.echo");
    let output = servers.call(&calls[0]).await.expect("ran");
    assert_eq!(output.text, "from the right");
    let err = servers
        .call_named("middle.echo", json!({}))
        .await
        .unwrap_err();
    assert!(
        err.to_string().starts_with(
            r#"no connected MCP server has a tool named "middle.echo"; the tools are "left.add", "left.crash""#
        ),
        "{err}"
    );
}

#[tokio::test]
async fn the_rust_server_over_streamable_http() {
    let mut child = tokio::process::Command::new(TEST_SERVER)
        .args(["--http", "127.0.0.1:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the test server starts");
    let stdout = child.stdout.take().expect("its stdout");
    let mut lines = tokio::io::AsyncBufReadExt::lines(tokio::io::BufReader::new(stdout));
    let line = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
        .await
        .expect("the server says where it listens in time")
        .expect("its stdout")
        .expect("a line");
    let url = line
        .strip_prefix("listening on ")
        .expect("an address")
        .to_owned();

    let servers = Servers::connect([ServerSpec::http("web", &url).timeouts(short())])
        .await
        .expect("connected over HTTP");
    assert_eq!(servers.servers()[0].pid(), None);
    let tools = servers.toolset().expect("a toolset");
    assert!(tools.names().any(|n| n == "web.add"));
    let output = servers
        .call_named("web.add", json!({"a": 40, "b": 2}))
        .await
        .expect("ran");
    assert_eq!(output.text, "42");
    let failed = servers
        .call_named("web.fail", json!({"message": "over HTTP"}))
        .await
        .expect("ran");
    assert!(failed.is_error);

    // The server goes away: the next call is a clear error, not a hang.
    child.kill().await.expect("killed");
    let err = servers
        .call_named("web.echo", json!({"text": "anyone?"}))
        .await
        .unwrap_err();
    assert_eq!(err.server(), Some("web"));
    assert!(
        matches!(err, McpError::Disconnected { .. } | McpError::Failed { .. }),
        "{err:?}"
    );
}

#[tokio::test]
async fn nothing_listens_at_the_url() {
    // A port that was free a moment ago.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let spec = ServerSpec::http("web", format!("http://127.0.0.1:{port}/mcp")).timeouts(short());
    let err = Server::connect(spec).await.unwrap_err();
    assert!(
        matches!(
            &err,
            McpError::Failed {
                operation: Operation::Handshake,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with(r#"the MCP server "web" failed during the handshake (initialize): "#),
        "{err}"
    );
}

#[tokio::test]
async fn the_reference_time_server_from_pypi() {
    let servers = Servers::connect([time_server()])
        .await
        .expect("mcp-server-time connected");
    let (name, _version) = servers.servers()[0]
        .implementation()
        .expect("it names itself");
    assert_eq!(name, "mcp-time");
    let tools = servers.toolset().expect("its tools load").with_answer();
    assert_eq!(
        tools.names().collect::<Vec<_>>(),
        ["time.get_current_time", "time.convert_time"]
    );
    let calls = calls(
        tools
            .parse(r#"{"name": "time_convert_time", "arguments": {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}}"#)
            .expect("a valid call"),
    );
    let output = servers.call(&calls[0]).await.expect("ran");
    assert!(!output.is_error, "{}", output.text);
    let result: Value = serde_json::from_str(&output.text).expect("the result as JSON text");
    assert_eq!(result["target"]["timezone"], "Asia/Tokyo");
    assert_eq!(result["time_difference"], "+9.0h");

    // A time zone that does not exist: the server says so, for the model to read.
    let output = servers
        .call_named(
            "time.get_current_time",
            json!({"timezone": "Mars/Olympus_Mons"}),
        )
        .await
        .expect("ran");
    assert!(output.is_error, "{}", output.text);
    assert!(output.text.contains("Mars/Olympus_Mons"), "{}", output.text);

    // Its schemas are checked like any other: a missing argument never reaches it.
    let err = tools
        .parse(r#"{"name": "time_get_current_time", "arguments": {}}"#)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "/arguments/timezone: missing required field"
    );
    let _: &Toolset = &tools;
}
