//! A semantic check in a live run: Home Assistant-style intents given as JSON at run time,
//! and a check the schema cannot express, "`name` must be one of the devices this home
//! knows". A call that names another device is rejected with the check's message (the
//! devices, and a did-you-mean), which goes back to the model in the repair prompt.
//! Each request prints every attempt and what was said about it; the last lines count
//! the requests where the check fired and where the model then fixed its call.
//!
//! ```sh
//! eval "$(scripts/local-model start)"      # or name your own OpenAI-compatible server
//! cargo run --example semantic
//! cargo run --example semantic -- "Switch off the porch light"
//! ```

#[path = "support/model.rs"]
mod model;

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolschema::agent::Event;
use toolschema::toolset::one_of;
use toolschema::{Agent, Choice, Toolset, ViolationKind};

/// The devices this home knows, as it spells them.
const DEVICES: [&str; 6] = [
    "Bedroom Lamp",
    "Kitchen Ceiling",
    "Porch Light",
    "Living Room TV",
    "Office Fan",
    "Garage Door",
];

/// Requests that name the devices as people do, not as the home spells them.
const REQUESTS: [&str; 8] = [
    "Turn on the bedroom light.",
    "Switch off the lights on the porch.",
    "Turn on the ceiling light in the kitchen.",
    "Turn the TV in the living room off.",
    "It's hot in my office, turn the fan on.",
    "Open the garage.",
    "Please turn off the lamp next to my bed.",
    "Kitchen lights on, please.",
];

fn intent(description: &str) -> Value {
    json!({
        "type": "function",
        "function": {
            "name": description.split(':').next().unwrap_or_default(),
            "description": description.split(':').nth(1).unwrap_or_default().trim(),
            "parameters": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "The device, as the home names it."},
                    "area": {"type": "string", "description": "The room."},
                    "domain": {
                        "type": "array",
                        "items": {"enum": ["light", "switch", "fan", "media_player", "cover"]}
                    }
                },
                "required": ["name"]
            }
        }
    })
}

/// The intents, each checked against the devices this home knows.
fn tools() -> Result<Toolset, toolschema::Error> {
    let intents = json!([
        intent("HassTurnOn: Turns on, opens or starts a device."),
        intent("HassTurnOff: Turns off, closes or stops a device."),
    ]);
    let known = |args: &Value| one_of(args, "/name", DEVICES);
    Toolset::from_openai_tools(&intents)?
        .check("HassTurnOn", known)?
        .check("HassTurnOff", known)
}

/// Whether the check rejected this attempt: `name` is a plain string in the schema, so a
/// value not allowed there can only come from the check.
fn check_fired(event: &Event) -> bool {
    let Event::Violations { error, .. } = event else {
        return false;
    };
    error.violations().iter().any(|v| {
        v.pointer() == "/arguments/name" && matches!(v.kind(), ViolationKind::NotAllowed { .. })
    })
}

#[derive(Default)]
struct Tally {
    requests: usize,
    first_accepted: usize,
    check_fired: usize,
    fixed_after_check: usize,
}

#[tokio::main]
async fn main() {
    let provider = model::named_or_exit("semantic");
    let tools = match tools() {
        Ok(tools) => tools,
        Err(e) => {
            eprintln!("the tools do not load: {e}");
            std::process::exit(1);
        }
    };
    let asked: Vec<String> = match std::env::args().nth(1) {
        Some(request) => vec![request],
        None => REQUESTS.iter().map(|r| (*r).to_owned()).collect(),
    };
    println!("devices: {}", DEVICES.join(", "));
    let events: Arc<Mutex<Vec<Event>>> = Arc::default();
    let seen = Arc::clone(&events);
    let agent = Agent::new(provider)
        .max_attempts(3)
        .temperature(0.0)
        .on_event(move |event| {
            if !matches!(event, Event::ReplyReceived { .. }) {
                for line in event.to_string().lines() {
                    println!("  model · {line}");
                }
            }
            seen.lock().expect("events").push(event.clone());
        });
    let mut tally = Tally::default();
    for request in &asked {
        println!("\n{request:?}");
        events.lock().expect("events").clear();
        let outcome = agent.ask_tools(&tools, request).await;
        let fired = events.lock().expect("events").iter().any(check_fired);
        let attempts = match &outcome {
            Ok(_) => events
                .lock()
                .expect("events")
                .iter()
                .filter(|e| matches!(e, Event::AttemptStarted { .. }))
                .count(),
            Err(e) => e.attempts().len(),
        };
        match &outcome {
            Ok(Choice::Calls(calls)) => {
                for call in calls {
                    println!("  => {} {}", call.name(), call.arguments());
                }
            }
            Ok(Choice::Answer(answer)) => println!("  => answer {answer}"),
            Err(e) => {
                println!("  => no call: {e}");
                if let Some(last) = e.attempts().last() {
                    println!(
                        "  last request:\n{}\n  last reply: {}",
                        last.request(),
                        last.raw()
                    );
                }
            }
        }
        tally.requests += 1;
        tally.first_accepted += usize::from(outcome.is_ok() && attempts == 1);
        tally.check_fired += usize::from(fired);
        tally.fixed_after_check += usize::from(fired && outcome.is_ok());
    }
    println!(
        "\n{} request(s): {} accepted at the first attempt; the check rejected a call in {}, \
         and the model fixed its call after the check's message in {} of them",
        tally.requests, tally.first_accepted, tally.check_fired, tally.fixed_after_check
    );
}
