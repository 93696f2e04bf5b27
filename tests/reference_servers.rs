//! The reference MCP servers the tests start, installed from their registries by
//! `scripts/mcp-servers` (which `.ci/run` runs first).

use std::path::{Path, PathBuf};

use toolschema::mcp::ServerSpec;

/// Where `scripts/mcp-servers` installs: under cargo's target directory
/// (`CARGO_TARGET_DIR`, relative to the workspace, or `target`).
fn installed() -> PathBuf {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| "target".into(), PathBuf::from);
    workspace.join(target).join("mcp-servers/venv/bin")
}

/// The reference server, or a failure that says how to install it.
pub fn time_server() -> ServerSpec {
    let program = installed().join("mcp-server-time");
    assert!(
        program.is_file(),
        "mcp-server-time is not installed at {}: run `scripts/mcp-servers` (it installs \
         mcp-server-time from PyPI into the target directory's mcp-servers/venv; .ci/run \
         does this first)",
        program.display()
    );
    ServerSpec::stdio("time", program).arg("--local-timezone=UTC")
}
