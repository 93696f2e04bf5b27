//! Every place `#[schema(validate = path)]` goes, with the references a check may take.

use toolschema::toolset::Rejection;
use toolschema::{ToolSchema, Violation};

mod rules {
    pub fn sku(sku: &str) -> Result<(), String> {
        if sku.is_empty() { Err("empty".into()) } else { Ok(()) }
    }
}

fn some_tags(tags: &[String]) -> Result<(), &'static str> {
    if tags.is_empty() { Err("at least one tag") } else { Ok(()) }
}

fn note(note: &Option<String>) -> Result<(), Violation> {
    let _ = note;
    Ok(())
}

fn line(line: &Line) -> Result<(), Rejection> {
    Rejection::all([rules::sku(&line.sku).map_err(Rejection::from)])
}

fn page<T>(page: &Page<T>) -> Result<(), toolschema::Error> {
    let _ = page;
    Ok(())
}

fn step(_: &Step) -> Result<(), Vec<Violation>> {
    Ok(())
}

fn even(n: &u32) -> Result<(), String> {
    if n % 2 == 0 { Ok(()) } else { Err("odd".into()) }
}

#[derive(ToolSchema)]
#[schema(validate = line)]
struct Line {
    #[schema(validate = rules::sku)]
    sku: String,
    #[schema(validate = some_tags)]
    tags: Vec<String>,
    #[schema(validate = note)]
    #[serde(default)]
    note: Option<String>,
}

#[derive(ToolSchema)]
#[schema(validate = page)]
struct Page<T> {
    items: Vec<T>,
}

#[derive(ToolSchema)]
struct Even(#[schema(validate = even)] u32);

#[derive(ToolSchema)]
#[serde(transparent)]
struct Count {
    #[schema(validate = even)]
    n: u32,
}

#[derive(ToolSchema)]
#[schema(validate = step)]
enum Step {
    #[tool]
    Order(Line),
    #[tool]
    Wait {
        #[schema(validate = even)]
        seconds: u32,
    },
    #[answer]
    Answer(String),
}

fn main() {
    let _ = (Page::<Line>::json_schema(), Even::json_schema(), Count::json_schema(), Step::json_schema());
}
