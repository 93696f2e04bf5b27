//! The functions of `--set choice` outside the derived groups, one per function, written
//! the way API servers document them: several sentences, defaults in the descriptions,
//! open objects. The case files put them together into tools arrays.

use serde_json::{Value, json};

use super::function;

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

pub fn triangle_area() -> Value {
    function(
        "math.triangle_area",
        "Calculates the area of a triangle from the length of its base and its height. Both lengths must be in the same unit; the result is in that unit squared.",
        object(
            json!({
                "base": {"type": "number", "description": "The length of the base."},
                "height": {"type": "number", "description": "The height, perpendicular to the base."},
                "unit": {"type": "string", "description": "The unit of length, e.g. 'cm'. Default is 'units'."}
            }),
            &["base", "height"],
        ),
    )
}

pub fn circle_area() -> Value {
    function(
        "math.circle_area",
        "Calculates the area of a circle from its radius, using pi to 15 decimal places.",
        object(
            json!({
                "radius": {"type": "number", "description": "The radius of the circle."},
                "unit": {"type": "string", "description": "The unit of length. Default is 'units'."}
            }),
            &["radius"],
        ),
    )
}

pub fn hypotenuse() -> Value {
    function(
        "math.hypotenuse",
        "Calculates the hypotenuse of a right triangle from its two other sides (Pythagoras).",
        object(
            json!({
                "a": {"type": "number", "description": "The first side."},
                "b": {"type": "number", "description": "The second side."}
            }),
            &["a", "b"],
        ),
    )
}

pub fn gcd() -> Value {
    function(
        "math.gcd",
        "Finds the greatest common divisor of two or more whole numbers with Euclid's algorithm.",
        object(
            json!({"numbers": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "description": "The numbers, at least two."}}),
            &["numbers"],
        ),
    )
}

pub fn compound_interest() -> Value {
    function(
        "finance.compound_interest",
        "Computes the future value of a deposit earning compound interest. Interest is added at the end of each compounding period. No deposits or withdrawals are assumed after the first.",
        object(
            json!({
                "principal": {"type": "number", "description": "The amount deposited at the start."},
                "annual_rate": {"type": "number", "description": "The annual interest rate as a decimal, e.g. 0.05 for 5%."},
                "years": {"type": "integer", "description": "How many years the money stays deposited."},
                "compounds_per_year": {"type": "integer", "description": "How many times a year interest is compounded. Default is 12 (monthly)."},
                "currency": {"type": "string", "description": "ISO 4217 currency code of the amounts. Default is 'USD'."}
            }),
            &["principal", "annual_rate", "years"],
        ),
    )
}

pub fn currency_convert() -> Value {
    function(
        "finance.currency_convert",
        "Converts an amount of money from one currency to another at the market rate of the given day. Rates are mid-market rates, without any bank fees.",
        object(
            json!({
                "amount": {"type": "number", "description": "The amount to convert."},
                "from_currency": {"type": "string", "description": "ISO 4217 code of the currency held, e.g. 'EUR'."},
                "to_currency": {"type": "string", "description": "ISO 4217 code of the currency wanted."},
                "date": {"type": "string", "description": "The day of the rate, YYYY-MM-DD. Default is today."}
            }),
            &["amount", "from_currency", "to_currency"],
        ),
    )
}

pub fn stock_quote() -> Value {
    function(
        "finance.stock_quote",
        "Returns the latest trading price, day range and volume of a listed stock. Quotes are delayed by 15 minutes.",
        object(
            json!({
                "symbol": {"type": "string", "description": "The ticker symbol, e.g. 'AAPL'."},
                "exchange": {"type": "string", "description": "The exchange, e.g. 'NASDAQ'. Default is the primary listing."}
            }),
            &["symbol"],
        ),
    )
}

pub fn search_flights() -> Value {
    function(
        "travel.search_flights",
        "Searches scheduled flights between two airports on one day and returns them sorted by price. Prices are per passenger and include taxes. One-way only; search twice for a return trip.",
        object(
            json!({
                "origin": {"type": "string", "description": "IATA code of the departure airport, e.g. 'JFK'."},
                "destination": {"type": "string", "description": "IATA code of the arrival airport."},
                "departure_date": {"type": "string", "description": "The day of departure, YYYY-MM-DD."},
                "passengers": {"type": "integer", "minimum": 1, "maximum": 9, "description": "Number of passengers. Default is 1."},
                "cabin": {"type": "string", "enum": ["economy", "premium_economy", "business", "first"], "description": "The cabin class. Default is 'economy'."},
                "nonstop_only": {"type": "boolean", "description": "Whether to leave out flights with stops. Default is false."}
            }),
            &["origin", "destination", "departure_date"],
        ),
    )
}

pub fn search_hotels() -> Value {
    function(
        "travel.search_hotels",
        "Searches hotels with rooms free for the whole stay in a city. Results include the total price and the guest rating.",
        object(
            json!({
                "city": {"type": "string", "description": "The city, e.g. 'Kyoto'."},
                "check_in": {"type": "string", "description": "Arrival day, YYYY-MM-DD."},
                "check_out": {"type": "string", "description": "Departure day, YYYY-MM-DD."},
                "guests": {"type": "integer", "minimum": 1, "maximum": 8, "description": "Number of guests. Default is 2."},
                "max_price_per_night": {"type": "number", "description": "The most to pay per night, in the local currency. Default is no limit."}
            }),
            &["city", "check_in", "check_out"],
        ),
    )
}

pub fn visa_requirements() -> Value {
    function(
        "travel.get_visa_requirements",
        "Tells whether a traveller needs a visa to enter a country, and for how long a stay without one is allowed. Based on the passport held, not on residence.",
        object(
            json!({
                "passport_country": {"type": "string", "description": "The country that issued the passport."},
                "destination_country": {"type": "string", "description": "The country to visit."},
                "trip_purpose": {"type": "string", "enum": ["tourism", "business", "study"], "description": "Why the traveller goes. Default is 'tourism'."}
            }),
            &["passport_country", "destination_country"],
        ),
    )
}

pub fn match_results() -> Value {
    function(
        "sports.get_match_results",
        "Returns a football team's most recent match results in a season, newest first, with scores and scorers.",
        object(
            json!({
                "team": {"type": "string", "description": "The team, e.g. 'Ajax'."},
                "season": {"type": "string", "description": "The season, e.g. '2023-24'."},
                "competition": {"type": "string", "enum": ["league", "cup", "europe", "all"], "description": "Which competition's matches. Default is 'all'."},
                "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "How many results. Default is 10."}
            }),
            &["team", "season"],
        ),
    )
}

pub fn standings() -> Value {
    function(
        "sports.get_standings",
        "Returns a football league's table for a season: position, points, goal difference for each team.",
        object(
            json!({
                "league": {"type": "string", "description": "The league, e.g. 'Serie A'."},
                "season": {"type": "string", "description": "The season, e.g. '2023-24'."}
            }),
            &["league", "season"],
        ),
    )
}

pub fn player_stats() -> Value {
    function(
        "sports.get_player_stats",
        "Returns one statistic of a football player over a season, across all competitions.",
        object(
            json!({
                "player": {"type": "string", "description": "The player's name."},
                "season": {"type": "string", "description": "The season, e.g. '2023-24'."},
                "stat_type": {"type": "string", "enum": ["goals", "assists", "appearances", "minutes", "cards"], "description": "The statistic."}
            }),
            &["player", "season", "stat_type"],
        ),
    )
}

pub fn half_life() -> Value {
    function(
        "science.half_life_remaining",
        "Computes how much of a radioactive substance remains after a time, given its half-life. The result is in the unit of the initial amount.",
        object(
            json!({
                "initial_amount": {"type": "number", "description": "The amount at the start."},
                "half_life": {"type": "number", "description": "The half-life of the isotope."},
                "elapsed_time": {"type": "number", "description": "The time that has passed."},
                "time_unit": {"type": "string", "enum": ["seconds", "minutes", "hours", "days", "years"], "description": "The unit of both half_life and elapsed_time. Default is 'years'."}
            }),
            &["initial_amount", "half_life", "elapsed_time"],
        ),
    )
}

pub fn country_info() -> Value {
    function(
        "geography.get_country_info",
        "Looks up facts about a country from the national statistics offices' latest figures. Ask only for the fields needed; each field is fetched separately.",
        object(
            json!({
                "country": {"type": "string", "description": "The country's common English name, e.g. 'Peru'."},
                "fields": {"type": "array", "items": {"type": "string", "enum": ["capital", "population", "area", "currency", "languages", "timezones"]}, "description": "The facts wanted. Default is all fields."},
                "language": {"type": "string", "description": "ISO 639-1 code of the language of the answer. Default is 'en'."}
            }),
            &["country"],
        ),
    )
}

pub fn bmi() -> Value {
    function(
        "health.bmi_calculator",
        "Calculates the body mass index from weight and height and gives its WHO category. For people under 20 the category depends on age.",
        object(
            json!({
                "weight_kg": {"type": "number", "description": "Body weight in kilograms."},
                "height_cm": {"type": "number", "description": "Height in centimeters."},
                "age": {"type": "integer", "minimum": 2, "maximum": 19, "description": "Age in years, only for children and teenagers. Default is none (an adult)."}
            }),
            &["weight_kg", "height_cm"],
        ),
    )
}

pub fn drug_interactions() -> Value {
    function(
        "health.drug_interactions",
        "Checks a list of medications for known interactions between any two of them and rates each interaction's severity.",
        object(
            json!({"medications": {"type": "array", "items": {"type": "string"}, "minItems": 2, "description": "Generic names of the medications."}}),
            &["medications"],
        ),
    )
}

pub fn find_clinic() -> Value {
    function(
        "health.find_clinic",
        "Finds clinics near a city centre by medical specialty.",
        object(
            json!({
                "city": {"type": "string", "description": "The city."},
                "specialty": {"type": "string", "description": "The specialty, e.g. 'dermatology'."},
                "open_now": {"type": "boolean", "description": "Only clinics open now. Default is false."}
            }),
            &["city", "specialty"],
        ),
    )
}

pub fn create_event() -> Value {
    let attendee = json!({"type": "object", "properties": {
        "email": {"type": "string", "description": "The attendee's email address."},
        "optional": {"type": "boolean", "description": "Whether attending is optional. Default is false."}
    }, "required": ["email"]});
    function(
        "calendar.create_event",
        "Creates an event in the user's primary calendar and sends invitations to the attendees. Times are in the user's time zone.",
        object(
            json!({
                "title": {"type": "string", "description": "The event's title."},
                "start": {"type": "string", "description": "Local date and time of the start, ISO 8601, e.g. '2025-03-04T09:30'."},
                "duration_minutes": {"type": "integer", "minimum": 5, "maximum": 1440, "description": "Length in minutes. Default is 60."},
                "attendees": {"type": "array", "items": attendee, "description": "The people to invite. Default is nobody."},
                "location": {"type": "string", "description": "Where it takes place. Default is none."},
                "reminder_minutes": {"type": "integer", "minimum": 0, "description": "Minutes before the start to remind the user. Default is 10."}
            }),
            &["title", "start"],
        ),
    )
}

pub fn list_events() -> Value {
    function(
        "calendar.list_events",
        "Lists the events of a calendar between two days, both included, in order of start.",
        object(
            json!({
                "from_date": {"type": "string", "description": "The first day, YYYY-MM-DD."},
                "to_date": {"type": "string", "description": "The last day, YYYY-MM-DD."},
                "calendar": {"type": "string", "description": "The calendar's name. Default is 'primary'."}
            }),
            &["from_date", "to_date"],
        ),
    )
}

pub fn track_package() -> Value {
    function(
        "ecommerce.track_package",
        "Returns where a parcel is and when it should arrive, from the carrier's tracking data.",
        object(
            json!({
                "tracking_number": {"type": "string", "description": "The tracking number, as printed on the receipt."},
                "carrier": {"type": "string", "enum": ["ups", "fedex", "dhl", "usps", "auto"], "description": "The carrier. Default is 'auto' (detected from the number)."},
                "include_history": {"type": "boolean", "description": "Whether to list every scan so far. Default is false."}
            }),
            &["tracking_number"],
        ),
    )
}

pub fn order_status() -> Value {
    function(
        "shop.get_order_status",
        "Returns the status of an order placed in this shop: paid, packed, shipped or delivered, with dates.",
        object(
            json!({"order_id": {"type": "string", "description": "The order number, e.g. 'A-10233'."}}),
            &["order_id"],
        ),
    )
}

pub fn search_products() -> Value {
    function(
        "shop.search_products",
        "Searches the shop's catalogue. Results can be narrowed by category and price.",
        object(
            json!({
                "query": {"type": "string", "description": "What to look for."},
                "category": {"type": "string", "enum": ["electronics", "home", "garden", "clothing", "toys"], "description": "Only this category. Default is all."},
                "max_price": {"type": "number", "description": "The highest price. Default is no limit."},
                "sort": {"type": "string", "enum": ["relevance", "price_asc", "price_desc", "rating"], "description": "The order of results. Default is 'relevance'."}
            }),
            &["query"],
        ),
    )
}

pub fn return_item() -> Value {
    function(
        "shop.return_item",
        "Opens a return for one item of an order and emails a prepaid shipping label. Returns are accepted within 30 days of delivery.",
        object(
            json!({
                "order_id": {"type": "string", "description": "The order number."},
                "item_sku": {"type": "string", "description": "The SKU of the item to return."},
                "reason": {"type": "string", "enum": ["damaged", "wrong_item", "not_as_described", "no_longer_needed"], "description": "Why it is returned."}
            }),
            &["order_id", "item_sku", "reason"],
        ),
    )
}
