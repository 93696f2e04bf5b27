use toolschema::ToolSchema;

fn positive(n: &i32) -> Result<(), i32> {
    if *n > 0 { Ok(()) } else { Err(*n) }
}

#[derive(ToolSchema)]
struct Line {
    #[schema(validate = positive)]
    quantity: i32,
}

fn main() {}
