//! The evaluation that keeps score: toolschema's modes against the naive loop and an
//! instructor-style loop, on the same tasks, against the model named by the environment.
//!
//! ```sh
//! eval "$(scripts/local-model start)"
//! cargo run --release --example eval                                   # every row, every task
//! cargo run --release --example eval -- --rows auto,naive --tasks 0-19 --out eval.json
//! cargo run --release --example eval -- --check                        # the tasks only, no model
//! cargo run --release --example eval -- --set runtime                  # tools given as JSON
//! cargo run --release --example eval -- --set runtime --check
//! cargo run --release --example eval -- --set choice                   # tools or a direct answer
//! cargo run --release --example eval -- --set choice --rows tools,naive,derived --out choice.json
//! cargo run --release --example eval -- --set choice --check
//! cargo run --release --example eval -- --set choice --plain           # 24 plain cases
//! cargo run --release --example eval -- --set choice --near-miss       # 12 near misses
//! ```
//!
//! Rows: `auto`, `json_schema`, `json_object`, `prompt`, `tools` (`Agent::ask` in that
//! mode), `naive` (the request and the schema in one user message), `naive+system` (the
//! schema in a system prompt), `instructor`. Every row runs at temperature 0 with the same
//! attempt and token limits. Per row it reports typed success, exactly right, model calls,
//! tokens and seconds per task, and one-round repair success: of the first attempts that
//! gave no value, how many the second attempt fixed.
//!
//! `--set runtime` asks for a union of tools given as JSON at run time (Home
//! Assistant-style intents and two MCP servers' tools, `runtime_tools.rs`): the mode rows
//! run `Agent::ask_tools` on the `Toolset`, `derived` runs `Agent::ask` on the same union
//! derived in Rust (`Mode::Auto`; `derived+tools` and so on for another mode), `naive`
//! pastes the union's JSON Schema. Calls are scored under the servers' names.
//!
//! `--set choice` (`choice/`) measures choosing between tools and a direct answer: 64
//! cases, 16 of each kind (`simple`, `multiple`, `irrelevant`, `chatty`), each with its own
//! OpenAI tools array, scored like BFCL's AST checker. Rows: the modes (`Agent::ask_tools`
//! on the tools array), `naive` and `naive+first` (the tools pasted into the user's
//! message after the request, or before it) and, when asked,
//! `derived` (over the cases whose tools are also a derived union). It reports right per
//! row and kind, model calls, tokens and seconds per case. `--plain` asks its 24 plain
//! cases instead (`choice/plain.rs`): snake_case names and one-line descriptions, written
//! after the choice machinery to see whether it holds on cases it was not developed on.
//! `--near-miss` asks 12 requests no tool does that use a word of a tool's name
//! (`choice/near_miss.rs`), where the check that sends back an answer skipping a tool
//! fires wrongly.

mod agent_row;
mod chat;
mod choice;
mod instructor;
mod naive;
mod report;
mod runtime_check;
mod runtime_tasks;
mod runtime_tools;
mod score;
mod tasks;
mod types;

use std::time::Instant;

use serde_json::json;
use toolschema::provider::{Mode, OpenAi};

use agent_row::{AgentRow, Asks};
use chat::Chat;
use instructor::InstructorRow;
use naive::{NaiveRow, NaiveStyle};
use report::Summary;
use score::{Outcome, Trace};
use tasks::Task;

const USAGE: &str = "usage: eval [--set types|runtime|choice] \
[--rows auto,json_schema,json_object,prompt,tools,derived,naive,naive+system,instructor] \
[--tasks 0-19,25] [--out results.json] [--attempts 3] [--max-tokens 400] [--check] [--plain | --near-miss]";

const ROWS: &[&str] = &[
    "auto",
    "json_schema",
    "json_object",
    "prompt",
    "tools",
    "naive",
    "instructor",
];

/// The rows of `--set runtime` when `--rows` is not given.
const RUNTIME_ROWS: &[&str] = &[
    "auto",
    "tools",
    "json_schema",
    "json_object",
    "prompt",
    "derived",
    "naive",
];

const MODES: &[(&str, Mode)] = &[
    ("auto", Mode::Auto),
    ("json_schema", Mode::JsonSchema),
    ("json_object", Mode::JsonObject),
    ("prompt", Mode::Prompt),
    ("tools", Mode::Tools),
];

/// The tasks asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Set {
    /// Ten records and two derived unions of tools (`tasks.rs`).
    Types,
    /// Tools given as JSON at run time (`runtime_tasks.rs`).
    Runtime,
    /// Choosing between tools and a direct answer, one tools array per case (`choice/`).
    Choice,
}

impl Set {
    fn tasks(self) -> Vec<Task> {
        match self {
            Set::Types => tasks::all(),
            Set::Runtime => runtime_tasks::all(),
            // Its cases are not tasks; `choice::main` runs them.
            Set::Choice => Vec::new(),
        }
    }

    /// What is wrong with the tasks, before any model is asked.
    fn problems(self, tasks: &[Task]) -> Vec<String> {
        let mut problems = tasks::problems(tasks);
        if self == Set::Runtime {
            problems.extend(runtime_check::problems(tasks));
        }
        problems
    }

    fn name(self) -> &'static str {
        match self {
            Set::Types => "types",
            Set::Runtime => "runtime",
            Set::Choice => "choice",
        }
    }
}

/// What the command line asked for.
struct Options {
    set: Set,
    rows: Vec<String>,
    /// Task indices, in order; all tasks when `None`.
    tasks: Option<Vec<usize>>,
    out: Option<String>,
    attempts: usize,
    max_tokens: u32,
    check: bool,
    /// The cases of `--set choice`: the main ones, or the plain ones (`--plain`).
    choice_cases: choice::Cases,
}

fn options(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        set: Set::Types,
        rows: Vec::new(),
        tasks: None,
        out: None,
        attempts: 3,
        max_tokens: 400,
        check: false,
        choice_cases: choice::Cases::Main,
    };
    let mut rows = None;
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--rows" => {
                let given: Vec<String> = value()?.split(',').map(str::to_owned).collect();
                let known = |r: &String| {
                    let base = r.split('+').next().unwrap_or_default();
                    ROWS.contains(&base) || base == "derived"
                };
                if let Some(unknown) = given.iter().find(|r| !known(r)) {
                    return Err(format!(
                        "unknown row `{unknown}`; expected one of {}, derived",
                        ROWS.join(", ")
                    ));
                }
                rows = Some(given);
            }
            "--set" => {
                options.set = match value()?.as_str() {
                    "types" => Set::Types,
                    "runtime" => Set::Runtime,
                    "choice" => Set::Choice,
                    other => {
                        return Err(format!(
                            "unknown set `{other}`; expected types, runtime or choice"
                        ));
                    }
                }
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
            "--plain" => options.choice_cases = choice::Cases::Plain,
            "--near-miss" => options.choice_cases = choice::Cases::NearMiss,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let defaults = match options.set {
        Set::Types => ROWS,
        Set::Runtime => RUNTIME_ROWS,
        Set::Choice => choice::ROWS,
    };
    options.rows = rows.unwrap_or_else(|| defaults.iter().map(|r| (*r).to_owned()).collect());
    if options.set == Set::Types
        && let Some(derived) = options.rows.iter().find(|r| r.starts_with("derived"))
    {
        return Err(format!(
            "the row `{derived}` compares a derived union with run-time tools: use it with --set runtime or choice"
        ));
    }
    if options.set == Set::Choice
        && let Some(row) = options.rows.iter().find(|r| {
            r.starts_with("instructor") || (r.starts_with("naive+") && *r != "naive+first")
        })
    {
        return Err(format!("the row `{row}` has no form for --set choice"));
    }
    if options.choice_cases != choice::Cases::Main && options.set != Set::Choice {
        return Err("--plain and --near-miss pick cases of --set choice".to_owned());
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
        match base {
            "naive" => {
                let style = NaiveStyle::of(&variant).unwrap_or_else(|e| {
                    eprintln!("{e}");
                    std::process::exit(2)
                });
                Row::Naive(NaiveRow::new(chat.clone(), options.attempts, style))
            }
            "instructor" => Row::Instructor(InstructorRow::new(chat.clone(), options.attempts)),
            _ => {
                let (asks, mode, variant) = agent_kind(options.set, base, &variant);
                let row = AgentRow::new(
                    provider.clone(),
                    mode,
                    asks,
                    &variant,
                    options.attempts,
                    options.max_tokens,
                );
                Row::Agent(row.unwrap_or_else(|e| {
                    eprintln!("{e}");
                    std::process::exit(2)
                }))
            }
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

/// How a toolschema row asks, in which mode, and the rest of its variant. In
/// `--set runtime` the mode rows ask the `Toolset`; `derived` asks for the derived union,
/// in the mode named among its variants (`derived+tools`), else `Mode::Auto`.
fn agent_kind<'a>(set: Set, base: &str, variant: &[&'a str]) -> (Asks, Mode, Vec<&'a str>) {
    let mode_of = |name: &str| MODES.iter().find(|(n, _)| *n == name).map(|(_, m)| *m);
    if base == "derived" {
        let mode = variant
            .iter()
            .find_map(|v| mode_of(v))
            .unwrap_or(Mode::Auto);
        let rest = variant
            .iter()
            .copied()
            .filter(|v| mode_of(v).is_none())
            .collect();
        return (Asks::Type, mode, rest);
    }
    let asks = match set {
        Set::Types => Asks::Type,
        Set::Runtime | Set::Choice => Asks::Toolset,
    };
    (asks, mode_of(base).unwrap_or(Mode::Auto), variant.to_vec())
}

/// The items at `indices` (all of them when `None`), with their indices.
fn select<'a, T>(all: &'a [T], indices: Option<&[usize]>) -> Result<Vec<(usize, &'a T)>, String> {
    match indices {
        None => Ok(all.iter().enumerate().collect()),
        Some(indices) => match indices.iter().find(|&&i| i >= all.len()) {
            Some(i) => Err(format!(
                "there is no task {i}: the tasks are 0-{}",
                all.len().saturating_sub(1)
            )),
            None => Ok(indices.iter().map(|&i| (i, &all[i])).collect()),
        },
    }
}

/// The server and model named by the environment, for the toolschema rows and the
/// others; the process ends with a hint when they are not set.
fn connect(options: &Options) -> (OpenAi, Chat) {
    match (
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
    if options.set == Set::Choice {
        return choice::main(&options).await;
    }
    let all = options.set.tasks();
    let problems = options.set.problems(&all);
    if !problems.is_empty() {
        eprintln!("the tasks are wrong:\n{}", problems.join("\n"));
        std::process::exit(1);
    }
    let selected = select(&all, options.tasks.as_deref()).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    if options.check {
        let mut types: Vec<&str> = all.iter().map(|t| t.answer.name).collect();
        types.dedup();
        match options.set {
            Set::Types => println!(
                "{} tasks across {} types; every expected answer fits its type and its schema.",
                all.len(),
                types.len()
            ),
            Set::Runtime => println!(
                "{} tasks over {} run-time tools in {} groups; the tools load as a Toolset, the \
                 derived union has the same tools, descriptions, arguments' schemas and tool \
                 definitions in every dialect, every tool has a task, and every expected call or answer fits the naive union's \
                 schema and reads back as itself through both unions.",
                all.len(),
                runtime_tools::json_tools().len(),
                types.len()
            ),
            Set::Choice => unreachable!("choice::main runs --set choice"),
        }
        return;
    }
    let (provider, chat) = connect(&options);
    println!(
        "model {} · set {} · {} tasks · rows {} · at most {} attempts · max_tokens {} · temperature 0\n",
        provider.model(),
        options.set.name(),
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
            "set": options.set.name(),
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
    use super::{Asks, Mode, Set, agent_kind, options, task_indices};

    #[test]
    fn task_ranges_are_inclusive() {
        assert_eq!(task_indices("0-3,7"), Ok(vec![0, 1, 2, 3, 7]));
        assert!(task_indices("a-3").is_err());
    }

    #[test]
    fn the_runtime_set_has_its_rows_and_derived_takes_a_mode() {
        let args = ["--set", "runtime"].map(String::from);
        let runtime = options(args.into_iter()).expect("options");
        assert_eq!(
            runtime.rows,
            [
                "auto",
                "tools",
                "json_schema",
                "json_object",
                "prompt",
                "derived",
                "naive"
            ]
        );
        assert_eq!(
            agent_kind(Set::Runtime, "derived", &["tools", "noex"]),
            (Asks::Type, Mode::Tools, vec!["noex"])
        );
        assert_eq!(
            agent_kind(Set::Runtime, "prompt", &[]),
            (Asks::Toolset, Mode::Prompt, vec![])
        );
        assert_eq!(
            agent_kind(Set::Types, "prompt", &[]),
            (Asks::Type, Mode::Prompt, vec![])
        );
        let args = ["--rows", "auto,derived"].map(String::from);
        let error = options(args.into_iter()).err().unwrap_or_default();
        assert!(error.contains("use it with --set runtime"), "{error}");
    }

    #[test]
    fn the_choice_set_has_its_rows_and_no_instructor() {
        let args = ["--set", "choice"].map(String::from);
        let choice = options(args.into_iter()).expect("options");
        assert_eq!(
            choice.rows,
            [
                "auto",
                "tools",
                "json_schema",
                "json_object",
                "prompt",
                "naive",
                "naive+first"
            ]
        );
        let args = ["--set", "choice", "--rows", "tools,derived+prompt"].map(String::from);
        assert!(options(args.into_iter()).is_ok());
        let args = ["--set", "choice", "--rows", "naive,instructor"].map(String::from);
        let error = options(args.into_iter()).err().unwrap_or_default();
        assert!(
            error.contains("`instructor` has no form for --set choice"),
            "{error}"
        );
        let args = ["--set", "choice", "--rows", "naive+system"].map(String::from);
        let error = options(args.into_iter()).err().unwrap_or_default();
        assert!(error.contains("`naive+system` has no form"), "{error}");
        let args = ["--set", "choice", "--rows", "naive,naive+first"].map(String::from);
        assert!(options(args.into_iter()).is_ok());
        let args = ["--set", "choice", "--plain"].map(String::from);
        let plain = options(args.into_iter()).expect("options");
        assert_eq!(plain.choice_cases, crate::choice::Cases::Plain);
        assert_eq!(choice.choice_cases, crate::choice::Cases::Main);
        let args = ["--set", "types", "--plain"].map(String::from);
        let error = options(args.into_iter()).err().unwrap_or_default();
        assert!(error.contains("--plain and --near-miss pick"), "{error}");
        let args = ["--set", "choice", "--near-miss"].map(String::from);
        let near = options(args.into_iter()).expect("options");
        assert_eq!(near.choice_cases, crate::choice::Cases::NearMiss);
        assert_eq!(
            agent_kind(Set::Choice, "json_object", &[]),
            (Asks::Toolset, Mode::JsonObject, vec![])
        );
    }

    #[test]
    fn unknown_rows_are_refused() {
        let args = ["--rows", "auto,naiv"].map(String::from);
        let error = options(args.into_iter()).err().unwrap_or_default();
        assert!(error.contains("unknown row `naiv`"), "{error}");
    }
}
