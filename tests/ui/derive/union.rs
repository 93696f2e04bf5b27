use toolschema::ToolSchema;

#[derive(ToolSchema)]
union Number {
    int: u64,
    float: f64,
}

fn main() {}
