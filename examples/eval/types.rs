//! The types the tasks ask for: ten records and two unions of tools.
//!
//! Each derives `ToolSchema` (the schema every row sends, the type `Agent::ask` returns)
//! and `Serialize` (how a returned value is compared with the expected JSON). A union's
//! JSON form is `{"name": ..., "arguments": ...}` or `{"answer": ...}`, which serde's
//! derive cannot write, so unions serialize by hand through [`call`] and [`answer`].

use serde::{Serialize, Serializer};
use toolschema::ToolSchema;

/// A person to get in touch with.
#[derive(ToolSchema, Serialize, Debug)]
pub struct Contact {
    /// Full name, as written, without titles.
    pub name: String,
    #[schema(format = "email")]
    pub email: Option<String>,
    /// Phone number in international form: a plus sign, then digits only.
    #[schema(pattern = r"^\+\d{7,15}$")]
    pub phone: Option<String>,
    /// The company they work for, if one is named.
    pub company: Option<String>,
}

/// A meeting to put in the calendar.
#[derive(ToolSchema, Serialize, Debug)]
pub struct Meeting {
    /// The meeting's name, as written.
    pub title: String,
    /// The day, as YYYY-MM-DD.
    #[schema(pattern = r"^\d{4}-\d{2}-\d{2}$")]
    pub date: String,
    /// Start time on the 24-hour clock, as HH:MM.
    #[schema(pattern = r"^\d{2}:\d{2}$")]
    pub start: String,
    /// The people invited besides the writer, by the names written.
    pub attendees: Vec<String>,
    /// The room, if one is named.
    pub room: Option<String>,
}

#[derive(ToolSchema, Serialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Sentiment {
    Positive,
    Neutral,
    Negative,
    Mixed,
}

#[derive(ToolSchema, Serialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Topic {
    Quality,
    Delivery,
    Price,
    Support,
}

/// How a customer felt about a purchase.
#[derive(ToolSchema, Serialize, Debug)]
pub struct Review {
    pub sentiment: Sentiment,
    /// Stars given, 1 to 5.
    #[schema(range(min = 1, max = 5))]
    pub stars: u8,
    /// What the review is mainly about.
    pub topic: Topic,
}

/// A postal address.
#[derive(ToolSchema, Serialize, Debug)]
pub struct Address {
    /// Street and house number, as written.
    pub street: String,
    /// The postal code as written, if given.
    #[schema(pattern = r"^[A-Z0-9][A-Z0-9 -]{2,9}$")]
    pub postal_code: Option<String>,
    pub city: String,
    /// ISO 3166-1 alpha-2 country code, e.g. FR.
    #[schema(pattern = "^[A-Z]{2}$")]
    pub country: String,
}

/// One line of an order.
#[derive(ToolSchema, Serialize, Debug)]
pub struct OrderLine {
    /// Stock code: three capital letters, a dash, four digits.
    #[schema(pattern = r"^[A-Z]{3}-\d{4}$")]
    pub sku: String,
    #[schema(range(min = 1))]
    pub quantity: u32,
}

#[derive(ToolSchema, Serialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Shipping {
    Standard,
    Express,
    Pickup,
}

/// A purchase order.
#[derive(ToolSchema, Serialize, Debug)]
pub struct Order {
    pub lines: Vec<OrderLine>,
    pub shipping: Shipping,
}

#[derive(ToolSchema, Serialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Measure {
    Gram,
    Milliliter,
    Piece,
    Teaspoon,
    Tablespoon,
}

/// One ingredient of a recipe.
#[derive(ToolSchema, Serialize, Debug)]
pub struct Ingredient {
    /// The ingredient, as written.
    pub name: String,
    #[schema(range(min = 0))]
    pub amount: f64,
    pub unit: Measure,
}

/// A recipe's servings and ingredients.
#[derive(ToolSchema, Serialize, Debug)]
pub struct Recipe {
    /// How many people it serves.
    #[schema(range(min = 1, max = 20))]
    pub servings: u8,
    pub ingredients: Vec<Ingredient>,
}

#[derive(ToolSchema, Serialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Low,
    Medium,
    High,
    Critical,
}

#[derive(ToolSchema, Serialize, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Component {
    Billing,
    Login,
    Search,
    MobileApp,
}

/// A bug report from a customer.
#[derive(ToolSchema, Serialize, Debug)]
pub struct Ticket {
    /// The customer's account id, as written.
    #[schema(format = "uuid")]
    pub account: String,
    pub severity: Severity,
    /// The part of the product that fails.
    pub component: Component,
    /// A link to the problem, if one is given.
    #[schema(format = "uri")]
    pub link: Option<String>,
}

/// A flight booking.
#[derive(ToolSchema, Serialize, Debug)]
pub struct Flight {
    /// Airline code and number without spaces, like LH1234.
    #[schema(pattern = r"^[A-Z0-9]{2}\d{1,4}$")]
    pub flight: String,
    /// Departure airport, IATA code.
    #[schema(pattern = "^[A-Z]{3}$")]
    pub from: String,
    /// Arrival airport, IATA code.
    #[schema(pattern = "^[A-Z]{3}$")]
    pub to: String,
    /// Day of departure.
    #[schema(format = "date")]
    pub date: String,
    /// Seat like 12A, if one is chosen.
    #[schema(pattern = r"^\d{1,2}[A-K]$")]
    pub seat: Option<String>,
}

#[derive(ToolSchema, Serialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Travel,
    Meals,
    Lodging,
    Office,
    Software,
}

/// An expense to reimburse.
#[derive(ToolSchema, Serialize, Debug)]
pub struct Expense {
    /// The amount in units of the currency, like 12.5.
    #[schema(range(min = 0))]
    pub amount: f64,
    /// ISO 4217 currency code, like EUR.
    #[schema(pattern = "^[A-Z]{3}$")]
    pub currency: String,
    pub category: Category,
    /// Day of the expense.
    #[schema(format = "date")]
    pub date: String,
    /// Who was paid, if named.
    pub merchant: Option<String>,
}

/// A new employee.
#[derive(ToolSchema, Serialize, Debug)]
pub struct Hire {
    /// Full name, as written.
    pub name: String,
    /// First working day.
    #[schema(format = "date")]
    pub date: String,
    /// Job title, as written.
    pub role: String,
    /// Their manager's full name, if given.
    pub manager: Option<String>,
    /// Work email, if given.
    #[schema(format = "email")]
    pub email: Option<String>,
}

/// Arguments of the lights tool.
#[derive(ToolSchema, Serialize, Debug)]
pub struct SetLights {
    /// The room, as the user calls it.
    pub room: String,
    pub on: bool,
    /// Brightness in percent, only if the user asks for one.
    #[schema(range(min = 0, max = 100))]
    pub brightness: Option<u8>,
}

/// Arguments of the thermostat tool.
#[derive(ToolSchema, Serialize, Debug)]
pub struct SetThermostat {
    /// The room, as the user calls it.
    pub room: String,
    #[schema(range(min = 5, max = 30))]
    pub celsius: f64,
}

#[derive(ToolSchema, Serialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum ListName {
    Shopping,
    Todo,
}

/// Arguments of the list tool.
#[derive(ToolSchema, Serialize, Debug)]
pub struct AddToList {
    pub list: ListName,
    /// The items, as the user words them.
    pub items: Vec<String>,
}

/// One step of a home assistant: a tool call or a direct answer.
#[derive(ToolSchema, Debug)]
pub enum HomeStep {
    /// Turn the lights of a room on or off, or dim them.
    #[tool]
    SetLights(SetLights),
    /// Set the target temperature of a room.
    #[tool]
    SetThermostat(SetThermostat),
    /// Add items to the shopping list or the to-do list.
    #[tool]
    AddToList(AddToList),
    /// Reply to the user directly when no tool fits.
    #[answer]
    Answer(String),
}

impl Serialize for HomeStep {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            HomeStep::SetLights(a) => call("set_lights", a).serialize(serializer),
            HomeStep::SetThermostat(a) => call("set_thermostat", a).serialize(serializer),
            HomeStep::AddToList(a) => call("add_to_list", a).serialize(serializer),
            HomeStep::Answer(text) => answer(text).serialize(serializer),
        }
    }
}

/// Arguments of the flight search tool.
#[derive(ToolSchema, Serialize, Debug)]
pub struct SearchFlights {
    /// Departure airport, IATA code.
    #[schema(pattern = "^[A-Z]{3}$")]
    pub from: String,
    /// Arrival airport, IATA code.
    #[schema(pattern = "^[A-Z]{3}$")]
    pub to: String,
    #[schema(format = "date")]
    pub date: String,
}

/// Arguments of the currency tool.
#[derive(ToolSchema, Serialize, Debug)]
pub struct ConvertCurrency {
    #[schema(range(min = 0))]
    pub amount: f64,
    /// ISO 4217 code of the currency held.
    #[schema(pattern = "^[A-Z]{3}$")]
    pub from: String,
    /// ISO 4217 code of the currency wanted.
    #[schema(pattern = "^[A-Z]{3}$")]
    pub to: String,
}

#[derive(ToolSchema, Serialize, Debug)]
#[serde(rename_all = "lowercase")]
pub enum TemperatureUnit {
    Celsius,
    Fahrenheit,
}

/// Arguments of the weather tool.
#[derive(ToolSchema, Serialize, Debug)]
pub struct GetWeather {
    /// The city, e.g. Paris.
    pub city: String,
    pub unit: TemperatureUnit,
}

/// One step of a travel assistant: a tool call or a direct answer.
#[derive(ToolSchema, Debug)]
pub enum TravelStep {
    /// Find flights between two airports on a day.
    #[tool]
    SearchFlights(SearchFlights),
    /// Convert an amount of money from one currency to another.
    #[tool]
    ConvertCurrency(ConvertCurrency),
    /// Look up the current weather in a city.
    #[tool]
    GetWeather(GetWeather),
    /// Reply to the user directly when no tool fits.
    #[answer]
    Answer(String),
}

impl Serialize for TravelStep {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            TravelStep::SearchFlights(a) => call("search_flights", a).serialize(serializer),
            TravelStep::ConvertCurrency(a) => call("convert_currency", a).serialize(serializer),
            TravelStep::GetWeather(a) => call("get_weather", a).serialize(serializer),
            TravelStep::Answer(text) => answer(text).serialize(serializer),
        }
    }
}

/// A tool call in a union's JSON form.
#[derive(Serialize)]
pub struct Call<'a, A> {
    name: &'static str,
    arguments: &'a A,
}

/// The direct answer in a union's JSON form.
#[derive(Serialize)]
pub struct Answer<'a> {
    answer: &'a str,
}

pub fn call<'a, A: Serialize>(name: &'static str, arguments: &'a A) -> Call<'a, A> {
    Call { name, arguments }
}

pub fn answer(text: &str) -> Answer<'_> {
    Answer { answer: text }
}

/// What the rows need to know about one of these types.
#[derive(Clone, Copy)]
pub struct AnswerType {
    /// The type's name: the instructor row's function name, the report's grouping.
    pub name: &'static str,
    /// A union of tools: any direct answer counts as right when an answer was expected.
    pub union: bool,
    /// The type's JSON Schema, as `T::json_schema()` gives it.
    pub schema: fn() -> serde_json::Value,
    /// Reads JSON strictly as the type and writes the value back: the check that an
    /// expected answer is one the type can hold, written the way the rows' values are.
    pub roundtrip: fn(&serde_json::Value) -> Result<serde_json::Value, String>,
    /// `Agent::ask` for the type, the value written back as JSON.
    pub ask: crate::agent_row::AskFn,
    /// `Agent::ask_tools` on the same union given as JSON at run time, when the task
    /// has one (`--set runtime`); calls written back under the servers' names.
    pub ask_tools: Option<crate::agent_row::AskFn>,
}

impl AnswerType {
    pub fn record<T: ToolSchema + Serialize + Send>(name: &'static str) -> Self {
        AnswerType {
            name,
            union: false,
            schema: T::json_schema,
            roundtrip: roundtrip::<T>,
            ask: crate::agent_row::ask_as::<T>,
            ask_tools: None,
        }
    }

    pub fn union<T: ToolSchema + Serialize + Send>(name: &'static str) -> Self {
        AnswerType {
            union: true,
            ..AnswerType::record::<T>(name)
        }
    }
}

fn roundtrip<T: ToolSchema + Serialize>(
    value: &serde_json::Value,
) -> Result<serde_json::Value, String> {
    let typed = toolschema::from_str::<T>(&value.to_string()).map_err(|e| e.to_string())?;
    serde_json::to_value(&typed).map_err(|e| e.to_string())
}
