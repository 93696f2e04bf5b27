//! The rest of the functions of `--set choice` outside the derived groups (see
//! `tools.rs`): music, law, chemistry, transport, astronomy, property and cooking.

use serde_json::{Value, json};

use super::function;

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

pub fn search_tracks() -> Value {
    function(
        "music.search_tracks",
        "Searches the music catalogue for tracks. The query matches titles, albums and lyrics; the other parameters narrow the results.",
        object(
            json!({
                "query": {"type": "string", "description": "Free text, e.g. a title or a line of the lyrics."},
                "artist": {"type": "string", "description": "Only tracks by this artist. Default is any artist."},
                "year_from": {"type": "integer", "description": "Only tracks released in or after this year. Default is no limit."},
                "year_to": {"type": "integer", "description": "Only tracks released in or before this year. Default is no limit."},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "How many tracks. Default is 20."},
                "explicit": {"type": "boolean", "description": "Whether explicit tracks may be included. Default is true."}
            }),
            &["query"],
        ),
    )
}

pub fn play() -> Value {
    function(
        "music.play",
        "Starts playing a track, album, artist or playlist on the active speaker, replacing what is playing.",
        object(
            json!({
                "query": {"type": "string", "description": "What to play, e.g. 'Kind of Blue by Miles Davis'."},
                "shuffle": {"type": "boolean", "description": "Whether to shuffle. Default is false."}
            }),
            &["query"],
        ),
    )
}

pub fn set_volume() -> Value {
    function(
        "music.set_volume",
        "Sets the volume of the active speaker.",
        object(
            json!({"level": {"type": "integer", "minimum": 0, "maximum": 100, "description": "The volume in percent, 0 to 100."}}),
            &["level"],
        ),
    )
}

pub fn create_playlist() -> Value {
    let track = json!({"type": "object", "properties": {
        "title": {"type": "string", "description": "The track's title."},
        "artist": {"type": "string", "description": "The track's main artist."}
    }, "required": ["title", "artist"]});
    function(
        "music.create_playlist",
        "Creates a playlist in the user's library from tracks given by title and artist. Tracks not found in the catalogue are skipped and reported.",
        object(
            json!({
                "name": {"type": "string", "description": "The playlist's name."},
                "tracks": {"type": "array", "items": track, "description": "The tracks, in order."},
                "public": {"type": "boolean", "description": "Whether other users can find it. Default is false."}
            }),
            &["name", "tracks"],
        ),
    )
}

pub fn statute_of_limitations() -> Value {
    function(
        "law.statute_of_limitations",
        "Returns the time limit for bringing a civil claim in a jurisdiction, with the statute that sets it. This is legal information, not legal advice. Some limits run from the day the harm was discovered rather than the day it happened.",
        object(
            json!({
                "jurisdiction": {"type": "string", "description": "A US state or a country, e.g. 'California'."},
                "claim_type": {"type": "string", "enum": ["personal_injury", "breach_of_written_contract", "breach_of_oral_contract", "property_damage", "fraud", "medical_malpractice"], "description": "The kind of claim."},
                "discovery_date": {"type": "string", "description": "The day the harm was discovered, YYYY-MM-DD. Default is the day it happened."}
            }),
            &["jurisdiction", "claim_type"],
        ),
    )
}

pub fn molar_mass() -> Value {
    function(
        "chemistry.molar_mass",
        "Calculates the molar mass of a compound in g/mol from its formula, using IUPAC standard atomic weights. Parentheses and hydrates ('CuSO4·5H2O') are understood.",
        object(
            json!({
                "formula": {"type": "string", "description": "The chemical formula, e.g. 'C6H12O6'."},
                "precision": {"type": "integer", "minimum": 0, "maximum": 6, "description": "Decimal places of the result. Default is 2."}
            }),
            &["formula"],
        ),
    )
}

pub fn balance_equation() -> Value {
    function(
        "chemistry.balance_equation",
        "Balances a chemical equation with the smallest whole-number coefficients.",
        object(
            json!({"equation": {"type": "string", "description": "The unbalanced equation, e.g. 'H2 + O2 -> H2O'."}}),
            &["equation"],
        ),
    )
}

pub fn ph() -> Value {
    function(
        "chemistry.ph_from_concentration",
        "Calculates the pH of a solution of a strong acid or a strong base from its molar concentration, assuming complete dissociation at 25 °C.",
        object(
            json!({
                "concentration": {"type": "number", "description": "The concentration in mol/L."},
                "is_base": {"type": "boolean", "description": "true for a strong base, false for a strong acid. Default is false."}
            }),
            &["concentration"],
        ),
    )
}

pub fn departures() -> Value {
    function(
        "transport.get_departures",
        "Lists the next departures from a public transport stop in real time, with delays. Stops are identified by the code on the stop's sign.",
        object(
            json!({
                "stop_id": {"type": "string", "description": "The stop's code as printed on its sign, e.g. 'HB-12'."},
                "lines": {"type": "array", "items": {"type": "string"}, "description": "Only these lines, e.g. ['4', 'N2']. Default is every line."},
                "minutes_ahead": {"type": "integer", "minimum": 1, "maximum": 180, "description": "How far ahead to look, in minutes. Default is 30."},
                "accessible_only": {"type": "boolean", "description": "Only step-free, wheelchair-accessible vehicles. Default is false."}
            }),
            &["stop_id"],
        ),
    )
}

pub fn plan_route() -> Value {
    function(
        "transport.plan_route",
        "Plans a journey by public transport between two places in the same city, with changes and walking.",
        object(
            json!({
                "from": {"type": "string", "description": "Where the journey starts: a stop, address or landmark."},
                "to": {"type": "string", "description": "Where it ends."},
                "depart_at": {"type": "string", "description": "Local departure time, HH:MM. Default is now."},
                "modes": {"type": "array", "items": {"type": "string", "enum": ["train", "bus", "tram", "ferry"]}, "description": "The means of transport allowed. Default is all of them."}
            }),
            &["from", "to"],
        ),
    )
}

pub fn bike_availability() -> Value {
    function(
        "transport.bike_availability",
        "Returns how many shared bikes and free docks a bike-share station has right now.",
        object(
            json!({"station": {"type": "string", "description": "The station's name."}}),
            &["station"],
        ),
    )
}

pub fn planet_distance() -> Value {
    let planet = json!({"type": "string", "enum": ["mercury", "venus", "earth", "mars", "jupiter", "saturn", "uranus", "neptune"]});
    let mut first = planet.clone();
    first["description"] = json!("The first planet.");
    let mut second = planet;
    second["description"] = json!("The second planet.");
    function(
        "astronomy.planet_distance",
        "Computes the distance between two planets of the solar system on a given day, from the JPL ephemerides.",
        object(
            json!({
                "planet_a": first,
                "planet_b": second,
                "date": {"type": "string", "description": "The day, YYYY-MM-DD. Default is today."},
                "unit": {"type": "string", "enum": ["km", "au", "light_minutes"], "description": "The unit of the distance. Default is 'km'."}
            }),
            &["planet_a", "planet_b"],
        ),
    )
}

pub fn mortgage_payment() -> Value {
    function(
        "realestate.mortgage_payment",
        "Calculates the regular payment of a fixed-rate mortgage, with the share of interest and principal in the first payment. Taxes and insurance are not included.",
        object(
            json!({
                "loan_amount": {"type": "number", "description": "The amount borrowed."},
                "annual_rate_percent": {"type": "number", "description": "The annual interest rate in percent, e.g. 6.5 for 6.5%."},
                "term_years": {"type": "integer", "minimum": 1, "maximum": 40, "description": "The length of the loan in years. Default is 30."},
                "payment_frequency": {"type": "string", "enum": ["monthly", "biweekly"], "description": "How often payments are made. Default is 'monthly'."},
                "extra_payment": {"type": "number", "description": "An extra amount paid towards the principal each time. Default is 0."}
            }),
            &["loan_amount", "annual_rate_percent"],
        ),
    )
}

pub fn scale_recipe() -> Value {
    let ingredient = json!({"type": "object", "properties": {
        "name": {"type": "string", "description": "The ingredient."},
        "amount": {"type": "number", "description": "The quantity for the original servings."},
        "unit": {"type": "string", "enum": ["g", "ml", "piece"], "description": "The unit of the quantity."}
    }, "required": ["name", "amount", "unit"]});
    function(
        "cooking.scale_recipe",
        "Scales the quantities of a recipe's ingredients from one number of servings to another, rounding to amounts a cook can measure.",
        object(
            json!({
                "ingredients": {"type": "array", "items": ingredient, "description": "The ingredients with their quantities."},
                "original_servings": {"type": "integer", "minimum": 1, "description": "The servings the quantities are for."},
                "target_servings": {"type": "integer", "minimum": 1, "description": "The servings wanted."},
                "round_to": {"type": "string", "enum": ["none", "quarter", "half", "whole"], "description": "How to round the new quantities. Default is 'quarter'."}
            }),
            &["ingredients", "original_servings", "target_servings"],
        ),
    )
}
