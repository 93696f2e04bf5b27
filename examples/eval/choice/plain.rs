//! `--set choice --plain`: 24 cases (six of each kind) in the plain style of
//! function-calling benchmarks: snake_case names, one-line descriptions, two to four
//! parameters, requests that say what they want. Written after the choice machinery, to
//! see whether what it does on the main cases holds on cases it was not developed on; the
//! first results on both models are in the README, measured before any change.

use serde_json::{Value, json};

use super::{CaseData, Expected, call, function};

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

fn convert_temperature() -> Value {
    function(
        "convert_temperature",
        "Convert a temperature from one scale to another.",
        object(
            json!({
                "value": {"type": "number", "description": "The temperature to convert."},
                "from_scale": {"type": "string", "enum": ["celsius", "fahrenheit", "kelvin"], "description": "The scale of the given temperature."},
                "to_scale": {"type": "string", "enum": ["celsius", "fahrenheit", "kelvin"], "description": "The scale to convert to."}
            }),
            &["value", "from_scale", "to_scale"],
        ),
    )
}
fn count_vowels() -> Value {
    function(
        "count_vowels",
        "Count the vowels in a piece of text.",
        object(
            json!({
                "text": {"type": "string", "description": "The text to count vowels in."},
                "include_y": {"type": "boolean", "description": "Whether to count 'y' as a vowel. Default is false."}
            }),
            &["text"],
        ),
    )
}
fn solve_quadratic() -> Value {
    function(
        "solve_quadratic",
        "Find the real roots of a quadratic equation ax^2 + bx + c = 0.",
        object(
            json!({
                "a": {"type": "number", "description": "Coefficient of x^2."},
                "b": {"type": "number", "description": "Coefficient of x."},
                "c": {"type": "number", "description": "The constant term."}
            }),
            &["a", "b", "c"],
        ),
    )
}
fn get_exchange_rate() -> Value {
    function(
        "get_exchange_rate",
        "Get the current exchange rate between two currencies.",
        object(
            json!({
                "base_currency": {"type": "string", "description": "Three-letter code of the currency to convert from."},
                "target_currency": {"type": "string", "description": "Three-letter code of the currency to convert to."}
            }),
            &["base_currency", "target_currency"],
        ),
    )
}
fn get_stock_price() -> Value {
    function(
        "get_stock_price",
        "Get the latest share price of a listed company.",
        object(
            json!({
                "ticker": {"type": "string", "description": "The stock ticker symbol."}
            }),
            &["ticker"],
        ),
    )
}
fn calculate_loan_payment() -> Value {
    function(
        "calculate_loan_payment",
        "Calculate the monthly payment of a fixed-rate loan.",
        object(
            json!({
                "principal": {"type": "number", "description": "The amount borrowed."},
                "annual_rate": {"type": "number", "description": "Yearly interest rate in percent."},
                "years": {"type": "integer", "description": "Length of the loan in years."}
            }),
            &["principal", "annual_rate", "years"],
        ),
    )
}
fn calculate_bmr() -> Value {
    function(
        "calculate_bmr",
        "Calculate a person's basal metabolic rate in kcal per day.",
        object(
            json!({
                "weight_kg": {"type": "number", "description": "Body weight in kilograms."},
                "height_cm": {"type": "number", "description": "Height in centimetres."},
                "age": {"type": "integer", "description": "Age in years."},
                "sex": {"type": "string", "enum": ["male", "female"], "description": "Biological sex."}
            }),
            &["weight_kg", "height_cm", "age", "sex"],
        ),
    )
}
fn find_pharmacies() -> Value {
    function(
        "find_pharmacies",
        "Find pharmacies in a city.",
        object(
            json!({
                "city": {"type": "string", "description": "The city to search in."},
                "open_now": {"type": "boolean", "description": "Only pharmacies open right now. Default is false."},
                "radius_km": {"type": "number", "description": "Search radius in km. Default is 5."}
            }),
            &["city"],
        ),
    )
}
fn find_restaurants() -> Value {
    function(
        "find_restaurants",
        "Search for restaurants in a city by cuisine.",
        object(
            json!({
                "city": {"type": "string", "description": "The city."},
                "cuisine": {"type": "string", "description": "Type of food, e.g. Thai."},
                "max_price": {"type": "integer", "description": "Price level from 1 to 4. Default is 4."}
            }),
            &["city"],
        ),
    )
}
fn book_table() -> Value {
    function(
        "book_table",
        "Book a table at a restaurant.",
        object(
            json!({
                "restaurant": {"type": "string", "description": "Name of the restaurant."},
                "date": {"type": "string", "description": "Date in YYYY-MM-DD format."},
                "time": {"type": "string", "description": "Time in 24-hour HH:MM format."},
                "party_size": {"type": "integer", "description": "Number of people."}
            }),
            &["restaurant", "date", "time", "party_size"],
        ),
    )
}
fn get_menu() -> Value {
    function(
        "get_menu",
        "Get the menu of a restaurant.",
        object(
            json!({
                "restaurant": {"type": "string", "description": "Name of the restaurant."}
            }),
            &["restaurant"],
        ),
    )
}
fn translate_text() -> Value {
    function(
        "translate_text",
        "Translate text into another language.",
        object(
            json!({
                "text": {"type": "string", "description": "The text to translate."},
                "target_language": {"type": "string", "description": "The language to translate into."},
                "source_language": {"type": "string", "description": "The language of the text. Default is detected automatically."}
            }),
            &["text", "target_language"],
        ),
    )
}
fn detect_language() -> Value {
    function(
        "detect_language",
        "Detect which language a text is written in.",
        object(
            json!({
                "text": {"type": "string", "description": "The text."}
            }),
            &["text"],
        ),
    )
}
fn summarize_text() -> Value {
    function(
        "summarize_text",
        "Summarize a long text.",
        object(
            json!({
                "text": {"type": "string", "description": "The text to summarize."},
                "max_sentences": {"type": "integer", "description": "Longest summary in sentences. Default is 3."}
            }),
            &["text"],
        ),
    )
}
fn get_population() -> Value {
    function(
        "get_population",
        "Get the population of a country.",
        object(
            json!({
                "country": {"type": "string", "description": "The country's name."},
                "year": {"type": "integer", "description": "The year. Default is the latest available."}
            }),
            &["country"],
        ),
    )
}
fn get_capital() -> Value {
    function(
        "get_capital",
        "Get the capital city of a country.",
        object(
            json!({
                "country": {"type": "string", "description": "The country's name."}
            }),
            &["country"],
        ),
    )
}
fn get_area() -> Value {
    function(
        "get_area",
        "Get the land area of a country.",
        object(
            json!({
                "country": {"type": "string", "description": "The country's name."},
                "unit": {"type": "string", "enum": ["km2", "mi2"], "description": "The unit. Default is km2."}
            }),
            &["country"],
        ),
    )
}
fn send_email() -> Value {
    function(
        "send_email",
        "Send an email.",
        object(
            json!({
                "to": {"type": "string", "description": "Recipient address."},
                "subject": {"type": "string", "description": "Subject line."},
                "body": {"type": "string", "description": "The message."}
            }),
            &["to", "subject", "body"],
        ),
    )
}
fn set_reminder() -> Value {
    function(
        "set_reminder",
        "Set a reminder for later today.",
        object(
            json!({
                "text": {"type": "string", "description": "What to be reminded of."},
                "time": {"type": "string", "description": "Time in 24-hour HH:MM format."}
            }),
            &["text", "time"],
        ),
    )
}
fn schedule_meeting() -> Value {
    function(
        "schedule_meeting",
        "Put a meeting in the calendar.",
        object(
            json!({
                "title": {"type": "string", "description": "The meeting's title."},
                "date": {"type": "string", "description": "Date in YYYY-MM-DD format."},
                "time": {"type": "string", "description": "Start time, HH:MM."}
            }),
            &["title", "date", "time"],
        ),
    )
}
fn calculate_tip() -> Value {
    function(
        "calculate_tip",
        "Calculate the tip for a bill.",
        object(
            json!({
                "bill_amount": {"type": "number", "description": "The bill total."},
                "tip_percent": {"type": "number", "description": "Tip in percent. Default is 15."}
            }),
            &["bill_amount"],
        ),
    )
}
fn split_bill() -> Value {
    function(
        "split_bill",
        "Split a bill evenly between people.",
        object(
            json!({
                "total": {"type": "number", "description": "The bill total."},
                "people": {"type": "integer", "description": "How many people pay."}
            }),
            &["total", "people"],
        ),
    )
}

pub fn simple() -> Vec<CaseData> {
    vec![
        (
            json!([convert_temperature()]),
            "Convert 98.6 degrees Fahrenheit to Celsius.",
            call(
                "convert_temperature",
                json!({"value": [98.6], "from_scale": ["fahrenheit"], "to_scale": ["celsius"]}),
            ),
        ),
        (
            json!([count_vowels()]),
            "How many vowels are in the word 'encyclopedia'?",
            call(
                "count_vowels",
                json!({"text": ["encyclopedia"], "include_y": ["", false]}),
            ),
        ),
        (
            json!([get_exchange_rate()]),
            "What's the exchange rate from Swiss francs to Swedish kronor?",
            call(
                "get_exchange_rate",
                json!({"base_currency": ["CHF"], "target_currency": ["SEK"]}),
            ),
        ),
        (
            json!([calculate_bmr()]),
            "Calculate the basal metabolic rate of a 34-year-old woman who weighs 62 kg and is 168 cm tall.",
            call(
                "calculate_bmr",
                json!({"weight_kg": [62], "height_cm": [168], "age": [34], "sex": ["female"]}),
            ),
        ),
        (
            json!([find_pharmacies()]),
            "Find pharmacies in Utrecht that are open now.",
            call(
                "find_pharmacies",
                json!({"city": ["Utrecht"], "open_now": [true], "radius_km": ["", 5]}),
            ),
        ),
        (
            json!([solve_quadratic()]),
            "Solve the equation 2x^2 - 3x - 5 = 0.",
            call("solve_quadratic", json!({"a": [2], "b": [-3], "c": [-5]})),
        ),
    ]
}

pub fn multiple() -> Vec<CaseData> {
    vec![
        (
            json!([convert_temperature(), count_vowels(), solve_quadratic()]),
            "Find the roots of x^2 + 4x + 4 = 0.",
            call("solve_quadratic", json!({"a": [1], "b": [4], "c": [4]})),
        ),
        (
            json!([
                get_exchange_rate(),
                calculate_loan_payment(),
                get_stock_price()
            ]),
            "What is Nvidia's share price?",
            call("get_stock_price", json!({"ticker": ["NVDA"]})),
        ),
        (
            json!([book_table(), find_restaurants(), get_menu()]),
            "Find Ethiopian restaurants in Toronto.",
            call(
                "find_restaurants",
                json!({"city": ["Toronto"], "cuisine": ["Ethiopian"], "max_price": ["", 4]}),
            ),
        ),
        (
            json!([translate_text(), detect_language(), summarize_text()]),
            "What language is 'Dziękuję bardzo' written in?",
            call("detect_language", json!({"text": ["Dziękuję bardzo"]})),
        ),
        (
            json!([get_population(), get_capital(), get_area()]),
            "How big is Mongolia in square kilometres?",
            call(
                "get_area",
                json!({"country": ["Mongolia"], "unit": ["", "km2"]}),
            ),
        ),
        (
            json!([send_email(), schedule_meeting(), set_reminder()]),
            "Remind me to water the plants at 18:00.",
            call(
                "set_reminder",
                json!({"text": ["water the plants", "to water the plants"], "time": ["18:00"]}),
            ),
        ),
    ]
}

pub fn irrelevant() -> Vec<CaseData> {
    let answer = |tools, request| (tools, request, Expected::Answer);
    vec![
        answer(
            json!([solve_quadratic(), count_vowels()]),
            "Who painted the Mona Lisa?",
        ),
        answer(
            json!([get_exchange_rate(), get_stock_price()]),
            "What is inflation?",
        ),
        answer(
            json!([find_restaurants(), book_table()]),
            "How long should I boil an egg for a soft yolk?",
        ),
        answer(
            json!([convert_temperature()]),
            "How hot is the surface of the Sun?",
        ),
        answer(
            json!([send_email(), set_reminder()]),
            "What's the difference between affect and effect?",
        ),
        answer(
            json!([get_population(), get_capital()]),
            "Which river flows through Budapest?",
        ),
    ]
}

pub fn chatty() -> Vec<CaseData> {
    vec![
        (
            json!([convert_temperature(), calculate_bmr()]),
            "my thermometer says 39.2 C, whats that in F??",
            call(
                "convert_temperature",
                json!({"value": [39.2], "from_scale": ["celsius"], "to_scale": ["fahrenheit"]}),
            ),
        ),
        (
            json!([get_exchange_rate(), get_stock_price()]),
            "heading to tokyo next month, how many yen do i get for a euro these days",
            call(
                "get_exchange_rate",
                json!({"base_currency": ["EUR"], "target_currency": ["JPY"]}),
            ),
        ),
        (
            json!([find_restaurants(), book_table(), get_menu()]),
            "ok so it's our anniversary on 2025-05-16 and I want a table for 2 at Luca's at 8pm",
            call(
                "book_table",
                json!({"restaurant": ["Luca's", "Lucas"], "date": ["2025-05-16"], "time": ["20:00"], "party_size": [2]}),
            ),
        ),
        (
            json!([translate_text(), detect_language(), summarize_text()]),
            "pls translate 'where is the train station' to german",
            call(
                "translate_text",
                json!({"text": ["where is the train station"], "target_language": ["German", "de"], "source_language": ["", "English", "en"]}),
            ),
        ),
        (
            json!([calculate_tip(), split_bill()]),
            "yo whats a 20% tip on 84.50",
            call(
                "calculate_tip",
                json!({"bill_amount": [84.5], "tip_percent": [20]}),
            ),
        ),
        (
            json!([get_population(), get_capital(), get_area()]),
            "quick q - how many ppl live in portugal",
            call(
                "get_population",
                json!({"country": ["Portugal"], "year": [""]}),
            ),
        ),
    ]
}
