use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Search {
    query: String,
}

#[derive(ToolSchema)]
enum Step {
    #[tool]
    Search(Search),
    #[answer]
    Answer(String),
    #[answer]
    Refusal(String),
}

fn main() {}
