use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Line {
    quantity: u32,
}

fn check_order(line: &Line) -> Result<(), String> {
    let _ = line;
    Ok(())
}

#[derive(ToolSchema)]
#[schema(validate = check_order)]
struct Order {
    lines: Vec<Line>,
}

fn main() {}
