//! The run-time validator (`Schema::from_json` + `validate`/`is_valid`) against the
//! third-party vectors in `corpora/`: the JSON-Schema-Test-Suite (draft 2020-12 and
//! draft 7) and the argument objects BFCL accepts for its tools.
//!
//! A case is out of scope only for a reason the test names and prints: the loader
//! rejected a keyword it does not support (an error naming it, never a silent pass), the
//! case needs the suite's remote schemas, or it is an optional test that assumes `format`
//! or, in draft 7, `contentEncoding`/`contentMediaType` are asserted (toolschema reads
//! them as annotations, as draft 2020-12 does). Everything else must agree with the
//! suite, case by case. The keywords the loader refuses, and the number of cases left in
//! scope, are pinned (`REFUSED`, `IN_SCOPE`): refusing more is a failure, not a smaller
//! table.
//!
//! Run with `-- --nocapture` to see the tables.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::Value;
use toolschema::{Error, Schema, Violation, ViolationKind};

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

/// The keywords the loader refuses in the suite, and in how many cases each is named.
/// Supporting a keyword, or refusing one more, changes this list and [`IN_SCOPE`]: a
/// case the loader refuses is not checked, so each refusal must be a decision recorded
/// here, never a silent loss of coverage. Update both from the tables `--nocapture`
/// prints.
const REFUSED: &[(&str, usize)] = &[
    ("$dynamicAnchor", 3),
    ("$dynamicRef", 6),
    ("$id", 12),
    ("$ref", 86),
    ("contains", 89),
    ("dependencies", 36),
    ("dependentSchemas", 28),
    ("else", 66),
    ("if", 95),
    ("maxContains", 25),
    ("minContains", 37),
    ("then", 77),
    ("unevaluatedItems", 69),
    ("unevaluatedProperties", 130),
];

/// The suite cases checked, case by case, against the loader and the validator.
const IN_SCOPE: usize = 1886;

/// The keywords a load error names as unsupported, when every violation is of that form
/// (`the keyword "if" is not supported by toolschema…`).
fn unsupported_keywords(err: &Error) -> Option<BTreeSet<String>> {
    let mut named = BTreeSet::new();
    for violation in err.violations() {
        let ViolationKind::Invalid { message } = violation.kind() else {
            return None;
        };
        let rest = message.strip_prefix("the keyword \"")?;
        let (keyword, rest) = rest.split_once('"')?;
        if !rest.starts_with(" is not supported by toolschema") {
            return None;
        }
        named.insert(keyword.to_owned());
    }
    (!named.is_empty()).then_some(named)
}

/// Why a suite case is not checked.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum OutOfScope {
    NeedsRemotes,
    FormatAssertion,
    ContentAssertion,
    /// The loader refused the schema, naming these keywords.
    Unsupported(BTreeSet<String>),
}

impl std::fmt::Display for OutOfScope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutOfScope::NeedsRemotes => f.write_str("needs remote schemas"),
            OutOfScope::FormatAssertion => f.write_str("optional format assertion"),
            OutOfScope::ContentAssertion => f.write_str("optional content assertion"),
            OutOfScope::Unsupported(keywords) => {
                let names: Vec<String> = keywords.iter().map(|k| format!("`{k}`")).collect();
                write!(f, "unsupported {}", names.join(" + "))
            }
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

/// One pass of the suite through a loader.
struct SuiteRun {
    /// The tables, for `--nocapture`.
    report: String,
    total: Tally,
    /// Each keyword the loader refused, and in how many cases.
    refused: BTreeMap<String, usize>,
    disagreements: Vec<String>,
}

impl SuiteRun {
    /// How the scope differs from the pinned one, one line per difference.
    fn scope_changes(&self) -> Vec<String> {
        let pinned: BTreeMap<String, usize> = REFUSED
            .iter()
            .map(|&(keyword, n)| (keyword.to_owned(), n))
            .collect();
        let keywords: BTreeSet<&String> = pinned.keys().chain(self.refused.keys()).collect();
        let mut changes: Vec<String> = keywords
            .into_iter()
            .filter_map(|keyword| {
                let was = pinned.get(keyword).copied().unwrap_or(0);
                let now = self.refused.get(keyword).copied().unwrap_or(0);
                (was != now).then(|| format!("`{keyword}` refused in {now} cases, pinned at {was}"))
            })
            .collect();
        if self.total.in_scope != IN_SCOPE {
            changes.push(format!(
                "{} cases in scope, pinned at {IN_SCOPE}",
                self.total.in_scope
            ));
        }
        changes
    }
}

/// Runs every suite case whose schema `load` accepts; a refusal naming unsupported
/// keywords puts the case out of scope, any other load error is a disagreement.
fn run_suite(rows: &[Value], load: impl Fn(Value) -> Result<Schema, Error>) -> SuiteRun {
    let mut by_keyword: BTreeMap<String, Tally> = BTreeMap::new();
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    let mut excluded: Vec<String> = Vec::new();
    let mut disagreements: Vec<String> = Vec::new();

    for row in rows {
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
        let schema = match load(schema) {
            Ok(schema) => schema,
            Err(err) => match unsupported_keywords(&err) {
                Some(names) => {
                    for name in &names {
                        *refused.entry(name.clone()).or_default() += 1;
                    }
                    *tally.out.entry(OutOfScope::Unsupported(names)).or_default() += 1;
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
        "\nOut of scope: keywords the loader rejects as unsupported (cases naming each)"
    );
    for (keyword, n) in &refused {
        let _ = writeln!(report, "  {keyword:<24} {n:>5}");
    }
    let _ = writeln!(report, "\nOut of scope: not run ({})", excluded.len());
    for line in &excluded {
        let _ = writeln!(report, "  {line}");
    }

    SuiteRun {
        report,
        total,
        refused,
        disagreements,
    }
}

#[test]
fn json_schema_test_suite() {
    let run = run_suite(&corpus("jsts.jsonl"), Schema::from_json);
    println!("{}", run.report);

    let total = &run.total;
    assert!(
        total.in_scope > 0 && total.agreed == total.in_scope,
        "{} of {} in-scope cases disagree with the suite:\n{}",
        run.disagreements.len(),
        total.in_scope,
        run.disagreements.join("\n")
    );
    let changes = run.scope_changes();
    assert!(
        changes.is_empty(),
        "the cases the loader refuses changed; if on purpose, update REFUSED and \
         IN_SCOPE:\n  {}",
        changes.join("\n  ")
    );
}

/// A schema's first object (depth first) holding `keyword`, as an RFC 6901 pointer.
fn find_keyword(schema: &Value, keyword: &str, at: &str) -> Option<String> {
    match schema {
        Value::Object(map) if map.contains_key(keyword) => Some(at.to_owned()),
        Value::Object(map) => map.iter().find_map(|(key, value)| {
            let key = key.replace('~', "~0").replace('/', "~1");
            find_keyword(value, keyword, &format!("{at}/{key}"))
        }),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, value)| find_keyword(value, keyword, &format!("{at}/{i}"))),
        _ => None,
    }
}

/// The pins have teeth: a loader that refused one keyword more than `Schema::from_json`
/// (as a regression would) keeps every remaining case agreeing, so only the pinned
/// scope notices.
#[test]
fn refusing_one_more_keyword_changes_the_pinned_scope() {
    const EXTRA: &str = "propertyNames";
    let stricter = |schema: Value| {
        let Some(at) = find_keyword(&schema, EXTRA, "") else {
            return Schema::from_json(schema);
        };
        let refusal = Violation::new(
            format!("{at}/{EXTRA}"),
            ViolationKind::Invalid {
                message: format!("the keyword \"{EXTRA}\" is not supported by toolschema"),
            },
        );
        let mut violations = match Schema::from_json(schema) {
            Ok(_) => Vec::new(),
            Err(err) => err.into_violations(),
        };
        violations.push(refusal);
        Err(Error::new(violations))
    };

    let run = run_suite(&corpus("jsts.jsonl"), stricter);
    assert!(
        run.total.in_scope > 0 && run.total.agreed == run.total.in_scope,
        "the remaining cases still agree"
    );
    let extra = run.refused.get(EXTRA).copied().unwrap_or(0);
    assert!(extra > 0, "the suite has `{EXTRA}` cases");
    assert!(run.total.in_scope < IN_SCOPE);
    assert_eq!(
        run.scope_changes(),
        [
            format!("`{EXTRA}` refused in {extra} cases, pinned at 0"),
            format!(
                "{} cases in scope, pinned at {IN_SCOPE}",
                run.total.in_scope
            ),
        ],
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
