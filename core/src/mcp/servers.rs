//! Several connected servers as one source of tools: their tools in one [`Toolset`],
//! each namespaced by its server (`time.get_current_time`), and each call routed back to
//! the server that has the tool, under the name that server spells.

use std::collections::HashMap;

use serde_json::Value;

use super::server::Caller;
use super::{McpError, Server, ServerSpec, ToolOutput};
use crate::{Toolset, ValidCall};

/// Connected MCP servers, whose tools make one run-time union.
///
/// A tool is named `{server}.{tool}` in the union: two servers may have a tool of the
/// same name, and a model reads which server a tool belongs to. (Models are shown names
/// every provider accepts, `time_get_current_time`; [`ValidCall::name`] gives the namespaced
/// name back.)
///
/// Dropping the servers closes every connection and kills every stdio server's process.
#[derive(Debug, Default)]
pub struct Servers {
    servers: Vec<Server>,
    /// Namespaced name → (server index, the tool's name on that server).
    routes: HashMap<String, (usize, String)>,
}

impl Servers {
    /// Connects to every server at once. If one fails, the others are closed (their
    /// processes killed) and the first failure, in the order given, is returned.
    pub async fn connect(specs: impl IntoIterator<Item = ServerSpec>) -> Result<Servers, McpError> {
        let specs: Vec<ServerSpec> = specs.into_iter().collect();
        check_names(specs.iter().map(ServerSpec::name))?;
        let mut tasks = tokio::task::JoinSet::new();
        for (i, spec) in specs.into_iter().enumerate() {
            tasks.spawn(async move { (i, Server::connect(spec).await) });
        }
        let mut connected: Vec<Option<Result<Server, McpError>>> = Vec::new();
        while let Some(joined) = tasks.join_next().await {
            // A connect task does not panic; should one, its server is left out and
            // named by the error below.
            if let Ok((i, result)) = joined {
                if connected.len() <= i {
                    connected.resize_with(i + 1, || None);
                }
                connected[i] = Some(result);
            }
        }
        let mut servers = Vec::new();
        for result in connected.into_iter().flatten() {
            servers.push(result?);
        }
        Servers::from_servers(servers)
    }

    /// Servers connected one by one with [`Server::connect`].
    pub fn from_servers(servers: Vec<Server>) -> Result<Servers, McpError> {
        check_names(servers.iter().map(Server::name))?;
        let mut routes = HashMap::new();
        for (i, server) in servers.iter().enumerate() {
            for tool in server.tool_names() {
                routes.insert(format!("{}.{tool}", server.name()), (i, tool));
            }
        }
        Ok(Servers { servers, routes })
    }

    /// The servers, in the order given.
    pub fn servers(&self) -> &[Server] {
        &self.servers
    }

    /// The server named `name`.
    pub fn server(&self, name: &str) -> Option<&Server> {
        self.servers.iter().find(|s| s.name() == name)
    }

    /// Every server's tools in one union, namespaced by server, in the order the servers
    /// were given and each server listed its tools. No answer is added: add it with
    /// [`Toolset::with_answer`], and local tools with [`Toolset::merge`].
    ///
    /// A tool whose input schema toolschema cannot load is an error naming the server
    /// and the tool.
    pub fn toolset(&self) -> Result<Toolset, McpError> {
        let mut union = Toolset::new();
        for server in &self.servers {
            let tools_error = |source| McpError::Tools {
                server: server.name().to_owned(),
                source,
            };
            let tools = Toolset::from_mcp_tools(&server.tools()).map_err(tools_error)?;
            union = union
                .merge(tools.namespaced(server.name()))
                .map_err(tools_error)?;
        }
        Ok(union)
    }

    /// Sends a validated call to the server that has its tool.
    pub async fn call(&self, call: &ValidCall) -> Result<ToolOutput, McpError> {
        self.call_named(call.name(), call.arguments().clone()).await
    }

    /// Sends `tools/call` for the namespaced tool `name` (`time.get_current_time`).
    pub async fn call_named(&self, name: &str, arguments: Value) -> Result<ToolOutput, McpError> {
        let Some((i, tool)) = self.routes.get(name) else {
            let mut known: Vec<String> = self.routes.keys().cloned().collect();
            known.sort();
            return Err(McpError::UnknownTool {
                name: name.to_owned(),
                known,
            });
        };
        self.servers[*i].call(tool, arguments).await
    }

    /// Each tool: its namespaced name, the caller of its server, its name there.
    pub(super) fn routes(&self) -> impl Iterator<Item = (&str, &Caller, &str)> {
        self.routes
            .iter()
            .map(|(name, (i, tool))| (name.as_str(), self.servers[*i].caller(), tool.as_str()))
    }

    /// Closes every connection and waits for every stdio server's process to end.
    pub async fn close(self) {
        for server in self.servers {
            server.close().await;
        }
    }
}

/// Server names namespace tools: none may be empty, none used twice.
fn check_names<'a>(names: impl Iterator<Item = &'a str>) -> Result<(), McpError> {
    let mut seen = std::collections::HashSet::new();
    for name in names {
        let reason = if name.is_empty() {
            "a server needs a name to namespace its tools"
        } else if !seen.insert(name) {
            "two servers have this name; each namespaces its own tools"
        } else {
            continue;
        };
        return Err(McpError::ServerName {
            name: name.to_owned(),
            reason,
        });
    }
    Ok(())
}
