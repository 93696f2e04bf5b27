use toolschema::ToolSchema;

#[derive(ToolSchema)]
enum Step {
    #[answer(name = "reply")]
    Answer(String),
}

fn main() {}
