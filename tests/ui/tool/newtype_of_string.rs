use toolschema::ToolSchema;

#[derive(ToolSchema)]
enum Step {
    #[tool]
    Search(String),
    #[answer]
    Answer(String),
}

fn main() {}
