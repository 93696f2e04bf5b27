//! Validating a parsed document against a schema loaded at run time, against the
//! `jsonschema` crate on the same schema and document.
//!
//! The schema is the catalogue's derived JSON Schema, loaded back with
//! `Schema::from_json` as an MCP server's tool schema would be: what run-time tools are
//! checked with. Routes, each on the 2 KB and the 200 KB document:
//!
//! - valid document: `Schema::is_valid` and `Schema::validate` against
//!   `jsonschema::Validator::is_valid`, and `is_valid` on the same document with every
//!   object's keys in reverse order and shuffled (toolschema looks a key up first after
//!   the property the last key named, then before it; shuffled keys are its worst order);
//! - every violation listed: `Schema::validate` against
//!   `jsonschema::Validator::iter_errors(..).count()`, with one broken pattern and with
//!   every product broken in three places;
//! - every message written: `Error::to_string` (one line per violation, with the
//!   did-you-mean and the advice, which `validate` leaves to be worked out when read)
//!   against `to_string` of each of `iter_errors`.
//!
//! ```sh
//! cargo bench -p toolschema --bench validate
//! ```
//!
//! The last lines print the ratios measured in this run (jsonschema / toolschema: above
//! 1.00x, toolschema is faster).

#[path = "support/catalog.rs"]
mod catalog;
mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use serde_json::Value;
use toolschema::{Schema, ToolSchema};

use catalog::{Catalog, document};

const SIZES: [(&str, usize); 2] = [("2KB", 2 * 1024), ("200KB", 200 * 1024)];

/// The documents of one size: valid, valid with every object's keys in reverse order or
/// shuffled (not the order of the schema's properties), with one violation, with three
/// per product.
struct Documents {
    valid: Value,
    reversed: Value,
    shuffled: Value,
    one_wrong: Value,
    many_wrong: Value,
}

impl Documents {
    fn new(bytes: usize) -> Documents {
        let text = document(bytes);
        let parse = |text: &str| serde_json::from_str::<Value>(text).expect("JSON");
        let many = text
            .replace("\"sku\":\"ABC-", "\"sku\":\"abc-")
            .replace("\"currency\":\"EUR\"", "\"currency\":7")
            .replace("\"category\":\"", "\"category\":\"x");
        Documents {
            valid: parse(&text),
            reversed: reordered(parse(&text), &mut |members| members.reverse()),
            shuffled: {
                let mut rng = fastrand::Rng::with_seed(5);
                reordered(parse(&text), &mut |members| rng.shuffle(members))
            },
            one_wrong: parse(&text.replacen("\"sku\":\"ABC-", "\"sku\":\"abc-", 1)),
            many_wrong: parse(&many),
        }
    }
}

/// An object's members, as `order` puts them in another order.
type Members = Vec<(String, Value)>;

/// `value` with the keys of every object put in another order by `order`.
fn reordered(value: Value, order: &mut dyn FnMut(&mut Members)) -> Value {
    match value {
        Value::Object(map) => {
            let mut members: Members = map.into_iter().collect();
            order(&mut members);
            let members: Members = members
                .into_iter()
                .map(|(k, v)| (k, reordered(v, order)))
                .collect();
            Value::Object(members.into_iter().collect())
        }
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|item| reordered(item, order))
                .collect(),
        ),
        other => other,
    }
}

struct Validators {
    ours: Schema,
    theirs: jsonschema::Validator,
}

impl Validators {
    fn new() -> Validators {
        let json = Catalog::json_schema();
        Validators {
            ours: Schema::from_json(json.clone()).expect("the schema loads"),
            theirs: jsonschema::validator_for(&json).expect("the schema compiles"),
        }
    }

    /// Both validators agree on every document, and count the same violations.
    fn agree(&self, docs: &Documents) {
        assert!(self.ours.is_valid(&docs.valid) && self.theirs.is_valid(&docs.valid));
        for reordered in [&docs.reversed, &docs.shuffled] {
            assert_ne!(reordered.to_string(), docs.valid.to_string());
            assert!(self.ours.is_valid(reordered) && self.theirs.is_valid(reordered));
        }
        assert!(self.ours.validate(&docs.valid).is_ok());
        for doc in [&docs.one_wrong, &docs.many_wrong] {
            assert!(!self.ours.is_valid(doc) && !self.theirs.is_valid(doc));
            let ours = self
                .ours
                .validate(doc)
                .expect_err("invalid")
                .violations()
                .len();
            assert_eq!(ours, self.theirs.iter_errors(doc).count());
        }
    }
}

fn routes(c: &mut Criterion) {
    let validators = Validators::new();
    for (label, size) in SIZES {
        let docs = Documents::new(size);
        validators.agree(&docs);
        let mut group = c.benchmark_group(format!("validate/{label}"));
        group.throughput(Throughput::Elements(1));
        group.bench_function(BenchmarkId::new("toolschema is_valid", label), |b| {
            b.iter(|| validators.ours.is_valid(black_box(&docs.valid)))
        });
        group.bench_function(BenchmarkId::new("jsonschema is_valid", label), |b| {
            b.iter(|| validators.theirs.is_valid(black_box(&docs.valid)))
        });
        group.bench_function(BenchmarkId::new("toolschema validate", label), |b| {
            b.iter(|| {
                validators
                    .ours
                    .validate(black_box(&docs.many_wrong))
                    .is_err()
            })
        });
        group.bench_function(BenchmarkId::new("jsonschema iter_errors", label), |b| {
            b.iter(|| {
                validators
                    .theirs
                    .iter_errors(black_box(&docs.many_wrong))
                    .count()
            })
        });
        group.finish();
    }
}

/// One comparison: what is measured, and the two routes.
struct Pair<'a> {
    what: &'static str,
    ours: Box<dyn FnMut() + 'a>,
    theirs: Box<dyn FnMut() + 'a>,
}

fn pairs<'a>(v: &'a Validators, docs: &'a Documents) -> Vec<Pair<'a>> {
    let list = |doc: &'a Value| Pair {
        what: "",
        ours: Box::new(move || {
            black_box(v.ours.validate(black_box(doc)).is_err());
        }),
        theirs: Box::new(move || {
            black_box(v.theirs.iter_errors(black_box(doc)).count());
        }),
    };
    let valid = |what: &'static str, doc: &'a Value| Pair {
        what,
        ours: Box::new(move || {
            black_box(v.ours.is_valid(black_box(doc)));
        }),
        theirs: Box::new(move || {
            black_box(v.theirs.is_valid(black_box(doc)));
        }),
    };
    vec![
        valid("valid, is_valid vs is_valid", &docs.valid),
        valid("valid, keys reversed, is_valid", &docs.reversed),
        valid("valid, keys shuffled, is_valid", &docs.shuffled),
        Pair {
            what: "valid, validate vs is_valid",
            ours: Box::new(|| {
                black_box(v.ours.validate(black_box(&docs.valid)).is_ok());
            }),
            theirs: Box::new(|| {
                black_box(v.theirs.is_valid(black_box(&docs.valid)));
            }),
        },
        Pair {
            what: "one violation, validate vs iter_errors",
            ..list(&docs.one_wrong)
        },
        Pair {
            what: "3 per product, validate vs iter_errors",
            ..list(&docs.many_wrong)
        },
        Pair {
            what: "3 per product, every message written",
            ours: Box::new(|| {
                let err = v.ours.validate(black_box(&docs.many_wrong)).unwrap_err();
                black_box(err.to_string().len());
            }),
            theirs: Box::new(|| {
                let written = v
                    .theirs
                    .iter_errors(black_box(&docs.many_wrong))
                    .map(|e| e.to_string().len())
                    .sum::<usize>();
                black_box(written);
            }),
        },
    ]
}

/// The ratios the issue asks for, measured in this same run.
fn ratios() {
    let validators = Validators::new();
    println!("\nratios, jsonschema / toolschema (median of 41 interleaved batches, same process):");
    for (label, size) in SIZES {
        let docs = Documents::new(size);
        for mut pair in pairs(&validators, &docs) {
            let times = support::medians_interleaved(
                Duration::from_millis(20),
                41,
                &mut [&mut pair.ours, &mut pair.theirs],
            );
            println!(
                "  {label:>5} {:<40} toolschema {:>10?}, jsonschema {:>10?}: {:.2}x",
                pair.what,
                times[0],
                times[1],
                times[1].as_secs_f64() / times[0].as_secs_f64(),
            );
        }
    }
}

criterion_group!(benches, routes);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    // A profiling run (`--profile-time`) measures one route alone.
    if !std::env::args().any(|a| a == "--profile-time") {
        ratios();
    }
}
