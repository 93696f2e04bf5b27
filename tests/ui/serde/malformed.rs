use toolschema::ToolSchema;

// Without serde's own derive, a malformed serde attribute must still be an error here:
// silently dropping the tag would change the JSON shape.
#[derive(ToolSchema)]
#[serde(tag = kind)]
enum Shape {
    Circle { radius: f64 },
}

fn main() {}
