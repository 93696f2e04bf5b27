//! How to reach an MCP server: a named child process spoken to over stdio, or a named
//! URL spoken to over streamable HTTP, and how long to wait for it.

use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// How long to wait for a server before giving up on a request.
///
/// The defaults: 30 s to start and complete the handshake (an interpreter that imports
/// its packages for the first time is slow), 30 s for `tools/list`, 60 s for one
/// `tools/call`. A request that runs out of time is cancelled (`notifications/cancelled`)
/// and reported as [`McpError::Timeout`](super::McpError::Timeout); the server stays
/// connected for the next request.
///
/// ```
/// use std::time::Duration;
/// use toolschema::mcp::Timeouts;
///
/// let timeouts = Timeouts::new().with_call(Duration::from_secs(5));
/// assert_eq!(timeouts.call(), Duration::from_secs(5));
/// assert_eq!(timeouts.connect(), Duration::from_secs(30));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    connect: Duration,
    list: Duration,
    call: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts::new()
    }
}

impl Timeouts {
    /// 30 s to connect, 30 s to list the tools, 60 s per tool call.
    pub const fn new() -> Self {
        Timeouts {
            connect: Duration::from_secs(30),
            list: Duration::from_secs(30),
            call: Duration::from_secs(60),
        }
    }

    /// The time to start the server and complete the `initialize` handshake.
    pub const fn with_connect(mut self, timeout: Duration) -> Self {
        self.connect = timeout;
        self
    }

    /// The time for `tools/list` (every page of it).
    pub const fn with_list(mut self, timeout: Duration) -> Self {
        self.list = timeout;
        self
    }

    /// The time for one `tools/call`.
    pub const fn with_call(mut self, timeout: Duration) -> Self {
        self.call = timeout;
        self
    }

    pub const fn connect(&self) -> Duration {
        self.connect
    }

    pub const fn list(&self) -> Duration {
        self.list
    }

    pub const fn call(&self) -> Duration {
        self.call
    }
}

/// How to reach one MCP server, under the name that namespaces its tools.
///
/// Its `Debug` form shows the names of the environment variables but not their values,
/// and whether there is a bearer token but not the token.
///
/// ```
/// use toolschema::mcp::ServerSpec;
///
/// let time = ServerSpec::stdio("time", "mcp-server-time").arg("--local-timezone=UTC");
/// assert_eq!(time.to_string(), "time: mcp-server-time --local-timezone=UTC");
///
/// let docs = ServerSpec::http("docs", "http://127.0.0.1:8080/mcp").bearer("secret");
/// assert_eq!(docs.to_string(), "docs: http://127.0.0.1:8080/mcp");
/// ```
#[derive(Debug, Clone)]
pub struct ServerSpec {
    pub(super) name: String,
    pub(super) transport: TransportSpec,
    pub(super) timeouts: Timeouts,
}

#[derive(Debug, Clone)]
pub(super) enum TransportSpec {
    Stdio(StdioSpec),
    Http(HttpSpec),
}

#[derive(Clone)]
pub(super) struct StdioSpec {
    pub program: OsString,
    pub args: Vec<OsString>,
    pub env: Vec<(OsString, OsString)>,
    pub cwd: Option<PathBuf>,
}

#[derive(Clone)]
pub(super) struct HttpSpec {
    pub url: String,
    pub bearer: Option<String>,
}

/// Stands for a secret in `Debug`: a spec is printed in logs and panics, and the
/// environment of a child process and a bearer token are where credentials go.
struct Redacted;

impl fmt::Debug for Redacted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// The names of the environment variables, each with its value redacted.
struct RedactedEnv<'a>(&'a [(OsString, OsString)]);

impl fmt::Debug for RedactedEnv<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|(key, _)| (key, Redacted)))
            .finish()
    }
}

impl fmt::Debug for StdioSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StdioSpec")
            .field("program", &self.program)
            .field("args", &self.args)
            .field("env", &RedactedEnv(&self.env))
            .field("cwd", &self.cwd)
            .finish()
    }
}

impl fmt::Debug for HttpSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpSpec")
            .field("url", &self.url)
            .field("bearer", &self.bearer.as_ref().map(|_| Redacted))
            .finish()
    }
}

impl ServerSpec {
    /// A server run as a child process, spoken to over its stdin and stdout; its stderr
    /// is kept (the last lines) for error messages. The process is killed, with any
    /// process it started, when the connection is dropped.
    pub fn stdio(name: impl Into<String>, program: impl Into<OsString>) -> Self {
        ServerSpec {
            name: name.into(),
            transport: TransportSpec::Stdio(StdioSpec {
                program: program.into(),
                args: Vec::new(),
                env: Vec::new(),
                cwd: None,
            }),
            timeouts: Timeouts::new(),
        }
    }

    /// A server at `url`, spoken to over streamable HTTP (`https` through rustls).
    pub fn http(name: impl Into<String>, url: impl Into<String>) -> Self {
        ServerSpec {
            name: name.into(),
            transport: TransportSpec::Http(HttpSpec {
                url: url.into(),
                bearer: None,
            }),
            timeouts: Timeouts::new(),
        }
    }

    /// Adds one argument to the command line (stdio servers; ignored for HTTP).
    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        if let TransportSpec::Stdio(stdio) = &mut self.transport {
            stdio.args.push(arg.into());
        }
        self
    }

    /// Adds arguments to the command line (stdio servers; ignored for HTTP).
    pub fn args<I: IntoIterator<Item = A>, A: Into<OsString>>(mut self, args: I) -> Self {
        if let TransportSpec::Stdio(stdio) = &mut self.transport {
            stdio.args.extend(args.into_iter().map(Into::into));
        }
        self
    }

    /// Sets an environment variable of the process (stdio servers; ignored for HTTP).
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        if let TransportSpec::Stdio(stdio) = &mut self.transport {
            stdio.env.push((key.into(), value.into()));
        }
        self
    }

    /// Sets the working directory of the process (stdio servers; ignored for HTTP).
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        if let TransportSpec::Stdio(stdio) = &mut self.transport {
            stdio.cwd = Some(dir.into());
        }
        self
    }

    /// Sends `Authorization: Bearer <token>` with every request (HTTP servers; ignored
    /// for stdio).
    pub fn bearer(mut self, token: impl Into<String>) -> Self {
        if let TransportSpec::Http(http) = &mut self.transport {
            http.bearer = Some(token.into());
        }
        self
    }

    /// Sets the timeouts of this server.
    pub fn timeouts(mut self, timeouts: Timeouts) -> Self {
        self.timeouts = timeouts;
        self
    }

    /// The name that namespaces this server's tools.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The command line (stdio) or the URL (HTTP), for messages.
    pub(super) fn target(&self) -> String {
        match &self.transport {
            TransportSpec::Stdio(stdio) => {
                let mut words = vec![stdio.program.to_string_lossy().into_owned()];
                words.extend(stdio.args.iter().map(|a| a.to_string_lossy().into_owned()));
                words.join(" ")
            }
            TransportSpec::Http(http) => http.url.clone(),
        }
    }
}

impl fmt::Display for ServerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.target())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_shows_neither_the_bearer_token_nor_the_values_of_the_environment() {
        let http = ServerSpec::http("docs", "https://example.com/mcp").bearer("tok-3141592653");
        let stdio = ServerSpec::stdio("db", "db-server")
            .arg("--read-only")
            .env("DB_PASSWORD", "hunter2-swordfish")
            .env("API_KEY", "sk-271828182845");
        for shown in [
            format!("{http:?}"),
            format!("{http:#?}"),
            format!("{stdio:?}"),
            format!("{stdio:#?}"),
        ] {
            for secret in ["tok-3141592653", "hunter2-swordfish", "sk-271828182845"] {
                assert!(!shown.contains(secret), "{secret} in {shown}");
            }
        }
        // What is not secret still shows, so the form stays useful.
        let http = format!("{http:?}");
        assert!(http.contains("https://example.com/mcp"), "{http}");
        assert!(http.contains("bearer: Some(<redacted>)"), "{http}");
        let stdio = format!("{stdio:?}");
        assert!(stdio.contains("\"--read-only\""), "{stdio}");
        assert!(
            stdio.contains(r#"env: {"DB_PASSWORD": <redacted>, "API_KEY": <redacted>}"#),
            "{stdio}"
        );
        let no_token = format!("{:?}", ServerSpec::http("open", "http://localhost/mcp"));
        assert!(no_token.contains("bearer: None"), "{no_token}");
    }
}
