use toolschema::ToolSchema;

#[derive(ToolSchema)]
enum Step {
    #[tool]
    Move(i32, i32),
}

fn main() {}
