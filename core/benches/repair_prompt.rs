//! The repair prompt of a reply with three values outside their lists, for a user's
//! request of about 1 KB, 10 KB and 100 KB: the time should grow with the request's
//! size, not with its square (the request's words are read once per prompt, not once
//! per violation, and deduplicated in a set).
//!
//! ```sh
//! cargo bench -p toolschema --bench repair_prompt
//! ```

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use toolschema::feedback::RepairPrompt;
use toolschema::{Schema, ToolSchema};

#[derive(ToolSchema, Debug)]
#[allow(dead_code)] // Only its schema is used.
enum Room {
    BedroomLamp,
    KitchenCeiling,
    PorchLight,
    LivingRoomTv,
    GarageDoor,
}

#[derive(ToolSchema, Debug)]
#[allow(dead_code)] // Only its schema is used.
struct Scene {
    first: Room,
    second: Room,
    third: Room,
}

/// A request of about `kb` kilobytes whose words are mostly distinct (as a long
/// document pasted into a request is), naming a garage and a porch.
fn request(kb: usize) -> String {
    let mut text = String::from("Open the garage and light the porch. ");
    let mut i = 0;
    while text.len() < kb * 1024 {
        text.push_str(&format!("note{i} item{i} entry{i} "));
        i += 1;
    }
    text
}

fn routes(c: &mut Criterion) {
    let schema = Schema::of::<Scene>();
    let reply = r#"{"first": "zzz", "second": "qqq", "third": "www"}"#;
    let error = toolschema::from_str::<Scene>(reply).expect_err("three wrong values");
    assert_eq!(error.violations().len(), 3);
    let mut group = c.benchmark_group("repair_prompt");
    for (label, kb) in [("1x", 1), ("10x", 10), ("100x", 100)] {
        let request = request(kb);
        group.throughput(Throughput::Bytes(request.len() as u64));
        group.bench_with_input(BenchmarkId::new("three_enums", label), &request, |b, r| {
            b.iter(|| {
                let prompt = RepairPrompt::for_schema(&schema, reply, &error).request(r.as_str());
                black_box(prompt.to_string())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, routes);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
