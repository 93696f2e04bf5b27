use toolschema::ToolSchema;

#[derive(ToolSchema)]
#[serde(tag = "type", untagged)]
enum Shape {
    Circle { radius: f64 },
    Square { side: f64 },
}

fn main() {}
