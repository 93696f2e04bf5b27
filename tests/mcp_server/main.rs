//! A deterministic MCP server for the tests of `toolschema::mcp`, on rmcp's server side.
//!
//! Tools: `echo` and `add` answer; `fail` reports a tool error (`isError: true`); `hang`
//! never answers; `crash` writes to stderr and exits the process mid-call; `refuse`
//! answers with a JSON-RPC error;
//! `files/read me` has a name no provider accepts as it is.
//!
//! ```text
//! mcp-test-server                      # stdio
//! mcp-test-server --http 127.0.0.1:0   # streamable HTTP; prints `listening on <url>`
//! mcp-test-server --pid-file PATH      # writes its process id to PATH first
//! mcp-test-server --exit-at-start      # exits with status 2 before the handshake
//! mcp-test-server --silent             # reads stdin, never answers
//! mcp-test-server --stubborn           # outlives its stdin, and ignores SIGTERM
//! ```

use std::io::Write;
use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct EchoArgs {
    /// The text to send back.
    text: String,
}

#[derive(Deserialize, JsonSchema)]
struct AddArgs {
    a: i64,
    b: i64,
}

#[derive(Deserialize, JsonSchema)]
struct FailArgs {
    /// What the failure says.
    message: String,
}

#[derive(Deserialize, JsonSchema)]
struct ReadArgs {
    path: String,
}

#[derive(Debug, Clone)]
struct TestServer {
    tool_router: ToolRouter<Self>,
}

#[tool_router(router = tool_router)]
impl TestServer {
    fn new() -> Self {
        TestServer {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Send the text back.")]
    async fn echo(&self, Parameters(args): Parameters<EchoArgs>) -> String {
        args.text
    }

    #[tool(description = "Add two integers.")]
    async fn add(
        &self,
        Parameters(AddArgs { a, b }): Parameters<AddArgs>,
    ) -> Result<String, String> {
        a.checked_add(b)
            .map(|sum| sum.to_string())
            .ok_or_else(|| format!("{a} + {b} overflows"))
    }

    #[tool(description = "Report a failure with the message.")]
    async fn fail(&self, Parameters(args): Parameters<FailArgs>) -> CallToolResult {
        CallToolResult::error(vec![ContentBlock::text(args.message)])
    }

    #[tool(description = "Never answer.")]
    async fn hang(&self) -> String {
        tokio::time::sleep(Duration::from_secs(24 * 3600)).await;
        "woke up".into()
    }

    #[tool(description = "Exit the server process in the middle of the call.")]
    async fn crash(&self) -> String {
        eprintln!("mcp-test-server: crashing on purpose");
        std::process::exit(3)
    }

    #[tool(description = "Answer the call with a JSON-RPC error (the server is alive).")]
    async fn refuse(&self) -> Result<String, rmcp::ErrorData> {
        Err(rmcp::ErrorData::internal_error(
            "the quota is used up",
            None,
        ))
    }

    #[tool(
        name = "files/read me",
        description = "Read a file (a name with a slash and a space)."
    )]
    async fn read_me(&self, Parameters(args): Parameters<ReadArgs>) -> String {
        format!("the contents of {}", args.path)
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("mcp-test-server", "1.0.0"))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    let value = |name: &str| {
        let at = args.iter().position(|a| a == name)?;
        args.get(at + 1).cloned()
    };
    if let Some(path) = value("--pid-file") {
        std::fs::write(path, std::process::id().to_string())?;
    }
    eprintln!("mcp-test-server: started");
    if flag("--exit-at-start") {
        eprintln!("mcp-test-server: exiting before the handshake, as asked");
        std::process::exit(2);
    }
    if flag("--silent") {
        let mut sink = tokio::io::sink();
        tokio::io::copy(&mut tokio::io::stdin(), &mut sink).await?;
        return Ok(());
    }
    if let Some(address) = value("--http") {
        return serve_http(&address).await;
    }
    let running = TestServer::new().serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    if flag("--stubborn") {
        return outlive().await;
    }
    Ok(())
}

/// Stays after stdin has closed, and ignores SIGTERM: only SIGKILL ends it.
async fn outlive() -> Result<(), Box<dyn std::error::Error>> {
    eprintln!("mcp-test-server: stdin closed; staying");
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut terms = signal(SignalKind::terminate())?;
        while terms.recv().await.is_some() {
            eprintln!("mcp-test-server: ignoring SIGTERM");
        }
    }
    tokio::time::sleep(Duration::from_secs(3600)).await;
    Ok(())
}

async fn serve_http(address: &str) -> Result<(), Box<dyn std::error::Error>> {
    use hyper_util::rt::{TokioExecutor, TokioIo};
    use hyper_util::server::conn::auto::Builder;
    use hyper_util::service::TowerToHyperService;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpService, session::local::LocalSessionManager,
    };

    let service = TowerToHyperService::new(StreamableHttpService::new(
        || Ok(TestServer::new()),
        LocalSessionManager::default().into(),
        Default::default(),
    ));
    let listener = tokio::net::TcpListener::bind(address).await?;
    println!("listening on http://{}/mcp", listener.local_addr()?);
    std::io::stdout().flush()?;
    loop {
        let (stream, _) = listener.accept().await?;
        let service = service.clone();
        tokio::spawn(async move {
            let _closed = Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
