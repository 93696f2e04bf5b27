//! `toolschema::from_str` against two baselines, on a realistic 2 KB and 200 KB document:
//!
//! - `serde_json::from_str` into the same type with `#[derive(Deserialize)]` (no schema
//!   checks at all: the floor);
//! - `jsonschema` validation of the parsed value, then `serde_json::from_value` (the usual
//!   way to get a checked, typed value without toolschema).
//!
//! `toolschema::from_str` takes the streaming fast path on valid input; the printed
//! phases of the slow path (parse to `Value`, validate, build) are what invalid input and
//! shapes the fast path does not stream cost.
//!
//! Run with `cargo bench -p toolschema --bench strict_de`; the last lines print the
//! ratios measured in this run.

#[path = "support/catalog.rs"]
mod catalog;
mod support;

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use std::hint::black_box;
use toolschema::ToolSchema;

use catalog::{Catalog, document};

fn routes(c: &mut Criterion) {
    let schema = Catalog::json_schema();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    for (label, size) in [("2KB", 2 * 1024), ("200KB", 200 * 1024)] {
        let text = document(size);
        // The three routes must agree that the document is valid.
        assert!(toolschema::from_str::<Catalog>(&text).is_ok());
        assert!(validator.is_valid(&serde_json::from_str(&text).expect("JSON")));

        let mut group = c.benchmark_group(format!("strict_de/{label}"));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("toolschema", label), &text, |b, text| {
            b.iter(|| toolschema::from_str::<Catalog>(black_box(text)).expect("valid"))
        });
        group.bench_with_input(BenchmarkId::new("serde_json", label), &text, |b, text| {
            b.iter(|| serde_json::from_str::<Catalog>(black_box(text)).expect("valid"))
        });
        group.bench_with_input(
            BenchmarkId::new("jsonschema+from_value", label),
            &text,
            |b, text| {
                b.iter(|| {
                    let value: serde_json::Value =
                        serde_json::from_str(black_box(text)).expect("JSON");
                    assert!(validator.is_valid(&value));
                    serde_json::from_value::<Catalog>(value).expect("valid")
                })
            },
        );
        group.finish();
    }
}

/// The ratios the issue asks for, measured in this same run, and where the time goes.
fn ratios() {
    let schema = Catalog::json_schema();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    println!("\nratios (median of 41 interleaved batches per route, same process):");
    for (label, size) in [("2KB", 2 * 1024), ("200KB", 200 * 1024)] {
        let text = document(size);
        let mut ours_route = || {
            black_box(toolschema::from_str::<Catalog>(black_box(&text)).expect("valid"));
        };
        let mut serde_route = || {
            black_box(serde_json::from_str::<Catalog>(black_box(&text)).expect("valid"));
        };
        let mut jsonschema_route = || {
            let value: serde_json::Value = serde_json::from_str(black_box(&text)).expect("JSON");
            assert!(validator.is_valid(&value));
            black_box(serde_json::from_value::<Catalog>(value).expect("valid"));
        };
        let times = support::medians_interleaved(
            Duration::from_millis(20),
            41,
            &mut [&mut ours_route, &mut serde_route, &mut jsonschema_route],
        );
        let (ours, serde, route) = (times[0], times[1], times[2]);
        let parse = support::median(Duration::from_millis(50), 15, || {
            black_box(serde_json::from_str::<serde_json::Value>(black_box(&text)).expect("JSON"));
        });
        let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let compiled = toolschema::Schema::of::<Catalog>();
        let validate = support::median(Duration::from_millis(50), 15, || {
            black_box(compiled.validate(black_box(&value)).is_ok());
        });
        let js = support::median(Duration::from_millis(50), 15, || {
            black_box(validator.is_valid(black_box(&value)));
        });
        let build = support::median(Duration::from_millis(50), 15, || {
            black_box(Catalog::from_json(black_box(value.clone())).is_ok());
        });
        let clone = support::median(Duration::from_millis(50), 15, || {
            black_box(black_box(&value).clone());
        });
        let from_value = support::median(Duration::from_millis(50), 15, || {
            black_box(serde_json::from_value::<Catalog>(black_box(value.clone())).is_ok());
        });
        // Invalid input: one product's `sku` breaks its pattern. The fast path gives up
        // and the slow path reports every violation; the jsonschema route lists its errors.
        let invalid = text.replacen("\"sku\":\"ABC-", "\"sku\":\"abc-", 1);
        assert!(toolschema::from_str::<Catalog>(&invalid).is_err());
        let ours_invalid = support::median(Duration::from_millis(50), 15, || {
            black_box(toolschema::from_str::<Catalog>(black_box(&invalid)).is_err());
        });
        let route_invalid = support::median(Duration::from_millis(50), 15, || {
            let value: serde_json::Value = serde_json::from_str(black_box(&invalid)).expect("JSON");
            black_box(validator.iter_errors(&value).count());
        });
        println!(
            "  {label:>5} slow path (taken when the fast path gives up): parse to Value {parse:?}; \
             validate: toolschema {validate:?}, jsonschema {js:?}; build from Value: toolschema {:?}, \
             serde_json::from_value {:?}",
            build.saturating_sub(clone),
            from_value.saturating_sub(clone),
        );
        println!(
            "  {label:>5} invalid input (one pattern broken, every violation reported): toolschema {ours_invalid:?}, \
             jsonschema errors {route_invalid:?}; jsonschema/toolschema = {:.2}x",
            route_invalid.as_secs_f64() / ours_invalid.as_secs_f64(),
        );
        println!(
            "  {label:>5} ({} bytes): toolschema {:?}, serde_json {:?}, jsonschema+from_value {:?}; \
             toolschema/serde_json = {:.2}x, jsonschema route/toolschema = {:.2}x",
            text.len(),
            ours,
            serde,
            route,
            ours.as_secs_f64() / serde.as_secs_f64(),
            route.as_secs_f64() / ours.as_secs_f64(),
        );
    }
}

criterion_group!(benches, routes);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    ratios();
}
