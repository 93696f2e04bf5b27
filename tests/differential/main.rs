//! The toolschema side of `scripts/differential-json-repair`: reads cases (JSON lines,
//! `{"id", "input", "schema"?}`) from the file named by `TOOLSCHEMA_DIFFERENTIAL_IN` and
//! writes, for each, what the lenient parse gives (`{"id", "value"}` or `{"id", "error"}`,
//! with `"fixes"`) to the file named by `TOOLSCHEMA_DIFFERENTIAL_OUT`.
//!
//! Each input is parsed twice: with the permissive schema `{}` (`any`: extraction and
//! repair, as `json_repair` sees the text) and, when the case has one, with its schema
//! (`typed`: as a tool call is read). Without the variables it reads the built-in cases
//! below and checks them, so that `cargo test` still runs something that can fail.

use std::fmt::Write as _;

use serde_json::{Value, json};
use toolschema::{Parser, Schema};

fn parse(schema: &Schema, input: &str) -> Value {
    match Parser::new().parse_value(schema, input) {
        Ok(parsed) => json!({
            "value": parsed.value,
            "fixes": parsed.fixes.iter().map(|f| f.kind().to_string()).collect::<Vec<_>>(),
        }),
        Err(e) => json!({
            "error": e.to_string(),
            "fixes": e.fixes().iter().map(|f| f.kind().to_string()).collect::<Vec<_>>(),
        }),
    }
}

fn run(cases: &str) -> Result<String, String> {
    let any = Schema::from_json(json!({})).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for (n, line) in cases.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let case: Value = serde_json::from_str(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let input = case["input"]
            .as_str()
            .ok_or_else(|| format!("line {}: no input", n + 1))?;
        let typed = match case.get("schema") {
            Some(schema) => {
                let schema = Schema::from_json(schema.clone())
                    .map_err(|e| format!("line {}: schema: {e}", n + 1))?;
                parse(&schema, input)
            }
            None => Value::Null,
        };
        let row = json!({ "id": case["id"], "any": parse(&any, input), "typed": typed });
        let _ = writeln!(out, "{row}");
    }
    Ok(out)
}

fn main() {
    let (Ok(input), Ok(output)) = (
        std::env::var("TOOLSCHEMA_DIFFERENTIAL_IN"),
        std::env::var("TOOLSCHEMA_DIFFERENTIAL_OUT"),
    ) else {
        self_check();
        return;
    };
    let result = std::fs::read_to_string(&input)
        .map_err(|e| format!("{input}: {e}"))
        .and_then(|cases| run(&cases))
        .and_then(|rows| std::fs::write(&output, rows).map_err(|e| format!("{output}: {e}")));
    if let Err(e) = result {
        eprintln!("differential: {e}");
        std::process::exit(1);
    }
}

/// The driver's own check: a case in, its row out, as the script reads it.
fn self_check() {
    let cases = concat!(
        r#"{"id": "a", "input": "{'n': 1,}"}"#,
        "\n",
        r#"{"id": "b", "input": "{\"n\": \"2\"}", "schema": {"type": "object", "properties": {"n": {"type": "integer"}}}}"#,
    );
    let rows: Vec<Value> = run(cases)
        .expect("the built-in cases run")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a row is JSON"))
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["any"]["value"], json!({"n": 1}));
    assert_eq!(rows[0]["typed"], Value::Null);
    assert_eq!(rows[1]["any"]["value"], json!({"n": "2"}));
    assert_eq!(rows[1]["typed"]["value"], json!({"n": 2}));
    println!(
        "differential driver: self-check passed (set TOOLSCHEMA_DIFFERENTIAL_IN/_OUT to run cases)"
    );
}
