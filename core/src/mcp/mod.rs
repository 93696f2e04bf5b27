//! Tools of MCP servers as a run-time union (cargo feature `mcp`), on the official Rust
//! SDK, `rmcp`.
//!
//! A [`ServerSpec`] says how to reach a server: a child process over stdio, or a URL
//! over streamable HTTP. [`Server::connect`] starts it, completes the handshake and lists
//! its tools; [`Server::call`] sends one `tools/call` and reads the result as a
//! [`ToolOutput`] (its text, and whether the tool reported an error). [`Servers`] puts
//! several servers' tools in one [`Toolset`](crate::Toolset), each namespaced by its
//! server (`time.get_current_time`), and routes each call back. The agent's tool loop
//! runs over them as over a [`Toolbox`](crate::agent::Toolbox):
//! `agent.ask_tools(&tools, prompt).run(&servers)`, or `.run(&tools)` with the tools
//! [`Servers::loop_tools`] prepares (a policy for failing servers, local tools, the record
//! of every MCP call).
//!
//! Every request runs under a [`Timeouts`] limit (30 s to connect, 30 s to list, 60 s
//! per call by default), and every failure is an [`McpError`] that names the server, the
//! request and the last lines the server wrote to stderr. In the loop, a server that
//! dies or stops answering ends the run with that error ([`ServerFailure`]; it can be told
//! to the model instead), a call the server refuses and a tool's own error go back to
//! the model, and every call is kept, with its evidence, in the run's record. A stdio server's process (and its process group) is killed
//! when its connection is dropped; [`Servers::close`] waits until it is gone.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use toolschema::Agent;
//! use toolschema::mcp::{ServerSpec, Servers};
//! use toolschema::provider::OpenAi;
//!
//! let servers = Servers::connect([
//!     ServerSpec::stdio("time", "mcp-server-time").arg("--local-timezone=UTC"),
//!     ServerSpec::http("docs", "http://127.0.0.1:8080/mcp"),
//! ])
//! .await?;
//! let agent = Agent::new(OpenAi::from_env()?).max_attempts(3);
//! let tools = servers.toolset()?.with_answer();
//! let ran = agent.ask_tools(&tools, "What time is it in Tokyo?").run(&servers).ran().await?;
//! for call in &ran.calls {
//!     println!("{call}");
//! }
//! println!("{}", ran.answer);
//! servers.close().await;
//! # Ok(())
//! # }
//! ```

mod error;
mod output;
mod process;
mod run;
mod runner;
mod server;
mod servers;
mod spec;
mod stderr;

pub use error::{McpError, Operation};
pub use output::ToolOutput;
pub use run::{McpRun, McpRunError, McpToolRun, McpTools, ServerFailure};

/// The former name of [`McpToolRun`].
#[deprecated(since = "0.2.0", note = "renamed `McpToolRun`")]
pub type McpCall = McpToolRun;
pub use server::Server;
pub use servers::Servers;
pub use spec::{ServerSpec, Timeouts};
