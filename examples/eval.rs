//! A live evaluation: asks the model named by the environment a set of tasks, in every
//! mode, and prints how often a typed value came back and at what cost.
//!
//! ```sh
//! eval "$(scripts/local-model start)"
//! cargo run --release --example eval            # all modes
//! cargo run --release --example eval -- auto    # one mode: auto, json_schema, json_object, prompt, tools
//! ```

// The evaluation counts typed values; it does not read their fields.
#![allow(dead_code)]

use std::time::Instant;

use toolschema::agent::Metrics;
use toolschema::provider::{Mode, OpenAi};
use toolschema::{Agent, AskError, ToolSchema};

/// A person to get in touch with.
#[derive(ToolSchema, Debug)]
struct Contact {
    /// Full name.
    name: String,
    email: Option<String>,
    /// Phone number as written.
    phone: Option<String>,
}

/// A meeting mentioned in a message.
#[derive(ToolSchema, Debug)]
struct Meeting {
    /// What it is about, in a few words.
    title: String,
    /// The day, as YYYY-MM-DD.
    #[schema(
        pattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        hint = "a date like 2024-05-17"
    )]
    date: String,
    /// Start hour, 24-hour clock.
    #[schema(range(min = 0, max = 23))]
    hour: u8,
    attendees: Vec<String>,
}

#[derive(ToolSchema, Debug)]
#[serde(rename_all = "lowercase")]
enum Sentiment {
    Positive,
    Neutral,
    Negative,
}

/// How a customer felt about a product.
#[derive(ToolSchema, Debug)]
struct Review {
    sentiment: Sentiment,
    /// Stars, 1 to 5.
    #[schema(range(min = 1, max = 5))]
    stars: u8,
    /// The main complaint or praise, in a few words.
    summary: String,
}

/// A postal address.
#[derive(ToolSchema, Debug)]
struct Address {
    street: String,
    city: String,
    /// Two-letter ISO country code, e.g. "FR".
    #[schema(pattern = "^[A-Z]{2}$", hint = "two capital letters, like FR or DE")]
    country: String,
}

#[derive(ToolSchema, Debug)]
#[serde(rename_all = "lowercase")]
enum Measure {
    Gram,
    Milliliter,
    Piece,
}

/// One ingredient of a recipe.
#[derive(ToolSchema, Debug)]
struct Ingredient {
    name: String,
    #[schema(range(min = 0))]
    quantity: f64,
    unit: Measure,
}

/// The ingredients of a recipe.
#[derive(ToolSchema, Debug)]
struct Recipe {
    ingredients: Vec<Ingredient>,
}

#[derive(ToolSchema, Debug)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// Weather lookup.
#[derive(ToolSchema, Debug)]
struct GetWeather {
    /// The city, e.g. "Paris".
    city: String,
    unit: Unit,
}

/// Lights in a room.
#[derive(ToolSchema, Debug)]
struct SetLights {
    room: String,
    on: bool,
}

/// Heating.
#[derive(ToolSchema, Debug)]
struct SetThermostat {
    room: String,
    #[schema(range(min = 5, max = 30))]
    celsius: u8,
}

/// One step of a home assistant: a tool call or the answer.
#[derive(ToolSchema, Debug)]
enum Step {
    /// Look up the current weather in a city.
    #[tool]
    GetWeather(GetWeather),
    /// Turn the lights of a room on or off.
    #[tool]
    SetLights(SetLights),
    /// Set the target temperature of a room.
    #[tool]
    SetThermostat(SetThermostat),
    /// Reply to the user directly.
    #[answer]
    Answer(String),
}

enum Task {
    Contact(&'static str),
    Meeting(&'static str),
    Review(&'static str),
    Address(&'static str),
    Recipe(&'static str),
    Step(&'static str),
}

const TASKS: &[Task] = &[
    Task::Contact("Extract the contact: 'Reach Maria Lopez at maria.lopez@example.com.'"),
    Task::Contact("Extract the contact: 'Call Tom Berg on +47 912 34 567 after five.'"),
    Task::Contact("Extract the contact: 'Dr. Aiko Tanaka, aiko@clinic.jp, 03-1234-5678'"),
    Task::Contact("Extract the contact: 'My name is Sam and you can't reach me by email.'"),
    Task::Contact("Extract the contact: 'Questions? Write to Lena Fischer (lena.f@post.de).'"),
    Task::Meeting(
        "Extract the meeting: 'Budget review on 2025-09-18 at 14:00 with Ana, Bo and Chen.'",
    ),
    Task::Meeting("Extract the meeting: 'Standup 2025-01-06, 9am, Priya and Omar.'"),
    Task::Meeting("Extract the meeting: 'Let's meet on 2024-12-02 at 16h, just you and me (Kim).'"),
    Task::Meeting("Extract the meeting: 'Design sync 2025-03-11 at 11:00 — Rita, Jon.'"),
    Task::Meeting(
        "Extract the meeting: 'Kickoff with the Acme team (Lee, Ng) on 2025-07-01 at 10.'",
    ),
    Task::Review("Classify this review: 'Broke after two days. Never again.'"),
    Task::Review("Classify this review: 'Does what it says, nothing more.'"),
    Task::Review("Classify this review: 'Absolutely love it, best purchase this year!'"),
    Task::Review("Classify this review: 'Good sound but the battery is weak.'"),
    Task::Review("Classify this review: 'Arrived late and the box was crushed, product fine.'"),
    Task::Address("Extract the address: '12 Rue de Rivoli, Paris, France'"),
    Task::Address("Extract the address: 'Hauptstraße 5, 10115 Berlin, Germany'"),
    Task::Address("Extract the address: '221B Baker Street, London, United Kingdom'"),
    Task::Address("Extract the address: 'Via Roma 10, Torino, Italy'"),
    Task::Address("Extract the address: '1 Infinite Loop, Cupertino, USA'"),
    Task::Recipe("List the ingredients: 'Mix 200 g flour, 2 eggs and 300 ml milk.'"),
    Task::Recipe("List the ingredients: 'You need 500 g pasta and 1 onion.'"),
    Task::Recipe("List the ingredients: '3 apples, 100 g sugar, 50 g butter.'"),
    Task::Recipe("List the ingredients: 'Stir 250 ml cream into 150 g chocolate.'"),
    Task::Recipe("List the ingredients: '2 tomatoes, 1 cucumber and 100 ml olive oil.'"),
    Task::Step("What's the weather in Lyon, in celsius?"),
    Task::Step("Turn on the lights in the kitchen."),
    Task::Step("Set the bedroom to 21 degrees."),
    Task::Step("Is it cold in Boston right now? Use fahrenheit."),
    Task::Step("Switch off the living room lights."),
    Task::Step("Hi! What can you do for me?"),
    Task::Step("Make the office warmer, 23 degrees please."),
];

async fn ask(agent: &Agent<OpenAi>, task: &Task) -> Result<(), AskError> {
    match task {
        Task::Contact(p) => agent.ask::<Contact>(p).await.map(drop),
        Task::Meeting(p) => agent.ask::<Meeting>(p).await.map(drop),
        Task::Review(p) => agent.ask::<Review>(p).await.map(drop),
        Task::Address(p) => agent.ask::<Address>(p).await.map(drop),
        Task::Recipe(p) => agent.ask::<Recipe>(p).await.map(drop),
        Task::Step(p) => agent.ask::<Step>(p).await.map(drop),
    }
}

fn row(mode: &str, m: &Metrics, tasks: usize, seconds: f64) {
    let pct = |n: u64| 100.0 * n as f64 / tasks.max(1) as f64;
    println!(
        "| {mode:<11} | {:>5.1}% ({}/{}) | {:>5.1}% | {:>5.1}% | {:>5.1}% | {:>4.2} | {:>6.0} | {:>5.1} |",
        pct(m.successes),
        m.successes,
        tasks,
        pct(m.first_try),
        pct(m.fixed_locally),
        pct(m.fixed_by_model),
        m.attempts_per_success(),
        m.tokens_per_success(),
        seconds / tasks.max(1) as f64,
    );
}

#[tokio::main]
async fn main() {
    let Ok(provider) = OpenAi::from_env() else {
        eprintln!(
            "Set OPENAI_BASE_URL and OPENAI_MODEL (e.g. eval \"$(scripts/local-model start)\")."
        );
        std::process::exit(2);
    };
    let wanted = std::env::args().nth(1);
    let modes = [
        ("auto", Mode::Auto),
        ("json_schema", Mode::JsonSchema),
        ("json_object", Mode::JsonObject),
        ("prompt", Mode::Prompt),
        ("tools", Mode::Tools),
    ];
    println!(
        "model {} · {} tasks · at most 3 attempts · temperature 0\n",
        provider.model(),
        TASKS.len()
    );
    println!(
        "| mode        | typed success     | first try | fixed locally | fixed by repair | calls/success | tokens/success | s/task |"
    );
    println!(
        "|-------------|-------------------|-----------|---------------|-----------------|---------------|----------------|--------|"
    );
    for (name, mode) in modes {
        if wanted.as_deref().is_some_and(|w| w != name) {
            continue;
        }
        let agent = Agent::new(provider.clone())
            .mode(mode)
            .max_attempts(3)
            .temperature(0.0)
            .max_tokens(400);
        let start = Instant::now();
        let mut failures = Vec::new();
        for (i, task) in TASKS.iter().enumerate() {
            if let Err(e) = ask(&agent, task).await {
                failures.push((i, e));
            }
        }
        row(
            name,
            &agent.metrics(),
            TASKS.len(),
            start.elapsed().as_secs_f64(),
        );
        for (i, e) in failures {
            let last = e.last_raw().unwrap_or_default().replace('\n', " ");
            eprintln!(
                "  {name} task {i} failed: {}; last reply: {:.160}",
                e.to_string().lines().next().unwrap_or_default(),
                last
            );
        }
    }
}
