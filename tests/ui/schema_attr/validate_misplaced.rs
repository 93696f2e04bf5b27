use toolschema::ToolSchema;

fn positive(n: &u32) -> Result<(), String> {
    if *n > 0 { Ok(()) } else { Err("must be positive".into()) }
}

#[derive(ToolSchema)]
enum Step {
    #[schema(validate = positive)]
    Wait { seconds: u32 },
}

#[derive(ToolSchema)]
struct Line {
    quantity: u32,
    #[serde(skip)]
    #[schema(validate = positive)]
    cached: u32,
}

fn main() {}
