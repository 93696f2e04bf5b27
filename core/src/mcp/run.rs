//! MCP servers in the agent's tool loop: their tools as the union the model chooses
//! from, a handler per tool that sends the call to its server, and a record of every
//! call and what came of it.

use std::fmt;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::server::Caller;
use super::{McpError, Servers, ToolOutput};
use crate::agent::{Agent, AskError, ToolFailure, Toolbox};
use crate::provider::Provider;
use crate::{ToolSchema, Toolset};

/// One `tools/call` the loop sent to a server, and what came of it: the MCP side of a
/// [`crate::agent::ToolRun`], with the server's whole output or error. (Formerly
/// `McpCall`.)
#[derive(Debug, Clone)]
pub struct McpToolRun {
    /// The tool, namespaced by its server (`time.get_current_time`).
    pub tool: String,
    pub arguments: Value,
    /// The server's result (which may report a tool error), or why there is none.
    pub result: Result<ToolOutput, Arc<McpError>>,
}

/// What the model is told of a call's result: the output, or the error, and whether it
/// is an error.
fn for_model(result: &Result<ToolOutput, Arc<McpError>>) -> Result<String, String> {
    match result {
        Ok(output) if output.is_error => Err(output.text.clone()),
        Ok(output) => Ok(output.text.clone()),
        // The model needs what happened, not the server's stderr.
        Err(error) => Err(error
            .to_string()
            .split(super::error::STDERR_MARK)
            .next()
            .unwrap_or_default()
            .to_owned()),
    }
}

impl fmt::Display for McpToolRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({}) ", self.tool, self.arguments)?;
        match &self.result {
            Ok(output) if output.is_error => write!(f, "reported an error: {}", output.text),
            Ok(output) => write!(f, "→ {}", output.text),
            Err(error) => write!(f, "failed: {error}"),
        }
    }
}

type Observer = Arc<dyn Fn(&McpToolRun) + Send + Sync>;

/// What the loop does when a server fails a call: it died (the connection closed), it
/// did not answer in time, or the transport or protocol broke
/// ([`McpError::Disconnected`], [`McpError::Timeout`], [`McpError::Failed`]).
///
/// A server that answers the call with a JSON-RPC error ([`McpError::Refused`]) is alive
/// and said why: that always goes back to the model, as does a tool that reports an
/// error (`isError`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ServerFailure {
    /// The run ends with [`AskError::ToolFailed`], whose error is the [`McpError`]
    /// (server, request, stderr tail), every attempt and every call kept. The default:
    /// an answer written after a server died is an answer without its tool.
    #[default]
    EndsRun,
    /// The failure goes back to the model as the tool's error, so that it can use
    /// another server's tools or answer without them.
    ToldToModel,
}

impl ServerFailure {
    fn ends_run(self, error: &McpError) -> bool {
        self == ServerFailure::EndsRun
            && matches!(
                error,
                McpError::Disconnected { .. } | McpError::Timeout { .. } | McpError::Failed { .. }
            )
    }

    /// What the loop makes of a call's result under this policy: the output, an error
    /// the model reads, or the failure that ends the run.
    pub(super) fn outcome(
        self,
        result: &Result<ToolOutput, Arc<McpError>>,
    ) -> Result<String, ToolFailure> {
        match result {
            Err(error) if self.ends_run(error) => Err(ToolFailure::EndsRun(error.clone())),
            _ => for_model(result).map_err(ToolFailure::ForModel),
        }
    }
}

/// The tools of connected servers, ready for the loop: the union (with the direct
/// answer), a handler per tool, and the record of the calls made. The loop is the
/// agent's: `agent.ask_tools(tools.toolset(), prompt).run(&tools)`.
///
/// A call whose server died or stopped answering ends the run, unless
/// [`McpTools::on_server_failure`] says to tell the model; a call the server refused goes
/// back to the model as the tool's error. Every call is kept in the record with all its
/// evidence ([`McpToolRun::result`]).
pub struct McpTools {
    toolset: Toolset,
    pub(super) toolbox: Toolbox,
    calls: Arc<Mutex<Vec<McpToolRun>>>,
    on_failure: Arc<Mutex<ServerFailure>>,
}

impl fmt::Debug for McpTools {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpTools")
            .field("toolset", &self.toolset)
            .finish_non_exhaustive()
    }
}

impl McpTools {
    fn new(servers: &Servers, observer: Option<Observer>) -> Result<McpTools, McpError> {
        let toolset = servers.toolset()?.with_answer();
        let calls: Arc<Mutex<Vec<McpToolRun>>> = Arc::default();
        let on_failure: Arc<Mutex<ServerFailure>> = Arc::default();
        let mut toolbox = Toolbox::new();
        for (name, caller, tool) in servers.routes() {
            let handler = Handler {
                name: name.to_owned(),
                tool: tool.to_owned(),
                caller: caller.clone(),
                calls: Arc::clone(&calls),
                observer: observer.clone(),
                on_failure: Arc::clone(&on_failure),
            };
            toolbox = toolbox
                .tool_that_may_end(name, move |arguments: Value| handler.clone().run(arguments));
        }
        Ok(McpTools {
            toolset,
            toolbox,
            calls,
            on_failure,
        })
    }

    /// What a server that dies or stops answering does to the run (by default it ends
    /// it: [`ServerFailure::EndsRun`]).
    ///
    /// ```no_run
    /// # async fn demo(servers: toolschema::mcp::Servers) -> Result<(), toolschema::mcp::McpError> {
    /// use toolschema::mcp::ServerFailure;
    /// // Several servers: the model may carry on with the others' tools.
    /// let tools = servers.loop_tools()?.on_server_failure(ServerFailure::ToldToModel);
    /// # Ok(()) }
    /// ```
    pub fn on_server_failure(self, policy: ServerFailure) -> Self {
        *lock(&self.on_failure) = policy;
        self
    }

    /// The union the model chooses from: every server's tools, namespaced, and the
    /// direct answer.
    pub fn toolset(&self) -> &Toolset {
        &self.toolset
    }

    /// The most model steps one run may take (8 by default).
    pub fn max_steps(mut self, steps: usize) -> Self {
        self.toolbox = self.toolbox.max_steps(steps);
        self
    }

    /// Adds the `#[tool]` variants of a derived union `T` beside the servers' tools:
    /// local Rust tools in the same union, their handlers registered by `register` on
    /// the loop's toolbox under their names (`remember` for a variant `Remember`). Their
    /// calls are not in the record of MCP calls.
    pub fn with_local<T: ToolSchema>(
        mut self,
        register: impl FnOnce(Toolbox) -> Toolbox,
    ) -> Result<Self, crate::Error> {
        let local = Toolset::new().with_derived::<T>()?;
        self.toolset = self.toolset.merge(local)?;
        self.toolbox = register(self.toolbox);
        Ok(self)
    }

    /// The calls made so far, in order.
    pub fn calls(&self) -> Vec<McpToolRun> {
        lock(&self.calls).clone()
    }

    fn take_calls(&self) -> Vec<McpToolRun> {
        std::mem::take(&mut *lock(&self.calls))
    }
}

fn lock<T>(shared: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    shared
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The handler of one tool in the loop's toolbox.
#[derive(Clone)]
struct Handler {
    /// Namespaced.
    name: String,
    /// As the server spells it.
    tool: String,
    caller: Caller,
    calls: Arc<Mutex<Vec<McpToolRun>>>,
    observer: Option<Observer>,
    on_failure: Arc<Mutex<ServerFailure>>,
}

impl Handler {
    async fn run(self, arguments: Value) -> Result<String, ToolFailure> {
        let result = self.caller.call(&self.tool, arguments.clone()).await;
        let call = McpToolRun {
            tool: self.name,
            arguments,
            result: result.map_err(Arc::new),
        };
        if let Some(observer) = &self.observer {
            observer(&call);
        }
        let outcome = lock(&self.on_failure).outcome(&call.result);
        lock(&self.calls).push(call);
        outcome
    }
}

impl Servers {
    /// The servers' tools for the agent's loop, with a policy for a server that fails
    /// ([`McpTools::on_server_failure`]), a step limit, local tools beside the servers'
    /// ([`McpTools::with_local`]) and the record of every call with its evidence
    /// ([`McpTools::calls`]).
    ///
    /// ```no_run
    /// # async fn run(servers: toolschema::mcp::Servers, agent: toolschema::Agent<toolschema::provider::OpenAi>) -> Result<(), Box<dyn std::error::Error>> {
    /// use toolschema::mcp::ServerFailure;
    ///
    /// let tools = servers.loop_tools()?.on_server_failure(ServerFailure::ToldToModel);
    /// let ran = agent.ask_tools(tools.toolset(), "What time is it in Tokyo?").run(&tools).ran().await?;
    /// for call in tools.calls() {
    ///     println!("{call}"); // with the server's output, or its error and stderr
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn loop_tools(&self) -> Result<McpTools, McpError> {
        McpTools::new(self, None)
    }

    /// [`Servers::loop_tools`], with `observer` told of each call as it completes (to
    /// print the loop step by step).
    pub fn loop_tools_observed(
        &self,
        observer: impl Fn(&McpToolRun) + Send + Sync + 'static,
    ) -> Result<McpTools, McpError> {
        McpTools::new(self, Some(Arc::new(observer)))
    }
}

/// What a run over MCP tools gave: the model's answer, and every call made on the way.
#[derive(Debug, Clone)]
pub struct McpRun {
    pub answer: Value,
    pub calls: Vec<McpToolRun>,
}

impl McpRun {
    /// The calls whose server failed (as opposed to a tool that reported an error).
    pub fn server_failures(&self) -> impl Iterator<Item = &McpError> {
        self.calls
            .iter()
            .filter_map(|c| c.result.as_ref().err().map(Arc::as_ref))
    }
}

/// A run over MCP tools that gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum McpRunError {
    /// The servers' tools do not make a union.
    #[error("{0}")]
    Tools(McpError),
    /// The loop ended without an answer; the error keeps every attempt, and every call
    /// made is here too.
    #[error("{error}{}", CallsSummary(error, calls))]
    Ask {
        error: AskError,
        calls: Vec<McpToolRun>,
    },
}

impl McpRunError {
    /// Every attempt of every step (none when the tools did not load).
    pub fn attempts(&self) -> &[crate::Attempt] {
        match self {
            McpRunError::Tools(_) => &[],
            McpRunError::Ask { error, .. } => error.attempts(),
        }
    }

    /// The server failure that ended the run ([`ServerFailure::EndsRun`]), if one did.
    pub fn server_failure(&self) -> Option<&McpError> {
        match self {
            McpRunError::Ask {
                error: AskError::ToolFailed { error, .. },
                ..
            } => error.downcast_ref::<McpError>(),
            _ => None,
        }
    }
}

/// The failed calls, but the one whose error ended the run: the error says it already.
struct CallsSummary<'a>(&'a AskError, &'a [McpToolRun]);

impl fmt::Display for CallsSummary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ended = match self.0 {
            AskError::ToolFailed { error, .. } => Some(Arc::as_ptr(error).cast::<()>()),
            _ => None,
        };
        for call in self.1 {
            let Err(error) = &call.result else { continue };
            if Some(Arc::as_ptr(error).cast::<()>()) != ended {
                write!(f, "\nMCP call {call}")?;
            }
        }
        Ok(())
    }
}

impl<P: Provider> Agent<P> {
    /// Runs the tool loop over the tools of MCP servers: the model chooses among every
    /// server's tools (namespaced by server) or answers; each validated call is sent to
    /// its server's `tools/call` and the result goes back to the model, a tool's
    /// `isError` (and a server that failed) as an error, until the model answers.
    ///
    /// A stdio server's process lives as long as `servers`.
    #[deprecated(
        since = "0.2.0",
        note = "use `agent.ask_tools(&servers.toolset()?.with_answer(), prompt).run(&servers)`, and `.ran()` for the calls"
    )]
    pub async fn run_mcp(&self, servers: &Servers, prompt: &str) -> Result<McpRun, McpRunError> {
        let tools = servers.loop_tools().map_err(McpRunError::Tools)?;
        self.mcp_loop(&tools, prompt).await
    }

    /// [`Agent::run_mcp`] with tools prepared by [`Servers::loop_tools`] (a step limit,
    /// an observer).
    #[deprecated(
        since = "0.2.0",
        note = "use `agent.ask_tools(tools.toolset(), prompt).run(&tools)`, and `.ran()` for the calls"
    )]
    pub async fn run_mcp_tools(
        &self,
        tools: &McpTools,
        prompt: &str,
    ) -> Result<McpRun, McpRunError> {
        self.mcp_loop(tools, prompt).await
    }

    /// The agent's tool loop over `tools`, and the MCP calls it made.
    async fn mcp_loop(&self, tools: &McpTools, prompt: &str) -> Result<McpRun, McpRunError> {
        let outcome = self.ask_tools(&tools.toolset, prompt).run(tools).await;
        let calls = tools.take_calls();
        match outcome {
            Ok(answer) => Ok(McpRun { answer, calls }),
            Err(error) => Err(McpRunError::Ask { error, calls }),
        }
    }
}
