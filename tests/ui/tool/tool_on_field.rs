use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Search {
    #[tool]
    query: String,
}

fn main() {}
