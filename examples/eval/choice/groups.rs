//! The tools arrays that several cases share, and that `derived.rs` also writes as unions
//! derived in Rust: a weather service, a smart home and a kitchen assistant.
//!
//! Open objects as servers send them (no `additionalProperties`), optional parameters
//! with their defaults stated in the descriptions, names with a `.` in them.

use serde_json::{Value, json};

use super::function;

/// A weather service: forecast, air quality, warnings.
pub fn weather() -> Value {
    json!([
        function(
            "weather.get_forecast",
            "Returns the daily weather forecast for a city: high and low temperatures, chance of precipitation and wind. Forecasts reach up to 14 days ahead, starting today. Give the city as the user names it; add the region or country only when the user does.",
            json!({"type": "object", "properties": {
                "city": {"type": "string", "description": "The city, e.g. 'Lisbon' or 'Portland, Oregon'."},
                "days": {"type": "integer", "minimum": 1, "maximum": 14, "description": "Number of days to forecast, today included. Default is 1."},
                "units": {"type": "string", "enum": ["metric", "imperial"], "description": "Units of temperature and wind speed. Default is 'metric'."},
                "include_hourly": {"type": "boolean", "description": "Whether to add an hour-by-hour breakdown. Default is false."}
            }, "required": ["city"]})
        ),
        function(
            "weather.get_air_quality",
            "Returns the current air quality index (AQI) near a city and the concentration of each pollutant measured by the closest stations. Values are refreshed every hour.",
            json!({"type": "object", "properties": {
                "city": {"type": "string", "description": "The city, e.g. 'Delhi'."},
                "pollutants": {"type": "array", "items": {"type": "string", "enum": ["pm2_5", "pm10", "o3", "no2", "so2", "co"]}, "description": "The pollutants to report. Default is all of them."}
            }, "required": ["city"]})
        ),
        function(
            "weather.get_alerts",
            "Lists the severe weather warnings (storms, floods, heat waves, snow) in force for a region, as issued by its national weather service. Warnings below the given severity are left out.",
            json!({"type": "object", "properties": {
                "region": {"type": "string", "description": "A region, state or country, e.g. 'Bavaria' or 'Florida'."},
                "min_severity": {"type": "string", "enum": ["minor", "moderate", "severe", "extreme"], "description": "The lowest severity to list. Default is 'moderate'."}
            }, "required": ["region"]})
        )
    ])
}

/// A smart home: thermostat, lights, locks.
pub fn home() -> Value {
    let channel = |name: &str| json!({"type": "integer", "minimum": 0, "maximum": 255, "description": format!("{name}, 0 to 255.")});
    json!([
        function(
            "home.set_thermostat",
            "Sets the target temperature of one heating zone. Temperatures are in degrees Celsius between 10 and 30; convert Fahrenheit before calling. The change takes effect within a minute.",
            json!({"type": "object", "properties": {
                "zone": {"type": "string", "enum": ["living_room", "bedroom", "kitchen", "office", "basement"], "description": "The heating zone."},
                "temperature": {"type": "number", "minimum": 10, "maximum": 30, "description": "Target temperature in degrees Celsius."},
                "mode": {"type": "string", "enum": ["heat", "cool", "auto"], "description": "Operating mode. Default is 'auto'."}
            }, "required": ["zone", "temperature"]})
        ),
        function(
            "home.set_lights",
            "Turns the lights of a room on or off, and can set their brightness and colour. Settings not given keep their current values.",
            json!({"type": "object", "properties": {
                "room": {"type": "string", "description": "The room, lowercase, e.g. 'kitchen'."},
                "on": {"type": "boolean", "description": "true to turn the lights on, false to turn them off."},
                "brightness": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Brightness in percent, 1 to 100. Default keeps the current brightness."},
                "color": {"type": "object", "properties": {
                    "r": channel("Red"),
                    "g": channel("Green"),
                    "b": channel("Blue")
                }, "required": ["r", "g", "b"], "description": "An RGB colour. Default keeps the current colour."}
            }, "required": ["room", "on"]})
        ),
        function(
            "home.lock_door",
            "Locks or unlocks a smart door lock. Unlocking the front door also disarms the alarm.",
            json!({"type": "object", "properties": {
                "door": {"type": "string", "enum": ["front", "back", "garage", "patio"], "description": "Which door."},
                "locked": {"type": "boolean", "description": "true to lock, false to unlock."}
            }, "required": ["door", "locked"]})
        )
    ])
}

/// A kitchen assistant: recipes, unit conversion, timers, the grocery list.
pub fn kitchen() -> Value {
    let units = json!([
        "cup",
        "tablespoon",
        "teaspoon",
        "milliliter",
        "liter",
        "gram",
        "kilogram",
        "ounce",
        "pound"
    ]);
    json!([
        function(
            "recipes.search",
            "Searches the recipe collection by ingredients and constraints and returns the best matches first. Ingredients match loosely: 'tomato' also finds 'cherry tomatoes'.",
            json!({"type": "object", "properties": {
                "ingredients": {"type": "array", "items": {"type": "string"}, "description": "Ingredients the recipe must use."},
                "diet": {"type": "string", "enum": ["none", "vegetarian", "vegan", "gluten_free", "keto"], "description": "A dietary restriction. Default is 'none'."},
                "max_minutes": {"type": "integer", "minimum": 5, "maximum": 600, "description": "The longest total time in minutes. Default is no limit."},
                "limit": {"type": "integer", "minimum": 1, "maximum": 20, "description": "How many recipes to return. Default is 5."}
            }, "required": ["ingredients"]})
        ),
        function(
            "kitchen.convert_units",
            "Converts a cooking quantity from one unit to another. Between volume and weight the ingredient is needed, to look up its density.",
            json!({"type": "object", "properties": {
                "amount": {"type": "number", "description": "The quantity to convert."},
                "from_unit": {"type": "string", "enum": units, "description": "The unit the quantity is in."},
                "to_unit": {"type": "string", "enum": units, "description": "The unit wanted."},
                "ingredient": {"type": "string", "description": "The ingredient, e.g. 'flour'; only between volume and weight."}
            }, "required": ["amount", "from_unit", "to_unit"]})
        ),
        function(
            "kitchen.set_timer",
            "Starts a timer on the kitchen display. Several timers can run at once; a label tells them apart.",
            json!({"type": "object", "properties": {
                "minutes": {"type": "number", "minimum": 0.1, "maximum": 720, "description": "Duration in minutes; fractions allowed, e.g. 1.5."},
                "label": {"type": "string", "description": "A short label, e.g. 'pasta'. Default is 'timer'."}
            }, "required": ["minutes"]})
        ),
        function(
            "grocery.add_items",
            "Adds items to the household's shared grocery list. Items already on the list get the quantities added up.",
            json!({"type": "object", "properties": {
                "items": {"type": "array", "items": {"type": "object", "properties": {
                    "name": {"type": "string", "description": "The item, e.g. 'oat milk'."},
                    "quantity": {"type": "number", "description": "How many or how much."},
                    "unit": {"type": "string", "description": "The unit, e.g. 'liter' or 'pack'; empty for a count."}
                }, "required": ["name", "quantity"]}, "description": "The items to add."}
            }, "required": ["items"]})
        )
    ])
}
