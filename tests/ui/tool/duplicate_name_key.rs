use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Search {
    query: String,
}

#[derive(ToolSchema)]
enum Step {
    #[tool(name = "search", name = "find")]
    Search(Search),
}

fn main() {}
