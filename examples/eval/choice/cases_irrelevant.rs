//! `irrelevant`: no function fits and the right reply is a direct answer. The tools are of
//! the request's domain and tempt: a weather service asked why the sky is blue or about
//! past weather it cannot give, a smart home asked to turn on a TV it does not control, a
//! grocery list when a pizza is ordered.

use serde_json::json;

use super::groups::{home, kitchen, weather};
use super::tools::*;
use super::tools_other::*;
use super::{CaseData, Expected};

pub fn all() -> Vec<CaseData> {
    let answer = |tools, request| (tools, request, Expected::Answer);
    vec![
        answer(weather(), "Why is the sky blue?"),
        answer(weather(), "How much rain fell in London on 3 March 2019?"),
        answer(home(), "How many watts does a typical LED bulb use?"),
        answer(home(), "Turn on the TV in the living room."),
        answer(kitchen(), "Which wine goes well with a mushroom risotto?"),
        answer(
            kitchen(),
            "Order a large pepperoni pizza to be delivered to my flat.",
        ),
        answer(
            json!([triangle_area(), circle_area()]),
            "Who proved Fermat's Last Theorem?",
        ),
        answer(
            json!([stock_quote(), currency_convert()]),
            "What does the abbreviation ETF stand for?",
        ),
        answer(
            json!([search_flights(), search_hotels()]),
            "Rent me a car at Lisbon airport from 3 to 7 June 2025.",
        ),
        answer(
            json!([standings(), player_stats()]),
            "Explain the offside rule in football in one sentence.",
        ),
        answer(
            json!([bmi()]),
            "What is a normal resting heart rate for an adult?",
        ),
        answer(
            json!([create_event(), list_events()]),
            "What day of the week was 1 January 2000?",
        ),
        answer(
            json!([search_products(), track_package(), order_status()]),
            "Cancel my premium subscription.",
        ),
        answer(
            json!([play(), set_volume()]),
            "Who composed The Four Seasons?",
        ),
        answer(
            json!([molar_mass(), balance_equation()]),
            "What is the boiling point of ethanol at sea level?",
        ),
        answer(
            json!([country_info()]),
            "Translate 'good morning' into Portuguese.",
        ),
    ]
}
