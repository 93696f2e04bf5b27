//! The run-time validator (`Schema::from_json` + `validate`/`is_valid`) against the
//! third-party vectors in `corpora/`: the JSON-Schema-Test-Suite (draft 2020-12 and
//! draft 7) and the argument objects BFCL accepts for its tools.
//!
//! A case is out of scope only for a reason the test names and prints: the loader
//! rejected a keyword it does not support (an error naming it, never a silent pass), the
//! case needs the suite's remote schemas, or it is an optional test that assumes `format`
//! or, in draft 7, `contentEncoding`/`contentMediaType` are asserted (toolschema reads
//! them as annotations, as draft 2020-12 does). Everything else must agree with the
//! suite, case by case.
//!
//! Run with `-- --nocapture` to see the tables.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;
use toolschema::{Error, Schema, ViolationKind};

const DRAFT7: &str = "http://json-schema.org/draft-07/schema#";

fn corpus(name: &str) -> Vec<Value> {
    let path = format!("{}/corpora/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{path}:{}: {e}", i + 1))
        })
        .collect()
}

fn text<'a>(row: &'a Value, field: &str) -> &'a str {
    row[field]
        .as_str()
        .unwrap_or_else(|| panic!("{}: no string field {field:?}", row["id"]))
}

fn flag(row: &Value, field: &str) -> bool {
    row[field]
        .as_bool()
        .unwrap_or_else(|| panic!("{}: no boolean field {field:?}", row["id"]))
}

/// The instance of a row: `input` is JSON text.
fn instance(row: &Value) -> Value {
    serde_json::from_str(text(row, "input"))
        .unwrap_or_else(|e| panic!("{}: input is not JSON: {e}", row["id"]))
}

/// The keyword a load error names as unsupported, when every violation is of that form
/// (`the keyword "if" is not supported by toolschema…`).
fn unsupported_keyword(err: &Error) -> Option<String> {
    let mut named = None;
    for violation in err.violations() {
        let ViolationKind::Invalid { message } = violation.kind() else {
            return None;
        };
        let rest = message.strip_prefix("the keyword \"")?;
        let (keyword, rest) = rest.split_once('"')?;
        if !rest.starts_with(" is not supported by toolschema") {
            return None;
        }
        named.get_or_insert_with(|| keyword.to_owned());
    }
    named
}

/// Why a suite case is not checked.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum OutOfScope {
    NeedsRemotes,
    FormatAssertion,
    ContentAssertion,
    Unsupported(String),
}

impl std::fmt::Display for OutOfScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutOfScope::NeedsRemotes => f.write_str("needs remote schemas"),
            OutOfScope::FormatAssertion => f.write_str("optional format assertion"),
            OutOfScope::ContentAssertion => f.write_str("optional content assertion"),
            OutOfScope::Unsupported(keyword) => write!(f, "unsupported `{keyword}`"),
        }
    }
}

#[derive(Default)]
struct Tally {
    in_scope: usize,
    agreed: usize,
    out: BTreeMap<OutOfScope, usize>,
}

fn table_row(out: &mut String, name: &str, tally: &Tally) {
    let out_total: usize = tally.out.values().sum();
    let why: Vec<String> = tally
        .out
        .iter()
        .map(|(reason, n)| format!("{reason} ×{n}"))
        .collect();
    let line = format!(
        "{name:<42} {:>8} {:>7} {:>6}  {}",
        tally.in_scope,
        tally.agreed,
        out_total,
        why.join(", ")
    );
    let _ = writeln!(out, "{}", line.trim_end());
}

#[test]
fn json_schema_test_suite() {
    let rows = corpus("jsts.jsonl");
    let mut by_keyword: BTreeMap<String, Tally> = BTreeMap::new();
    let mut unsupported: BTreeMap<String, usize> = BTreeMap::new();
    let mut excluded: Vec<String> = Vec::new();
    let mut disagreements: Vec<String> = Vec::new();

    for row in &rows {
        let id = text(row, "id");
        let draft = text(row, "draft");
        let keyword = format!("{draft}/{}", text(row, "keyword"));
        let expected = match text(row, "kind") {
            "schema-valid" => true,
            "schema-invalid" => false,
            other => panic!("{id}: unexpected kind {other:?}"),
        };
        let tally = by_keyword.entry(keyword.clone()).or_default();
        let describe = || {
            format!(
                "{id} {keyword} | {} | {} | schema {} | instance {}",
                text(row, "group"),
                text(row, "test"),
                row["schema"],
                text(row, "input"),
            )
        };

        let optional = flag(row, "optional");
        let scope = if flag(row, "needs_remotes") {
            Some(OutOfScope::NeedsRemotes)
        } else if optional && text(row, "keyword").starts_with("format") {
            Some(OutOfScope::FormatAssertion)
        } else if optional && text(row, "keyword") == "content" {
            Some(OutOfScope::ContentAssertion)
        } else {
            None
        };
        if let Some(reason) = scope {
            excluded.push(format!(
                "{reason}: {id} {keyword} | {} | {}",
                text(row, "group"),
                text(row, "test")
            ));
            *tally.out.entry(reason).or_default() += 1;
            continue;
        }

        // The suite runs each directory under its draft; a draft-7 schema says so the way
        // a real one would, with `$schema` (draft 7 lets `$ref` override its siblings).
        let mut schema = row["schema"].clone();
        if draft == "draft7"
            && let Value::Object(map) = &mut schema
            && !map.contains_key("$schema")
        {
            map.insert("$schema".into(), DRAFT7.into());
        }
        let schema = match Schema::from_json(schema) {
            Ok(schema) => schema,
            Err(err) => match unsupported_keyword(&err) {
                Some(name) => {
                    *unsupported.entry(name.clone()).or_default() += 1;
                    *tally.out.entry(OutOfScope::Unsupported(name)).or_default() += 1;
                    continue;
                }
                None => {
                    tally.in_scope += 1;
                    disagreements.push(format!("{}\n    load error: {err}", describe()));
                    continue;
                }
            },
        };

        tally.in_scope += 1;
        let value = instance(row);
        let quick = schema.is_valid(&value);
        let full = schema.validate(&value);
        if quick == expected && full.is_ok() == expected {
            tally.agreed += 1;
        } else {
            let reasons = match &full {
                Ok(()) => "validate: Ok".to_owned(),
                Err(e) => format!("validate: {}", e.to_string().replace('\n', "; ")),
            };
            disagreements.push(format!(
                "{}\n    expected {expected}, is_valid {quick}, {reasons}",
                describe()
            ));
        }
    }

    let mut report = String::new();
    let _ = writeln!(
        report,
        "JSON-Schema-Test-Suite by keyword ({} cases)",
        rows.len()
    );
    let _ = writeln!(
        report,
        "{:<42} {:>8} {:>7} {:>6}  why out of scope",
        "keyword", "in scope", "agreed", "out"
    );
    let mut total = Tally::default();
    for (keyword, tally) in &by_keyword {
        table_row(&mut report, keyword, tally);
        total.in_scope += tally.in_scope;
        total.agreed += tally.agreed;
        for (reason, n) in &tally.out {
            *total.out.entry(reason.clone()).or_default() += n;
        }
    }
    table_row(&mut report, "total", &total);
    let _ = writeln!(
        report,
        "\nOut of scope: keywords the loader rejects as unsupported"
    );
    for (keyword, n) in &unsupported {
        let _ = writeln!(report, "  {keyword:<24} {n:>5}");
    }
    let _ = writeln!(report, "\nOut of scope: not run ({})", excluded.len());
    for line in &excluded {
        let _ = writeln!(report, "  {line}");
    }
    println!("{report}");

    assert!(
        total.in_scope > 0 && total.agreed == total.in_scope,
        "{} of {} in-scope cases disagree with the suite:\n{}",
        disagreements.len(),
        total.in_scope,
        disagreements.join("\n")
    );
}

#[test]
fn bfcl_accepted_arguments() {
    let rows = corpus("bfcl.jsonl");
    let mut valid = 0;
    let mut failures: Vec<String> = Vec::new();
    let mut peer: BTreeMap<String, (usize, usize)> = BTreeMap::new();

    for row in &rows {
        let id = text(row, "id");
        let value = instance(row);
        let schema = Schema::from_json(row["schema"].clone());
        match text(row, "kind") {
            "schema-valid" => {
                let verdict = schema.and_then(|schema| {
                    assert_eq!(
                        schema.is_valid(&value),
                        schema.validate(&value).is_ok(),
                        "{id}: is_valid and validate disagree"
                    );
                    schema.validate(&value)
                });
                match verdict {
                    Ok(()) => valid += 1,
                    Err(e) => failures.push(format!(
                        "{id} {}: {}",
                        text(row, "input"),
                        e.to_string().replace('\n', "; ")
                    )),
                }
            }
            // The benchmark accepts these by its own lenient typing (`null` for an
            // optional string, a string for an integer); the schema rejects them, and so
            // must toolschema, as the corpus's reference check did.
            "peer-specific" => {
                let reasons = row["tags"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .filter(|t| t.starts_with("peer:"));
                let rejected = schema.is_ok_and(|schema| !schema.is_valid(&value));
                let expected_rejection = text(row, "schema_check").starts_with("fails");
                if rejected != expected_rejection {
                    failures.push(format!(
                        "{id} (peer-specific, schema_check {}): rejected {rejected}",
                        row["schema_check"]
                    ));
                }
                for reason in reasons {
                    let entry = peer.entry(reason.to_owned()).or_default();
                    entry.0 += 1;
                    entry.1 += usize::from(rejected);
                }
            }
            other => panic!("{id}: unexpected kind {other:?}"),
        }
    }

    let schema_valid = rows.iter().filter(|r| r["kind"] == "schema-valid").count();
    println!("BFCL: {} rows", rows.len());
    println!("  schema-valid   {schema_valid:>5}, validated {valid:>5}");
    for (reason, (n, rejected)) in &peer {
        println!("  peer-specific  {n:>5}, rejected {rejected:>6}  ({reason})");
    }
    assert!(
        failures.is_empty() && valid == schema_valid && schema_valid > 0,
        "{} BFCL rows disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
