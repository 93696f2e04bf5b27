use toolschema::ToolSchema;

#[derive(ToolSchema)]
#[answer]
struct Reply {
    text: String,
}

fn main() {}
