use toolschema::ToolSchema;

#[derive(ToolSchema)]
#[serde(transparent)]
struct Meters {
    value: f64,
    precision: u8,
}

fn main() {}
