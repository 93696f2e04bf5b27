//! Throughput of the lenient parse (`toolschema::parse::<serde_json::Value>`: extraction
//! and repair) on:
//!
//! - the inputs of the third-party repair vectors (`tests/corpora/jsonrepair.jsonl` and
//!   `partial_json.jsonl`), all parsed once per iteration;
//! - a generated 5 MB reply: a `<think>` block, prose, a fenced JSON array of 5 MB with
//!   what models write in it (trailing commas, single quotes, unquoted keys, comments), and
//!   prose after;
//! - 1 000 000 unclosed `[` (and 10 000, 100 000): the time per byte must stay flat;
//! - hostile inputs at 10 kB, 100 kB and 1 MB (1×, 10×, 100×), one for each place that
//!   extraction (`extract.rs`) and repair (`repair/`) claim to read in linear time: deep
//!   or unclosed nesting, runs of quotes, strings that never end, fences and tags. The
//!   summary prints their medians and the ratios 10×/1× and 100×/1×: near 10 and 100 when
//!   the work is linear. An input whose 10× is already more than 30 times its 1× is not
//!   run at 100×, so a quadratic regression shows as a ratio instead of a hang. Inputs
//!   that build big values (runs of quotes: a million short strings) also slow down per
//!   byte once they outgrow the CPU caches, near 1 MB, so their 100×/1× can be well above
//!   100 with 10×/1× near 10; to tell that from a quadratic, time them at 10 MB too
//!   (linear work takes 10 times its 1 MB time).
//!
//! ```sh
//! cargo bench -p toolschema --bench parse          # criterion, then a summary of medians
//! cargo bench -p toolschema --bench parse -- hostile   # the hostile inputs alone
//! scripts/bench-json-repair                        # the same inputs through Python's
//!                                                  # json_repair, and the ratios
//! ```
//!
//! With `TOOLSCHEMA_BENCH_EXPORT=<dir>` set (the script sets it), the bench skips criterion,
//! writes the inputs, toolschema's result on the 5 MB reply and toolschema's median times
//! to `<dir>`, for `scripts/bench-json-repair` to time json_repair on the same inputs.

mod support;

use support::{HOSTILE_BYTES, Hostile, SUPERLINEAR, fill};

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use serde_json::{Value, json};

/// The inputs of the repair vectors.
fn corpus() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpora");
    let mut inputs = Vec::new();
    for file in ["jsonrepair.jsonl", "partial_json.jsonl"] {
        let path = dir.join(file);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let row: Value = serde_json::from_str(line).expect("a corpus line is JSON");
            inputs.push(row["input"].as_str().expect("an input").to_owned());
        }
    }
    inputs
}

/// One item of the generated reply, now and then written as models do.
fn item(i: usize) -> String {
    let name = format!("Item {i}, \"deluxe\" model");
    let base = json!({
        "id": i,
        "sku": format!("SKU-{:06}", i),
        "name": name,
        "price": (i % 1000) as f64 + 0.99,
        "in_stock": !i.is_multiple_of(3),
        "tags": ["new", format!("batch-{}", i % 7)],
        "dimensions": {"w": 12.5, "h": 80, "unit": "mm"},
    });
    let strict = base.to_string();
    match i % 40 {
        // A trailing comma.
        0 => strict.replacen('}', ",}", 1),
        // Single quotes around a value.
        1 => strict.replacen("\"mm\"", "'mm'", 1),
        // An unquoted key.
        2 => strict.replacen("\"id\"", "id", 1),
        // A comment on the line before the item.
        3 => format!("// restocked\n  {strict}"),
        _ => strict,
    }
}

/// A reply of at least `bytes` bytes: reasoning, prose, a fenced JSON array, prose.
fn reply(bytes: usize) -> String {
    let mut out = String::from(
        "<think>The user wants the whole inventory. I will list every item as JSON, \
         with its price and dimensions.</think>\n\
         Sure! Here is the inventory you asked for. Prices are in euros.\n\n```json\n[\n",
    );
    let mut i = 0;
    while out.len() < bytes {
        if i > 0 {
            out.push_str(",\n");
        }
        out.push_str("  ");
        out.push_str(&item(i));
        i += 1;
    }
    out.push_str("\n]\n```\n\nLet me know if you need the list sorted by price.");
    out
}

fn brackets(n: usize) -> String {
    "[".repeat(n)
}

const BRACKETS: [usize; 3] = [10_000, 100_000, 1_000_000];

fn parse(text: &str) -> Result<Value, toolschema::Error> {
    toolschema::parse::<Value>(black_box(text))
}

const HOSTILE: &[Hostile] = &[
    // Nesting: the repairer stops at its depth limit, the span scan counts on.
    Hostile {
        name: "unclosed `{`",
        build: |n| fill("{", n),
    },
    Hostile {
        name: "unclosed `{\"a\":`",
        build: |n| fill("{\"a\":", n),
    },
    Hostile {
        name: "100 deep, closed, repeated",
        build: |n| fill(&format!("{}{}", "[".repeat(100), "]".repeat(100)), n),
    },
    // Quotes: each could open a string that runs to the end of the text.
    Hostile {
        name: "run of `\"`",
        build: |n| format!("[{}", fill("\"", n)),
    },
    Hostile {
        name: "run of `'`",
        build: |n| format!("[{}", fill("'", n)),
    },
    Hostile {
        name: "`\"a, ` strings, `]` at the end",
        build: |n| format!("[{}]", fill("\"a, ", n)),
    },
    Hostile {
        name: "`'a, ` strings, `]` at the end",
        build: |n| format!("[{}]", fill("'a, ", n)),
    },
    Hostile {
        name: "`['a` repeated",
        build: |n| fill("['a", n),
    },
    Hostile {
        name: "`/*` in an unclosed string",
        build: |n| format!("[\"{}", fill("a /* ", n)),
    },
    Hostile {
        name: "backslashes in a string",
        build: |n| format!("[\"{}", fill("\\", n)),
    },
    Hostile {
        name: "apostrophes in a span",
        build: |n| format!("[{}]", fill("Bob's ", n)),
    },
    // Extraction: fences, reasoning and wrapper tags, none closed.
    Hostile {
        name: "fences on one line",
        build: |n| fill("```", n),
    },
    Hostile {
        name: "`<think>` tags",
        build: |n| fill("<think>", n),
    },
    Hostile {
        name: "`<json>` tags",
        build: |n| fill("<json>[1, ", n),
    },
    // The pieces of the repair classes, each repeated in one container: a look ahead or
    // a second reading that started again at each would be quadratic.
    Hostile {
        name: "repeated {\"a\": \"x\", y ",
        build: |n| format!("{{{}", fill(r#""a": "x", y "#, n)),
    },
    Hostile {
        name: "repeated {\"a\": \"x\", \"b\" c, ",
        build: |n| format!("{{{}", fill(r#""a": "x", "b" c, "#, n)),
    },
    Hostile {
        name: "repeated {\"a\": \"x \"y\", z ",
        build: |n| format!("{{{}", fill(r#""a": "x "y", z "#, n)),
    },
    Hostile {
        name: "repeated [\"x \"a\", \"b\" c, ",
        build: |n| format!("[{}", fill(r#""x "a", "b" c, "#, n)),
    },
    Hostile {
        name: "repeated [\"\"\"a\", ",
        build: |n| format!("[{}", fill(r#""""a", "#, n)),
    },
    Hostile {
        name: "repeated ```json {\"a\": \"```\"} ",
        build: |n| fill("```json {\"a\": \"```\"} ", n),
    },
    Hostile {
        name: "repeated {\"a\": \"C:\\x\\\", ",
        build: |n| format!("{{{}", fill(r#""a": "C:\x\", "#, n)),
    },
    Hostile {
        name: "repeated {\"a\": \"b\": \"c\", ",
        build: |n| format!("{{{}", fill(r#""a": "b": "c", "#, n)),
    },
    Hostile {
        name: "repeated {note also and ",
        build: |n| format!("{{{}", fill("note also and ", n)),
    },
    Hostile {
        name: "repeated [1_000_0, ",
        build: |n| format!("[{}", fill("1_000_0, ", n)),
    },
    Hostile {
        name: "repeated [''', ",
        build: |n| format!("[{}", fill("''', ", n)),
    },
    Hostile {
        name: "repeated <think>{\"a\": \"",
        build: |n| fill("<think>{\"a\": \"", n),
    },
    Hostile {
        name: "repeated {\"a\": \"x {\"b\": \"c\"} d\", ",
        build: |n| format!("{{{}", fill(r#""a": "x {"b": "c"} d", "#, n)),
    },
    Hostile {
        name: "repeated [\"x {\"a\": ",
        build: |n| format!("[{}", fill(r#""x {"a": "#, n)),
    },
    Hostile {
        name: "repeated {\"a\": \"[[[[{\"b\", ",
        build: |n| format!("{{{}", fill(r#""a": "[[[[{"b", "#, n)),
    },
    Hostile {
        name: "repeated {\"a\": \"x\" # \"y\", ",
        build: |n| format!("{{{}", fill(r#""a": "x" # "y", "#, n)),
    },
    Hostile {
        name: "repeated [#a #b, ",
        build: |n| format!("[{}", fill("#a #b, ", n)),
    },
    Hostile {
        name: "repeated [{\"a\": 1}}, ",
        build: |n| format!("[{}", fill(r#"{"a": 1}}, "#, n)),
    },
    Hostile {
        name: "repeated {\"a\": [1]], ",
        build: |n| format!("{{{}", fill(r#""a": [1]], "#, n)),
    },
];

/// The medians of `input` at 1× and 10× (a quick look), and its ratio 10×/1×.
fn probe(input: &Hostile) -> f64 {
    let [small, large] = [HOSTILE_BYTES[0], HOSTILE_BYTES[1]].map(input.build);
    let times = support::medians_interleaved(
        Duration::from_millis(20),
        3,
        &mut [&mut || drop(black_box(parse(&small))), &mut || {
            drop(black_box(parse(&large)))
        }],
    );
    times[1].as_secs_f64() / times[0].as_secs_f64()
}

fn benches(c: &mut Criterion) {
    let inputs = corpus();
    let bytes: usize = inputs.iter().map(String::len).sum();
    let mut group = c.benchmark_group("parse/corpus");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function(format!("{} inputs", inputs.len()), |b| {
        b.iter(|| {
            for input in &inputs {
                let _ = black_box(parse(input));
            }
        })
    });
    group.finish();

    let text = reply(5 << 20);
    let mut group = c.benchmark_group("parse/reply");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("5MB fenced with prose", |b| {
        b.iter(|| parse(&text).expect("the reply parses"))
    });
    group.finish();

    let mut group = c.benchmark_group("parse/unclosed-brackets");
    group.sample_size(10);
    for n in BRACKETS {
        let text = brackets(n);
        group.throughput(Throughput::Bytes(n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, text| {
            b.iter(|| parse(text).expect_err("too deep"))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("parse/hostile");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for input in HOSTILE {
        let sizes = if probe(input) > SUPERLINEAR {
            &HOSTILE_BYTES[..2]
        } else {
            &HOSTILE_BYTES[..]
        };
        for &bytes in sizes {
            let text = (input.build)(bytes);
            group.throughput(Throughput::Bytes(text.len() as u64));
            let id = BenchmarkId::new(input.name, format!("{}x", bytes / HOSTILE_BYTES[0]));
            group.bench_with_input(id, &text, |b, text| b.iter(|| parse(text)));
        }
    }
    group.finish();
}

/// Each hostile input's medians at 1×, 10× and 100×, measured in turns, and the ratios.
fn hostile_summary() {
    println!("\nhostile inputs, median per parse (7 batches of about 100 ms each size, in turns);");
    println!("linear work gives ratios near 10 and 100:");
    println!(
        "  {:<34} {:>10} {:>10} {:>10} {:>7} {:>8}",
        "input (1× = 10 kB)", "1×", "10×", "100×", "10×/1×", "100×/1×"
    );
    let show = |d: Duration| format!("{d:.3?}");
    for input in HOSTILE {
        let ratio = probe(input);
        if ratio > SUPERLINEAR {
            println!(
                "  {:<34} {:>10} {:>10} {:>10} {ratio:>7.1} {:>8}",
                input.name, "", "", "not run", "-"
            );
            continue;
        }
        let texts = HOSTILE_BYTES.map(input.build);
        let [a, b, c] = &texts;
        let times = support::medians_interleaved(
            Duration::from_millis(100),
            7,
            &mut [
                &mut || drop(black_box(parse(a))),
                &mut || drop(black_box(parse(b))),
                &mut || drop(black_box(parse(c))),
            ],
        );
        let base = times[0].as_secs_f64();
        println!(
            "  {:<34} {:>10} {:>10} {:>10} {:>7.1} {:>8.1}",
            input.name,
            show(times[0]),
            show(times[1]),
            show(times[2]),
            times[1].as_secs_f64() / base,
            times[2].as_secs_f64() / base,
        );
    }
}

/// The medians the ratios are made of, measured in this run.
struct Medians {
    corpus: Duration,
    reply: Duration,
    brackets: Vec<(usize, Duration)>,
}

fn medians(inputs: &[String], reply: &str) -> Medians {
    let batch = Duration::from_millis(200);
    Medians {
        corpus: support::median(batch, 11, || {
            for input in inputs {
                let _ = black_box(parse(input));
            }
        }),
        reply: support::median(batch, 11, || {
            black_box(parse(reply).expect("the reply parses"));
        }),
        brackets: BRACKETS
            .iter()
            .map(|&n| {
                let text = brackets(n);
                (
                    n,
                    support::median(batch, 11, || drop(black_box(parse(&text)))),
                )
            })
            .collect(),
    }
}

fn summary() {
    let inputs = corpus();
    let bytes: usize = inputs.iter().map(String::len).sum();
    let reply = reply(5 << 20);
    let m = medians(&inputs, &reply);
    let mb_per_s = |bytes: usize, d: Duration| bytes as f64 / d.as_secs_f64() / 1e6;
    println!("\nmedians (11 batches of about 200 ms, same process):");
    println!(
        "  corpus, {} inputs, {bytes} bytes: {:?} per pass ({:.1} MB/s)",
        inputs.len(),
        m.corpus,
        mb_per_s(bytes, m.corpus)
    );
    println!(
        "  reply, {} bytes: {:?} ({:.1} MB/s)",
        reply.len(),
        m.reply,
        mb_per_s(reply.len(), m.reply)
    );
    for (n, d) in &m.brackets {
        println!(
            "  {n} unclosed `[`: {d:?} ({:.2} ns per byte)",
            d.as_nanos() as f64 / *n as f64
        );
    }
}

/// Writes the inputs, toolschema's result on the reply and its medians to `dir`.
fn export(dir: &Path) {
    std::fs::create_dir_all(dir).expect("the export directory");
    let inputs = corpus();
    let reply = reply(5 << 20);
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("{name}: {e}"));
    };
    write(
        "corpus.json",
        &serde_json::to_string(&inputs).expect("JSON"),
    );
    write("reply.txt", &reply);
    let parsed = parse(&reply).expect("the reply parses");
    write("reply.toolschema.json", &parsed.to_string());
    let m = medians(&inputs, &reply);
    let seconds = json!({
        "corpus": m.corpus.as_secs_f64(),
        "reply": m.reply.as_secs_f64(),
        "brackets": m.brackets.iter().map(|(n, d)| json!([n, d.as_secs_f64()])).collect::<Vec<_>>(),
    });
    write("toolschema.json", &seconds.to_string());
    println!(
        "wrote the inputs and toolschema's medians to {}",
        dir.display()
    );
}

criterion_group!(criterion_benches, benches);

fn main() {
    if let Some(dir) = std::env::var_os("TOOLSCHEMA_BENCH_EXPORT") {
        export(Path::new(&dir));
        return;
    }
    criterion_benches();
    Criterion::default().configure_from_args().final_summary();
    // `-- hostile` (a criterion filter) runs the hostile inputs alone, and their table.
    let hostile_only = std::env::args().skip(1).any(|a| a == "hostile");
    if !hostile_only {
        summary();
    }
    hostile_summary();
}
