use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Search {
    query: String,
}

#[derive(ToolSchema)]
#[serde(tag = "type")]
enum Step {
    #[tool]
    Search(Search),
    #[answer]
    Answer { text: String },
}

fn main() {}
