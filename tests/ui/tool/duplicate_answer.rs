use toolschema::ToolSchema;

#[derive(ToolSchema)]
enum Step {
    #[answer]
    #[answer]
    Answer(String),
}

fn main() {}
