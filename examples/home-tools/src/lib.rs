//! The tools of a home assistant: weather, thermostats, lights, devices and routines, as
//! one union of tool calls and a direct answer. The `tool-docs` example renders their
//! Markdown docs at build time, which is why these types live in a crate of their own: a
//! build script can use a dependency's types, not those of the crate it builds.
//!
//! ```
//! use home_tools::{HomeStep, Unit};
//!
//! let step: HomeStep = toolschema::from_str(
//!     r#"{"name": "get_weather", "arguments": {"location": "Lyon, FR", "days": 3, "unit": "celsius"}}"#,
//! )?;
//! assert!(matches!(step, HomeStep::GetWeather(w) if w.days == Some(3) && w.unit == Some(Unit::Celsius)));
//! # Ok::<(), toolschema::Error>(())
//! ```

use std::collections::BTreeSet;

use toolschema::ToolSchema;

/// One step of the home assistant: call a tool, or answer the user.
#[derive(ToolSchema, Debug, Clone, PartialEq)]
#[schema(dialect = "openai_strict")]
pub enum HomeStep {
    /// Current conditions and a daily forecast for a place.
    #[tool]
    GetWeather(GetWeather),
    /// Set the target temperature and mode of a room's thermostat.
    #[tool]
    SetThermostat(SetThermostat),
    /// Switch the lights of a room on or off, optionally dimmed.
    #[tool]
    SetLights(SetLights),
    /// List the devices the home knows, to learn room and device names.
    #[tool]
    ListDevices(ListDevices),
    /// Create a routine that runs a scene at a time of day on chosen weekdays.
    #[tool]
    ScheduleRoutine(ScheduleRoutine),
    /// Reply to the user when no tool is needed, or after the tools have answered.
    #[answer]
    Answer(Reply),
}

/// The arguments of `get_weather`.
#[derive(ToolSchema, Debug, Clone, PartialEq)]
#[schema(dialect = "openai_strict")]
pub struct GetWeather {
    /// City, optionally with a country code.
    #[schema(
        length(min = 2, max = 80),
        example = "Lyon, FR",
        hint = "a city name, not a region or a country; add the country code when the city name is ambiguous"
    )]
    pub location: String,
    /// Days of forecast, today included; today only when left out.
    #[schema(range(min = 1, max = 7), example = 3)]
    pub days: Option<u8>,
    /// Unit of the temperatures in the reply; the home's unit when left out.
    pub unit: Option<Unit>,
}

/// A unit of temperature.
#[derive(ToolSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    Celsius,
    Fahrenheit,
}

/// The arguments of `set_thermostat`.
#[derive(ToolSchema, Debug, Clone, PartialEq)]
#[schema(dialect = "openai_strict")]
pub struct SetThermostat {
    /// The room id, as `list_devices` names it.
    #[schema(
        pattern = "^[a-z][a-z0-9_]*$",
        example = "living_room",
        hint = "a room id from list_devices: lowercase letters, digits and underscores"
    )]
    pub room: String,
    /// Target temperature in degrees Celsius.
    #[schema(
        range(min = 5, max = 30),
        example = 21.5,
        hint = "degrees Celsius between 5 and 30; convert from Fahrenheit first"
    )]
    pub target_celsius: f64,
    pub mode: ThermostatMode,
}

/// What the thermostat does to reach its target.
#[derive(ToolSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ThermostatMode {
    Heat,
    Cool,
    Auto,
    Off,
}

/// The arguments of `set_lights`.
#[derive(ToolSchema, Debug, Clone, PartialEq)]
#[schema(dialect = "openai_strict")]
pub struct SetLights {
    /// The room id, as `list_devices` names it.
    #[schema(
        pattern = "^[a-z][a-z0-9_]*$",
        example = "kitchen",
        hint = "a room id from list_devices: lowercase letters, digits and underscores"
    )]
    pub room: String,
    /// `true` to switch on, `false` to switch off.
    pub on: bool,
    /// Brightness in percent; the last brightness when left out.
    #[schema(
        range(min = 1, max = 100),
        example = 80,
        hint = "a whole percentage from 1 to 100; use on = false to switch off"
    )]
    pub brightness_percent: Option<u8>,
}

/// The arguments of `list_devices`.
#[derive(ToolSchema, Debug, Clone, PartialEq)]
#[schema(dialect = "openai_strict")]
pub struct ListDevices {
    /// Only the devices of this room; every room when left out.
    #[schema(pattern = "^[a-z][a-z0-9_]*$", example = "bedroom")]
    pub room: Option<String>,
    /// Only devices of these kinds; every kind when left out.
    pub kinds: Option<Vec<DeviceKind>>,
}

/// A kind of device.
#[derive(ToolSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum DeviceKind {
    Light,
    Thermostat,
    Sensor,
    Plug,
    Lock,
}

/// The arguments of `schedule_routine`.
#[derive(ToolSchema, Debug, Clone, PartialEq)]
#[schema(dialect = "openai_strict")]
pub struct ScheduleRoutine {
    /// A short name the user will recognise.
    #[schema(length(min = 1, max = 40), example = "Weekday wake-up")]
    pub name: String,
    /// The scene to run, as the home's app names it.
    #[schema(length(min = 1, max = 40), example = "morning")]
    pub scene: String,
    /// Local time of day, 24-hour clock.
    #[schema(
        pattern = "^([01][0-9]|2[0-3]):[0-5][0-9]$",
        example = "06:45",
        hint = "24-hour time as HH:MM, e.g. 06:45 or 18:30"
    )]
    pub at: String,
    /// The days it runs on, each once.
    #[schema(
        length(min = 1, max = 7),
        hint = "one to seven different weekdays, e.g. [\"monday\", \"friday\"]"
    )]
    pub days: BTreeSet<Weekday>,
}

/// A day of the week.
#[derive(ToolSchema, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Weekday {
    Monday,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
    Saturday,
    Sunday,
}

/// The answer to the user.
#[derive(ToolSchema, Debug, Clone, PartialEq)]
#[schema(dialect = "openai_strict")]
pub struct Reply {
    /// What to tell the user, in one or two sentences.
    #[schema(
        length(min = 1, max = 600),
        example = "The living room is set to 21.5 °C."
    )]
    pub text: String,
}
