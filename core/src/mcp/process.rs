//! The child process of a stdio server: started in its own process group with
//! kill-on-drop, its stderr followed into a short tail for error messages.

use std::process::Stdio;

use process_wrap::tokio::{CommandWrap, KillOnDrop};
use rmcp::transport::TokioChildProcess;

use super::McpError;
use super::spec::StdioSpec;
use super::stderr::StderrTail;

/// A started stdio server: the transport rmcp speaks over, its process id, its stderr.
pub(super) struct Child {
    pub transport: TokioChildProcess,
    pub pid: Option<u32>,
    pub stderr: StderrTail,
}

/// Starts the server's process. It is the leader of a new process group, so that
/// killing it also ends what it started (a launcher such as `uvx` or `npx` runs the
/// server as its own child); kill-on-drop is the fallback when no runtime is left to
/// run the graceful shutdown.
pub(super) fn spawn(
    server: &str,
    command_line: String,
    spec: &StdioSpec,
) -> Result<Child, McpError> {
    let mut command = tokio::process::Command::new(&spec.program);
    command.args(&spec.args);
    for (key, value) in &spec.env {
        command.env(key, value);
    }
    if let Some(dir) = &spec.cwd {
        command.current_dir(dir);
    }
    let mut wrapped = CommandWrap::from(command);
    wrapped.wrap(KillOnDrop);
    #[cfg(unix)]
    wrapped.wrap(process_wrap::tokio::ProcessGroup::leader());

    let spawn_error = |source| McpError::Spawn {
        server: server.to_owned(),
        command: command_line.clone(),
        source,
    };
    let (transport, stderr) = TokioChildProcess::builder(wrapped)
        .stderr(Stdio::piped())
        .spawn()
        .map_err(spawn_error)?;
    Ok(Child {
        pid: transport.id(),
        transport,
        stderr: StderrTail::follow(stderr),
    })
}
