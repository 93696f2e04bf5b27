use toolschema::ToolSchema;

#[derive(ToolSchema)]
#[serde(transparent)]
enum Length {
    Meters(f64),
}

fn main() {}
