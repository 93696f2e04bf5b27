//! Conformance of the lenient parse against third-party repair vectors (`corpora/`, see
//! its README): `jsonrepair.jsonl` (josdejong/jsonrepair) and `partial_json.jsonl`
//! (promplate/partial-json-parser). Every case goes through
//! `toolschema::parse::<serde_json::Value>`, so extraction and repair both take part, and
//! the result is compared with the expected value numerically (`2 == 2.0`).
//!
//! Where toolschema's documented policy (the module docs of `toolschema::repair` and of the
//! extraction) decides a case differently, the case is in [`POLICY`] with exactly what
//! toolschema gives and why, and the test checks that it still gives that. `peer-specific`
//! cases follow a convention of the other project, named by a `peer:*` tag; [`PEER`] says
//! what toolschema does instead. Nothing is skipped: run with `--nocapture` for the table
//! and every case that disagrees with its source.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

/// What toolschema gives for a case that its policy decides differently.
enum Gives {
    /// This value (JSON text).
    Value(&'static str),
    /// An error.
    Error,
}

const MEMBER_CUT_OFF: &str =
    "a member cut off before its value could be read whole is dropped, not filled with null";
const NUMBER_CUT_OFF: &str = "a number with a dangling `.`, `e` or sign at the very end is cut \
                              off: its member or item is dropped, not completed";
const LONE_WORD: &str = "a lone word at the top level is read as text, not completed into a \
                         literal: a reply `t` is as likely a word as a cut-off `true`";
const NOT_AN_ARRAY: &str = "values on separate lines are not joined into an array: each value in \
                            a reply is a candidate of its own, and bare numbers are not candidates";
const PROSE_AFTER: &str = "extraction takes the JSON out of the text around it by design: what \
                           follows a complete value is prose, or another candidate";
const PROSE_BEFORE: &str = "extraction takes the JSON out of the text around it by design: the \
                            text before the bracket is prose (and a bracket cut off is closed)";
const CONTROL: &str = "a raw control character in a string is kept, escaped (ControlCharacter): \
                       nothing is lost, where jsonrepair refuses NUL and U+001F";
const ALLOW_FLAGS: &str = "partial-json was called with allow flags that forbid a partial value \
                           of this type; toolschema has no such flags and closes what was cut off, \
                           as partial-json does by default (ALL)";
const ALLOW_FLAGS_WORD: &str = "partial-json was called with allow flags that forbid this partial \
                                literal; toolschema reads a lone word at the top level as text";
const BARE_WORD: &str = "a lone word at the top level is read as text (UnquotedString), as \
                         jsonrepair does; partial-json refuses it";
const KEY_CUT_OFF: &str = "an unquoted key is accepted (UnquotedKey), so `{0` is an object cut \
                           off inside its first key, and the member is dropped";

/// The cases toolschema's policy decides differently from their source: id, input (checked
/// against the corpus), what toolschema gives, and why.
#[rustfmt::skip]
const POLICY: &[(&str, &str, Gives, &str)] = &[
    // syntax
    ("jsonrepair-0387", "1\n2", Gives::Error, NOT_AN_ARRAY),
    // truncation
    (
        "jsonrepair-0168",
        r#""\a""#,
        Gives::Value(r#""\\a""#),
        "a backslash before a character that starts no JSON escape is kept (LiteralBackslash): paths like C:\\apps keep theirs",
    ),
    ("jsonrepair-0100", r#"{"foo":"#, Gives::Value("{}"), MEMBER_CUT_OFF),
    ("jsonrepair-0101", r#"{"foo""#, Gives::Value("{}"), MEMBER_CUT_OFF),
    ("jsonrepair-0102", r#"{"foo"#, Gives::Value("{}"), MEMBER_CUT_OFF),
    ("jsonrepair-0115", r#"{"s \ud"#, Gives::Value("{}"), MEMBER_CUT_OFF),
    ("jsonrepair-0367", r#"{"a":2."#, Gives::Value("{}"), NUMBER_CUT_OFF),
    ("jsonrepair-0368", r#"{"a":2e"#, Gives::Value("{}"), NUMBER_CUT_OFF),
    ("jsonrepair-0369", r#"{"a":2e-"#, Gives::Value("{}"), NUMBER_CUT_OFF),
    ("jsonrepair-0370", r#"{"a":-"#, Gives::Value("{}"), NUMBER_CUT_OFF),
    // The trailing space is trimmed with the text around the JSON: `2e` ends the reply.
    ("jsonrepair-0372", "[2e ", Gives::Value("[]"), NUMBER_CUT_OFF),
    ("partial_json-039", "[0.", Gives::Value("[]"), NUMBER_CUT_OFF),
    ("partial_json-041", "t", Gives::Value(r#""t""#), LONE_WORD),
    // error: the source expects a failure
    ("jsonrepair-0239", "callback {}", Gives::Value("{}"), PROSE_BEFORE),
    ("jsonrepair-0406", r#"{"a":2}{}"#, Gives::Value(r#"{"a":2}"#), PROSE_AFTER),
    ("jsonrepair-0408", r#"{"a":2}foo"#, Gives::Value(r#"{"a":2}"#), PROSE_AFTER),
    ("jsonrepair-0409", "foo [", Gives::Value("[]"), PROSE_BEFORE),
    ("jsonrepair-0413", "\"abc\u{0}\"", Gives::Value(r#""abc\u0000""#), CONTROL),
    ("jsonrepair-0414", "\"abc\u{1f}\"", Gives::Value(r#""abc\u001f""#), CONTROL),
    ("partial_json-001", "\"", Gives::Value(r#""""#), ALLOW_FLAGS),
    ("partial_json-007", "[", Gives::Value("[]"), ALLOW_FLAGS),
    ("partial_json-008", "[\"", Gives::Value(r#"[""]"#), ALLOW_FLAGS),
    ("partial_json-009", "[\"\"", Gives::Value(r#"[""]"#), ALLOW_FLAGS),
    ("partial_json-010", "[\"\",", Gives::Value(r#"[""]"#), ALLOW_FLAGS),
    ("partial_json-013", "{", Gives::Value("{}"), ALLOW_FLAGS),
    ("partial_json-014", "{\"", Gives::Value("{}"), ALLOW_FLAGS),
    ("partial_json-015", "{\"\"", Gives::Value("{}"), ALLOW_FLAGS),
    ("partial_json-016", "{\"\":", Gives::Value("{}"), ALLOW_FLAGS),
    ("partial_json-017", "{\"\":\"", Gives::Value(r#"{"":""}"#), ALLOW_FLAGS),
    ("partial_json-018", "{\"\":\"\"", Gives::Value(r#"{"":""}"#), ALLOW_FLAGS),
    ("partial_json-020", "n", Gives::Value(r#""n""#), ALLOW_FLAGS_WORD),
    ("partial_json-022", "t", Gives::Value(r#""t""#), ALLOW_FLAGS_WORD),
    ("partial_json-024", "f", Gives::Value(r#""f""#), ALLOW_FLAGS_WORD),
    ("partial_json-026", "I", Gives::Value(r#""I""#), ALLOW_FLAGS_WORD),
    ("partial_json-028", "-I", Gives::Value(r#""-I""#), ALLOW_FLAGS_WORD),
    ("partial_json-030", "N", Gives::Value(r#""N""#), ALLOW_FLAGS_WORD),
    ("partial_json-035", "a", Gives::Value(r#""a""#), BARE_WORD),
    ("partial_json-036", "{0", Gives::Value("{}"), KEY_CUT_OFF),
    ("partial_json-037", "--", Gives::Value(r#""--""#), BARE_WORD),
];

/// What toolschema does where the other project follows a convention of its own, by the
/// `peer:*` tag of the `peer-specific` cases.
const PEER: &[(&str, &str)] = &[
    (
        "peer:allow-flags",
        "no allow flags: what was cut off is closed, values that cannot be read whole are \
         dropped, and a lone word is text",
    ),
    (
        "peer:non-finite-number",
        "Infinity and NaN are not JSON; a prefix of them is a word",
    ),
    (
        "peer:missing-value-to-null",
        "a missing value is not invented: `{\"a\":}` is an error, and a member cut off at the \
         end is dropped",
    ),
    (
        "peer:undefined-to-null",
        "`undefined` is JavaScript, not JSON or Python: it stays the word \"undefined\"",
    ),
    (
        "peer:jsonp",
        "JSONP is not model output: a call around an object or array is prose, other calls \
         are text or an error",
    ),
    (
        "peer:escaped-json-unwrap",
        "quotes escaped around a whole string are undone, but doubly escaped content is kept \
         as written",
    ),
    (
        "peer:mongodb-types",
        "MongoDB shell types are not model output; they are not stripped",
    ),
    (
        "peer:number-normalisation",
        "a lone `-` is a number cut off before its digits: nothing to read",
    ),
    (
        "peer:invalid-number-to-string",
        "a lone `.` is a word, not the number 0",
    ),
    (
        "peer:regex-literal",
        "JavaScript regular expression literals are not read as strings",
    ),
    (
        "peer:js-string-concatenation",
        "a `+` with no string after it is not dropped: the reply may have been cut off there",
    ),
    (
        "peer:ndjson-to-array",
        "several values are not joined into an array: each is a candidate, and the first that \
         fits the schema is taken",
    ),
    (
        "peer:bare-list-to-array",
        "a bare comma- or newline-separated list is not made an array",
    ),
    (
        "peer:bare-symbol-to-string",
        "bare words are read as strings, as here",
    ),
    ("peer:fence-inside-brackets", "fences are stripped, as here"),
    (
        "peer:leading-zero-number-to-string",
        "a number with leading zeros is kept as a string, as here",
    ),
];

/// The pass counts reached, by kind: the test fails below them. For the kinds the repair
/// targets, these are every case inside the policy.
const FLOORS: &[(&str, usize)] = &[
    ("syntax", 181),
    ("truncation", 51),
    ("valid", 59),
    ("wrapper", 8),
    ("error", 8),
    ("peer-specific", 74),
];

/// The kinds whose in-policy pass rate must reach 95%.
const TARGET_KINDS: &[&str] = &["syntax", "wrapper", "truncation", "valid"];

struct Case {
    id: String,
    kind: String,
    input: String,
    expected: Value,
    expect_error: bool,
    tags: Vec<String>,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for file in ["jsonrepair.jsonl", "partial_json.jsonl"] {
        let path = format!("{}/corpora/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let row: Value = serde_json::from_str(line).expect("a corpus line is JSON");
            let field = |name: &str| -> &str {
                row[name]
                    .as_str()
                    .unwrap_or_else(|| panic!("{name} in {line}"))
            };
            out.push(Case {
                id: field("id").to_owned(),
                kind: field("kind").to_owned(),
                input: field("input").to_owned(),
                expected: row["expected"].clone(),
                expect_error: row["expect_error"] == true,
                tags: row["tags"]
                    .as_array()
                    .map(|tags| {
                        tags.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_owned)
                            .collect()
                    })
                    .unwrap_or_default(),
            });
        }
    }
    out
}

/// JSON equality with numbers compared by value: `2 == 2.0`.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn agrees(case: &Case, got: &Result<Value, toolschema::Error>) -> bool {
    match got {
        Ok(value) => !case.expect_error && same(value, &case.expected),
        Err(_) => case.expect_error,
    }
}

fn show(got: &Result<Value, toolschema::Error>) -> String {
    match got {
        Ok(value) => value.to_string(),
        Err(e) => format!("error: {}", e.to_string().replace('\n', "; ")),
    }
}

fn expected(case: &Case) -> String {
    if case.expect_error {
        "an error".to_owned()
    } else {
        case.expected.to_string()
    }
}

#[derive(Default)]
struct Tally {
    cases: usize,
    /// Cases the policy decides differently ([`POLICY`]).
    policy: usize,
    /// `peer-specific` cases.
    peer: usize,
    pass: usize,
}

impl Tally {
    fn in_policy(&self) -> usize {
        self.cases - self.policy - self.peer
    }
}

#[test]
fn conformance_with_jsonrepair_and_partial_json() {
    let cases = cases();
    let by_id: BTreeMap<&str, &Case> = cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let mut problems = Vec::new();

    // The policy table must describe the cases as they are, and what toolschema does now.
    let mut policy: BTreeMap<&str, &str> = BTreeMap::new();
    for (id, input, gives, reason) in POLICY {
        let Some(case) = by_id.get(id) else {
            problems.push(format!("{id}: in POLICY but not in the corpora"));
            continue;
        };
        if case.input != *input {
            problems.push(format!("{id}: the corpus input is {:?}", case.input));
        }
        if case.kind == "peer-specific" {
            problems.push(format!("{id}: peer-specific cases are explained by PEER"));
        }
        let got = toolschema::parse::<Value>(&case.input);
        let as_listed = match (gives, &got) {
            (Gives::Value(text), Ok(value)) => {
                let listed: Value = serde_json::from_str(text).expect("POLICY values are JSON");
                same(&listed, value)
            }
            (Gives::Error, Err(_)) => true,
            _ => false,
        };
        if !as_listed {
            problems.push(format!(
                "{id}: POLICY says toolschema gives something else than {}",
                show(&got)
            ));
        }
        if agrees(case, &got) {
            problems.push(format!(
                "{id}: now agrees with its source; take it out of POLICY"
            ));
        }
        if policy.insert(id, reason).is_some() {
            problems.push(format!("{id}: twice in POLICY"));
        }
    }

    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut differences = String::new();
    let mut peer_report = String::new();
    let mut out_of_policy_failures = String::new();
    for case in &cases {
        let got = toolschema::parse::<Value>(&case.input);
        let pass = agrees(case, &got);
        let tally = tallies.entry(&case.kind).or_default();
        tally.cases += 1;
        tally.pass += usize::from(pass);
        let line = format!(
            "  {} {:?}\n      expected {}, toolschema gives {}\n",
            case.id,
            case.input,
            expected(case),
            show(&got)
        );
        if let Some(reason) = policy.get(case.id.as_str()) {
            tally.policy += 1;
            let _ = writeln!(differences, "{line}      why: {reason}");
        } else if case.kind == "peer-specific" {
            tally.peer += 1;
            if !pass {
                let stances: Vec<String> = case
                    .tags
                    .iter()
                    .filter_map(|tag| {
                        let stance = PEER.iter().find(|(t, _)| t == tag)?.1;
                        Some(format!("{tag}: {stance}"))
                    })
                    .collect();
                if stances.is_empty() {
                    problems.push(format!("{}: no PEER entry for its tags", case.id));
                }
                let _ = writeln!(peer_report, "{line}      why: {}", stances.join("; "));
            }
        } else if !pass {
            out_of_policy_failures.push_str(&line);
        }
    }

    println!(
        "{:<14} {:>5} {:>5} {:>9} {:>11} {:>13} {:>10} {:>7}",
        "kind", "cases", "pass", "in policy", "policy diff", "peer-specific", "in-policy%", "all%"
    );
    for (kind, t) in &tallies {
        let in_policy_rate = match t.in_policy() {
            0 => "-".to_owned(),
            n => format!("{:.1}", percent(t.pass, n)),
        };
        println!(
            "{kind:<14} {:>5} {:>5} {:>9} {:>11} {:>13} {in_policy_rate:>10} {:>7.1}",
            t.cases,
            t.pass,
            t.in_policy(),
            t.policy,
            t.peer,
            percent(t.pass, t.cases)
        );
    }
    println!(
        "\n(pass: toolschema gives the expected value or error; a peer-specific case passes \
         where toolschema happens to agree with the peer's convention)"
    );
    println!("\npolicy differences:\n{differences}");
    println!("peer-specific cases where toolschema disagrees:\n{peer_report}");
    if !out_of_policy_failures.is_empty() {
        println!("failures inside the policy:\n{out_of_policy_failures}");
    }

    for (kind, floor) in FLOORS {
        let pass = tallies.get(kind).map_or(0, |t| t.pass);
        if pass < *floor {
            problems.push(format!("{kind}: {pass} pass, below the floor of {floor}"));
        }
    }
    for kind in TARGET_KINDS {
        let t = &tallies[kind];
        let rate = percent(t.pass, t.in_policy());
        if rate < 95.0 {
            problems.push(format!("{kind}: {rate:.1}% of the in-policy cases pass"));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

fn percent(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}
