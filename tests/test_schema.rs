//! Snapshots of the generated schemas, reviewed by hand as text (tests/snapshots/).

// Test types exist for their schemas; their fields are never read.
#![allow(dead_code)]

use std::collections::BTreeMap;

use toolschema::ToolSchema;

/// A person mentioned in the text.
#[derive(ToolSchema)]
struct Person {
    /// Full name, as written.
    name: String,
    #[schema(range(min = 0, max = 150), hint = "age in whole years")]
    age: u8,
    email: Option<String>,
    tags: Vec<String>,
}

#[derive(ToolSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// Arguments of the weather tool.
#[derive(ToolSchema)]
struct GetWeather {
    /// City name, e.g. "Paris".
    city: String,
    unit: Option<Unit>,
}

#[derive(ToolSchema)]
enum Step {
    /// Look up the weather for a city.
    #[tool]
    GetWeather(GetWeather),
    /// Turn on the lights in a room.
    #[tool(name = "lights_on")]
    TurnOn {
        /// The room, as the user calls it.
        room: String,
    },
    /// Reply to the user directly.
    #[answer]
    Answer(String),
}

#[derive(ToolSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Shape {
    /// A circle around the origin.
    Circle {
        radius: f64,
    },
    Rectangle {
        width: f64,
        height: f64,
    },
    Point,
}

#[derive(ToolSchema)]
#[serde(tag = "kind", content = "value")]
enum Setting {
    Flag(bool),
    Level(u8),
    Reset,
}

#[derive(ToolSchema)]
#[serde(untagged)]
enum Id {
    Number(u64),
    Name(String),
}

#[derive(ToolSchema)]
enum Command {
    Stop,
    Move { x: i32, y: i32 },
    Say(String),
    Jump(u8, u8),
}

#[derive(ToolSchema)]
struct Page<T> {
    items: Vec<T>,
    next_cursor: Option<String>,
}

/// A folder and everything in it.
#[derive(ToolSchema)]
struct Folder {
    name: String,
    children: Vec<Folder>,
}

#[derive(ToolSchema)]
struct Meta {
    created_by: String,
}

#[derive(ToolSchema)]
#[serde(rename_all = "camelCase")]
struct Document {
    #[serde(alias = "heading")]
    title: String,
    #[serde(default)]
    word_count: u32,
    #[serde(flatten)]
    meta: Meta,
    labels: BTreeMap<String, String>,
    #[schema(bridge)]
    id: uuid::Uuid,
}

#[derive(ToolSchema)]
struct Constraints {
    #[schema(
        length(min = 1, max = 40),
        pattern = "^[a-z_]+$",
        example = "snake_name"
    )]
    slug: String,
    #[schema(format = "date")]
    when: Option<String>,
    #[schema(range(min = -273.15))]
    kelvin: f32,
    #[schema(length(max = 3))]
    picks: Vec<char>,
    pair: (u8, bool),
    grid: [i16; 2],
    anything: serde_json::Value,
}

#[test]
fn schemas() {
    insta::assert_json_snapshot!("person", Person::json_schema());
    insta::assert_json_snapshot!("tool_union", Step::json_schema());
    insta::assert_json_snapshot!("internally_tagged", Shape::json_schema());
    insta::assert_json_snapshot!("adjacently_tagged", Setting::json_schema());
    insta::assert_json_snapshot!("untagged", Id::json_schema());
    insta::assert_json_snapshot!("externally_tagged", Command::json_schema());
    insta::assert_json_snapshot!("generic_recursive", Page::<Folder>::json_schema());
    insta::assert_json_snapshot!("recursive_root", Folder::json_schema());
    insta::assert_json_snapshot!("serde_attributes", Document::json_schema());
    insta::assert_json_snapshot!("constraints", Constraints::json_schema());
}
