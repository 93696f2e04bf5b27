use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Flags {
    #[schema(example = -true)]
    on: bool,
}

fn main() {}
