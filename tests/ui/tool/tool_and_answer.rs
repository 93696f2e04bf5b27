use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Search {
    query: String,
}

#[derive(ToolSchema)]
enum Step {
    #[tool]
    #[answer]
    Search(Search),
}

fn main() {}
