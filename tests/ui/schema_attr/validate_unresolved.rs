use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Line {
    #[schema(validate = checks::quantity)]
    quantity: u32,
}

fn main() {}
