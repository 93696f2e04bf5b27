//! MCP servers run the calls of the agent's tool loop, the same loop as a
//! [`Toolbox`](crate::agent::Toolbox)'s: `agent.ask_tools(&tools, prompt).run(&servers)`.

use async_trait::async_trait;
use serde_json::Value;

use super::{McpTools, ServerFailure, Servers};
use crate::agent::{ToolFailure, ToolRunner};

/// Each call goes to the server that has its tool, under the name that server spells.
/// A tool's error (`isError`) and a call the server refused go back to the model; a
/// server that died or stopped answering ends the run with
/// [`AskError::ToolFailed`](crate::agent::AskError::ToolFailed), whose error is the
/// [`McpError`](super::McpError) ([`ServerFailure::EndsRun`]; for the other policy, or
/// local tools beside the servers', use [`Servers::loop_tools`]).
///
/// The union is [`Servers::toolset`], with the answer added, or any part of it: no name
/// is checked when the loop starts.
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use toolschema::Agent;
/// use toolschema::mcp::{ServerSpec, Servers};
/// use toolschema::provider::OpenAi;
///
/// let servers = Servers::connect([ServerSpec::stdio("time", "mcp-server-time")]).await?;
/// let tools = servers.toolset()?.with_answer();
/// let agent = Agent::new(OpenAi::from_env()?);
/// let ran = agent.ask_tools(&tools, "What time is it in Tokyo?").run(&servers).ran().await?;
/// for call in &ran.calls {
///     println!("{call}");
/// }
/// println!("{}", ran.answer);
/// # Ok(())
/// # }
/// ```
#[async_trait]
impl ToolRunner for Servers {
    async fn run_tool(&self, name: &str, arguments: Value) -> Result<String, ToolFailure> {
        let result = self.call_named(name, arguments).await;
        ServerFailure::EndsRun.outcome(&result.map_err(std::sync::Arc::new))
    }
}

/// The servers' tools as [`Servers::loop_tools`] prepared them: under its policy for a
/// server that fails, with its step limit, its local tools (their handlers' names checked
/// when the loop starts) and its record of MCP calls.
#[async_trait]
impl ToolRunner for McpTools {
    async fn run_tool(&self, name: &str, arguments: Value) -> Result<String, ToolFailure> {
        self.toolbox.run_tool(name, arguments).await
    }

    fn handler_names(&self) -> Vec<String> {
        self.toolbox.handler_names()
    }

    fn step_limit(&self) -> usize {
        self.toolbox.step_limit()
    }
}
