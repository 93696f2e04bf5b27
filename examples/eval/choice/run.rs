//! Running `--set choice`: the rows, each case asked once per row, scored and reported.
//!
//! The mode rows (`auto`, `tools`, `json_schema`, `json_object`, `prompt`, with `+`
//! variants as in the other sets) run `Agent::ask_tools` on the case's tools array loaded
//! with `Toolset::from_openai_tools(..)?.with_answer()`; `derived` (`derived+tools` …)
//! runs `Agent::ask` on the derived union of the case's group, and skips the cases of no
//! group; `naive` runs the loop of `naive.rs`.

use std::time::Instant;

use serde_json::{Value, json};
use toolschema::provider::OpenAi;
use toolschema::{Agent, AskError, Toolset};

use super::naive::{NaiveChoiceRow, Order};
use super::report::{self, ChoiceOutcome, ChoiceSummary};
use super::{Case, Cases, Kind, check, derived};
use crate::agent_row::{AgentRow, Asks};
use crate::chat::Chat;
use crate::score::Trace;
use crate::{Options, Set};

/// One row of the table.
enum ChoiceRow {
    Agent(AgentRow),
    Naive(NaiveChoiceRow),
}

impl ChoiceRow {
    fn new(name: &str, provider: &OpenAi, chat: &Chat, options: &Options) -> Result<Self, String> {
        let mut parts = name.split('+');
        let base = parts.next().unwrap_or_default();
        let variant: Vec<&str> = parts.collect();
        if base == "naive" {
            let order = match variant.as_slice() {
                [] => Order::RequestFirst,
                ["first"] => Order::ToolsFirst,
                _ => {
                    return Err(format!(
                        "--set choice has the naive rows `naive` and `naive+first`, not `{name}`"
                    ));
                }
            };
            return Ok(ChoiceRow::Naive(NaiveChoiceRow::new(
                chat.clone(),
                options.attempts,
                order,
            )));
        }
        let (asks, mode, variant) = crate::agent_kind(Set::Choice, base, &variant);
        AgentRow::new(
            provider.clone(),
            mode,
            asks,
            &variant,
            options.attempts,
            options.max_tokens,
        )
        .map(ChoiceRow::Agent)
    }

    /// What the row did on the case; `None` when the row does not ask it (`derived` on a
    /// case of no derived group).
    async fn run(&self, case: &Case) -> Option<Trace> {
        match self {
            ChoiceRow::Naive(row) => Some(row.run(&case.tools, case.request).await),
            ChoiceRow::Agent(row) if row.asks() == Asks::Type => {
                let group = derived::group_of(&case.tools)?;
                Some(row.trace(|agent| (group.ask)(agent, case.request)).await)
            }
            ChoiceRow::Agent(row) => match Toolset::from_openai_tools(&case.tools) {
                Ok(tools) => {
                    let tools = tools.with_answer();
                    Some(
                        row.trace(|agent| ask_tools(agent, &tools, case.request))
                            .await,
                    )
                }
                Err(e) => Some(Trace {
                    error: Some(format!("the tools do not load: {e}")),
                    ..Trace::default()
                }),
            },
        }
    }
}

/// `Agent::ask_tools`, the choice written back with the names as the server spells them.
async fn ask_tools(
    agent: &Agent<OpenAi>,
    tools: &Toolset,
    request: &str,
) -> Result<Value, AskError> {
    let choice = agent.ask_tools(tools, request).await?;
    Ok(crate::runtime_tools::choice_json(&choice))
}

/// `eval --set choice`: the check, then every row on every selected case.
pub async fn main(options: &Options) {
    let set = options.choice_cases;
    let all = super::all(set);
    let problems = check::problems(set, &all);
    if !problems.is_empty() {
        eprintln!("the cases are wrong:\n{}", problems.join("\n"));
        std::process::exit(1);
    }
    let selected = crate::select(&all, options.tasks.as_deref()).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    if options.check {
        println!("{}", summary_line(set, &all));
        return;
    }
    let (provider, chat) = crate::connect(options);
    println!(
        "model {} · set choice{} · {} cases · rows {} · at most {} attempts · max_tokens {} · temperature 0\n",
        provider.model(),
        set.name().1,
        selected.len(),
        options.rows.join(", "),
        options.attempts,
        options.max_tokens,
    );
    let mut outcomes = Vec::new();
    for name in &options.rows {
        let row = ChoiceRow::new(name, &provider, &chat, options).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        });
        for &(index, case) in &selected {
            let start = Instant::now();
            let Some(trace) = row.run(case).await else {
                continue;
            };
            let outcome =
                ChoiceOutcome::score(name, index, case, trace, start.elapsed().as_secs_f64());
            eprintln!(
                "{name:<11} #{index:<3} {:<10} {:<5} {} call(s) {:>5} tokens {:>5.1} s{}",
                case.kind.name(),
                if outcome.right { "right" } else { "WRONG" },
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
    let summaries: Vec<ChoiceSummary> = options
        .rows
        .iter()
        .map(|row| ChoiceSummary::of(row, &outcomes))
        .collect();
    println!("{}", report::table(&summaries));
    for line in report::failures(&outcomes) {
        eprintln!("{line}");
    }
    if let Some(path) = &options.out {
        let settings = json!({
            "set": "choice",
            "cases": set.name().0,
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

/// What `--check` found true, in one line.
fn summary_line(set: Cases, all: &[Case]) -> String {
    let per_kind: Vec<String> = Kind::ALL
        .iter()
        .map(|&kind| {
            let count = all.iter().filter(|c| c.kind == kind).count();
            format!("{count} {}", kind.name())
        })
        .collect();
    let mut arrays: Vec<&Value> = Vec::new();
    for case in all {
        if !arrays.contains(&&case.tools) {
            arrays.push(&case.tools);
        }
    }
    let groups = set.groups();
    let in_groups = all
        .iter()
        .filter(|c| groups.iter().any(|g| (g.tools)() == c.tools))
        .count();
    format!(
        "{} cases ({}) over {} tools arrays; every array loads as a Toolset, every expected \
         call names a tool of its case with all its arguments and every accepted value fits \
         (jsonschema) and scores right, and the {} derived unions match their JSON tools and \
         read back their {in_groups} cases' expected replies.",
        all.len(),
        per_kind.join(", "),
        arrays.len(),
        groups.len(),
    )
}
