//! The run-time tools of `--set runtime`, twice: as JSON, the way a Home Assistant bridge
//! and two MCP servers hand them over, and as a derived union written to match.
//!
//! - `home`: Home Assistant-style intents as an OpenAI `tools` array (`HassTurnOn`, …);
//! - `time`: an MCP `tools/list` result (`get_current_time`, `convert_time`), namespaced by
//!   the client (`time.get_current_time`);
//! - `notes`: an MCP server whose tools are named `notes/add note` and `notes/search`.
//!
//! [`RuntimeStep`] is the same union derived in Rust. Its tools are named as the run-time
//! union shows them to the model (`time_get_current_time`), so both paths show the model
//! the same names; its values are written back with the names as the servers spell them,
//! which is what the tasks expect. Both are kept in this file so they change together;
//! `runtime_check.rs` asserts that their arguments' schemas are equal.
//!
//! Optional fields are `#[serde(default)]` values rather than `Option`s: a server's
//! optional string is `{"type": "string"}`, not `["string", "null"]`.

use std::sync::LazyLock;

use serde::{Serialize, Serializer};
use serde_json::{Value, json};
use toolschema::{Choice, ToolSchema, Toolset};

use crate::types::{answer, call};

/// The Home Assistant-style intents, as an OpenAI `tools` array.
pub fn home_tools() -> Value {
    let target = |description: &str| {
        json!({"type": "function", "function": {
            "name": "",
            "description": description,
            "parameters": {
                "type": "object",
                "properties": {
                    "name": {"description": "The name of one device, only when the user names one.", "type": "string"},
                    "area": {"description": "The area (room) in lowercase, when the user names one.", "type": "string"},
                    "domain": {"description": "The kinds of device meant, when the user says which.", "type": "array", "items": {"type": "string", "enum": ["light", "switch", "fan", "cover", "media_player"]}},
                    "device_class": {"description": "Narrower classes of device, when the user says which.", "type": "array", "items": {"type": "string", "enum": ["outlet", "tv", "speaker", "blind", "curtain", "garage"]}}
                },
                "additionalProperties": false
            }
        }})
    };
    let mut turn_on = target("Turns on, opens or starts devices.");
    turn_on["function"]["name"] = json!("HassTurnOn");
    let mut turn_off = target("Turns off, closes or stops devices.");
    turn_off["function"]["name"] = json!("HassTurnOff");
    json!([
        turn_on,
        turn_off,
        {"type": "function", "function": {
            "name": "HassLightSet",
            "description": "Sets the brightness of lights.",
            "parameters": {
                "type": "object",
                "properties": {
                    "name": {"description": "The name of one light, only when the user names one.", "type": "string"},
                    "area": {"description": "The area (room) in lowercase, when the user names one.", "type": "string"},
                    "brightness": {"description": "Brightness in percent.", "type": "integer", "minimum": 0, "maximum": 100}
                },
                "required": ["brightness"],
                "additionalProperties": false
            }
        }},
        {"type": "function", "function": {
            "name": "HassClimateSetTemperature",
            "description": "Sets the target temperature of a thermostat.",
            "parameters": {
                "type": "object",
                "properties": {
                    "name": {"description": "The name of one thermostat, only when the user names one.", "type": "string"},
                    "area": {"description": "The area (room) in lowercase, when the user names one.", "type": "string"},
                    "temperature": {"description": "Degrees Celsius.", "type": "number", "minimum": 5, "maximum": 30}
                },
                "required": ["temperature"],
                "additionalProperties": false
            }
        }},
        {"type": "function", "function": {
            "name": "HassListAddItem",
            "description": "Adds an item to a list.",
            "parameters": {
                "type": "object",
                "properties": {
                    "item": {"description": "The item, as the user words it.", "type": "string"},
                    "name": {"description": "The list.", "type": "string", "enum": ["shopping", "todo"]}
                },
                "required": ["item", "name"],
                "additionalProperties": false
            }
        }}
    ])
}

/// A time server's `tools/list` result, after the fashion of `mcp-server-time`.
pub fn time_tools() -> Value {
    let zone = |role: &str| json!({"description": format!("IANA time zone name of the {role}, e.g. 'Europe/Warsaw'."), "type": "string"});
    json!({"tools": [
        {
            "name": "get_current_time",
            "description": "Get the current time in a time zone.",
            "inputSchema": {
                "type": "object",
                "properties": {"timezone": zone("place asked about")},
                "required": ["timezone"],
                "additionalProperties": false
            }
        },
        {
            "name": "convert_time",
            "description": "Convert a time of day from one time zone to another.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "source_timezone": zone("time given"),
                    "time": {"description": "The time of day, 24-hour HH:MM.", "type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"},
                    "target_timezone": zone("time wanted")
                },
                "required": ["source_timezone", "time", "target_timezone"],
                "additionalProperties": false
            }
        }
    ]})
}

/// A notes server's `tools/list` result: names with a slash and a space.
pub fn notes_tools() -> Value {
    json!({"tools": [
        {
            "name": "notes/add note",
            "description": "Save a note.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "title": {"description": "The note's title, as written.", "type": "string"},
                    "body": {"description": "The note's text, as written.", "type": "string"},
                    "tags": {"description": "Tags, only when the user gives some.", "type": "array", "items": {"type": "string"}}
                },
                "required": ["title", "body"],
                "additionalProperties": false
            }
        },
        {
            "name": "notes/search",
            "description": "Search the saved notes.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "query": {"description": "Words to look for.", "type": "string"},
                    "limit": {"description": "The most notes to return, only when the user says.", "type": "integer", "minimum": 1, "maximum": 20}
                },
                "required": ["query"],
                "additionalProperties": false
            }
        }
    ]})
}

/// The three lists as one run-time union with a direct answer.
pub fn build() -> Result<Toolset, toolschema::Error> {
    Toolset::from_openai_tools(&home_tools())?
        .merge(Toolset::from_mcp_tools(&time_tools())?.namespaced("time"))?
        .merge(Toolset::from_mcp_tools(&notes_tools())?)
        .map(Toolset::with_answer)
}

/// The set, built once; `runtime_check::problems` has reported a set that does not build
/// before any row runs.
pub static TOOLS: LazyLock<Toolset> =
    LazyLock::new(|| build().expect("the run-time tools load (checked before any row runs)"));

/// Every tool as the server spells it, its description and its input schema, in order.
pub fn json_tools() -> Vec<(String, Value, Value)> {
    let home = home_tools();
    let home = home.as_array().into_iter().flatten().map(|t| {
        let f = &t["function"];
        (
            f["name"].as_str().unwrap_or_default().to_owned(),
            f["description"].clone(),
            f["parameters"].clone(),
        )
    });
    let mcp = |list: Value, prefix: &str| -> Vec<(String, Value, Value)> {
        list["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| {
                let name = t["name"].as_str().unwrap_or_default();
                (
                    format!("{prefix}{name}"),
                    t["description"].clone(),
                    t["inputSchema"].clone(),
                )
            })
            .collect()
    };
    home.chain(mcp(time_tools(), "time."))
        .chain(mcp(notes_tools(), ""))
        .collect()
}

/// The union a naive loop writes from the same lists: one alternative per tool with the
/// server's name as a constant and its input schema as the arguments, and the answer.
pub fn naive_schema() -> Value {
    let mut alternatives: Vec<Value> = json_tools()
        .into_iter()
        .map(|(name, description, schema)| {
            json!({
                "description": description,
                "type": "object",
                "properties": {"name": {"const": name}, "arguments": schema},
                "required": ["name", "arguments"],
                "additionalProperties": false
            })
        })
        .collect();
    alternatives.push(json!({
        "description": "Reply to the user directly when no tool fits.",
        "type": "object",
        "properties": {"answer": {"type": "string"}},
        "required": ["answer"],
        "additionalProperties": false
    }));
    json!({"oneOf": alternatives})
}

/// A run-time choice as the tasks write it: a call under the server's name, several calls
/// as a list, or the answer.
pub fn choice_json(choice: &Choice) -> Value {
    match choice {
        Choice::Answer(text) => json!({ "answer": text }),
        Choice::Calls(calls) => {
            let mut calls: Vec<Value> = calls
                .iter()
                .map(|c| json!({ "name": c.name(), "arguments": c.arguments() }))
                .collect();
            if calls.len() == 1 {
                calls.remove(0)
            } else {
                Value::Array(calls)
            }
        }
    }
}

#[derive(ToolSchema, Serialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Domain {
    Light,
    Switch,
    Fan,
    Cover,
    MediaPlayer,
}

#[derive(ToolSchema, Serialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum DeviceClass {
    Outlet,
    Tv,
    Speaker,
    Blind,
    Curtain,
    Garage,
}

// The arguments of `HassTurnOn`; `HassTurnOff` takes the same. Two types rather than one
// shared: a shared type is named once in prompts (`type Target = …`), where the JSON
// tools repeat the schema, and the prompts of both unions would differ.
#[derive(ToolSchema, Serialize, Debug)]
pub struct HassTurnOn {
    /// The name of one device, only when the user names one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The area (room) in lowercase, when the user names one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub area: String,
    /// The kinds of device meant, when the user says which.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub domain: Vec<Domain>,
    /// Narrower classes of device, when the user says which.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub device_class: Vec<DeviceClass>,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct HassTurnOff {
    /// The name of one device, only when the user names one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The area (room) in lowercase, when the user names one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub area: String,
    /// The kinds of device meant, when the user says which.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub domain: Vec<Domain>,
    /// Narrower classes of device, when the user says which.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub device_class: Vec<DeviceClass>,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct HassLightSet {
    /// The name of one light, only when the user names one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The area (room) in lowercase, when the user names one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub area: String,
    /// Brightness in percent.
    #[schema(range(min = 0, max = 100))]
    pub brightness: u8,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct HassClimateSetTemperature {
    /// The name of one thermostat, only when the user names one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The area (room) in lowercase, when the user names one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub area: String,
    /// Degrees Celsius.
    #[schema(range(min = 5, max = 30))]
    pub temperature: f64,
}

#[derive(ToolSchema, Serialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum ListName {
    Shopping,
    Todo,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct HassListAddItem {
    /// The item, as the user words it.
    pub item: String,
    /// The list.
    pub name: ListName,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct TimeGetCurrentTime {
    /// IANA time zone name of the place asked about, e.g. 'Europe/Warsaw'.
    pub timezone: String,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct TimeConvertTime {
    /// IANA time zone name of the time given, e.g. 'Europe/Warsaw'.
    pub source_timezone: String,
    /// The time of day, 24-hour HH:MM.
    #[schema(pattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$")]
    pub time: String,
    /// IANA time zone name of the time wanted, e.g. 'Europe/Warsaw'.
    pub target_timezone: String,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct NotesAddNote {
    /// The note's title, as written.
    pub title: String,
    /// The note's text, as written.
    pub body: String,
    /// Tags, only when the user gives some.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

fn no_limit(limit: &u8) -> bool {
    *limit == 0
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct NotesSearch {
    /// Words to look for.
    pub query: String,
    /// The most notes to return, only when the user says.
    #[serde(default, skip_serializing_if = "no_limit")]
    #[schema(range(min = 1, max = 20))]
    pub limit: u8,
}

/// The run-time tools derived in Rust, under the names the model is shown.
#[derive(ToolSchema, Debug)]
pub enum RuntimeStep {
    /// Turns on, opens or starts devices.
    #[tool(name = "HassTurnOn")]
    HassTurnOn(HassTurnOn),
    /// Turns off, closes or stops devices.
    #[tool(name = "HassTurnOff")]
    HassTurnOff(HassTurnOff),
    /// Sets the brightness of lights.
    #[tool(name = "HassLightSet")]
    HassLightSet(HassLightSet),
    /// Sets the target temperature of a thermostat.
    #[tool(name = "HassClimateSetTemperature")]
    HassClimateSetTemperature(HassClimateSetTemperature),
    /// Adds an item to a list.
    #[tool(name = "HassListAddItem")]
    HassListAddItem(HassListAddItem),
    /// Get the current time in a time zone.
    #[tool(name = "time_get_current_time")]
    TimeGetCurrentTime(TimeGetCurrentTime),
    /// Convert a time of day from one time zone to another.
    #[tool(name = "time_convert_time")]
    TimeConvertTime(TimeConvertTime),
    /// Save a note.
    #[tool(name = "notes_add_note")]
    NotesAddNote(NotesAddNote),
    /// Search the saved notes.
    #[tool(name = "notes_search")]
    NotesSearch(NotesSearch),
    /// Reply to the user directly when no tool fits.
    #[answer]
    Answer(String),
}

/// Written back under the names as the servers spell them.
impl Serialize for RuntimeStep {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            RuntimeStep::HassTurnOn(a) => call("HassTurnOn", a).serialize(serializer),
            RuntimeStep::HassTurnOff(a) => call("HassTurnOff", a).serialize(serializer),
            RuntimeStep::HassLightSet(a) => call("HassLightSet", a).serialize(serializer),
            RuntimeStep::HassClimateSetTemperature(a) => {
                call("HassClimateSetTemperature", a).serialize(serializer)
            }
            RuntimeStep::HassListAddItem(a) => call("HassListAddItem", a).serialize(serializer),
            RuntimeStep::TimeGetCurrentTime(a) => {
                call("time.get_current_time", a).serialize(serializer)
            }
            RuntimeStep::TimeConvertTime(a) => call("time.convert_time", a).serialize(serializer),
            RuntimeStep::NotesAddNote(a) => call("notes/add note", a).serialize(serializer),
            RuntimeStep::NotesSearch(a) => call("notes/search", a).serialize(serializer),
            RuntimeStep::Answer(text) => answer(text).serialize(serializer),
        }
    }
}
