//! The report: a Markdown table per row, exact answers per type, the failures on stderr,
//! and every outcome in a JSON file for comparing runs and studying failures.

use serde::Serialize;
use serde_json::{Value, json};

use crate::score::Outcome;
use crate::tasks::Task;

/// One row's totals.
#[derive(Debug, Serialize)]
pub struct Summary {
    pub row: String,
    pub tasks: usize,
    pub success: usize,
    pub exact: usize,
    pub calls: usize,
    pub tokens: u64,
    pub seconds: f64,
    /// First attempts that gave no value.
    pub first_failed: usize,
    /// Of those, how many the second attempt fixed.
    pub fixed_next: usize,
}

impl Summary {
    pub fn of(row: &str, outcomes: &[Outcome]) -> Summary {
        let mine: Vec<&Outcome> = outcomes.iter().filter(|o| o.row == row).collect();
        let count = |f: fn(&Outcome) -> bool| mine.iter().filter(|o| f(o)).count();
        Summary {
            row: row.to_owned(),
            tasks: mine.len(),
            success: count(|o| o.success),
            exact: count(|o| o.exact),
            calls: mine.iter().map(|o| o.calls).sum(),
            tokens: mine.iter().map(|o| o.tokens).sum(),
            seconds: mine.iter().map(|o| o.seconds).sum(),
            first_failed: count(|o| o.first_failed),
            fixed_next: count(|o| o.fixed_next),
        }
    }
}

/// The table of every row.
pub fn table(summaries: &[Summary]) -> String {
    let mut out = String::from(
        "| row | typed success | exactly right | model calls / task | tokens / task | seconds / task | one-round repair |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for s in summaries {
        let per = |total: f64| total / s.tasks.max(1) as f64;
        let repair = match s.first_failed {
            0 => "none needed".to_owned(),
            m => format!(
                "{} of {m} ({:.0} %)",
                s.fixed_next,
                100.0 * s.fixed_next as f64 / m as f64
            ),
        };
        out.push_str(&format!(
            "| {} | {}/{} | {}/{} | {:.2} | {:.0} | {:.1} | {} |\n",
            s.row,
            s.success,
            s.tasks,
            s.exact,
            s.tasks,
            per(s.calls as f64),
            per(s.tokens as f64),
            per(s.seconds),
            repair,
        ));
    }
    out
}

/// Exactly right per type and row.
pub fn by_type(rows: &[String], tasks: &[(usize, &Task)], outcomes: &[Outcome]) -> String {
    let mut types: Vec<&'static str> = Vec::new();
    for (_, task) in tasks {
        if !types.contains(&task.answer.name) {
            types.push(task.answer.name);
        }
    }
    let mut out = format!("| exactly right | {} |\n|---|", rows.join(" | "));
    out.push_str(&"---|".repeat(rows.len()));
    out.push('\n');
    for name in types {
        let of_type = tasks.iter().filter(|(_, t)| t.answer.name == name).count();
        let cells: Vec<String> = rows
            .iter()
            .map(|row| {
                let exact = outcomes
                    .iter()
                    .filter(|o| &o.row == row && o.type_name == name && o.exact)
                    .count();
                format!("{exact}/{of_type}")
            })
            .collect();
        out.push_str(&format!("| {name} | {} |\n", cells.join(" | ")));
    }
    out
}

/// One line per failed task and row, with the last reply, shortened.
pub fn failures(outcomes: &[Outcome]) -> Vec<String> {
    outcomes
        .iter()
        .filter(|o| !o.success)
        .map(|o| {
            let last = o.last_reply().unwrap_or("(no reply)");
            let last: String = last.split_whitespace().collect::<Vec<_>>().join(" ");
            let short: String = last.chars().take(200).collect();
            let more = if short.len() < last.len() { " …" } else { "" };
            format!(
                "  {} task {} ({}) failed; last: {short}{more}",
                o.row, o.task, o.type_name
            )
        })
        .collect()
}

/// Everything a later run is compared with: settings, tasks, totals, every outcome.
pub fn results_json(
    model: &str,
    settings: Value,
    tasks: &[(usize, &Task)],
    summaries: &[Summary],
    outcomes: &[Outcome],
) -> Value {
    let tasks: Vec<Value> = tasks
        .iter()
        .map(|(index, task)| {
            json!({
                "index": index,
                "type": task.answer.name,
                "prompt": task.prompt,
                "expected": task.expected,
            })
        })
        .collect();
    json!({
        "model": model,
        "settings": settings,
        "tasks": tasks,
        "summary": summaries,
        "outcomes": outcomes,
    })
}
