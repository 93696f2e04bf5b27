//! Ask a model for typed values: a record extracted from text, and a step of a tool loop.
//!
//! Run `scripts/quickstart` (it starts a small local model when no server is named), or
//! name a server yourself:
//!
//! ```sh
//! OPENAI_BASE_URL=http://127.0.0.1:8080/v1 OPENAI_MODEL=qwen2.5-coder-0.5b cargo run --example quickstart
//! ```

use toolschema::agent::{Event, Toolbox};
use toolschema::provider::OpenAi;
use toolschema::{Agent, ToolSchema};

/// A meeting mentioned in a message.
#[derive(ToolSchema, Debug)]
struct Meeting {
    /// What the meeting is about, in a few words.
    title: String,
    /// The day, as YYYY-MM-DD.
    #[schema(
        pattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        hint = "a date like 2024-05-17"
    )]
    date: String,
    /// Start time, 24-hour clock.
    #[schema(range(min = 0, max = 23))]
    hour: u8,
    /// Who takes part.
    attendees: Vec<String>,
}

#[derive(ToolSchema, Debug)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// Arguments of the weather tool.
#[derive(ToolSchema, Debug)]
struct GetWeather {
    /// The city, e.g. "Paris".
    city: String,
    unit: Unit,
}

/// Arguments of the lights tool.
#[derive(ToolSchema, Debug)]
struct TurnOn {
    /// The room, as the user calls it.
    room: String,
}

/// One step: call a tool, or answer.
#[derive(ToolSchema, Debug)]
enum Step {
    /// Look up the current weather in a city.
    #[tool]
    GetWeather(GetWeather),
    /// Turn on the lights in a room.
    #[tool]
    TurnOn(TurnOn),
    /// Reply to the user.
    #[answer]
    Answer(String),
}

fn show(event: &Event) {
    // Every event but the bare arrival of a reply, one line each.
    if matches!(event, Event::ReplyReceived { .. }) {
        return;
    }
    for line in event.to_string().lines() {
        println!("  · {line}");
    }
}

#[tokio::main]
async fn main() {
    let provider = match OpenAi::from_env() {
        Ok(p) => p,
        Err(e) => {
            eprintln!(
                "{e}\nRun scripts/quickstart to start a local model, or set OPENAI_BASE_URL and OPENAI_MODEL."
            );
            std::process::exit(2);
        }
    };
    println!(
        "asking {} at {}\n",
        provider.model(),
        std::env::var("OPENAI_BASE_URL").unwrap_or_default()
    );
    let agent = Agent::new(provider)
        .max_attempts(3)
        .temperature(0.0)
        .on_event(show);

    let text =
        "Hi all, let's do the Q3 budget review on 2025-09-18 at 14:00 with Ana, Bo and Chen.";
    println!("1. A meeting from: {text:?}");
    match agent
        .ask::<Meeting>(&format!("Extract the meeting from this message: {text}"))
        .await
    {
        Ok(m) => println!(
            "=> {:?} on {} at {}:00 with {}\n",
            m.title,
            m.date,
            m.hour,
            m.attendees.join(", ")
        ),
        Err(e) => print_failure(&e),
    }

    println!("2. One step of a tool loop: \"What's the weather in Lyon, in celsius?\"");
    match agent
        .ask::<Step>("What's the weather in Lyon, in celsius?")
        .await
    {
        Ok(step) => println!("=> {}\n", describe(&step)),
        Err(e) => print_failure(&e),
    }

    // A small model may keep calling tools instead of answering; the loop stops at the
    // step limit and the error keeps every attempt.
    println!("3. The whole loop, with a fake weather tool (at most 3 steps)");
    let tools = Toolbox::new()
        .tool("get_weather", |args: GetWeather| async move {
            Ok::<_, String>(format!(
                "18 degrees {:?} and sunny in {}",
                args.unit, args.city
            ))
        })
        .tool("turn_on", |args: TurnOn| async move {
            Ok::<_, String>(format!("the {} lights are on", args.room))
        })
        .max_steps(3);
    match agent
        .ask::<Step>("What's the weather in Lyon, in celsius?")
        .run(&tools)
        .await
    {
        Ok(step) => println!("=> {}\n", describe(&step)),
        Err(e) => print_failure(&e),
    }

    let m = agent.metrics();
    println!(
        "metrics: {} asks, {} succeeded ({} first try, {} fixed locally, {} fixed by the model), {:.2} calls and {:.0} tokens per success",
        m.asks,
        m.successes,
        m.first_try,
        m.fixed_locally,
        m.fixed_by_model,
        m.attempts_per_success(),
        m.tokens_per_success()
    );
}

fn describe(step: &Step) -> String {
    match step {
        Step::GetWeather(args) => format!(
            "call get_weather(city: {:?}, unit: {:?})",
            args.city, args.unit
        ),
        Step::TurnOn(args) => format!("call turn_on(room: {:?})", args.room),
        Step::Answer(text) => format!("answer: {text:?}"),
    }
}

fn print_failure(error: &toolschema::AskError) {
    println!("=> failed: {error}");
    for attempt in error.attempts() {
        println!("   attempt {}: {:?}", attempt.number(), attempt.raw());
    }
    println!();
}
