//! The reference MCP servers the tests start, installed from their registries by
//! `scripts/mcp-servers` (which `.ci/run` runs first).

use std::path::PathBuf;

use toolschema::mcp::ServerSpec;

/// The reference server, or a failure that says how to install it.
pub fn time_server() -> ServerSpec {
    let bin: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "target",
        "mcp-servers",
        "venv",
        "bin",
    ]
    .iter()
    .collect();
    let program = bin.join("mcp-server-time");
    assert!(
        program.is_file(),
        "mcp-server-time is not installed at {}: run `scripts/mcp-servers` (it installs \
         mcp-server-time from PyPI into target/mcp-servers/venv; .ci/run does this first)",
        program.display()
    );
    ServerSpec::stdio("time", program).arg("--local-timezone=UTC")
}
