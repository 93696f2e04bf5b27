use toolschema::ToolSchema;

#[derive(ToolSchema)]
#[tool]
struct Search {
    query: String,
}

fn main() {}
