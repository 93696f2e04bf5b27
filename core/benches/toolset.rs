//! How building a run-time union of tools grows with the number of tools.
//!
//! A Home Assistant bridge or an MCP client with many servers builds a `Toolset` of
//! hundreds or thousands of tools, often per request. Building one — reading the tool
//! list, loading every input schema, checking the names, mapping them to names models
//! accept, building the union's schema — should take time linear in the number of tools.
//! Measured at 250, 500, 1 000 and 2 000 tools:
//!
//! - `build`: `Toolset::from_mcp_tools` and the union's schema (`Toolset::schema`);
//! - `parse`: the lenient parse of a call to the last tool (the name is looked up among
//!   all of them), with a value to coerce (`"70"` for an integer); `parse-valid`: the same
//!   call written right; `validate`: the validator alone on it;
//! - `compact`: the prompt form of the whole set.
//!
//! ```sh
//! cargo bench -p toolschema --bench toolset
//! TOOLSCHEMA_BENCH_TOOLS=1000,4000 cargo bench -p toolschema --bench toolset
//! ```
//!
//! The last lines print the medians per tool: flat when the growth is linear.

mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group};
use serde_json::{Value, json};
use toolschema::Toolset;

/// An MCP `tools/list` result with `n` tools named as servers name them.
fn tool_list(n: usize) -> Value {
    let tools: Vec<Value> = (0..n)
        .map(|i| {
            json!({
                "name": format!("home.device {i}/set"),
                "description": format!("Set device {i}."),
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "level": { "type": "integer", "minimum": 0, "maximum": 100 },
                        "mode": { "enum": ["auto", "manual", "eco"] },
                        "when": { "type": "string", "pattern": "^[0-9]{2}:[0-9]{2}$" }
                    },
                    "required": ["level"],
                    "additionalProperties": false
                }
            })
        })
        .collect();
    json!({ "tools": tools })
}

fn sizes() -> Vec<usize> {
    match std::env::var("TOOLSCHEMA_BENCH_TOOLS") {
        Ok(list) => list
            .split(',')
            .map(|n| n.trim().parse().expect("a number of tools"))
            .collect(),
        Err(_) => vec![250, 500, 1000, 2000],
    }
}

fn build(list: &Value) -> Toolset {
    let tools = Toolset::from_mcp_tools(list).expect("the tools load");
    black_box(tools.schema());
    tools
}

/// A call of the last tool, with a value to coerce.
fn last_call(tools: &Toolset) -> String {
    let last = tools.names().last().expect("a tool");
    let name = tools.model_name(last).expect("a model name");
    format!(r#"{{"name": "{name}", "arguments": {{"level": "70", "mode": "eco"}}}}"#)
}

/// One measured route: a name and what it runs for a list, a set built from it, a reply.
type Route = (&'static str, fn(&Value, &Toolset, &str));

const ROUTES: [Route; 5] = [
    ("build", |list, _, _| {
        black_box(build(black_box(list)));
    }),
    ("parse", |_, tools, reply| {
        black_box(tools.parse(black_box(reply)).is_ok());
    }),
    ("parse-valid", |_, tools, reply| {
        let reply = reply.replace(r#""70""#, "70");
        black_box(tools.parse(black_box(&reply)).is_ok());
    }),
    ("validate", |_, tools, reply| {
        let value: Value =
            serde_json::from_str(&reply.replace(r#""70""#, "70")).unwrap_or_default();
        black_box(tools.schema().is_valid(black_box(&value)));
    }),
    ("compact", |_, tools, _| {
        black_box(tools.compact());
    }),
];

fn benches(c: &mut Criterion) {
    for (name, route) in ROUTES {
        let mut group = c.benchmark_group(format!("toolset/{name}"));
        group.sample_size(10);
        for n in sizes() {
            let list = tool_list(n);
            let tools = build(&list);
            let reply = last_call(&tools);
            group.bench_function(BenchmarkId::from_parameter(n), |b| {
                b.iter(|| route(&list, &tools, &reply))
            });
        }
        group.finish();
    }
}

/// The medians per route and size, per tool.
fn summary() {
    println!("\nmedians per tool (11 batches of about 200 ms, same process):");
    for (name, route) in ROUTES {
        let cells: Vec<String> = sizes()
            .into_iter()
            .map(|n| {
                let list = tool_list(n);
                let tools = build(&list);
                let reply = last_call(&tools);
                let time = support::median(Duration::from_millis(200), 11, || {
                    route(&list, &tools, &reply)
                });
                format!("{n}: {:?}", time / n as u32)
            })
            .collect();
        println!("  {name:<8} {}", cells.join(", "));
    }
}

criterion_group!(criterion_benches, benches);

fn main() {
    for n in sizes() {
        let tools = build(&tool_list(n));
        assert_eq!(tools.len(), n);
        assert!(tools.parse(&last_call(&tools)).is_ok());
    }
    criterion_benches();
    Criterion::default().configure_from_args().final_summary();
    summary();
}
