use toolschema::ToolSchema;

const LIMIT: u32 = 10;

#[derive(ToolSchema)]
struct Line {
    #[schema(validate = LIMIT)]
    quantity: u32,
}

fn main() {}
