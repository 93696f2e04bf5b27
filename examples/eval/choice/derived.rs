//! The tools arrays of `groups.rs` again, as unions derived in Rust, for the `derived` row.
//!
//! A case is asked through a derived union when its tools array is one of these groups'
//! arrays, equal as JSON; `--check` asserts that each union's tools have the JSON tools'
//! descriptions and arguments' schemas. Tools are named as the run-time union shows them
//! to the model (`weather_get_forecast`); values are written back under the names as the
//! server spells them (`weather.get_forecast`), which is what the cases expect.
//!
//! Optional parameters are `#[serde(default)]` values skipped when unset, not `Option`s:
//! a server's optional integer is `{"type": "integer"}`, not `["integer", "null"]`. An
//! unset value is one the parameter's range excludes (a count of 0), one no request means
//! (a black colour), or the documented default (`Units::Metric`), which the cases accept as
//! well as an absent argument.

use serde::{Serialize, Serializer};
use serde_json::Value;
use toolschema::ToolSchema;

use crate::agent_row::{AskFn, ask_as};
use crate::types::{answer, call};

/// A tools array that is also a derived union.
pub struct DerivedGroup {
    pub name: &'static str,
    pub tools: fn() -> Value,
    /// The union's JSON Schema.
    pub union: fn() -> Value,
    pub ask: AskFn,
    /// Reads a reply strictly as the union and writes it back under the servers' names.
    pub read: fn(&str) -> Result<Value, String>,
}

/// The three groups.
pub fn groups() -> [DerivedGroup; 3] {
    [
        group::<WeatherStep>("weather", super::groups::weather),
        group::<HomeStep>("home", super::groups::home),
        group::<KitchenStep>("kitchen", super::groups::kitchen),
    ]
}

/// The group whose tools array `tools` is, if any.
pub fn group_of(tools: &Value) -> Option<DerivedGroup> {
    groups().into_iter().find(|g| (g.tools)() == *tools)
}

fn group<T: ToolSchema + Serialize + Send>(
    name: &'static str,
    tools: fn() -> Value,
) -> DerivedGroup {
    DerivedGroup {
        name,
        tools,
        union: T::json_schema,
        ask: ask_as::<T>,
        read: read::<T>,
    }
}

fn read<T: ToolSchema + Serialize>(text: &str) -> Result<Value, String> {
    let value = toolschema::from_str::<T>(text).map_err(|e| e.to_string())?;
    serde_json::to_value(&value).map_err(|e| e.to_string())
}

fn unset<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

// The weather service.

#[derive(ToolSchema, Serialize, Debug, Default, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum Units {
    #[default]
    Metric,
    Imperial,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct GetForecast {
    /// The city, e.g. 'Lisbon' or 'Portland, Oregon'.
    pub city: String,
    /// Number of days to forecast, today included. Default is 1.
    #[serde(default, skip_serializing_if = "unset")]
    #[schema(range(min = 1, max = 14))]
    pub days: u8,
    /// Units of temperature and wind speed. Default is 'metric'.
    #[serde(default, skip_serializing_if = "unset")]
    pub units: Units,
    /// Whether to add an hour-by-hour breakdown. Default is false.
    #[serde(default, skip_serializing_if = "unset")]
    pub include_hourly: bool,
}

#[derive(ToolSchema, Serialize, Debug)]
pub enum Pollutant {
    #[serde(rename = "pm2_5")]
    Pm25,
    #[serde(rename = "pm10")]
    Pm10,
    #[serde(rename = "o3")]
    O3,
    #[serde(rename = "no2")]
    No2,
    #[serde(rename = "so2")]
    So2,
    #[serde(rename = "co")]
    Co,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct GetAirQuality {
    /// The city, e.g. 'Delhi'.
    pub city: String,
    /// The pollutants to report. Default is all of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pollutants: Vec<Pollutant>,
}

#[derive(ToolSchema, Serialize, Debug, Default, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Minor,
    #[default]
    Moderate,
    Severe,
    Extreme,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct GetAlerts {
    /// A region, state or country, e.g. 'Bavaria' or 'Florida'.
    pub region: String,
    /// The lowest severity to list. Default is 'moderate'.
    #[serde(default, skip_serializing_if = "unset")]
    pub min_severity: Severity,
}

#[derive(ToolSchema, Debug)]
pub enum WeatherStep {
    /// Returns the daily weather forecast for a city: high and low temperatures, chance of precipitation and wind. Forecasts reach up to 14 days ahead, starting today. Give the city as the user names it; add the region or country only when the user does.
    #[tool(name = "weather_get_forecast")]
    GetForecast(GetForecast),
    /// Returns the current air quality index (AQI) near a city and the concentration of each pollutant measured by the closest stations. Values are refreshed every hour.
    #[tool(name = "weather_get_air_quality")]
    GetAirQuality(GetAirQuality),
    /// Lists the severe weather warnings (storms, floods, heat waves, snow) in force for a region, as issued by its national weather service. Warnings below the given severity are left out.
    #[tool(name = "weather_get_alerts")]
    GetAlerts(GetAlerts),
    /// Reply to the user directly when no tool fits.
    #[answer]
    Answer(String),
}

impl Serialize for WeatherStep {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            WeatherStep::GetForecast(a) => call("weather.get_forecast", a).serialize(serializer),
            WeatherStep::GetAirQuality(a) => {
                call("weather.get_air_quality", a).serialize(serializer)
            }
            WeatherStep::GetAlerts(a) => call("weather.get_alerts", a).serialize(serializer),
            WeatherStep::Answer(text) => answer(text).serialize(serializer),
        }
    }
}

// The smart home.

#[derive(ToolSchema, Serialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Zone {
    LivingRoom,
    Bedroom,
    Kitchen,
    Office,
    Basement,
}

#[derive(ToolSchema, Serialize, Debug, Default, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum ThermostatMode {
    Heat,
    Cool,
    #[default]
    Auto,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct SetThermostat {
    /// The heating zone.
    pub zone: Zone,
    /// Target temperature in degrees Celsius.
    #[schema(range(min = 10, max = 30))]
    pub temperature: f64,
    /// Operating mode. Default is 'auto'.
    #[serde(default, skip_serializing_if = "unset")]
    pub mode: ThermostatMode,
}

#[derive(ToolSchema, Serialize, Debug, Default, PartialEq)]
pub struct Rgb {
    /// Red, 0 to 255.
    pub r: u8,
    /// Green, 0 to 255.
    pub g: u8,
    /// Blue, 0 to 255.
    pub b: u8,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct SetLights {
    /// The room, lowercase, e.g. 'kitchen'.
    pub room: String,
    /// true to turn the lights on, false to turn them off.
    pub on: bool,
    /// Brightness in percent, 1 to 100. Default keeps the current brightness.
    #[serde(default, skip_serializing_if = "unset")]
    #[schema(range(min = 1, max = 100))]
    pub brightness: u8,
    /// An RGB colour. Default keeps the current colour.
    // Black, which a lamp cannot show, stands for no colour given: an `Option` would be
    // `anyOf [object, null]`, where the server's optional object is a plain object.
    #[serde(default, skip_serializing_if = "unset")]
    pub color: Rgb,
}

#[derive(ToolSchema, Serialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Door {
    Front,
    Back,
    Garage,
    Patio,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct LockDoor {
    /// Which door.
    pub door: Door,
    /// true to lock, false to unlock.
    pub locked: bool,
}

#[derive(ToolSchema, Debug)]
pub enum HomeStep {
    /// Sets the target temperature of one heating zone. Temperatures are in degrees Celsius between 10 and 30; convert Fahrenheit before calling. The change takes effect within a minute.
    #[tool(name = "home_set_thermostat")]
    SetThermostat(SetThermostat),
    /// Turns the lights of a room on or off, and can set their brightness and colour. Settings not given keep their current values.
    #[tool(name = "home_set_lights")]
    SetLights(SetLights),
    /// Locks or unlocks a smart door lock. Unlocking the front door also disarms the alarm.
    #[tool(name = "home_lock_door")]
    LockDoor(LockDoor),
    /// Reply to the user directly when no tool fits.
    #[answer]
    Answer(String),
}

impl Serialize for HomeStep {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            HomeStep::SetThermostat(a) => call("home.set_thermostat", a).serialize(serializer),
            HomeStep::SetLights(a) => call("home.set_lights", a).serialize(serializer),
            HomeStep::LockDoor(a) => call("home.lock_door", a).serialize(serializer),
            HomeStep::Answer(text) => answer(text).serialize(serializer),
        }
    }
}

// The kitchen assistant.

#[derive(ToolSchema, Serialize, Debug, Default, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Diet {
    #[default]
    None,
    Vegetarian,
    Vegan,
    GlutenFree,
    Keto,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct SearchRecipes {
    /// Ingredients the recipe must use.
    pub ingredients: Vec<String>,
    /// A dietary restriction. Default is 'none'.
    #[serde(default, skip_serializing_if = "unset")]
    pub diet: Diet,
    /// The longest total time in minutes. Default is no limit.
    #[serde(default, skip_serializing_if = "unset")]
    #[schema(range(min = 5, max = 600))]
    pub max_minutes: u16,
    /// How many recipes to return. Default is 5.
    #[serde(default, skip_serializing_if = "unset")]
    #[schema(range(min = 1, max = 20))]
    pub limit: u8,
}

#[derive(ToolSchema, Serialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum CookingUnit {
    Cup,
    Tablespoon,
    Teaspoon,
    Milliliter,
    Liter,
    Gram,
    Kilogram,
    Ounce,
    Pound,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct ConvertUnits {
    /// The quantity to convert.
    pub amount: f64,
    /// The unit the quantity is in.
    pub from_unit: CookingUnit,
    /// The unit wanted.
    pub to_unit: CookingUnit,
    /// The ingredient, e.g. 'flour'; only between volume and weight.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ingredient: String,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct SetTimer {
    /// Duration in minutes; fractions allowed, e.g. 1.5.
    #[schema(range(min = 0.1, max = 720))]
    pub minutes: f64,
    /// A short label, e.g. 'pasta'. Default is 'timer'.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub label: String,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct GroceryItem {
    /// The item, e.g. 'oat milk'.
    pub name: String,
    /// How many or how much.
    pub quantity: f64,
    /// The unit, e.g. 'liter' or 'pack'; empty for a count.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub unit: String,
}

#[derive(ToolSchema, Serialize, Debug)]
pub struct AddGroceries {
    /// The items to add.
    pub items: Vec<GroceryItem>,
}

#[derive(ToolSchema, Debug)]
pub enum KitchenStep {
    /// Searches the recipe collection by ingredients and constraints and returns the best matches first. Ingredients match loosely: 'tomato' also finds 'cherry tomatoes'.
    #[tool(name = "recipes_search")]
    SearchRecipes(SearchRecipes),
    /// Converts a cooking quantity from one unit to another. Between volume and weight the ingredient is needed, to look up its density.
    #[tool(name = "kitchen_convert_units")]
    ConvertUnits(ConvertUnits),
    /// Starts a timer on the kitchen display. Several timers can run at once; a label tells them apart.
    #[tool(name = "kitchen_set_timer")]
    SetTimer(SetTimer),
    /// Adds items to the household's shared grocery list. Items already on the list get the quantities added up.
    #[tool(name = "grocery_add_items")]
    AddGroceries(AddGroceries),
    /// Reply to the user directly when no tool fits.
    #[answer]
    Answer(String),
}

impl Serialize for KitchenStep {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            KitchenStep::SearchRecipes(a) => call("recipes.search", a).serialize(serializer),
            KitchenStep::ConvertUnits(a) => call("kitchen.convert_units", a).serialize(serializer),
            KitchenStep::SetTimer(a) => call("kitchen.set_timer", a).serialize(serializer),
            KitchenStep::AddGroceries(a) => call("grocery.add_items", a).serialize(serializer),
            KitchenStep::Answer(text) => answer(text).serialize(serializer),
        }
    }
}
