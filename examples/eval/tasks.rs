//! The tasks: a realistic request with the facts inside, and the exact answer expected.
//!
//! Written for this evaluation. Some are easy; some are hard on purpose for a small
//! model: dates in words that must become YYYY-MM-DD, phrases that tempt a key the type
//! lacks ("start date", "reports to", "position"), numbers in words, codes to normalise
//! (`lmp-7781` → `LMP-7781`, "United Kingdom" → `GB`), enum values surrounded by prose.
//! An absent fact is `null` in the expected answer.

use serde_json::{Value, json};

use crate::types::*;

/// One request and its answer.
pub struct Task {
    pub answer: AnswerType,
    pub prompt: &'static str,
    pub expected: Value,
}

/// The expected answer of a union task where the model should reply directly: any text.
fn direct_answer() -> Value {
    json!({ "answer": "(any text)" })
}

fn tool(name: &str, arguments: Value) -> Value {
    json!({ "name": name, "arguments": arguments })
}

/// Every task, grouped by type.
pub fn all() -> Vec<Task> {
    let mut tasks = Vec::new();
    let mut add = |answer: AnswerType, list: Vec<(&'static str, Value)>| {
        for (prompt, expected) in list {
            tasks.push(Task {
                answer,
                prompt,
                expected,
            });
        }
    };
    add(AnswerType::record::<Contact>("Contact"), contacts());
    add(AnswerType::record::<Meeting>("Meeting"), meetings());
    add(AnswerType::record::<Review>("Review"), reviews());
    add(AnswerType::record::<Address>("Address"), addresses());
    add(AnswerType::record::<Order>("Order"), orders());
    add(AnswerType::record::<Recipe>("Recipe"), recipes());
    add(AnswerType::record::<Ticket>("Ticket"), tickets());
    add(AnswerType::record::<Flight>("Flight"), flights());
    add(AnswerType::record::<Expense>("Expense"), expenses());
    add(AnswerType::record::<Hire>("Hire"), hires());
    add(AnswerType::union::<HomeStep>("HomeStep"), home_steps());
    add(
        AnswerType::union::<TravelStep>("TravelStep"),
        travel_steps(),
    );
    tasks
}

fn contacts() -> Vec<(&'static str, Value)> {
    vec![
        (
            "Save this contact: Maria Lopez, maria.lopez@example.com, works at Northwind.",
            json!({"name": "Maria Lopez", "email": "maria.lopez@example.com", "phone": null, "company": "Northwind"}),
        ),
        (
            "Add Tom Berg to my contacts. His number is +47 912 34 567; he has no email.",
            json!({"name": "Tom Berg", "email": null, "phone": "+4791234567", "company": null}),
        ),
        (
            "New contact from the conference: Aiko Tanaka of Kyoto Clinic, aiko.tanaka@kyoto-clinic.jp, +81 75 123 4567.",
            json!({"name": "Aiko Tanaka", "email": "aiko.tanaka@kyoto-clinic.jp", "phone": "+81751234567", "company": "Kyoto Clinic"}),
        ),
        (
            "Please store Lena Fischer: phone +49 30 1234567, email lena.f@post.de.",
            json!({"name": "Lena Fischer", "email": "lena.f@post.de", "phone": "+49301234567", "company": null}),
        ),
        (
            "Sam Okafor called. He doesn't use email and gave no number; he's with Blue Harbor Logistics.",
            json!({"name": "Sam Okafor", "email": null, "phone": null, "company": "Blue Harbor Logistics"}),
        ),
        (
            "Contact card. Name: Priya Raman. Mail: priya@raman.dev. Tel.: +1 (415) 555-0134. Employer: Quill and Partners.",
            json!({"name": "Priya Raman", "email": "priya@raman.dev", "phone": "+14155550134", "company": "Quill and Partners"}),
        ),
    ]
}

fn meetings() -> Vec<(&'static str, Value)> {
    vec![
        (
            "Put 'Budget review' in my calendar for 2025-09-18 at 14:00 with Ana, Bo and Chen, in room B2.",
            json!({"title": "Budget review", "date": "2025-09-18", "start": "14:00", "attendees": ["Ana", "Bo", "Chen"], "room": "B2"}),
        ),
        (
            "Schedule 'Quarterly planning' on the third of February 2026, starting at 9:30 in the morning. Invite Omar and Priya.",
            json!({"title": "Quarterly planning", "date": "2026-02-03", "start": "09:30", "attendees": ["Omar", "Priya"], "room": null}),
        ),
        (
            "Book 'Design sync': start date March 11, 2025, 4 pm, room Aurora, with Rita and Jon.",
            json!({"title": "Design sync", "date": "2025-03-11", "start": "16:00", "attendees": ["Rita", "Jon"], "room": "Aurora"}),
        ),
        (
            "Calendar entry: 'Kickoff' with Lee and Ng, 1 July 2025 at 10:00.",
            json!({"title": "Kickoff", "date": "2025-07-01", "start": "10:00", "attendees": ["Lee", "Ng"], "room": null}),
        ),
        (
            "Create 'Hiring debrief' on 2025-11-20 at 17:15 in room Blue with Sara.",
            json!({"title": "Hiring debrief", "date": "2025-11-20", "start": "17:15", "attendees": ["Sara"], "room": "Blue"}),
        ),
        (
            "I need a '1:1' with Kim on Dec 2nd 2024 at 08:05. No room needed.",
            json!({"title": "1:1", "date": "2024-12-02", "start": "08:05", "attendees": ["Kim"], "room": null}),
        ),
    ]
}

fn reviews() -> Vec<(&'static str, Value)> {
    vec![
        (
            "Classify this review (1 star): 'The parcel came two weeks late and the box was crushed.'",
            json!({"sentiment": "negative", "stars": 1, "topic": "delivery"}),
        ),
        (
            "Classify this review, 5 stars: 'Worth every cent, and cheaper than anywhere else.'",
            json!({"sentiment": "positive", "stars": 5, "topic": "price"}),
        ),
        (
            "Three stars. Classify: 'Support answered within minutes, which was great, but their fix did not work.'",
            json!({"sentiment": "mixed", "stars": 3, "topic": "support"}),
        ),
        (
            "Rated 3 out of 5. Classify: 'Build quality is fine. Nothing special, nothing wrong.'",
            json!({"sentiment": "neutral", "stars": 3, "topic": "quality"}),
        ),
        (
            "Classify this two-star review: 'The stitching came apart after a week of use.'",
            json!({"sentiment": "negative", "stars": 2, "topic": "quality"}),
        ),
        (
            "Four stars out of five. Classify: 'Arrived a day early and very well packed!'",
            json!({"sentiment": "positive", "stars": 4, "topic": "delivery"}),
        ),
    ]
}

fn addresses() -> Vec<(&'static str, Value)> {
    vec![
        (
            "Ship it to 12 Rue de Rivoli, 75001 Paris, France.",
            json!({"street": "12 Rue de Rivoli", "postal_code": "75001", "city": "Paris", "country": "FR"}),
        ),
        (
            "My address is Hauptstraße 5, 10115 Berlin, Germany.",
            json!({"street": "Hauptstraße 5", "postal_code": "10115", "city": "Berlin", "country": "DE"}),
        ),
        (
            "Deliver to 221B Baker Street, London NW1 6XE, United Kingdom.",
            json!({"street": "221B Baker Street", "postal_code": "NW1 6XE", "city": "London", "country": "GB"}),
        ),
        (
            "Via Roma 10, Torino, Italy. I don't know the postcode.",
            json!({"street": "Via Roma 10", "postal_code": null, "city": "Torino", "country": "IT"}),
        ),
        (
            "Send the invoice to 1600 Amphitheatre Parkway, Mountain View, CA 94043, USA.",
            json!({"street": "1600 Amphitheatre Parkway", "postal_code": "94043", "city": "Mountain View", "country": "US"}),
        ),
        (
            "Our office is at Keizersgracht 123, 1015 CJ Amsterdam, the Netherlands.",
            json!({"street": "Keizersgracht 123", "postal_code": "1015 CJ", "city": "Amsterdam", "country": "NL"}),
        ),
    ]
}

fn orders() -> Vec<(&'static str, Value)> {
    let line = |sku: &str, quantity: u32| json!({"sku": sku, "quantity": quantity});
    vec![
        (
            "Order 3 of ABC-1234 and 1 of XYZ-0042, standard shipping.",
            json!({"lines": [line("ABC-1234", 3), line("XYZ-0042", 1)], "shipping": "standard"}),
        ),
        (
            "I'd like two units of KTL-5520, sent by express delivery.",
            json!({"lines": [line("KTL-5520", 2)], "shipping": "express"}),
        ),
        (
            "Please prepare 10x PEN-0001, 5x PAD-0200 and 1x INK-0033. I'll pick them up at the store.",
            json!({"lines": [line("PEN-0001", 10), line("PAD-0200", 5), line("INK-0033", 1)], "shipping": "pickup"}),
        ),
        (
            "Reorder: sku lmp-7781, qty 4, ship express.",
            json!({"lines": [line("LMP-7781", 4)], "shipping": "express"}),
        ),
        (
            "One CBL-0300 cable and a dozen CLP-1000 clips, standard post please.",
            json!({"lines": [line("CBL-0300", 1), line("CLP-1000", 12)], "shipping": "standard"}),
        ),
        (
            "Add 6 of MUG-2024 to the order and ship it the fast way (express).",
            json!({"lines": [line("MUG-2024", 6)], "shipping": "express"}),
        ),
    ]
}

fn recipes() -> Vec<(&'static str, Value)> {
    let item =
        |name: &str, amount: f64, unit: &str| json!({"name": name, "amount": amount, "unit": unit});
    vec![
        (
            "Pancakes for 4: 200 g flour, 2 eggs and 300 ml milk.",
            json!({"servings": 4, "ingredients": [item("flour", 200.0, "gram"), item("eggs", 2.0, "piece"), item("milk", 300.0, "milliliter")]}),
        ),
        (
            "Serves 2. Half a teaspoon of salt, 250 ml cream and 150 g chocolate.",
            json!({"servings": 2, "ingredients": [item("salt", 0.5, "teaspoon"), item("cream", 250.0, "milliliter"), item("chocolate", 150.0, "gram")]}),
        ),
        (
            "Mash for six people: 1.5 kg potatoes, 100 g butter, 200 ml milk.",
            json!({"servings": 6, "ingredients": [item("potatoes", 1500.0, "gram"), item("butter", 100.0, "gram"), item("milk", 200.0, "milliliter")]}),
        ),
        (
            "Salad that serves 3: 2 tomatoes, 1 cucumber, 2 tablespoons olive oil.",
            json!({"servings": 3, "ingredients": [item("tomatoes", 2.0, "piece"), item("cucumber", 1.0, "piece"), item("olive oil", 2.0, "tablespoon")]}),
        ),
        (
            "Tea for one: 1 teaspoon tea leaves and 250 ml water.",
            json!({"servings": 1, "ingredients": [item("tea leaves", 1.0, "teaspoon"), item("water", 250.0, "milliliter")]}),
        ),
    ]
}

fn tickets() -> Vec<(&'static str, Value)> {
    vec![
        (
            "Account 3f2c8a1e-9b4d-4c7e-8a21-5d6f0b9e1c34 cannot log in at all since this morning and the whole team is blocked. This is critical.",
            json!({"account": "3f2c8a1e-9b4d-4c7e-8a21-5d6f0b9e1c34", "severity": "critical", "component": "login", "link": null}),
        ),
        (
            "Low priority: the search results at https://shop.example.com/search?q=lamp show duplicates. Account 0b1e6d2a-7c55-4f8e-9d13-a2b4c6e8f001.",
            json!({"account": "0b1e6d2a-7c55-4f8e-9d13-a2b4c6e8f001", "severity": "low", "component": "search", "link": "https://shop.example.com/search?q=lamp"}),
        ),
        (
            "The mobile app crashes when I open my invoices; I can still use the website. Account id: 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d. Severity medium.",
            json!({"account": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", "severity": "medium", "component": "mobile_app", "link": null}),
        ),
        (
            "High severity billing bug: customer c0ffee00-1234-4abc-9def-0123456789ab was charged twice, see https://billing.example.com/inv/4471",
            json!({"account": "c0ffee00-1234-4abc-9def-0123456789ab", "severity": "high", "component": "billing", "link": "https://billing.example.com/inv/4471"}),
        ),
        (
            "Account ID 7e57d00d-0000-4000-8000-00000000beef: the login page shows a blank screen (medium severity).",
            json!({"account": "7e57d00d-0000-4000-8000-00000000beef", "severity": "medium", "component": "login", "link": null}),
        ),
    ]
}

fn flights() -> Vec<(&'static str, Value)> {
    vec![
        (
            "I'm on LH 454 from Frankfurt (FRA) to San Francisco (SFO) on 2025-06-14, seat 32K.",
            json!({"flight": "LH454", "from": "FRA", "to": "SFO", "date": "2025-06-14", "seat": "32K"}),
        ),
        (
            "Booked BA117 from LHR to JFK, departing 3 October 2025. No seat yet.",
            json!({"flight": "BA117", "from": "LHR", "to": "JFK", "date": "2025-10-03", "seat": null}),
        ),
        (
            "Flight AF1681 from Paris CDG to Lisbon LIS on the 21st of December 2025, window seat 7A.",
            json!({"flight": "AF1681", "from": "CDG", "to": "LIS", "date": "2025-12-21", "seat": "7A"}),
        ),
        (
            "Check me in for U2 8315 from Berlin (BER) to Naples (NAP) on 2025-08-02.",
            json!({"flight": "U28315", "from": "BER", "to": "NAP", "date": "2025-08-02", "seat": null}),
        ),
        (
            "My flight is KL 1002, AMS to LHR, on Jan 9, 2026, and I've got seat 14C.",
            json!({"flight": "KL1002", "from": "AMS", "to": "LHR", "date": "2026-01-09", "seat": "14C"}),
        ),
        (
            "Return leg: SK 1467, CPH-ARN, 30/04/2025, seat 3 F.",
            json!({"flight": "SK1467", "from": "CPH", "to": "ARN", "date": "2025-04-30", "seat": "3F"}),
        ),
    ]
}

fn expenses() -> Vec<(&'static str, Value)> {
    vec![
        (
            "Taxi from the airport with Yellow Cab: €42.50 on 2025-05-06.",
            json!({"amount": 42.5, "currency": "EUR", "category": "travel", "date": "2025-05-06", "merchant": "Yellow Cab"}),
        ),
        (
            "Lunch with a client at Chez Marie on 2025-05-07, 86 euros.",
            json!({"amount": 86, "currency": "EUR", "category": "meals", "date": "2025-05-07", "merchant": "Chez Marie"}),
        ),
        (
            "Hotel Adlon, two nights, 540.00 USD in total, paid at checkout on May 9th, 2025.",
            json!({"amount": 540, "currency": "USD", "category": "lodging", "date": "2025-05-09", "merchant": "Hotel Adlon"}),
        ),
        (
            "Printer paper and toner, £23.99, bought on 12 March 2025. The receipt has no shop name.",
            json!({"amount": 23.99, "currency": "GBP", "category": "office", "date": "2025-03-12", "merchant": null}),
        ),
        (
            "Annual licence for our design software: 1,200 CHF paid to Figma on 2025-01-15.",
            json!({"amount": 1200, "currency": "CHF", "category": "software", "date": "2025-01-15", "merchant": "Figma"}),
        ),
        (
            "Train ticket Zurich to Milan from SBB, 79.90 CHF, travelled 2025-03-03.",
            json!({"amount": 79.9, "currency": "CHF", "category": "travel", "date": "2025-03-03", "merchant": "SBB"}),
        ),
    ]
}

fn hires() -> Vec<(&'static str, Value)> {
    vec![
        (
            "New hire: Jonas Weber, start date 2025-04-01, role Data Engineer, reports to Mia Chen.",
            json!({"name": "Jonas Weber", "date": "2025-04-01", "role": "Data Engineer", "manager": "Mia Chen", "email": null}),
        ),
        (
            "Please onboard Fatima Al-Sayed as Product Designer; she starts on the first of September 2025. Her email will be fatima@acme.io.",
            json!({"name": "Fatima Al-Sayed", "date": "2025-09-01", "role": "Product Designer", "manager": null, "email": "fatima@acme.io"}),
        ),
        (
            "Welcome Lucas Martin (Sales Lead), joining on 2025-10-13. Reports to: Ines Duarte. Email lucas.martin@acme.io.",
            json!({"name": "Lucas Martin", "date": "2025-10-13", "role": "Sales Lead", "manager": "Ines Duarte", "email": "lucas.martin@acme.io"}),
        ),
        (
            "Onboarding: name = Chen Wei; position = Support Engineer; starting 6 Jan 2026; manager not decided yet.",
            json!({"name": "Chen Wei", "date": "2026-01-06", "role": "Support Engineer", "manager": null, "email": null}),
        ),
        (
            "Starting Monday 2025-07-07: Grace Obi, QA Analyst, her manager is Tom Reyes.",
            json!({"name": "Grace Obi", "date": "2025-07-07", "role": "QA Analyst", "manager": "Tom Reyes", "email": null}),
        ),
        (
            "Hire record for Noah Kim, Backend Developer, first day June 2nd, 2025, reporting line Sara Blom, contact noah.kim@acme.io.",
            json!({"name": "Noah Kim", "date": "2025-06-02", "role": "Backend Developer", "manager": "Sara Blom", "email": "noah.kim@acme.io"}),
        ),
    ]
}

fn home_steps() -> Vec<(&'static str, Value)> {
    vec![
        (
            "Turn on the kitchen lights.",
            tool(
                "set_lights",
                json!({"room": "kitchen", "on": true, "brightness": null}),
            ),
        ),
        (
            "Dim the living room lights to 30 percent.",
            tool(
                "set_lights",
                json!({"room": "living room", "on": true, "brightness": 30}),
            ),
        ),
        (
            "Switch off the lights in the office.",
            tool(
                "set_lights",
                json!({"room": "office", "on": false, "brightness": null}),
            ),
        ),
        (
            "Set the bedroom to 21.5 degrees.",
            tool(
                "set_thermostat",
                json!({"room": "bedroom", "celsius": 21.5}),
            ),
        ),
        (
            "Put milk, eggs and coffee on the shopping list.",
            tool(
                "add_to_list",
                json!({"list": "shopping", "items": ["milk", "eggs", "coffee"]}),
            ),
        ),
        (
            "Add 'call the plumber' to my to-do list.",
            tool(
                "add_to_list",
                json!({"list": "todo", "items": ["call the plumber"]}),
            ),
        ),
        ("What can you do for me?", direct_answer()),
        ("Thanks, that's all for today!", direct_answer()),
    ]
}

fn travel_steps() -> Vec<(&'static str, Value)> {
    vec![
        (
            "Find me flights from Oslo (OSL) to Rome (FCO) on 2025-05-20.",
            tool(
                "search_flights",
                json!({"from": "OSL", "to": "FCO", "date": "2025-05-20"}),
            ),
        ),
        (
            "Any flights from MAD to BCN on the 2nd of August 2025?",
            tool(
                "search_flights",
                json!({"from": "MAD", "to": "BCN", "date": "2025-08-02"}),
            ),
        ),
        (
            "How much is 250 US dollars in euros?",
            tool(
                "convert_currency",
                json!({"amount": 250, "from": "USD", "to": "EUR"}),
            ),
        ),
        (
            "Convert 1,000 Japanese yen to British pounds.",
            tool(
                "convert_currency",
                json!({"amount": 1000, "from": "JPY", "to": "GBP"}),
            ),
        ),
        (
            "What's the weather like in Lyon right now, in celsius?",
            tool("get_weather", json!({"city": "Lyon", "unit": "celsius"})),
        ),
        (
            "Is it hot in Phoenix today? Give it to me in fahrenheit.",
            tool(
                "get_weather",
                json!({"city": "Phoenix", "unit": "fahrenheit"}),
            ),
        ),
        ("Who are you?", direct_answer()),
        ("What is the capital of Japan?", direct_answer()),
    ]
}

/// The problems of the tasks themselves: an expected answer that the type cannot hold,
/// that its JSON Schema rejects, or that the type writes back differently.
pub fn problems(tasks: &[Task]) -> Vec<String> {
    let mut problems = Vec::new();
    for (index, task) in tasks.iter().enumerate() {
        let name = task.answer.name;
        let schema = (task.answer.schema)();
        match jsonschema::validator_for(&schema) {
            Ok(validator) => {
                for e in validator.iter_errors(&task.expected) {
                    problems.push(format!(
                        "task {index} ({name}): the schema rejects the expected answer at {}: {e}",
                        e.instance_path()
                    ));
                }
            }
            Err(e) => problems.push(format!(
                "task {index} ({name}): the schema does not compile: {e}"
            )),
        }
        match (task.answer.roundtrip)(&task.expected) {
            Ok(back) if crate::score::exactly_right(&task.expected, &back, false) => {}
            Ok(back) => problems.push(format!(
                "task {index} ({name}): the expected answer is written back as {back}"
            )),
            Err(e) => problems.push(format!(
                "task {index} ({name}): the type rejects the expected answer: {e}"
            )),
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_expected_answer_fits_its_type_and_schema() {
        let tasks = super::all();
        assert_eq!(super::problems(&tasks), Vec::<String>::new());
        assert!(tasks.len() >= 60, "{} tasks", tasks.len());
    }
}
