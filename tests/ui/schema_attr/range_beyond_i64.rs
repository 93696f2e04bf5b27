use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Counter {
    #[schema(range(min = 0, max = 10000000000000000000u64))]
    total: u64,
}

fn main() {}
