//! The test types of test_prompts: one of each shape a prompt has to describe.

// Test types exist for their schemas; their fields are never read.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashSet};

use serde_json::Value;
use toolschema::dialect::DialectSchema;
use toolschema::feedback::RepairPrompt;
use toolschema::{Dialect, Error, ToolSchema};

/// A person mentioned in the text.
#[derive(ToolSchema, Debug)]
pub struct Person {
    /// Full name, as written.
    name: String,
    #[schema(range(min = 0, max = 150), hint = "age in whole years")]
    age: u8,
    #[schema(format = "email")]
    email: Option<String>,
    tags: Vec<String>,
}

/// One line of an order.
#[derive(ToolSchema, Debug)]
pub struct Line {
    /// Stock-keeping unit.
    #[schema(
        pattern = "^[A-Z]-[0-9]+$",
        hint = "an SKU looks like A-100",
        example = "A-100"
    )]
    sku: String,
    #[schema(range(min = 1, max = 99))]
    quantity: u8,
    /// Price of one unit, in euros.
    #[schema(range(min = 0.0))]
    unit_price: f64,
}

#[derive(ToolSchema, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    Low,
    Normal,
    Urgent,
}

/// A customer's order.
#[derive(ToolSchema, Debug)]
pub struct Order {
    customer: String,
    priority: Priority,
    #[schema(length(min = 1, max = 20))]
    items: Vec<Line>,
    /// Delivery instructions.
    #[schema(length(max = 200))]
    note: Option<String>,
    #[schema(format = "date", example = "2024-05-01")]
    due: String,
    gift: bool,
}

/// One page of results.
#[derive(ToolSchema, Debug)]
pub struct Page<T> {
    items: Vec<T>,
    #[schema(range(min = 1, max = 100))]
    page_size: u32,
    /// Pass this back to get the next page; null on the last page.
    next_cursor: Option<String>,
}

/// A comment and its replies.
#[derive(ToolSchema, Debug)]
pub struct Comment {
    author: String,
    #[schema(length(min = 1, max = 500))]
    text: String,
    replies: Vec<Comment>,
}

/// A discussion thread.
#[derive(ToolSchema, Debug)]
pub struct Thread {
    title: String,
    first: Comment,
    pinned: Option<Comment>,
}

/// An arithmetic expression.
#[derive(ToolSchema, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Expr {
    Add(Operands),
    Neg(Box<Expr>),
    Num(f64),
}

/// The two sides of an operation.
#[derive(ToolSchema, Debug)]
pub struct Operands {
    left: Box<Expr>,
    right: Box<Expr>,
}

/// A shape to draw.
#[derive(ToolSchema, Debug)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Shape {
    /// A circle around the origin.
    Circle {
        #[schema(range(min = 0.0))]
        radius: f64,
    },
    Rectangle {
        width: f64,
        height: f64,
    },
    Point,
}

/// A device setting.
#[derive(ToolSchema, Debug)]
#[serde(tag = "kind", content = "value")]
pub enum Setting {
    Flag(bool),
    Level(u8),
    Reset,
}

/// A command for the robot.
#[derive(ToolSchema, Debug)]
pub enum Command {
    Stop,
    Move { x: i32, y: i32, speed: Option<f32> },
    Say(String),
    Jump(u8, u8),
}

/// A customer, by number or by name.
#[derive(ToolSchema, Debug)]
#[serde(untagged)]
pub enum Id {
    Number(u64),
    Name(String),
}

/// Stock levels per warehouse.
#[derive(ToolSchema, Debug)]
pub struct Inventory {
    sku: String,
    /// Units in stock, by warehouse code.
    levels: BTreeMap<String, u32>,
}

/// A calendar event.
#[derive(ToolSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    #[serde(alias = "name")]
    #[schema(length(min = 1, max = 80))]
    title: String,
    #[schema(bridge)]
    id: uuid::Uuid,
    #[schema(format = "date-time")]
    starts_at: String,
    #[schema(range(min = 5, max = 480), hint = "minutes, e.g. 30 for half an hour")]
    duration_minutes: u16,
    #[serde(default)]
    all_day: bool,
    attendees: HashSet<String>,
    #[schema(pattern = "^#[0-9a-f]{6}$")]
    color: Option<String>,
    room: char,
}

#[derive(ToolSchema, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    Celsius,
    Fahrenheit,
}

/// Arguments of the weather tool.
#[derive(ToolSchema, Debug)]
pub struct GetWeather {
    /// City name, e.g. "Paris".
    #[schema(hint = "a city, not a country")]
    city: String,
    unit: Option<Unit>,
    /// Days of forecast.
    #[schema(range(min = 1, max = 14))]
    days: u8,
}

/// What to do next: call a tool or answer the user.
#[derive(ToolSchema, Debug)]
pub enum Step {
    /// Look up the weather for a city.
    #[tool]
    GetWeather(GetWeather),
    /// Turn on the lights in a room.
    #[tool(name = "lights_on")]
    TurnOn {
        /// The room, as the user calls it.
        room: String,
        #[schema(range(min = 0, max = 100))]
        brightness: Option<u8>,
    },
    /// List the rooms of the house.
    #[tool]
    ListRooms,
    /// Reply to the user directly.
    #[answer]
    Answer(String),
}

/// One test type, with everything a test asks of it.
pub struct Case {
    pub name: &'static str,
    pub json_schema: fn() -> Value,
    pub compact: fn() -> String,
    pub example: fn() -> Value,
    pub accepts: fn(Value) -> Result<(), Error>,
    pub dialect: fn(Dialect) -> Result<DialectSchema, Error>,
    pub docs: fn() -> String,
    /// The repair prompt for a failed reply; `None` if the reply is fine.
    pub repair: fn(&str) -> Option<RepairPrompt>,
}

fn case<T: ToolSchema>(name: &'static str) -> Case {
    Case {
        name,
        json_schema: T::json_schema,
        compact: toolschema::render::compact::<T>,
        example: toolschema::render::example::<T>,
        accepts: |value| toolschema::from_value::<T>(value).map(drop),
        dialect: toolschema::dialect_schema::<T>,
        docs: toolschema::docs::markdown::<T>,
        repair: |raw| {
            let err = toolschema::parse::<T>(raw).err()?;
            Some(RepairPrompt::new::<T>(raw, &err))
        },
    }
}

/// Every test type.
pub fn cases() -> Vec<Case> {
    vec![
        case::<Person>("person"),
        case::<Order>("order"),
        case::<Page<Person>>("page_of_person"),
        case::<Comment>("recursive_root"),
        case::<Thread>("recursive_inside"),
        case::<Expr>("recursive_union"),
        case::<Shape>("internally_tagged"),
        case::<Setting>("adjacently_tagged"),
        case::<Command>("externally_tagged"),
        case::<Id>("untagged"),
        case::<Inventory>("free_map"),
        case::<Event>("attributes"),
        case::<Step>("tool_union"),
    ]
}

pub const DIALECTS: [Dialect; 4] = [
    Dialect::Strict,
    Dialect::OpenAiStrict,
    Dialect::Anthropic,
    Dialect::Gemini,
];
