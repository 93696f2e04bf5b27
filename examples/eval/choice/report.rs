//! The report of `--set choice`: right answers by row and kind, model calls, tokens and
//! seconds per case, the wrong ones on stderr with what the row ended with, and every
//! outcome in a JSON file.

use serde::Serialize;
use serde_json::{Value, json};

use super::score::judge;
use super::{Case, Kind};
use crate::score::{AttemptTrace, Trace};

/// One row on one case, scored.
#[derive(Debug, Clone, Serialize)]
pub struct ChoiceOutcome {
    pub row: String,
    pub case: usize,
    pub kind: Kind,
    pub right: bool,
    /// Why the outcome is wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wrong: Option<String>,
    pub calls: usize,
    pub tokens: u64,
    pub seconds: f64,
    pub fallbacks: usize,
    pub retries: usize,
    pub value: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub attempts: Vec<AttemptTrace>,
}

impl ChoiceOutcome {
    pub fn score(row: &str, index: usize, case: &Case, trace: Trace, seconds: f64) -> Self {
        let verdict = judge(case, trace.value.as_ref());
        ChoiceOutcome {
            row: row.to_owned(),
            case: index,
            kind: case.kind,
            right: verdict.is_ok(),
            wrong: verdict.err(),
            calls: trace.attempts.len(),
            tokens: trace.attempts.iter().map(|a| a.tokens).sum(),
            seconds,
            fallbacks: trace.fallbacks,
            retries: trace.retries,
            value: trace.value,
            error: trace.error,
            attempts: trace.attempts,
        }
    }

    /// What the row ended with: the value it read, else the last reply it kept, else the
    /// last error.
    fn last(&self) -> String {
        if let Some(value) = &self.value {
            return value.to_string();
        }
        self.attempts
            .iter()
            .rev()
            .find_map(|a| a.raw.as_deref().or(a.error.as_deref()))
            .or(self.error.as_deref())
            .unwrap_or("(no reply)")
            .to_owned()
    }
}

/// One row's totals.
#[derive(Debug, Serialize)]
pub struct ChoiceSummary {
    pub row: String,
    /// Per kind, in `Kind::ALL` order: right, cases asked.
    pub kinds: Vec<(Kind, usize, usize)>,
    pub right: usize,
    pub cases: usize,
    pub calls: usize,
    pub tokens: u64,
    pub seconds: f64,
}

impl ChoiceSummary {
    pub fn of(row: &str, outcomes: &[ChoiceOutcome]) -> Self {
        let mine: Vec<&ChoiceOutcome> = outcomes.iter().filter(|o| o.row == row).collect();
        let kinds = Kind::ALL
            .iter()
            .map(|&kind| {
                let of_kind = mine.iter().filter(|o| o.kind == kind);
                let right = of_kind.clone().filter(|o| o.right).count();
                (kind, right, of_kind.count())
            })
            .collect();
        ChoiceSummary {
            row: row.to_owned(),
            kinds,
            right: mine.iter().filter(|o| o.right).count(),
            cases: mine.len(),
            calls: mine.iter().map(|o| o.calls).sum(),
            tokens: mine.iter().map(|o| o.tokens).sum(),
            seconds: mine.iter().map(|o| o.seconds).sum(),
        }
    }
}

/// The table: right per kind and in all, and the costs per case.
pub fn table(summaries: &[ChoiceSummary]) -> String {
    let kinds: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
    let mut out = format!(
        "| row | {} | total | model calls / case | tokens / case | seconds / case |\n|---|{}---|---|---|---|\n",
        kinds.join(" | "),
        "---|".repeat(kinds.len()),
    );
    for s in summaries {
        let per = |total: f64| total / s.cases.max(1) as f64;
        let cells: Vec<String> = s
            .kinds
            .iter()
            .map(|(_, right, cases)| match cases {
                0 => "–".to_owned(),
                n => format!("{right}/{n}"),
            })
            .collect();
        out.push_str(&format!(
            "| {} | {} | {}/{} | {:.2} | {:.0} | {:.1} |\n",
            s.row,
            cells.join(" | "),
            s.right,
            s.cases,
            per(s.calls as f64),
            per(s.tokens as f64),
            per(s.seconds),
        ));
    }
    out
}

/// One line per wrong outcome: why, and what the row ended with, shortened.
pub fn failures(outcomes: &[ChoiceOutcome]) -> Vec<String> {
    outcomes
        .iter()
        .filter(|o| !o.right)
        .map(|o| {
            let last = o.last().split_whitespace().collect::<Vec<_>>().join(" ");
            let short: String = last.chars().take(200).collect();
            let more = if short.len() < last.len() { " …" } else { "" };
            format!(
                "  {} case {} ({}) wrong: {}; last: {short}{more}",
                o.row,
                o.case,
                o.kind.name(),
                o.wrong.as_deref().unwrap_or("?"),
            )
        })
        .collect()
}

/// Everything a later run is compared with: settings, cases, totals, every outcome.
pub fn results_json(
    model: &str,
    settings: Value,
    cases: &[(usize, &Case)],
    summaries: &[ChoiceSummary],
    outcomes: &[ChoiceOutcome],
) -> Value {
    let cases: Vec<Value> = cases
        .iter()
        .map(|(index, case)| {
            let tools: Vec<&Value> = case
                .tools
                .as_array()
                .into_iter()
                .flatten()
                .map(|t| &t["function"]["name"])
                .collect();
            json!({
                "index": index,
                "kind": case.kind,
                "request": case.request,
                "tools": tools,
                "expected": case.expected_json(),
            })
        })
        .collect();
    json!({
        "model": model,
        "settings": settings,
        "cases": cases,
        "summary": summaries,
        "outcomes": outcomes,
    })
}

#[cfg(test)]
mod tests {
    use super::super::Expected;
    use super::*;

    #[test]
    fn the_table_counts_right_per_kind() {
        let case = Case {
            kind: Kind::Irrelevant,
            tools: json!([]),
            request: "Who wrote Hamlet?",
            expected: Expected::Answer,
        };
        let traced = |value: Value, tokens| Trace {
            attempts: vec![AttemptTrace {
                ok: true,
                tokens,
                ..AttemptTrace::default()
            }],
            value: Some(value),
            ..Trace::default()
        };
        let outcomes = [
            ChoiceOutcome::score(
                "naive",
                0,
                &case,
                traced(json!({"answer": "Shakespeare"}), 30),
                1.0,
            ),
            ChoiceOutcome::score(
                "naive",
                1,
                &case,
                traced(json!({"name": "x", "arguments": {}}), 10),
                1.0,
            ),
        ];
        let table = table(&[ChoiceSummary::of("naive", &outcomes)]);
        assert!(
            table.contains("| naive | – | – | 1/2 | – | 1/2 | 1.00 | 20 | 1.0 |"),
            "{table}"
        );
        let failures = failures(&outcomes);
        assert_eq!(failures.len(), 1);
        assert!(
            failures[0].contains("case 1 (irrelevant) wrong: called `x`"),
            "{}",
            failures[0]
        );
    }
}
