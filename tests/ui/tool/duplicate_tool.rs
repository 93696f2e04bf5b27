use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Search {
    query: String,
}

#[derive(ToolSchema)]
enum Step {
    #[tool]
    #[tool(name = "search")]
    Search(Search),
}

fn main() {}
