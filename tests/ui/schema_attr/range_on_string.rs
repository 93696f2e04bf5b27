use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Person {
    #[schema(range(min = 1, max = 80))]
    name: String,
}

fn main() {}
