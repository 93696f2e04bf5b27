//! The evaluation that keeps score: toolschema's modes against the naive loop and an
//! instructor-style loop, on the same tasks, against the model named by the environment.
//!
//! ```sh
//! eval "$(scripts/local-model start)"
//! cargo run --release --example eval                                   # every row, every task
//! cargo run --release --example eval -- --rows auto,naive --tasks 0-19 --out eval.json
//! cargo run --release --example eval -- --check                        # the tasks only, no model
//! ```
//!
//! Rows: `auto`, `json_schema`, `json_object`, `prompt`, `tools` (`Agent::ask` in that
//! mode), `naive`, `instructor`. Every row runs at temperature 0 with the same attempt
//! and token limits. Per row it reports typed success, exactly right, model calls,
//! tokens and seconds per task, and one-round repair success: of the first attempts that
//! gave no value, how many the second attempt fixed.

mod agent_row;
mod chat;
mod instructor;
mod naive;
mod report;
mod score;
mod tasks;
mod types;

use std::time::Instant;

use serde_json::json;
use toolschema::provider::{Mode, OpenAi};

use agent_row::AgentRow;
use chat::Chat;
use instructor::InstructorRow;
use naive::NaiveRow;
use report::Summary;
use score::{Outcome, Trace};
use tasks::Task;

const USAGE: &str = "usage: eval [--rows auto,json_schema,json_object,prompt,tools,naive,instructor] \
[--tasks 0-19,25] [--out results.json] [--attempts 3] [--max-tokens 400] [--check]";

const ROWS: &[&str] = &[
    "auto",
    "json_schema",
    "json_object",
    "prompt",
    "tools",
    "naive",
    "instructor",
];

/// What the command line asked for.
struct Options {
    rows: Vec<String>,
    /// Task indices, in order; all tasks when `None`.
    tasks: Option<Vec<usize>>,
    out: Option<String>,
    attempts: usize,
    max_tokens: u32,
    check: bool,
}

fn options(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        rows: ROWS.iter().map(|r| (*r).to_owned()).collect(),
        tasks: None,
        out: None,
        attempts: 3,
        max_tokens: 400,
        check: false,
    };
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--rows" => {
                let rows: Vec<String> = value()?.split(',').map(str::to_owned).collect();
                let base = |r: &String| r.split('+').next().unwrap_or_default().to_owned();
                if let Some(unknown) = rows.iter().find(|r| !ROWS.contains(&base(r).as_str())) {
                    return Err(format!(
                        "unknown row `{unknown}`; expected one of {}",
                        ROWS.join(", ")
                    ));
                }
                options.rows = rows;
            }
            "--tasks" => options.tasks = Some(task_indices(&value()?)?),
            "--out" => options.out = Some(value()?),
            "--attempts" => {
                options.attempts = value()?.parse().map_err(|_| "--attempts takes a number")?
            }
            "--max-tokens" => {
                options.max_tokens = value()?
                    .parse()
                    .map_err(|_| "--max-tokens takes a number")?
            }
            "--check" => options.check = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(options)
}

/// `0-19,25`: inclusive ranges and single indices.
fn task_indices(spec: &str) -> Result<Vec<usize>, String> {
    let number = |s: &str| {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("`{s}` in --tasks is not a task index"))
    };
    let mut indices = Vec::new();
    for part in spec.split(',') {
        match part.split_once('-') {
            Some((from, to)) => indices.extend(number(from)?..=number(to)?),
            None => indices.push(number(part)?),
        }
    }
    Ok(indices)
}

/// One row of the table.
enum Row {
    Agent(AgentRow),
    Naive(NaiveRow),
    Instructor(InstructorRow),
}

impl Row {
    fn new(name: &str, provider: &OpenAi, chat: &Chat, options: &Options) -> Row {
        let mut parts = name.split('+');
        let base = parts.next().unwrap_or_default();
        let variant: Vec<&str> = parts.collect();
        let agent = |mode| {
            let row = AgentRow::new(
                provider.clone(),
                mode,
                &variant,
                options.attempts,
                options.max_tokens,
            );
            Row::Agent(row.unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2)
            }))
        };
        match base {
            "auto" => agent(Mode::Auto),
            "json_schema" => agent(Mode::JsonSchema),
            "json_object" => agent(Mode::JsonObject),
            "prompt" => agent(Mode::Prompt),
            "tools" => agent(Mode::Tools),
            "naive" => Row::Naive(NaiveRow::new(chat.clone(), options.attempts)),
            _ => Row::Instructor(InstructorRow::new(chat.clone(), options.attempts)),
        }
    }

    async fn run(&self, task: &Task) -> Trace {
        match self {
            Row::Agent(row) => row.run(task).await,
            Row::Naive(row) => row.run(task).await,
            Row::Instructor(row) => row.run(task).await,
        }
    }
}

#[tokio::main]
async fn main() {
    let options = match options(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            std::process::exit(2);
        }
    };
    let all = tasks::all();
    let problems = tasks::problems(&all);
    if !problems.is_empty() {
        eprintln!("the tasks are wrong:\n{}", problems.join("\n"));
        std::process::exit(1);
    }
    let selected: Vec<(usize, &Task)> = match &options.tasks {
        None => all.iter().enumerate().collect(),
        Some(indices) => match indices.iter().find(|&&i| i >= all.len()) {
            Some(i) => {
                eprintln!("there is no task {i}: the tasks are 0-{}", all.len() - 1);
                std::process::exit(2);
            }
            None => indices.iter().map(|&i| (i, &all[i])).collect(),
        },
    };
    if options.check {
        let mut types: Vec<&str> = all.iter().map(|t| t.answer.name).collect();
        types.dedup();
        println!(
            "{} tasks across {} types; every expected answer fits its type and its schema.",
            all.len(),
            types.len()
        );
        return;
    }
    let (provider, chat) = match (
        std::env::var("OPENAI_BASE_URL"),
        OpenAi::from_env(),
        Chat::from_env(options.max_tokens),
    ) {
        // The same timeout for every row: a slow shared server is not a failed attempt.
        (Ok(_), Ok(provider), Some(chat)) => (provider.timeout(chat::TIMEOUT), chat),
        _ => {
            eprintln!(
                "The evaluation asks a model: set OPENAI_BASE_URL and OPENAI_MODEL (and \
                 OPENAI_API_KEY if the server needs one), e.g. eval \"$(scripts/local-model start)\"."
            );
            std::process::exit(2);
        }
    };
    println!(
        "model {} · {} tasks · rows {} · at most {} attempts · max_tokens {} · temperature 0\n",
        provider.model(),
        selected.len(),
        options.rows.join(", "),
        options.attempts,
        options.max_tokens,
    );
    let mut outcomes = Vec::new();
    for name in &options.rows {
        let row = Row::new(name, &provider, &chat, &options);
        for &(index, task) in &selected {
            let start = Instant::now();
            let trace = row.run(task).await;
            let outcome = Outcome::score(
                name,
                index,
                task.answer.name,
                task.answer.union,
                &task.expected,
                trace,
                start.elapsed().as_secs_f64(),
            );
            eprintln!(
                "{name:<11} #{index:<3} {:<10} {:<6} {:<5} {} call(s) {:>5} tokens {:>5.1} s{}",
                outcome.type_name,
                if outcome.success { "ok" } else { "FAILED" },
                if outcome.exact { "exact" } else { "" },
                outcome.calls,
                outcome.tokens,
                outcome.seconds,
                match outcome.retries {
                    0 => String::new(),
                    n => format!(" ({n} transport retries)"),
                },
            );
            outcomes.push(outcome);
        }
    }
    let summaries: Vec<Summary> = options
        .rows
        .iter()
        .map(|row| Summary::of(row, &outcomes))
        .collect();
    println!("{}", report::table(&summaries));
    println!("{}", report::by_type(&options.rows, &selected, &outcomes));
    for line in report::failures(&outcomes) {
        eprintln!("{line}");
    }
    if let Some(path) = &options.out {
        let settings = json!({
            "rows": options.rows,
            "attempts": options.attempts,
            "max_tokens": options.max_tokens,
            "temperature": 0.0,
        });
        let results =
            report::results_json(provider.model(), settings, &selected, &summaries, &outcomes);
        let text = serde_json::to_string_pretty(&results).unwrap_or_default();
        match std::fs::write(path, text + "\n") {
            Ok(()) => eprintln!("results written to {path}"),
            Err(e) => {
                eprintln!("could not write {path}: {e}");
                std::process::exit(1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{options, task_indices};

    #[test]
    fn task_ranges_are_inclusive() {
        assert_eq!(task_indices("0-3,7"), Ok(vec![0, 1, 2, 3, 7]));
        assert!(task_indices("a-3").is_err());
    }

    #[test]
    fn unknown_rows_are_refused() {
        let args = ["--rows", "auto,naiv"].map(String::from);
        let error = options(args.into_iter()).err().unwrap_or_default();
        assert!(error.contains("unknown row `naiv`"), "{error}");
    }
}
