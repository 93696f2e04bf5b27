use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Person {
    #[schema(length(min = 1.5))]
    name: String,
    #[schema(length(max = -1))]
    tags: Vec<String>,
}

fn main() {}
