//! `chatty`: one function fits a request written the way people write: terse, with a
//! backstory, with typos and slang, overly polite. Some come with two or three tools.

use serde_json::json;

use super::groups::{home, weather};
use super::tools::*;
use super::tools_other::*;
use super::{CaseData, call};

pub fn all() -> Vec<CaseData> {
    vec![
        (
            weather(),
            "weather paris tmrw?",
            call(
                "weather.get_forecast",
                json!({
                    "city": ["Paris", "Paris, France"],
                    "days": [2],
                    "units": ["", "metric"],
                    "include_hourly": ["", false]
                }),
            ),
        ),
        (
            weather(),
            "hey so my mom lives in Arizona and she keeps complaining about the heat lol, can u check if there are any heat warnings there? only severe ones or worse pls",
            call(
                "weather.get_alerts",
                json!({"region": ["Arizona", "AZ"], "min_severity": ["severe"]}),
            ),
        ),
        (
            weather(),
            "Hi! I'm going hiking near Denver this weekend with my brother - could you pull up a 5 day forecast, in Fahrenheit please? Thanks so much!!",
            call(
                "weather.get_forecast",
                json!({
                    "city": ["Denver", "Denver, Colorado", "Denver, CO"],
                    "days": [5],
                    "units": ["imperial"],
                    "include_hourly": ["", false]
                }),
            ),
        ),
        (
            home(),
            "brrr its freezing in the office, put the temprature to 22 pls",
            call(
                "home.set_thermostat",
                json!({"zone": ["office"], "temperature": [22], "mode": ["", "auto", "heat"]}),
            ),
        ),
        (
            home(),
            "can u make the kitchen lights red? like full red, 255 0 0, at 40% brightness",
            call(
                "home.set_lights",
                json!({
                    "room": ["kitchen"],
                    "on": [true],
                    "brightness": [40],
                    "color": [{"r": 255, "g": 0, "b": 0}]
                }),
            ),
        ),
        (
            home(),
            "Good evening. Before I retire for the night, I would be most grateful if the lights in the living room could be switched off, if it is no trouble.",
            call(
                "home.set_lights",
                json!({"room": ["living room"], "on": [false], "brightness": [""], "color": [""]}),
            ),
        ),
        (
            json!([triangle_area()]),
            "ok quick one: triangle, base 10 height 4, area??",
            call(
                "math.triangle_area",
                json!({"base": [10], "height": [4], "unit": ["", "units"]}),
            ),
        ),
        (
            json!([currency_convert(), stock_quote()]),
            "I'm flying to London next week for a wedding and I want to know roughly how many pounds I'd get for 1200 US dollars",
            call(
                "finance.currency_convert",
                json!({
                    "amount": [1200],
                    "from_currency": ["USD"],
                    "to_currency": ["GBP"],
                    "date": [""]
                }),
            ),
        ),
        (
            json!([search_flights(), search_hotels()]),
            "Hiya, me and my husband are going to Rome for our anniversary!! we need a hotel from 2025-09-12 to 2025-09-15, nothing over 200 a night x",
            call(
                "travel.search_hotels",
                json!({
                    "city": ["Rome", "Rome, Italy"],
                    "check_in": ["2025-09-12"],
                    "check_out": ["2025-09-15"],
                    "guests": [2, ""],
                    "max_price_per_night": [200]
                }),
            ),
        ),
        (
            json!([standings(), player_stats()]),
            "how many goals did haaland score in 2022-23",
            call(
                "sports.get_player_stats",
                json!({
                    "player": ["Haaland", "Erling Haaland"],
                    "season": ["2022-23", "2022-2023"],
                    "stat_type": ["goals"]
                }),
            ),
        ),
        (
            json!([bmi()]),
            "My doctor keeps going on about my BMI. Im 165cm and 80kg, whats it?",
            call(
                "health.bmi_calculator",
                json!({"weight_kg": [80], "height_cm": [165], "age": [""]}),
            ),
        ),
        (
            json!([create_event(), list_events()]),
            "pls add 'Dentist' to my calendar 2025-04-03 at 3:30pm, it'll take like 45 min",
            call(
                "calendar.create_event",
                json!({
                    "title": ["Dentist", "Dentist appointment"],
                    "start": ["2025-04-03T15:30", "2025-04-03T15:30:00"],
                    "duration_minutes": [45],
                    "attendees": ["", []],
                    "location": [""],
                    "reminder_minutes": ["", 10]
                }),
            ),
        ),
        (
            json!([order_status(), track_package()]),
            "Where's my order A-77120??? It's been a week and nothing!!",
            call("shop.get_order_status", json!({"order_id": ["A-77120"]})),
        ),
        (
            json!([play(), set_volume()]),
            "turn it down to like 20 plz",
            call("music.set_volume", json!({"level": [20]})),
        ),
        (
            json!([departures()]),
            "Hi there, sorry to bother you - I'm at stop ZH-4471 with my wheelchair, what leaves from here in the next hour that I can get on?",
            call(
                "transport.get_departures",
                json!({
                    "stop_id": ["ZH-4471"],
                    "lines": [""],
                    "minutes_ahead": [60],
                    "accessible_only": [true]
                }),
            ),
        ),
        (
            json!([molar_mass()]),
            "wat's the molar mass of H2SO4 again, i always forget",
            call(
                "chemistry.molar_mass",
                json!({"formula": ["H2SO4"], "precision": ["", 2]}),
            ),
        ),
    ]
}
