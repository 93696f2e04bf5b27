//! `simple`: one function that fits, documented at length. Most requests need none of the
//! optional parameters, and the right call leaves them out (or gives their default);
//! some requests need one or two of them.

use serde_json::json;

use super::tools::*;
use super::tools_other::*;
use super::{CaseData, call};

pub fn all() -> Vec<CaseData> {
    vec![
        (
            json!([triangle_area()]),
            "Find the area of a triangle whose base is 12 and whose height is 7.5.",
            call(
                "math.triangle_area",
                json!({"base": [12], "height": [7.5], "unit": ["", "units"]}),
            ),
        ),
        (
            json!([compound_interest()]),
            "How much will $5,000 grow to in 10 years at 4.5% annual interest, compounded quarterly?",
            call(
                "finance.compound_interest",
                json!({
                    "principal": [5000],
                    "annual_rate": [0.045],
                    "years": [10],
                    "compounds_per_year": [4],
                    "currency": ["", "USD"]
                }),
            ),
        ),
        (
            json!([search_flights()]),
            "Find flights from LHR to JFK on 2025-11-14 for 2 passengers.",
            call(
                "travel.search_flights",
                json!({
                    "origin": ["LHR"],
                    "destination": ["JFK"],
                    "departure_date": ["2025-11-14"],
                    "passengers": [2],
                    "cabin": ["", "economy"],
                    "nonstop_only": ["", false]
                }),
            ),
        ),
        (
            json!([match_results()]),
            "Show me Arsenal's last 5 league results of the 2024-25 season.",
            call(
                "sports.get_match_results",
                json!({
                    "team": ["Arsenal", "Arsenal FC"],
                    "season": ["2024-25", "2024-2025"],
                    "competition": ["league"],
                    "limit": [5]
                }),
            ),
        ),
        (
            json!([half_life()]),
            "A sample holds 80 grams of carbon-14, whose half-life is 5730 years. How much of it remains after 11460 years?",
            call(
                "science.half_life_remaining",
                json!({
                    "initial_amount": [80],
                    "half_life": [5730],
                    "elapsed_time": [11460],
                    "time_unit": ["", "years"]
                }),
            ),
        ),
        (
            json!([country_info()]),
            "Look up the capital and the population of Kenya.",
            call(
                "geography.get_country_info",
                json!({
                    "country": ["Kenya"],
                    "fields": [["capital", "population"], ["population", "capital"]],
                    "language": ["", "en"]
                }),
            ),
        ),
        (
            json!([bmi()]),
            "Calculate the BMI of an adult who weighs 72 kg and is 178 cm tall.",
            call(
                "health.bmi_calculator",
                json!({"weight_kg": [72], "height_cm": [178], "age": [""]}),
            ),
        ),
        (
            json!([create_event()]),
            "Create an event 'Quarterly review' starting 2025-06-12T14:00 for 90 minutes with ana@example.com and raj@example.com; Raj's attendance is optional.",
            call(
                "calendar.create_event",
                json!({
                    "title": ["Quarterly review"],
                    "start": ["2025-06-12T14:00", "2025-06-12T14:00:00"],
                    "duration_minutes": [90],
                    "attendees": [
                        [{"email": "ana@example.com", "optional": ""}, {"email": "raj@example.com", "optional": true}],
                        [{"email": "ana@example.com", "optional": false}, {"email": "raj@example.com", "optional": true}]
                    ],
                    "location": [""],
                    "reminder_minutes": ["", 10]
                }),
            ),
        ),
        (
            json!([track_package()]),
            "Where is my UPS parcel with tracking number 1Z999AA10123456784?",
            call(
                "ecommerce.track_package",
                json!({
                    "tracking_number": ["1Z999AA10123456784"],
                    "carrier": ["ups", "auto", ""],
                    "include_history": ["", false]
                }),
            ),
        ),
        (
            json!([search_tracks()]),
            "Find the song 'Feeling Good' by Nina Simone; 10 results are enough.",
            call(
                "music.search_tracks",
                json!({
                    "query": ["Feeling Good"],
                    "artist": ["Nina Simone"],
                    "year_from": [""],
                    "year_to": [""],
                    "limit": [10],
                    "explicit": ["", true]
                }),
            ),
        ),
        (
            json!([statute_of_limitations()]),
            "What is the statute of limitations for a breach of written contract claim in Texas?",
            call(
                "law.statute_of_limitations",
                json!({
                    "jurisdiction": ["Texas", "TX"],
                    "claim_type": ["breach_of_written_contract"],
                    "discovery_date": [""]
                }),
            ),
        ),
        (
            json!([molar_mass()]),
            "Compute the molar mass of caffeine, C8H10N4O2, to 3 decimal places.",
            call(
                "chemistry.molar_mass",
                json!({"formula": ["C8H10N4O2"], "precision": [3]}),
            ),
        ),
        (
            json!([departures()]),
            "List the departures from stop ZH-4471 in the next 45 minutes, wheelchair-accessible vehicles only.",
            call(
                "transport.get_departures",
                json!({
                    "stop_id": ["ZH-4471"],
                    "lines": [""],
                    "minutes_ahead": [45],
                    "accessible_only": [true]
                }),
            ),
        ),
        (
            json!([planet_distance()]),
            "How far apart will Mars and Jupiter be on 2026-01-01, in astronomical units?",
            call(
                "astronomy.planet_distance",
                json!({
                    "planet_a": ["mars", "jupiter"],
                    "planet_b": ["jupiter", "mars"],
                    "date": ["2026-01-01"],
                    "unit": ["au"]
                }),
            ),
        ),
        (
            json!([mortgage_payment()]),
            "What is the monthly payment on a $350,000 mortgage at 6.25% over 30 years?",
            call(
                "realestate.mortgage_payment",
                json!({
                    "loan_amount": [350000],
                    "annual_rate_percent": [6.25],
                    "term_years": [30, ""],
                    "payment_frequency": ["", "monthly"],
                    "extra_payment": ["", 0]
                }),
            ),
        ),
        (
            json!([scale_recipe()]),
            "Scale this recipe from 4 servings to 6: 200 g flour, 50 g sugar, 300 ml milk.",
            call(
                "cooking.scale_recipe",
                json!({
                    "ingredients": [[
                        {"name": "flour", "amount": 200, "unit": "g"},
                        {"name": "sugar", "amount": 50, "unit": "g"},
                        {"name": "milk", "amount": 300, "unit": "ml"}
                    ]],
                    "original_servings": [4],
                    "target_servings": [6],
                    "round_to": ["", "quarter"]
                }),
            ),
        ),
    ]
}
