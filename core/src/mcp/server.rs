//! One connected MCP server: the handshake, `tools/list`, `tools/call`, each under its
//! timeout, and every failure turned into an [`McpError`] that names what happened.

use std::future::Future;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::{ClientInitializeError, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{Peer, RoleClient, ServiceError, ServiceExt};
use serde_json::{Value, json};

use super::process;
use super::spec::{HttpSpec, ServerSpec, Timeouts, TransportSpec};
use super::stderr::StderrTail;
use super::{McpError, Operation, ToolOutput};

/// How long a failed stdio server gets to finish writing its stderr before the error
/// quotes it.
const STDERR_GRACE: Duration = Duration::from_millis(300);

/// A connected MCP server and the tools it listed.
///
/// Dropping it closes the connection; a stdio server's process (and its process group)
/// is killed. [`Server::close`] does the same and waits until the process is gone.
pub struct Server {
    service: RunningService<RoleClient, ClientConfig>,
    caller: Caller,
    tools: Vec<Value>,
    pid: Option<u32>,
}

/// What sends `tools/call` to a server: cheap to clone, for the handlers of the agent's
/// tool loop. It does not keep the connection open; its [`Server`] does.
#[derive(Clone)]
pub(super) struct Caller {
    name: String,
    peer: Peer<RoleClient>,
    timeouts: Timeouts,
    /// Stdio servers only.
    stderr: Option<StderrTail>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("name", &self.caller.name)
            .field("pid", &self.pid)
            .field("tools", &self.tools.len())
            .finish_non_exhaustive()
    }
}

impl Server {
    /// Starts (stdio) or reaches (HTTP) the server, completes the `initialize` handshake
    /// and lists its tools (every page of `tools/list`).
    pub async fn connect(spec: ServerSpec) -> Result<Server, McpError> {
        if spec.name.is_empty() {
            return Err(McpError::ServerName {
                name: spec.name,
                reason: "a server needs a name to namespace its tools",
            });
        }
        let config = ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("toolschema", env!("CARGO_PKG_VERSION")),
        );
        match &spec.transport {
            TransportSpec::Stdio(stdio) => {
                let child = process::spawn(&spec.name, spec.target(), stdio)?;
                let handshake = timed(spec.timeouts.connect(), config.serve(child.transport));
                let failure = match handshake.await {
                    Ok(Ok(service)) => {
                        return finish(spec, service, child.pid, Some(child.stderr)).await;
                    }
                    Ok(Err(error)) => Some(error),
                    Err(()) => None,
                };
                // The transport, and with it the process, is gone by now.
                child.stderr.settle(STDERR_GRACE).await;
                Err(handshake_error(&spec, failure, child.stderr.lines()))
            }
            TransportSpec::Http(http) => {
                let transport = StreamableHttpClientTransport::from_config(http_config(http));
                match timed(spec.timeouts.connect(), config.serve(transport)).await {
                    Ok(Ok(service)) => finish(spec, service, None, None).await,
                    Ok(Err(error)) => Err(handshake_error(&spec, Some(error), Vec::new())),
                    Err(()) => Err(handshake_error(&spec, None, Vec::new())),
                }
            }
        }
    }

    /// The name that namespaces this server's tools.
    pub fn name(&self) -> &str {
        &self.caller.name
    }

    /// The id of the server's process (stdio servers).
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// The server's own name and version, as it gave them in the handshake.
    pub fn implementation(&self) -> Option<(String, String)> {
        let info = self.caller.peer.peer_info()?;
        let implementation = info.server_info.as_ref()?;
        Some((implementation.name.clone(), implementation.version.clone()))
    }

    /// The tools as `tools/list` gave them: `{"tools": [{name, description, inputSchema,
    /// …}]}`, the input of [`Toolset::from_mcp_tools`](crate::Toolset::from_mcp_tools).
    pub fn tools(&self) -> Value {
        json!({ "tools": self.tools })
    }

    /// The names of the tools, as the server spells them.
    pub fn tool_names(&self) -> Vec<String> {
        let name = |tool: &Value| tool.get("name").and_then(Value::as_str).map(str::to_owned);
        self.tools.iter().filter_map(name).collect()
    }

    /// Sends `tools/call` for `tool` (as the server spells it) with `arguments` (a JSON
    /// object, or `null` for none). A tool that reports a failure is an `Ok` output with
    /// `is_error` set; an `Err` means the server could not run the call at all.
    pub async fn call(&self, tool: &str, arguments: Value) -> Result<ToolOutput, McpError> {
        self.caller.call(tool, arguments).await
    }

    pub(super) fn caller(&self) -> &Caller {
        &self.caller
    }

    /// Closes the connection and waits for the server to end: a stdio server gets its
    /// stdin closed, then SIGTERM, then SIGKILL, a few seconds apart (the MCP shutdown
    /// sequence).
    pub async fn close(mut self) {
        let _ = self
            .service
            .close_with_timeout(Duration::from_secs(10))
            .await;
    }
}

impl Caller {
    pub async fn call(&self, tool: &str, arguments: Value) -> Result<ToolOutput, McpError> {
        let operation = Operation::CallTool(tool.to_owned());
        let mut params = CallToolRequestParams::new(tool.to_owned());
        match arguments {
            Value::Object(arguments) => params = params.with_arguments(arguments),
            Value::Null => {}
            other => {
                return Err(McpError::Failed {
                    server: self.name.clone(),
                    operation,
                    detail: format!("the arguments must be a JSON object, not {other}"),
                    stderr: Vec::new(),
                });
            }
        }
        let request = self.peer.call_tool(params);
        let result = self
            .request(operation.clone(), self.timeouts.call(), request)
            .await?;
        match serde_json::to_value(&result) {
            Ok(result) => Ok(ToolOutput::from_result(&result)),
            Err(e) => Err(McpError::Failed {
                server: self.name.clone(),
                operation,
                detail: format!("the result cannot be read: {e}"),
                stderr: Vec::new(),
            }),
        }
    }

    /// Runs one request under its timeout, naming the failure.
    async fn request<T>(
        &self,
        operation: Operation,
        after: Duration,
        request: impl Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, McpError> {
        let failure = match timed(after, request).await {
            Ok(Ok(value)) => return Ok(value),
            Ok(Err(e)) => e,
            Err(()) => ServiceError::Timeout { timeout: after },
        };
        let stderr = match &self.stderr {
            Some(tail) => {
                if !matches!(failure, ServiceError::McpError(_)) {
                    tail.settle(STDERR_GRACE).await;
                }
                tail.lines()
            }
            None => Vec::new(),
        };
        let stdio = self.stderr.is_some();
        Err(service_error(&self.name, operation, failure, stdio, stderr))
    }
}

/// After the handshake: the server's tools, every page of `tools/list`.
async fn finish(
    spec: ServerSpec,
    service: RunningService<RoleClient, ClientConfig>,
    pid: Option<u32>,
    stderr: Option<StderrTail>,
) -> Result<Server, McpError> {
    let caller = Caller {
        name: spec.name,
        peer: service.peer().clone(),
        timeouts: spec.timeouts,
        stderr,
    };
    let listed = caller.request(Operation::ListTools, caller.timeouts.list(), async {
        caller.peer.list_all_tools().await
    });
    let tools = listed
        .await?
        .iter()
        .map(|tool| serde_json::to_value(tool).unwrap_or(Value::Null))
        .collect();
    Ok(Server {
        service,
        caller,
        tools,
        pid,
    })
}

/// The future's output, or `Err(())` when `after` runs out first (the future is then
/// dropped, which cancels the request).
async fn timed<F: Future>(after: Duration, future: F) -> Result<F::Output, ()> {
    tokio::time::timeout(after, future).await.map_err(|_| ())
}

fn http_config(http: &HttpSpec) -> StreamableHttpClientTransportConfig {
    // rmcp's reqwest uses the process's rustls provider: ring, as for the rest of the
    // crate, unless the application installed another one first.
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
    let mut config = StreamableHttpClientTransportConfig::with_uri(http.url.clone());
    if let Some(token) = &http.bearer {
        config = config.auth_header(format!("Bearer {token}"));
    }
    config
}

/// Why the handshake failed: `error`, or the timeout when there is none.
fn handshake_error(
    spec: &ServerSpec,
    error: Option<ClientInitializeError>,
    stderr: Vec<String>,
) -> McpError {
    let server = spec.name.clone();
    let operation = Operation::Handshake;
    let stdio = matches!(spec.transport, TransportSpec::Stdio(_));
    let Some(error) = error else {
        return McpError::Timeout {
            server,
            operation,
            after: spec.timeouts.connect(),
            stderr,
        };
    };
    match error {
        ClientInitializeError::JsonRpcError(data) => McpError::Refused {
            server,
            operation,
            code: data.code.0,
            message: data.message.into_owned(),
            data: data.data.map(Box::new),
        },
        ClientInitializeError::ConnectionClosed(_) if stdio => McpError::Disconnected {
            server,
            operation,
            detail: "the process exited or closed its stdout".to_owned(),
            stderr,
        },
        ClientInitializeError::TransportError { error, context } => {
            let detail = format!("{context}: {}", error_chain(error.error.as_ref()));
            if stdio {
                McpError::Disconnected {
                    server,
                    operation,
                    detail,
                    stderr,
                }
            } else {
                McpError::Failed {
                    server,
                    operation,
                    detail,
                    stderr,
                }
            }
        }
        other => McpError::Failed {
            server,
            operation,
            detail: error_chain(&other),
            stderr,
        },
    }
}

fn service_error(
    server: &str,
    operation: Operation,
    error: ServiceError,
    stdio: bool,
    stderr: Vec<String>,
) -> McpError {
    let server = server.to_owned();
    match error {
        ServiceError::McpError(data) => McpError::Refused {
            server,
            operation,
            code: data.code.0,
            message: data.message.into_owned(),
            data: data.data.map(Box::new),
        },
        ServiceError::Timeout { timeout } => McpError::Timeout {
            server,
            operation,
            after: timeout,
            stderr,
        },
        ServiceError::TransportSend(error) if stdio => McpError::Disconnected {
            server,
            operation,
            detail: format!(
                "the process exited or closed its stdin: {}",
                error_chain(error.error.as_ref())
            ),
            stderr,
        },
        ServiceError::TransportSend(error) => McpError::Failed {
            server,
            operation,
            detail: format!(
                "the request could not be sent: {}",
                error_chain(error.error.as_ref())
            ),
            stderr,
        },
        ServiceError::TransportClosed | ServiceError::Cancelled { .. } => McpError::Disconnected {
            server,
            operation,
            detail: "the transport closed: the server exited or crashed".to_owned(),
            stderr,
        },
        other => McpError::Failed {
            server,
            operation,
            detail: error_chain(&other),
            stderr,
        },
    }
}

/// An error and its sources, `: `-separated.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let said = cause.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        source = cause.source();
    }
    text
}
