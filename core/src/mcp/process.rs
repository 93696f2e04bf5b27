//! The child process of a stdio server: started in its own process group with
//! kill-on-drop, its stderr read line by line into a short tail for error messages.

use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use process_wrap::tokio::{CommandWrap, KillOnDrop};
use rmcp::transport::TokioChildProcess;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::ChildStderr;
use tokio::sync::watch;

use super::McpError;
use super::spec::StdioSpec;

/// How many lines of stderr an error quotes, and how long each may be.
const TAIL_LINES: usize = 12;
const LINE_CHARS: usize = 400;

/// The last lines a server wrote to stderr, shared with the task that reads them.
#[derive(Debug, Clone)]
pub(super) struct StderrTail {
    lines: Arc<Mutex<VecDeque<String>>>,
    /// Becomes true when stderr has closed (the process is gone).
    closed: watch::Receiver<bool>,
}

impl StderrTail {
    pub fn lines(&self) -> Vec<String> {
        match self.lines.lock() {
            Ok(lines) => lines.iter().cloned().collect(),
            Err(poisoned) => poisoned.into_inner().iter().cloned().collect(),
        }
    }

    /// Waits until stderr has closed, at most `max`: a server that failed may still be
    /// writing why.
    pub async fn settle(&self, max: Duration) {
        let mut closed = self.closed.clone();
        let _ = tokio::time::timeout(max, closed.wait_for(|closed| *closed)).await;
    }

    fn push(&self, line: &str) {
        let mut lines = match self.lines.lock() {
            Ok(lines) => lines,
            Err(poisoned) => poisoned.into_inner(),
        };
        if lines.len() == TAIL_LINES {
            lines.pop_front();
        }
        let line = line.trim_end();
        lines.push_back(match line.char_indices().nth(LINE_CHARS) {
            Some((cut, _)) => format!("{}…", &line[..cut]),
            None => line.to_owned(),
        });
    }

    /// Reads `stderr` until it closes. The pipe must be drained: a server whose stderr
    /// fills up blocks on its next write.
    fn follow(stderr: Option<ChildStderr>) -> StderrTail {
        let (closed, on_close) = watch::channel(false);
        let tail = StderrTail {
            lines: Arc::default(),
            closed: on_close,
        };
        let Some(stderr) = stderr else {
            let _ = closed.send(true);
            return tail;
        };
        let reader_tail = tail.clone();
        tokio::spawn(async move {
            let tail = reader_tail;
            let mut reader = BufReader::new(stderr);
            let mut line = Vec::new();
            loop {
                line.clear();
                match reader.read_until(b'\n', &mut line).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => tail.push(&String::from_utf8_lossy(&line)),
                }
            }
            let _ = closed.send(true);
        });
        tail
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_keeps_the_last_lines_each_cut_to_length() {
        let tail = StderrTail {
            lines: Arc::default(),
            closed: watch::channel(true).1,
        };
        for i in 0..20 {
            tail.push(&format!("line {i}\n"));
        }
        tail.push(&"x".repeat(1000));
        let lines = tail.lines();
        assert_eq!(lines.len(), TAIL_LINES);
        assert_eq!(lines[0], "line 9");
        assert_eq!(lines[TAIL_LINES - 1].chars().count(), LINE_CHARS + 1);
        assert!(lines[TAIL_LINES - 1].ends_with('…'));
    }
}
