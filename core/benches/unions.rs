//! How the time to check and parse an untagged union grows with nesting.
//!
//! Two alternatives that both recurse into the same key, with nothing to tell them apart
//! up front, are each tried at every level: unless what was learned about one value is
//! remembered, the work doubles per level. Both shapes toolschema checks are measured:
//!
//! - a run-time schema (`Schema::from_json`): `anyOf` of two closed objects that each
//!   require `next` (a `$ref` back to the union) and their own flag, and a leaf object;
//! - a derived `#[serde(untagged)]` enum of the same shape.
//!
//! Each at nesting depth 10, 20 and 30, with a valid document (every level is the second
//! alternative, so the first is tried and fails only after checking all of `next`) and an
//! invalid one (the leaf at the bottom breaks its minimum, so no alternative fits anywhere:
//! the worst case), through `Schema::validate`, `Schema::is_valid` and the lenient parse
//! (`Parser::parse_value`, `toolschema::parse`), which coerces before it validates.
//!
//! ```sh
//! cargo bench -p toolschema --bench unions
//! TOOLSCHEMA_BENCH_DEPTHS=10,15,20 cargo bench -p toolschema --bench unions
//! ```
//!
//! The last lines print the medians and how much each ten levels cost.

mod support;

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group};
use serde_json::{Value, json};
use toolschema::{Parser, Schema, ToolSchema};

#[derive(ToolSchema)]
#[serde(untagged)]
#[allow(dead_code)] // Only built by the parse.
enum Chain {
    Left { next: Box<Chain>, left: bool },
    Right { next: Box<Chain>, right: bool },
    Leaf { value: u32 },
}

/// The run-time twin of `Chain`.
fn runtime_schema() -> Schema {
    let step = |flag: &str| {
        json!({
            "type": "object",
            "properties": { "next": { "$ref": "#/$defs/chain" }, flag: { "type": "boolean" } },
            "required": ["next", flag],
            "additionalProperties": false
        })
    };
    let leaf = json!({
        "type": "object",
        "properties": { "value": { "type": "integer", "minimum": 0 } },
        "required": ["value"],
        "additionalProperties": false
    });
    Schema::from_json(json!({
        "$defs": { "chain": { "anyOf": [step("left"), step("right"), leaf] } },
        "$ref": "#/$defs/chain"
    }))
    .expect("the schema loads")
}

/// `depth` levels of `{"next": …, "right": true}` around a leaf; `next` comes first, so the
/// `Left` alternative recurses before it meets `right`.
fn document(depth: usize, valid: bool) -> Value {
    let mut value = json!({ "value": if valid { 1 } else { -1 } });
    for _ in 0..depth {
        value = json!({ "next": value, "right": true });
    }
    value
}

fn depths() -> Vec<usize> {
    match std::env::var("TOOLSCHEMA_BENCH_DEPTHS") {
        Ok(list) => list
            .split(',')
            .map(|d| d.trim().parse().expect("a depth"))
            .collect(),
        Err(_) => vec![10, 20, 30],
    }
}

/// The two schemas of the same shape.
struct Schemas {
    runtime: Schema,
    derived: Arc<Schema>,
}

/// One measured route: a name and what it runs on a document given as value and text.
type Route = (&'static str, fn(&Schemas, &Value, &str));

const ROUTES: [Route; 6] = [
    ("runtime/validate", |s, value, _| {
        black_box(s.runtime.validate(black_box(value)).is_ok());
    }),
    ("runtime/is_valid", |s, value, _| {
        black_box(s.runtime.is_valid(black_box(value)));
    }),
    ("runtime/parse_value", |s, _, text| {
        black_box(
            Parser::new()
                .parse_value(&s.runtime, black_box(text))
                .is_ok(),
        );
    }),
    ("derived/validate", |s, value, _| {
        black_box(s.derived.validate(black_box(value)).is_ok());
    }),
    ("derived/is_valid", |s, value, _| {
        black_box(s.derived.is_valid(black_box(value)));
    }),
    ("derived/parse", |_, _, text| {
        black_box(toolschema::parse::<Chain>(black_box(text)).is_ok());
    }),
];

/// Every route gives the verdict the document was built for.
fn check_verdicts(schemas: &Schemas, depth: usize) {
    for valid in [true, false] {
        let value = document(depth, valid);
        let text = value.to_string();
        for s in [&schemas.runtime, &*schemas.derived] {
            assert_eq!(s.is_valid(&value), valid);
            assert_eq!(s.validate(&value).is_ok(), valid);
        }
        assert_eq!(
            Parser::new().parse_value(&schemas.runtime, &text).is_ok(),
            valid
        );
        assert_eq!(toolschema::parse::<Chain>(&text).is_ok(), valid);
    }
}

fn schemas() -> Schemas {
    Schemas {
        runtime: runtime_schema(),
        derived: Schema::of::<Chain>(),
    }
}

fn benches(c: &mut Criterion) {
    let schemas = schemas();
    for (name, route) in ROUTES {
        let mut group = c.benchmark_group(format!("unions/{name}"));
        group.sample_size(10);
        for depth in depths() {
            for (label, valid) in [("valid", true), ("invalid", false)] {
                let value = document(depth, valid);
                let text = value.to_string();
                let id = BenchmarkId::new(label, depth);
                group.bench_function(id, |b| b.iter(|| route(&schemas, &value, &text)));
            }
        }
        group.finish();
    }
}

/// The medians per route and depth, and the growth per ten levels.
fn summary() {
    let schemas = schemas();
    let depths = depths();
    println!("\nmedians (11 batches of about 100 ms, same process):");
    for (name, route) in ROUTES {
        for (label, valid) in [("valid", true), ("invalid", false)] {
            let times: Vec<(usize, Duration)> = depths
                .iter()
                .map(|&depth| {
                    let value = document(depth, valid);
                    let text = value.to_string();
                    let time = support::median(Duration::from_millis(100), 11, || {
                        route(&schemas, &value, &text)
                    });
                    (depth, time)
                })
                .collect();
            let cells: Vec<String> = times.iter().map(|(d, t)| format!("{d}: {t:?}")).collect();
            let growth = match (times.first(), times.last()) {
                (Some((d0, t0)), Some((d1, t1))) if d1 > d0 => {
                    let ratio = t1.as_secs_f64() / t0.as_secs_f64();
                    format!(
                        "; x{:.2} per 10 levels",
                        ratio.powf(10.0 / (d1 - d0) as f64)
                    )
                }
                _ => String::new(),
            };
            println!("  {name:<20} {label:<7} {}{growth}", cells.join(", "));
        }
    }
}

criterion_group!(criterion_benches, benches);

fn main() {
    let schemas = schemas();
    for depth in depths() {
        check_verdicts(&schemas, depth);
    }
    criterion_benches();
    Criterion::default().configure_from_args().final_summary();
    summary();
}
