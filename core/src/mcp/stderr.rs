//! What a stdio server writes to stderr: read as it comes, so that the pipe never fills,
//! and kept as a short tail of lines for error messages. However long a line runs, only
//! its start is held: a server that writes one endless line costs a bounded buffer.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, BufReader};
use tokio::process::ChildStderr;
use tokio::sync::watch;

/// How many lines of stderr an error quotes, and how long each may be.
const TAIL_LINES: usize = 12;
const LINE_CHARS: usize = 400;
/// The bytes of one line held while reading it: enough for `LINE_CHARS + 1` characters
/// of any width (a UTF-8 character is at most 4 bytes, an invalid byte reads as one
/// character), so a line held whole at this length is longer than its quote.
const LINE_BYTES: usize = 4 * (LINE_CHARS + 1);

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

    /// Reads `stderr` until it closes. The pipe must be drained: a server whose stderr
    /// fills up blocks on its next write.
    pub fn follow(stderr: Option<ChildStderr>) -> StderrTail {
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
            read_lines(BufReader::new(stderr), &reader_tail).await;
            let _ = closed.send(true);
        });
        tail
    }

    fn push(&self, line: &[u8]) {
        let line = String::from_utf8_lossy(line);
        let line = line.trim_end();
        let line = match line.char_indices().nth(LINE_CHARS) {
            Some((cut, _)) => format!("{}…", &line[..cut]),
            None => line.to_owned(),
        };
        let mut lines = match self.lines.lock() {
            Ok(lines) => lines,
            Err(poisoned) => poisoned.into_inner(),
        };
        if lines.len() == TAIL_LINES {
            lines.pop_front();
        }
        lines.push_back(line);
    }
}

/// Reads `reader` line by line into `tail` until it ends, holding at most `LINE_BYTES`
/// of a line. A line that runs longer is kept, cut, as soon as that much of it has come
/// (an error then quotes the start of a line the server has not finished), and the rest
/// of it is read up to its newline and dropped.
async fn read_lines(mut reader: impl AsyncBufRead + Unpin, tail: &StderrTail) {
    let mut line = Vec::with_capacity(LINE_BYTES);
    // Whether the line being read was kept already and its rest is dropped.
    let mut kept = false;
    loop {
        let chunk = match reader.fill_buf().await {
            Ok(chunk) if !chunk.is_empty() => chunk,
            // The end of the stream, or an error reading it: nothing more will come.
            _ => break,
        };
        let newline = chunk.iter().position(|&byte| byte == b'\n');
        if !kept {
            let end = newline.unwrap_or(chunk.len());
            let room = LINE_BYTES - line.len();
            line.extend_from_slice(&chunk[..end.min(room)]);
        }
        let read = newline.map_or(chunk.len(), |at| at + 1);
        reader.consume(read);
        if newline.is_some() {
            if !kept {
                tail.push(&line);
            }
            line.clear();
            kept = false;
        } else if !kept && line.len() == LINE_BYTES {
            tail.push(&line);
            line.clear();
            kept = true;
        }
    }
    if !kept && !line.is_empty() {
        tail.push(&line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn empty_tail() -> StderrTail {
        StderrTail {
            lines: Arc::default(),
            closed: watch::channel(true).1,
        }
    }

    #[test]
    fn the_tail_keeps_the_last_lines_each_cut_to_length() {
        let tail = empty_tail();
        for i in 0..20 {
            tail.push(format!("line {i}\n").as_bytes());
        }
        tail.push("x".repeat(1000).as_bytes());
        let lines = tail.lines();
        assert_eq!(lines.len(), TAIL_LINES);
        assert_eq!(lines[0], "line 9");
        assert_eq!(lines[TAIL_LINES - 1].chars().count(), LINE_CHARS + 1);
        assert!(lines[TAIL_LINES - 1].ends_with('…'));
    }

    /// Polls until `tail` holds `count` lines, at most 20 s.
    async fn wait_for_lines(tail: &StderrTail, count: usize) -> Vec<String> {
        let start = std::time::Instant::now();
        while tail.lines().len() < count && start.elapsed() < Duration::from_secs(20) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tail.lines()
    }

    /// A real child writes a line of several megabytes and, before ending it, waits for
    /// its stdin to close; then it ends the line, writes one more and exits. The start of
    /// the long line is kept while the line is still being written (a reader that holds
    /// a whole line before keeping it waits forever here, and its buffer grows with the
    /// line), and the line after it is kept whole.
    #[cfg(unix)]
    #[tokio::test]
    async fn an_endless_line_is_kept_cut_while_it_runs_and_the_next_line_is_kept_whole() {
        let script = "head -c 6000000 /dev/zero | tr '\\0' x >&2; read go; \
                      echo ' and the end of the long line' >&2; \
                      echo 'the line after' >&2";
        let mut child = tokio::process::Command::new("sh")
            .args(["-c", script])
            .stdin(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("sh starts");
        let tail = StderrTail::follow(child.stderr.take());

        let lines = wait_for_lines(&tail, 1).await;
        let cut = format!("{}…", "x".repeat(LINE_CHARS));
        assert_eq!(
            lines,
            std::slice::from_ref(&cut),
            "the start of the unfinished line"
        );

        drop(child.stdin.take());
        tail.settle(Duration::from_secs(20)).await;
        let status = child.wait().await.expect("sh exits");
        assert!(status.success(), "{status}");
        assert_eq!(tail.lines(), [cut, "the line after".to_owned()]);
    }

    /// What the bounded reader keeps: each line as if read whole and then cut, whatever
    /// the sizes of the chunks the bytes come in.
    fn read_in_chunks(text: &[u8], chunk: usize) -> Vec<String> {
        let tail = empty_tail();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        runtime.block_on(read_lines(BufReader::with_capacity(chunk, text), &tail));
        tail.lines()
    }

    fn read_whole(text: &[u8]) -> Vec<String> {
        let tail = empty_tail();
        let mut lines: Vec<&[u8]> = text.split(|&byte| byte == b'\n').collect();
        // What follows the last newline is a line only when it is not empty.
        if lines.last().is_some_and(|last| last.is_empty()) {
            lines.pop();
        }
        for line in lines {
            tail.push(line);
        }
        tail.lines()
    }

    #[test]
    fn a_line_of_wide_characters_is_cut_to_the_same_number_of_characters() {
        for wide in ["é", "€", "🦀"] {
            let text = format!("{}\nnext\n", wide.repeat(3 * LINE_CHARS));
            let lines = read_in_chunks(text.as_bytes(), 64);
            assert_eq!(lines, read_whole(text.as_bytes()));
            assert_eq!(lines[0], format!("{}…", wide.repeat(LINE_CHARS)));
        }
    }

    proptest! {
        #[test]
        fn bounded_reading_keeps_what_reading_whole_lines_keeps(
            lengths in prop::collection::vec(
                prop_oneof![0..20usize, LINE_BYTES - 2..LINE_BYTES + 2, 0..3 * LINE_BYTES],
                0..6,
            ),
            chunk in 1..2 * LINE_BYTES,
            last_newline: bool,
        ) {
            let mut text = Vec::new();
            for (n, length) in lengths.iter().enumerate() {
                text.extend(std::iter::repeat_n(b'a' + n as u8, *length));
                text.push(b'\n');
            }
            if !last_newline {
                text.pop();
            }
            prop_assert_eq!(read_in_chunks(&text, chunk), read_whole(&text));
        }
    }
}
