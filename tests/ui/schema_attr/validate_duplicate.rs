use toolschema::ToolSchema;

fn positive(n: &u32) -> Result<(), String> {
    if *n > 0 { Ok(()) } else { Err("must be positive".into()) }
}

fn small(n: &u32) -> Result<(), String> {
    if *n < 100 { Ok(()) } else { Err("must be below 100".into()) }
}

fn check_line(_: &Line) -> Result<(), String> {
    Ok(())
}

#[derive(ToolSchema)]
#[schema(validate = check_line)]
#[schema(validate = check_line)]
struct Line {
    #[schema(validate = positive, validate = small)]
    quantity: u32,
}

fn main() {}
