use toolschema::ToolSchema;

struct Opaque;

#[derive(ToolSchema)]
struct Order {
    #[schema(min = 1)]
    quantity: u8,
    #[schema(max = -0.5)]
    discount: f64,
    #[schema(min = 1)]
    customer: String,
    #[schema(maximum = 10)]
    lines: Vec<u8>,
    #[schema(min_length = 2)]
    code: Option<String>,
    #[schema(maxLength = 80, minimum = 0)]
    note: String,
}

#[derive(ToolSchema)]
struct Wrapped {
    #[schema(min = 1)]
    inner: Opaque,
}

fn main() {}
