//! A model with the tools of a real MCP server: the official time server
//! (`mcp-server-time`, from PyPI), started as a child process and spoken to over stdio.
//! Each step of the loop is printed: the model's attempts, what was rejected and
//! repaired, each `tools/call` and its result, and the answer. The loop is the agent's,
//! the same as a toolbox's: `agent.ask_tools(&tools, prompt).run(&servers)`.
//!
//! ```sh
//! scripts/mcp-servers                      # installs mcp-server-time into target/
//! eval "$(scripts/local-model start)"      # or name your own OpenAI-compatible server:
//! # export OPENAI_BASE_URL=http://127.0.0.1:8080/v1 OPENAI_MODEL=qwen2.5-coder-0.5b
//! cargo run --example mcp -- "What time is it in Tokyo? And 9:30 in New York is what time in Berlin?"
//! ```
//!
//! `MCP_SERVER_TIME` names another `mcp-server-time` command.

#[path = "support/model.rs"]
mod model;

use std::path::PathBuf;

use toolschema::Agent;
use toolschema::agent::Event;
use toolschema::mcp::{ServerSpec, Servers};

const DEFAULT_PROMPT: &str = "What time is it in Tokyo right now? And when it is 09:30 in New York, what time is it in Berlin?";

fn show(event: &Event) {
    // Every event but the bare arrival of a reply, one line each; the tool calls are the
    // server's part.
    let who = match event {
        Event::ReplyReceived { .. } => return,
        Event::ToolCalled { .. } | Event::ToolReturned { .. } => "mcp  ",
        _ => "model",
    };
    for line in event.to_string().lines() {
        println!("  {who} · {line}");
    }
}

/// `MCP_SERVER_TIME`, or what `scripts/mcp-servers` installed (under `CARGO_TARGET_DIR`
/// when that is set).
fn time_server() -> Option<PathBuf> {
    if let Some(command) = std::env::var_os("MCP_SERVER_TIME") {
        return Some(command.into());
    }
    // Under cargo's target directory, as the script installs it.
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| "target".into(), PathBuf::from);
    let installed = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(target)
        .join("mcp-servers/venv/bin/mcp-server-time");
    installed.canonicalize().ok().filter(|path| path.is_file())
}

#[tokio::main]
async fn main() {
    let provider = model::named_or_exit("mcp");
    let Some(time_server) = time_server() else {
        eprintln!(
            "mcp-server-time is not installed: run scripts/mcp-servers (it installs it from \
             PyPI into target/mcp-servers), or set MCP_SERVER_TIME to the command."
        );
        std::process::exit(2);
    };
    let prompt = std::env::args()
        .nth(1)
        .unwrap_or_else(|| DEFAULT_PROMPT.to_owned());

    let spec = ServerSpec::stdio("time", time_server).arg("--local-timezone=UTC");
    println!("starting the MCP server {spec}");
    let servers = match Servers::connect([spec]).await {
        Ok(servers) => servers,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let tools = match servers.toolset() {
        Ok(tools) => tools.with_answer(),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    for name in tools.names() {
        let shown = tools.model_name(name).unwrap_or(name);
        println!("  tool  · {name} (shown to the model as {shown})");
    }

    println!(
        "\nasking {} at {}: {prompt:?}",
        provider.model(),
        std::env::var("OPENAI_BASE_URL").unwrap_or_default()
    );
    let agent = Agent::new(provider)
        .max_attempts(3)
        .temperature(0.0)
        .on_event(show);
    // The same tool loop as a toolbox's, its calls sent to the servers.
    let ran = agent
        .ask_tools(&tools, &prompt)
        .run(&servers)
        .max_steps(5)
        .ran()
        .await;
    match ran {
        Ok(ran) => {
            println!("\n=> {}", ran.answer);
            println!(
                "   ({} tool call(s), {} step(s), {} tokens)",
                ran.calls.len(),
                ran.steps,
                ran.usage.total()
            );
        }
        Err(error) => {
            println!("\n=> no answer: {error}");
            for attempt in error.attempts() {
                println!("   attempt {}: {:?}", attempt.number(), attempt.raw());
            }
        }
    }
    servers.close().await;
}
