//! `--set choice --near-miss`: 12 requests no tool does that use a word of a tool's name
//! ("What volume of water fills an Olympic pool?" beside `music.set_volume`, "What event
//! started the First World War?" beside `calendar.create_event`). The right reply is the
//! answer. The irrelevant cases of the other sets use no word of a tool's name, so the
//! check that sends back an answer to a request naming a tool never fires on them; here it
//! does, and this set shows what that costs: a model told to call, and calling, where it
//! should not. A guard, not a target: no change to the library is made to fit it.

use serde_json::json;

use super::tools::*;
use super::tools_other::*;
use super::{CaseData, Expected};

pub fn irrelevant() -> Vec<CaseData> {
    let answer = |tools, request| (tools, request, Expected::Answer);
    vec![
        answer(
            json!([triangle_area(), hypotenuse()]),
            "What is the area of a circle with a radius of 4 cm?",
        ),
        answer(
            json!([stock_quote(), currency_convert()]),
            "Who founded the first stock exchange in Amsterdam?",
        ),
        answer(
            json!([set_volume(), play()]),
            "What volume of water fills an Olympic swimming pool?",
        ),
        answer(
            json!([create_event(), list_events()]),
            "What event started the First World War?",
        ),
        answer(
            json!([order_status(), search_products()]),
            "In what order should I read the Harry Potter books?",
        ),
        answer(
            json!([search_hotels(), search_flights()]),
            "Who built the first hotel in Las Vegas?",
        ),
        answer(
            json!([bmi(), find_clinic()]),
            "Who came up with the BMI, and why?",
        ),
        answer(
            json!([planet_distance()]),
            "Which planet has the most moons?",
        ),
        answer(
            json!([track_package(), order_status()]),
            "How do I track my running pace with my phone?",
        ),
        answer(
            json!([scale_recipe(), molar_mass()]),
            "Who wrote the first printed recipe book?",
        ),
        answer(
            json!([plan_route(), departures()]),
            "What route did Magellan's fleet take around the world?",
        ),
        answer(
            json!([match_results(), standings()]),
            "Who invented the safety match?",
        ),
    ]
}
