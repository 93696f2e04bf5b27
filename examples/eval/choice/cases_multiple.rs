//! `multiple`: two to five functions, exactly one of which fits. The others are plausible:
//! often of the same domain (four math functions, three chemistry ones), sometimes of the
//! same service (the weather, home and kitchen groups).

use serde_json::json;

use super::groups::{home, kitchen, weather};
use super::tools::*;
use super::tools_other::*;
use super::{CaseData, call};

pub fn all() -> Vec<CaseData> {
    vec![
        (
            weather(),
            "Are there any extreme weather warnings in force for Queensland?",
            call(
                "weather.get_alerts",
                json!({"region": ["Queensland", "Queensland, Australia"], "min_severity": ["extreme"]}),
            ),
        ),
        (
            weather(),
            "What are the PM2.5 and ozone levels in Delhi right now?",
            call(
                "weather.get_air_quality",
                json!({"city": ["Delhi", "New Delhi"], "pollutants": [["pm2_5", "o3"], ["o3", "pm2_5"]]}),
            ),
        ),
        (
            home(),
            "Set the bedroom thermostat to 19.5 degrees in heat mode.",
            call(
                "home.set_thermostat",
                json!({"zone": ["bedroom"], "temperature": [19.5], "mode": ["heat"]}),
            ),
        ),
        (
            home(),
            "Lock the patio door.",
            call(
                "home.lock_door",
                json!({"door": ["patio"], "locked": [true]}),
            ),
        ),
        (
            kitchen(),
            "How many grams are 2 cups of flour?",
            call(
                "kitchen.convert_units",
                json!({
                    "amount": [2],
                    "from_unit": ["cup"],
                    "to_unit": ["gram"],
                    "ingredient": ["flour"]
                }),
            ),
        ),
        (
            kitchen(),
            "Put 6 eggs and 3 lemons on the grocery list.",
            call(
                "grocery.add_items",
                json!({"items": [[
                    {"name": "eggs", "quantity": 6, "unit": ""},
                    {"name": "lemons", "quantity": 3, "unit": ""}
                ]]}),
            ),
        ),
        (
            json!([stock_quote(), currency_convert(), compound_interest()]),
            "Convert 250 euros to Japanese yen.",
            call(
                "finance.currency_convert",
                json!({
                    "amount": [250],
                    "from_currency": ["EUR"],
                    "to_currency": ["JPY"],
                    "date": [""]
                }),
            ),
        ),
        (
            json!([search_flights(), search_hotels(), visa_requirements()]),
            "Do I need a visa to visit Vietnam as a tourist with a Canadian passport?",
            call(
                "travel.get_visa_requirements",
                json!({
                    "passport_country": ["Canada", "CA"],
                    "destination_country": ["Vietnam", "VN"],
                    "trip_purpose": ["tourism", ""]
                }),
            ),
        ),
        (
            json!([match_results(), standings(), player_stats()]),
            "Show me the Bundesliga table for the 2023-24 season.",
            call(
                "sports.get_standings",
                json!({"league": ["Bundesliga"], "season": ["2023-24", "2023-2024"]}),
            ),
        ),
        (
            json!([bmi(), drug_interactions(), find_clinic()]),
            "Check whether ibuprofen interacts with warfarin.",
            call(
                "health.drug_interactions",
                json!({"medications": [["ibuprofen", "warfarin"], ["warfarin", "ibuprofen"]]}),
            ),
        ),
        (
            json!([create_event(), list_events()]),
            "What's on my calendar from 2025-05-05 to 2025-05-09?",
            call(
                "calendar.list_events",
                json!({
                    "from_date": ["2025-05-05"],
                    "to_date": ["2025-05-09"],
                    "calendar": ["", "primary"]
                }),
            ),
        ),
        (
            json!([
                search_products(),
                order_status(),
                return_item(),
                track_package()
            ]),
            "I want to return item SKU-88213 from order 5521-A; it arrived damaged.",
            call(
                "shop.return_item",
                json!({
                    "order_id": ["5521-A"],
                    "item_sku": ["SKU-88213"],
                    "reason": ["damaged"]
                }),
            ),
        ),
        (
            json!([play(), set_volume(), create_playlist(), search_tracks()]),
            "Create a playlist called 'Road Trip' with 'Africa' by Toto and 'Go Your Own Way' by Fleetwood Mac.",
            call(
                "music.create_playlist",
                json!({
                    "name": ["Road Trip"],
                    "tracks": [[
                        {"title": "Africa", "artist": "Toto"},
                        {"title": "Go Your Own Way", "artist": "Fleetwood Mac"}
                    ]],
                    "public": ["", false]
                }),
            ),
        ),
        (
            json!([molar_mass(), balance_equation(), ph()]),
            "What is the pH of a 0.001 M hydrochloric acid solution?",
            call(
                "chemistry.ph_from_concentration",
                json!({"concentration": [0.001], "is_base": ["", false]}),
            ),
        ),
        (
            json!([departures(), plan_route(), bike_availability()]),
            "How do I get from Alexanderplatz to Tegel using only trains and buses?",
            call(
                "transport.plan_route",
                json!({
                    "from": ["Alexanderplatz"],
                    "to": ["Tegel"],
                    "depart_at": [""],
                    "modes": [["train", "bus"], ["bus", "train"]]
                }),
            ),
        ),
        (
            json!([triangle_area(), circle_area(), hypotenuse(), gcd()]),
            "What is the greatest common divisor of 84, 126 and 210?",
            call("math.gcd", json!({"numbers": [[84, 126, 210]]})),
        ),
    ]
}
