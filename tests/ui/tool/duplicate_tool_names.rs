use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Search {
    query: String,
}

#[derive(ToolSchema)]
enum Step {
    #[tool]
    WebSearch(Search),
    #[tool(name = "web_search")]
    LocalSearch(Search),
}

fn main() {}
