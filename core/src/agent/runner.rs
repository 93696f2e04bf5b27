//! What runs the calls of a tool loop ([`Ask::run`](super::Ask::run)): a
//! [`Toolbox`](super::Toolbox) of async handlers, connected MCP servers (`mcp::Servers`,
//! `mcp::McpTools`, feature `mcp`), or anything else that implements [`ToolRunner`].

use async_trait::async_trait;
use serde_json::Value;

use super::ToolFailure;

/// Runs the calls of a tool loop, by tool name.
///
/// The loop asks for each step, reads its calls against the union, runs each one with
/// [`ToolRunner::run_tool`] and gives the result back to the model. A runner's panic
/// does not unwind into the loop: it ends the run with
/// [`AskError::ToolPanicked`](super::AskError::ToolPanicked).
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use serde_json::{Value, json};
/// use toolschema::agent::{ToolFailure, ToolRunner};
/// use toolschema::provider::Scripted;
/// use toolschema::{Agent, Toolset};
///
/// /// Every tool is answered by one remote service.
/// struct Remote;
///
/// #[async_trait::async_trait]
/// impl ToolRunner for Remote {
///     async fn run_tool(&self, name: &str, arguments: Value) -> Result<String, ToolFailure> {
///         Ok(format!("{name} ran with {arguments}"))
///     }
/// }
///
/// let tools = Toolset::from_mcp_tools(&json!({ "tools": [
///     { "name": "echo", "inputSchema": { "type": "object", "properties": { "text": { "type": "string" } } } }
/// ]}))?
/// .with_answer();
/// let model = Scripted::new([
///     r#"{"name": "echo", "arguments": {"text": "hi"}}"#,
///     r#"{"answer": "It said hi."}"#,
/// ]);
/// let ran = Agent::new(model).ask_tools(&tools, "Echo hi").run(&Remote).ran().await?;
/// assert_eq!(ran.calls[0].result, Ok(r#"echo ran with {"text":"hi"}"#.to_owned()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[async_trait]
pub trait ToolRunner: Send + Sync {
    /// Runs the tool `name` (as its server spells it, or the name its handler is
    /// registered under: see [`ToolRunner::handler_names`]) with the call's arguments,
    /// valid against the tool's schema: its output, or an error the model reads
    /// ([`ToolFailure::ForModel`]) or one that ends the run ([`ToolFailure::EndsRun`]).
    async fn run_tool(&self, name: &str, arguments: Value) -> Result<String, ToolFailure>;

    /// The names handlers are registered under by hand, checked against the loop's union
    /// when it starts: each must name one of its tools, as the model is shown it or as its
    /// server spells it, or the loop ends before any model call
    /// ([`AskError::UnknownHandlers`](super::AskError::UnknownHandlers)). A tool whose
    /// handler is registered under the name the model is shown is run under that name.
    ///
    /// None by default: nothing is checked (a runner whose tools come from the same place
    /// as the union, such as MCP servers, runs every tool the union may offer), and each
    /// call is run under the name its server spells.
    fn handler_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// The most model steps a loop may take, unless the loop says otherwise
    /// ([`ToolLoop::max_steps`](super::ToolLoop::max_steps)): 8 by default.
    fn step_limit(&self) -> usize {
        8
    }
}
