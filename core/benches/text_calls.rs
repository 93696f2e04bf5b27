//! Tool calls written as text, on inputs built against the readers: each text-call marker
//! (`<tool_call>`, `[TOOL_CALLS]`, `<function=`, `<|python_tag|>`, a Python call) repeated
//! to 10 kB, 100 kB and 1 MB, read through a union of tools. Prints each input's median
//! per read at the three sizes and the ratios 10×/1× and 100×/1×: linear work reads about
//! 10 and 100.
//!
//! ```sh
//! cargo bench -p toolschema --bench text_calls
//! ```

mod support;

use std::hint::black_box;
use std::time::Duration;

use serde_json::json;
use support::{HOSTILE_BYTES as BYTES, Hostile, SUPERLINEAR, fill};
use toolschema::Toolset;

const HOSTILE: &[Hostile] = &[
    Hostile {
        name: "get_weather( repeated",
        build: |n| fill("get_weather(", n),
    },
    Hostile {
        name: "[search(query=' repeated",
        build: |n| format!("[{}", fill("search(query='", n)),
    },
    Hostile {
        name: "<tool_call> repeated",
        build: |n| fill("<tool_call>", n),
    },
    Hostile {
        name: "[TOOL_CALLS] repeated",
        build: |n| fill("[TOOL_CALLS]", n),
    },
    Hostile {
        name: "<function= repeated",
        build: |n| fill("<function=", n),
    },
    Hostile {
        name: "<|python_tag|> then { repeated",
        build: |n| format!("<|python_tag|>{}", fill("{", n)),
    },
    Hostile {
        name: "<tool_call>{\"name\": \"search\" repeated",
        build: |n| fill("<tool_call>{\"name\": \"search\", ", n),
    },
];

fn tools() -> Toolset {
    let tool = |name: &str, key: &str| {
        json!({ "type": "function", "function": {
            "name": name,
            "parameters": { "type": "object", "properties": { key: { "type": "string" } }, "required": [key] }
        }})
    };
    Toolset::from_openai_tools(&json!([
        tool("get_weather", "city"),
        tool("search", "query")
    ]))
    .expect("the tools load")
    .with_answer()
}

fn main() {
    let tools = tools();
    let read = |text: &str| {
        let refused = tools.parse(black_box(text)).is_err();
        assert!(refused, "a hostile input is no call");
    };
    println!(
        "text calls, hostile inputs: median per read (7 batches of about 100 ms, sizes in turns)"
    );
    println!("| input | 10 kB | 100 kB | 1 MB | 10×/1× | 100×/1× |");
    println!("|---|---|---|---|---|---|");
    for input in HOSTILE {
        let [small, medium, large] = BYTES.map(input.build);
        let probe = support::medians_interleaved(
            Duration::from_millis(20),
            3,
            &mut [&mut || read(&small), &mut || read(&medium)],
        );
        let linear = probe[1].as_secs_f64() / probe[0].as_secs_f64() <= SUPERLINEAR;
        let batch = Duration::from_millis(100);
        let times = if linear {
            support::medians_interleaved(
                batch,
                7,
                &mut [&mut || read(&small), &mut || read(&medium), &mut || {
                    read(&large)
                }],
            )
        } else {
            support::medians_interleaved(
                batch,
                7,
                &mut [&mut || read(&small), &mut || read(&medium)],
            )
        };
        let ratio = |i: usize| times[i].as_secs_f64() / times[0].as_secs_f64();
        let large = times
            .get(2)
            .map_or("not run".to_owned(), |t| format!("{t:.2?}"));
        let hundred = times
            .get(2)
            .map_or("–".to_owned(), |_| format!("{:.0}", ratio(2)));
        println!(
            "| {} | {:.2?} | {:.2?} | {large} | {:.1} | {hundred} |",
            input.name,
            times[0],
            times[1],
            ratio(1)
        );
    }
}
