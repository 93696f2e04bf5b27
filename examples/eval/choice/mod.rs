//! `--set choice`: choosing between tools and a direct answer.
//!
//! Each case is a user's request, the tools a server hands over for it (an OpenAI `tools`
//! array, parameters as open objects the way servers write them) and what is right: one
//! call, with the values accepted for each argument, or a direct answer. Four kinds of
//! sixteen cases each:
//!
//! - `simple` (`cases_simple.rs`): one function that fits, documented at length, with
//!   optional parameters most requests leave out;
//! - `multiple` (`cases_multiple.rs`): two to five functions, exactly one of which fits;
//! - `irrelevant` (`cases_irrelevant.rs`): no function fits, tools of a nearby domain
//!   tempt, and the right reply is a direct answer;
//! - `chatty` (`cases_chatty.rs`): one function fits a request written as people write
//!   them: terse, with a backstory, with typos.
//!
//! Scored like BFCL's AST checker (`score.rs`). Three of the tools arrays are also unions
//! derived in Rust (`derived.rs`); the `derived` row asks for those over the cases that
//! use them. The other rows: `Agent::ask_tools` in each mode (`run.rs`) and a hand-written
//! loop without toolschema (`naive.rs`). All written for this evaluation.

mod cases_chatty;
mod cases_irrelevant;
mod cases_multiple;
mod cases_simple;
mod check;
mod derived;
mod groups;
mod naive;
mod near_miss;
mod plain;
mod report;
mod run;
mod score;
mod tools;
mod tools_other;

use serde::Serialize;
use serde_json::{Value, json};

pub use run::main;

/// The rows of `--set choice` when `--rows` is not given.
pub const ROWS: &[&str] = &[
    "auto",
    "tools",
    "json_schema",
    "json_object",
    "prompt",
    "naive",
    "naive+first",
];

/// Which cases `--set choice` asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cases {
    /// The 64 cases of `cases_*.rs`, tools documented at length.
    Main,
    /// The 24 cases of `plain.rs` (`--plain`).
    Plain,
    /// The 12 irrelevant cases of `near_miss.rs` (`--near-miss`), each using a word of a
    /// tool's name.
    NearMiss,
}

impl Cases {
    /// The fewest cases of `kind` the set holds.
    pub fn wanted(self, kind: Kind) -> usize {
        match (self, kind) {
            (Cases::Main, _) => 16,
            (Cases::Plain, _) => 6,
            (Cases::NearMiss, Kind::Irrelevant) => 12,
            (Cases::NearMiss, _) => 0,
        }
    }

    /// The set's name in the results file and the option that picks it.
    pub fn name(self) -> (&'static str, &'static str) {
        match self {
            Cases::Main => ("main", ""),
            Cases::Plain => ("plain", " --plain"),
            Cases::NearMiss => ("near-miss", " --near-miss"),
        }
    }

    /// The derived unions of the set's tools: only the main set has them.
    pub fn groups(self) -> Vec<derived::DerivedGroup> {
        match self {
            Cases::Main => Vec::from(derived::groups()),
            Cases::Plain | Cases::NearMiss => Vec::new(),
        }
    }
}

/// What a case tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Simple,
    Multiple,
    Irrelevant,
    Chatty,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Simple, Kind::Multiple, Kind::Irrelevant, Kind::Chatty];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Simple => "simple",
            Kind::Multiple => "multiple",
            Kind::Irrelevant => "irrelevant",
            Kind::Chatty => "chatty",
        }
    }
}

/// What is right for a case.
#[derive(Debug, Clone, PartialEq)]
pub enum Expected {
    /// A direct answer, whatever its text.
    Answer,
    /// One call of `name` (as the server spells it). `arguments` maps every parameter of
    /// the function to the values accepted for it, the first one the canonical value;
    /// `""` among them means the argument may be left out.
    Call {
        name: &'static str,
        arguments: Value,
    },
}

/// One request, its tools and what is right.
#[derive(Debug, Clone)]
pub struct Case {
    pub kind: Kind,
    /// An OpenAI `tools` array.
    pub tools: Value,
    pub request: &'static str,
    pub expected: Expected,
}

impl Case {
    /// The expected outcome as JSON, for the results file.
    pub fn expected_json(&self) -> Value {
        match &self.expected {
            Expected::Answer => json!({"answer": "(any text)"}),
            Expected::Call { name, arguments } => json!({"name": name, "arguments": arguments}),
        }
    }
}

/// The cases of a set: the main one (sixteen of each kind), the plain one (six of each
/// kind, `plain.rs`) or the near misses (`near_miss.rs`), in kind order.
pub fn all(cases: Cases) -> Vec<Case> {
    let lists = match cases {
        Cases::Main => vec![
            (Kind::Simple, cases_simple::all()),
            (Kind::Multiple, cases_multiple::all()),
            (Kind::Irrelevant, cases_irrelevant::all()),
            (Kind::Chatty, cases_chatty::all()),
        ],
        Cases::Plain => vec![
            (Kind::Simple, plain::simple()),
            (Kind::Multiple, plain::multiple()),
            (Kind::Irrelevant, plain::irrelevant()),
            (Kind::Chatty, plain::chatty()),
        ],
        Cases::NearMiss => vec![(Kind::Irrelevant, near_miss::irrelevant())],
    };
    let mut cases = Vec::new();
    for (kind, list) in lists {
        cases.extend(list.into_iter().map(|(tools, request, expected)| Case {
            kind,
            tools,
            request,
            expected,
        }));
    }
    cases
}

/// One case as the case files write it: tools, request, expected.
type CaseData = (Value, &'static str, Expected);

/// An OpenAI `tools` array entry.
fn function(name: &str, description: &str, parameters: Value) -> Value {
    json!({"type": "function", "function": {
        "name": name,
        "description": description,
        "parameters": parameters,
    }})
}

/// The expected call of `name`; `arguments` maps each parameter to its accepted values.
fn call(name: &'static str, arguments: Value) -> Expected {
    Expected::Call { name, arguments }
}
