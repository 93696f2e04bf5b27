//! What goes wrong with an MCP server, with the evidence: which server, during which
//! request, after how long, and the last lines the server wrote to stderr.

use std::fmt;
use std::time::Duration;

use serde_json::Value;

/// The request an MCP error happened in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operation {
    /// Starting the server and the `initialize` handshake.
    Handshake,
    /// `tools/list`.
    ListTools,
    /// `tools/call` of the tool named here, as the server spells it.
    CallTool(String),
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operation::Handshake => f.write_str("the handshake (initialize)"),
            Operation::ListTools => f.write_str("tools/list"),
            Operation::CallTool(tool) => write!(f, "tools/call of {tool:?}"),
        }
    }
}

/// An MCP server that cannot be started, reached or used.
///
/// A tool that runs and reports a failure (`isError: true`) is not an `McpError`: it is a
/// [`ToolOutput`](super::ToolOutput) whose `is_error` is set, for the model to read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum McpError {
    /// The server's process could not be started (program not found, not executable …).
    #[error("cannot start the MCP server {server:?} (`{command}`): {source}")]
    Spawn {
        server: String,
        command: String,
        #[source]
        source: std::io::Error,
    },
    /// The server did not answer in time.
    #[error(
        "the MCP server {server:?} did not answer {operation} within {}{}",
        seconds(*after),
        StderrTail(stderr)
    )]
    Timeout {
        server: String,
        operation: Operation,
        after: Duration,
        /// The last lines the server wrote to stderr (stdio servers).
        stderr: Vec<String>,
    },
    /// The connection ended: the process exited or crashed, or the HTTP session closed.
    #[error(
        "the MCP server {server:?} closed the connection during {operation} ({detail}){}",
        StderrTail(stderr)
    )]
    Disconnected {
        server: String,
        operation: Operation,
        detail: String,
        stderr: Vec<String>,
    },
    /// The server answered the request with a JSON-RPC error.
    #[error("the MCP server {server:?} answered {operation} with error {code}: {message}")]
    Refused {
        server: String,
        operation: Operation,
        code: i32,
        message: String,
        data: Option<Box<Value>>,
    },
    /// Any other failure of the protocol or the transport (an HTTP error, an answer of
    /// the wrong type …).
    #[error(
        "the MCP server {server:?} failed during {operation}: {detail}{}",
        StderrTail(stderr)
    )]
    Failed {
        server: String,
        operation: Operation,
        detail: String,
        stderr: Vec<String>,
    },
    /// The tools the server listed do not make a [`Toolset`](crate::Toolset).
    #[error("the tools of the MCP server {server:?} cannot be offered to a model: {source}")]
    Tools {
        server: String,
        #[source]
        source: crate::Error,
    },
    /// A call names a tool that no connected server has.
    #[error(
        "no connected MCP server has a tool named {name:?}; the tools are {}",
        quoted(known)
    )]
    UnknownTool { name: String, known: Vec<String> },
    /// A server name that cannot namespace tools: empty, or used twice.
    #[error("invalid MCP server name {name:?}: {reason}")]
    ServerName { name: String, reason: &'static str },
}

impl McpError {
    /// The name of the server this error is about, when it is about one.
    pub fn server(&self) -> Option<&str> {
        match self {
            McpError::Spawn { server, .. }
            | McpError::Timeout { server, .. }
            | McpError::Disconnected { server, .. }
            | McpError::Refused { server, .. }
            | McpError::Failed { server, .. }
            | McpError::Tools { server, .. } => Some(server),
            McpError::UnknownTool { .. } | McpError::ServerName { .. } => None,
        }
    }

    /// The last lines the server wrote to stderr before the error, when they tell
    /// anything (stdio servers only).
    pub fn stderr(&self) -> &[String] {
        match self {
            McpError::Timeout { stderr, .. }
            | McpError::Disconnected { stderr, .. }
            | McpError::Failed { stderr, .. } => stderr,
            _ => &[],
        }
    }
}

fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

fn quoted(names: &[String]) -> String {
    if names.is_empty() {
        return "none".to_owned();
    }
    let names: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    names.join(", ")
}

/// What comes before the stderr lines an error quotes.
pub(super) const STDERR_MARK: &str = "; its last lines on stderr:";

/// `; its last lines on stderr: …`, or nothing when there are none.
struct StderrTail<'a>(&'a [String]);

impl fmt::Display for StderrTail<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return Ok(());
        }
        f.write_str(STDERR_MARK)?;
        for line in self.0 {
            write!(f, "\n  | {line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timeout_names_the_server_the_request_and_the_stderr_tail() {
        let e = McpError::Timeout {
            server: "clock".into(),
            operation: Operation::CallTool("wait".into()),
            after: Duration::from_millis(1500),
            stderr: vec!["starting".into(), "waiting forever".into()],
        };
        assert_eq!(
            e.to_string(),
            "the MCP server \"clock\" did not answer tools/call of \"wait\" within 1.5 s; \
             its last lines on stderr:\n  | starting\n  | waiting forever"
        );
        assert_eq!(e.server(), Some("clock"));
    }

    #[test]
    fn an_unknown_tool_lists_the_tools() {
        let e = McpError::UnknownTool {
            name: "clock.tick".into(),
            known: vec!["clock.now".into(), "math.add".into()],
        };
        assert_eq!(
            e.to_string(),
            "no connected MCP server has a tool named \"clock.tick\"; \
             the tools are \"clock.now\", \"math.add\""
        );
    }
}
