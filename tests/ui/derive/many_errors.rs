use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Search {
    query: String,
}

// One derive, six unrelated mistakes (from attribute parsing and from the checks):
// all six are reported together.
#[derive(ToolSchema)]
#[serde(rename_all = "camelcase")]
enum Step {
    #[tool(nmae = "search")]
    Search(Search),
    #[tool]
    Lookup {
        #[schema(range(min = 1))]
        key: String,
        #[schema(pattern = "(")]
        prefix: String,
        #[schema(colour = "red")]
        limit: u8,
    },
    Think(String),
    #[answer]
    Answer(String),
}

fn main() {}
