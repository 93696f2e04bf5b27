use toolschema::ToolSchema;

fn at_most(n: &u32, max: u32) -> Result<(), String> {
    if *n <= max { Ok(()) } else { Err(format!("at most {max}")) }
}

#[derive(ToolSchema)]
struct Line {
    #[schema(validate = at_most)]
    quantity: u32,
}

fn main() {}
