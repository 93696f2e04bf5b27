//! Whether a reply follows the conversation: a call made of something the user or a tool
//! wrote, an answer that does not skip the tool the request names.
//!
//! Asked something no tool does, a small model under a grammar, or one that has been told
//! to call, still calls a tool: with values of its own making (`{"principal": 100000,
//! "annual_rate": 4.5}` for "Who wrote Moby-Dick?"), often the placeholders of an
//! example. Such a call has nothing to do with the conversation: none of its values
//! appears anywhere in what the user and the tools wrote, and no word the user wrote
//! appears in the tool's name, description or arguments' names
//! ([`Conversation::ungrounded`]).
//!
//! The other way round, asked for what a tool does, a small model often works the result
//! out itself (`{"answer": "12"}` for "the greatest common divisor of 84 and 36" with
//! `math.gcd` at hand), or makes it up. Such an answer skips a tool whose very name the
//! request uses ([`Conversation::skips`]).
//!
//! Either reply is sent back once, with a violation that says so, and the model may do
//! the other thing; a model that replies the same way again is taken at its word. The
//! tests are deliberately weak, so that they fire only on clear cases: for a call, one
//! value that appears is enough to stand, and so is one word of the request in the tool's
//! name or description (`Time?` stands for `get_current_time({"timezone": "UTC"})`); a
//! value appears when one of its words (or its number) does; booleans and nulls say
//! nothing either way; a call with no value to judge stands. For an answer, only the words
//! of a tool's name count, not its description, and not the generic verbs of names
//! (`get`, `search`, `list` …).

use serde_json::Value;

use crate::error::{bounded, quote};
use crate::message::{Message, Role};
use crate::{Violation, ViolationKind};

/// The most values named in a violation.
const NAMED: usize = 4;

/// The most distinct words of a conversation the checks compare (a long tool result is
/// mostly not what a call's values come from).
const MAX_WORDS: usize = 4_096;

/// The most words of one value the checks look at.
const MAX_VALUE_WORDS: usize = 64;

/// Words of four letters or more that say nothing of what a request is about.
const COMMON: &[&str] = &[
    "about", "after", "again", "also", "because", "been", "before", "being", "could", "does",
    "doing", "done", "each", "even", "from", "give", "have", "having", "hello", "help", "here",
    "into", "just", "know", "like", "make", "many", "much", "need", "please", "quick", "really",
    "should", "some", "tell", "than", "thank", "thanks", "that", "their", "them", "then", "there",
    "these", "they", "thing", "think", "this", "those", "using", "very", "want", "what", "when",
    "where", "which", "while", "will", "with", "would", "your",
];

/// The words and numbers of what the user and the tools wrote: the request and the
/// earlier messages, never the system prompt (its tool descriptions hold defaults and
/// examples, which are no evidence of what the user asked for).
pub(super) struct Conversation {
    words: Vec<String>,
    numbers: Vec<f64>,
    /// The words the user wrote (the request and the user's messages).
    asked: Vec<String>,
}

/// Words of tool names that say what kind of thing a tool does, not which.
const GENERIC: &[&str] = &[
    "add",
    "all",
    "and",
    "by",
    "calculate",
    "calculator",
    "check",
    "compute",
    "create",
    "data",
    "delete",
    "details",
    "fetch",
    "find",
    "for",
    "function",
    "get",
    "info",
    "list",
    "lookup",
    "make",
    "new",
    "of",
    "remove",
    "run",
    "search",
    "set",
    "show",
    "the",
    "to",
    "tool",
    "update",
];

impl Conversation {
    pub fn new(history: &[Message], prompt: &str, request: &str) -> Self {
        let mut asked = format!("{prompt}\n{request}");
        for message in history.iter().filter(|m| m.role == Role::User) {
            asked.push('\n');
            asked.push_str(&message.content);
        }
        let mut text = String::new();
        for message in history.iter().filter(|m| m.role != Role::System) {
            text.push_str(&message.content);
            text.push('\n');
            for call in &message.tool_calls {
                text.push_str(&call.arguments.as_text());
                text.push('\n');
            }
        }
        text.push_str(prompt);
        text.push('\n');
        text.push_str(request);
        // Bounded: the check compares every word of a value with every word here.
        Conversation {
            words: words_bounded(&text),
            numbers: numbers(&text),
            asked: words_bounded(&asked),
        }
    }

    /// The violation of an answer `{"answer": …}` to a request that uses a word of the
    /// name of one of `tools` (each as the model is shown it and as its server spells it):
    /// the request asks for what that tool does. `None` for any other value.
    pub fn skips<'a>(
        &self,
        value: &Value,
        tools: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Option<Violation> {
        value.get("answer")?;
        // The tool more of whose name the request uses: `weather.get_alerts` rather than
        // `weather.get_forecast` for "any weather alerts?".
        let (_, shown) = tools
            .into_iter()
            .map(|(shown, server)| {
                let mut words = name_words(shown);
                words.extend(name_words(server));
                words.sort();
                words.dedup();
                let used = words
                    .iter()
                    .filter(|word| self.asked.iter().any(|w| same_word(w, word)))
                    .count();
                (used, shown)
            })
            .fold((0, None), |best, (used, shown)| {
                if used > best.0 {
                    (used, Some(shown))
                } else {
                    best
                }
            });
        let shown = shown?;
        let tool = shown.to_owned();
        Some(Violation::new(
            "/answer",
            ViolationKind::SkippedTool { tool },
        ))
    }

    /// The violation of a call `{"name": …, "arguments": …}` none of whose values appears
    /// in the conversation, of a tool described by `about` (its names and description)
    /// that no word of the conversation names; `None` for any other value.
    pub fn ungrounded(&self, call: &Value, about: &str) -> Option<Violation> {
        let arguments = call.get("arguments")?;
        call.get("name")?;
        let mut values = Vec::new();
        leaves(arguments, &mut values);
        if values.is_empty() || values.iter().any(|v| self.holds(v)) || self.names(about) {
            return None;
        }
        let mut named: Vec<String> = values
            .iter()
            .take(NAMED)
            .map(|v| match v {
                Value::String(s) => quote(&bounded(s, 60)),
                other => other.to_string(),
            })
            .collect();
        if values.len() > NAMED {
            named.push("…".to_owned());
        }
        let kind = ViolationKind::Ungrounded { values: named };
        Some(Violation::new("/arguments", kind))
    }

    fn holds(&self, value: &Value) -> bool {
        match value {
            Value::String(s) => words(s)
                .iter()
                .take(MAX_VALUE_WORDS)
                .any(|w| self.has_word(w)),
            Value::Number(n) => n.as_f64().is_some_and(|n| {
                self.numbers
                    .iter()
                    .any(|m| (m - n).abs() <= f64::EPSILON * n.abs().max(1.0))
            }),
            _ => false,
        }
    }

    /// Whether a word of the conversation, of four letters or more and not one that any
    /// sentence has, is a word of `about` (or begins one, or one begins it).
    fn names(&self, about: &str) -> bool {
        let about = words(about);
        self.words
            .iter()
            .filter(|w| w.chars().count() >= 4 && !COMMON.contains(&w.as_str()))
            .any(|w| {
                about.iter().any(|a| {
                    a.chars().count() >= 4
                        && (a.starts_with(w.as_str()) || w.starts_with(a.as_str()))
                })
            })
    }

    /// A word of a value is in the conversation when a word there begins with it or it
    /// begins with a word there (`light` and `lights`, `Oslo` in `Europe/Oslo`), of three
    /// letters or more; shorter words must match whole (`de`, `NY`).
    fn has_word(&self, word: &str) -> bool {
        self.words.iter().any(|w| {
            if w.chars().count() < 3 || word.chars().count() < 3 {
                w == word
            } else {
                w.starts_with(word) || word.starts_with(w.as_str())
            }
        })
    }
}

/// The name a call `{"name": …}` gives to a function that is none of `tools` (each as the
/// model is shown it and as its server spells it) and resembles none of them: no word of
/// its name, generic verbs aside, begins or is begun by a word of a tool's name
/// (`translateGoodMorning`, `order_pizza` among `geography.get_country_info` and
/// `recipes.search`). Such a call says the model wants a function the union lacks; a
/// misspelled or shortened tool (`get_triangle_area` for `math.triangle_area`) shares a word
/// and is no invention. `None` for any other value.
pub(super) fn invented<'a>(
    value: &Value,
    tools: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Option<String> {
    let name = value.get("name")?.as_str()?;
    value.get("answer").is_none().then_some(())?;
    let tools: Vec<(&str, &str)> = tools.into_iter().collect();
    let plain = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
            .to_lowercase()
    };
    if tools
        .iter()
        .any(|(shown, server)| plain(shown) == plain(name) || plain(server) == plain(name))
    {
        return None;
    }
    // The namespaces of dotted names (`home` of `home.set_lights`) say whose tools they
    // are, not which: `home_get_bulb_power` among `home.*` tools resembles none of them.
    let namespaces: Vec<String> = tools
        .iter()
        .flat_map(|(_, server)| namespace_words(server))
        .collect();
    let distinct = |words: Vec<String>| -> Vec<String> {
        words
            .into_iter()
            .filter(|w| !namespaces.contains(w))
            .collect()
    };
    // A name of generic words or a namespace only (`search`, `get_info`, `home`) says
    // nothing of which function.
    let called = distinct(name_words(name));
    (!called.is_empty()).then_some(())?;
    // A tool whose name is its namespace and generic words (`recipes.search`) is known by
    // its namespace: it is all the name says.
    let distinct = |words: Vec<String>| -> Vec<String> {
        let own = distinct(words.clone());
        if own.is_empty() { words } else { own }
    };
    for (shown, server) in &tools {
        let mut known = name_words(shown);
        known.extend(name_words(server));
        if distinct(known)
            .iter()
            .any(|k| called.iter().any(|c| same_word(c, k)))
        {
            return None;
        }
    }
    Some(bounded(name, 60))
}

/// The words of the namespace of a tool's name as its server spells it: what stands
/// before its last `.`, `/` or `:` (`home` of `home.set_lights`); none for a plain name.
fn namespace_words(server: &str) -> Vec<String> {
    match server.rfind(['.', '/', ':']) {
        Some(end) => name_words(&server[..end]),
        None => Vec::new(),
    }
}

/// The words of a tool's name that say which tool it is: `math.gcd` → `math`, `gcd`;
/// `HassTurnOn` → `hass`, `turn`; words under three letters (`on`, `up`, `in`: every
/// sentence has them) and generic verbs and nouns (`get`, `list`) left out.
fn name_words(name: &str) -> Vec<String> {
    let mut split = String::new();
    let mut previous = ' ';
    for c in name.chars() {
        if c.is_uppercase() && previous.is_lowercase() {
            split.push(' ');
        }
        split.push(c);
        previous = c;
    }
    words(&split)
        .into_iter()
        .filter(|w| w.chars().count() >= 3 && !GENERIC.contains(&w.as_str()))
        .collect()
}

/// Two words are the same when equal, or, both of four letters or more, when one begins
/// the other (`triangle` and `triangles`, `convert` and `converter`).
fn same_word(a: &str, b: &str) -> bool {
    if a.chars().count() < 4 || b.chars().count() < 4 {
        a == b
    } else {
        a.starts_with(b) || b.starts_with(a)
    }
}

/// The strings and numbers of a value, booleans and nulls left out.
fn leaves(value: &Value, out: &mut Vec<Value>) {
    match value {
        Value::String(s) if !s.trim().is_empty() => out.push(value.clone()),
        Value::Number(_) => out.push(value.clone()),
        Value::Array(items) => items.iter().for_each(|v| leaves(v, out)),
        Value::Object(map) => map.values().for_each(|v| leaves(v, out)),
        _ => {}
    }
}

/// The distinct words of text, at most [`MAX_WORDS`] of them.
fn words_bounded(text: &str) -> Vec<String> {
    let mut words = words(text);
    words.sort_unstable();
    words.dedup();
    words.truncate(MAX_WORDS);
    words
}

/// Lowercase words of letters and digits.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The numbers written in digits (`3.5`, `250,000`, `-4`), and the small ones written in
/// words (`two`, `twelve`).
fn numbers(text: &str) -> Vec<f64> {
    const SMALL: [&str; 21] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    let mut out = Vec::new();
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut Vec<f64>| {
        let trimmed = digits.trim_end_matches(['.', ',']);
        if let Ok(n) = trimmed.replace(',', "").parse::<f64>() {
            out.push(n);
        }
        digits.clear();
    };
    let mut previous = ' ';
    for c in text.chars() {
        let sign = c == '-' && digits.is_empty() && !previous.is_alphanumeric();
        if c.is_ascii_digit() || sign || (!digits.is_empty() && (c == '.' || c == ',')) {
            digits.push(c);
        } else if !digits.is_empty() {
            flush(&mut digits, &mut out);
        }
        previous = c;
    }
    if !digits.is_empty() {
        flush(&mut digits, &mut out);
    }
    for word in words(text) {
        if let Some(n) = SMALL.iter().position(|w| *w == word) {
            out.push(n as f64);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Conversation, invented, numbers};

    fn asked(request: &str) -> Conversation {
        Conversation::new(&[], request, request)
    }

    #[test]
    fn a_call_made_of_nothing_the_user_wrote_is_ungrounded() {
        let call = json!({"name": "loan", "arguments": {"principal": 100000, "annual_rate": 4.5, "currency": "USD"}});
        let about = "finance_loan_payment Compute the monthly payment of a loan.";
        let violation = asked("Who wrote the novel Moby-Dick?")
            .ungrounded(&call, about)
            .expect("ungrounded");
        assert_eq!(violation.pointer(), "/arguments");
        assert!(
            violation.to_string().contains("100000, 4.5, \"USD\""),
            "{violation}"
        );
    }

    #[test]
    fn one_value_the_user_wrote_is_enough() {
        let cases = [
            (
                "Translate 'good morning' into German.",
                json!({"text": "good morning", "target_language": "de"}),
            ),
            (
                "ugh turn the kitchen lights on pls",
                json!({"room": "kitchen", "on": true}),
            ),
            (
                "What's 12:00 in Tokyo?",
                json!({"time": "12:00", "zone": "Asia/Tokyo"}),
            ),
            (
                "a loan of 250,000 at 3.5 percent",
                json!({"principal": 250000, "rate": 0.035}),
            ),
            (
                "book it for two nights",
                json!({"nights": 2, "city": "Rome"}),
            ),
            (
                "search my notes for rent",
                json!({"filter": {"terms": ["rent"]}}),
            ),
        ];
        for (request, arguments) in cases {
            let call = json!({"name": "f", "arguments": arguments});
            assert!(
                asked(request).ungrounded(&call, "").is_none(),
                "{request}: {call}"
            );
        }
    }

    #[test]
    fn calls_with_nothing_to_judge_and_answers_are_left_alone() {
        let conversation = asked("What time is it?");
        for value in [
            json!({"name": "now", "arguments": {}}),
            json!({"name": "lights_off", "arguments": {"all": true, "dim": null}}),
            json!({"answer": "It is noon."}),
            json!("text"),
        ] {
            assert!(conversation.ungrounded(&value, "").is_none(), "{value}");
        }
    }

    #[test]
    fn values_from_earlier_results_count() {
        use crate::message::Message;
        let history = [
            Message::user("Where am I, and what's the weather there?"),
            Message::tool_result(Some("1".into()), "You are in Bergen."),
        ];
        let conversation = Conversation::new(&history, "", "");
        let call = json!({"name": "weather", "arguments": {"city": "Bergen"}});
        assert!(conversation.ungrounded(&call, "").is_none());
    }

    #[test]
    fn a_request_that_names_the_tool_lets_its_call_stand() {
        let call = json!({"name": "time_now", "arguments": {"timezone": "UTC"}});
        let about = "time_get_current_time The current time in a time zone.";
        assert!(asked("Time?").ungrounded(&call, about).is_none());
        assert!(
            asked("what's the current hour")
                .ungrounded(&call, about)
                .is_none()
        );
        // Words every sentence has name nothing.
        let about = "cooking_boiling_time Estimate how long to boil an egg.";
        let call = json!({"name": "boil", "arguments": {"doneness": "medium"}});
        assert!(
            asked("What is the capital of Australia, please?")
                .ungrounded(&call, about)
                .is_some()
        );
    }

    #[test]
    fn an_answer_to_a_request_that_names_a_tool_skips_it() {
        let tools = [
            ("math_gcd", "math.gcd"),
            ("math_triangle_area", "math.triangle_area"),
        ];
        let answer = json!({"answer": "12"});
        for request in [
            "What is the GCD of 84 and 36?",
            "Find the area of a triangle with a base of 10 and a height of 5.",
            "triangles: base 3, height 4, area?",
        ] {
            let violation = asked(request).skips(&answer, tools).expect(request);
            assert_eq!(violation.pointer(), "/answer");
        }
        let weather = [
            ("weather_get_forecast", "weather.get_forecast"),
            ("weather_get_alerts", "weather.get_alerts"),
        ];
        let violation = asked("Are there any weather alerts for Queensland?")
            .skips(&answer, weather)
            .expect("alerts");
        assert!(
            violation.to_string().contains("\"weather_get_alerts\""),
            "{violation}"
        );
        let turn_on = [("HassTurnOn", "HassTurnOn")];
        assert!(
            asked("please turn on the porch light")
                .skips(&answer, turn_on)
                .is_some()
        );
    }

    #[test]
    fn an_answer_to_a_request_that_names_no_tool_stands() {
        let tools = [
            ("weather_get_forecast", "weather.get_forecast"),
            ("shop_get_order_status", "shop.get_order_status"),
            ("music_play", "music.play"),
        ];
        let answer = json!({"answer": "Rayleigh scattering."});
        for request in [
            "Why is the sky blue?",
            "Who composed The Four Seasons?",
            "Can you get me a list of things to search for?",
            "Cancel my subscription.",
        ] {
            assert!(asked(request).skips(&answer, tools).is_none(), "{request}");
        }
        // A call is no answer.
        let call = json!({"name": "music_play", "arguments": {}});
        assert!(asked("play some music").skips(&call, tools).is_none());
    }

    #[test]
    fn numbers_are_read_as_written() {
        assert_eq!(
            numbers("pay 1,250.50 in -3 days, 4.5%, item 7. Two more"),
            vec![1250.5, -3.0, 4.5, 7.0, 2.0]
        );
        assert_eq!(numbers("CO2-neutral since 2019-05"), vec![2.0, 2019.0, 5.0]);
    }

    #[test]
    fn a_call_of_a_function_like_no_tool_is_an_invention() {
        let tools = [
            ("geography_get_country_info", "geography.get_country_info"),
            ("recipes_search", "recipes.search"),
            ("math_triangle_area", "math.triangle_area"),
        ];
        let call = |name: &str| json!({"name": name, "arguments": {"text": "good morning"}});
        for name in [
            "translateGoodMorning",
            "order_pepperoni_pizza",
            "Chardonnay",
            "get_translation",
        ] {
            assert_eq!(
                invented(&call(name), tools).as_deref(),
                Some(name),
                "{name}"
            );
        }
        // A tool's name in either spelling, misspelled, shortened or reworded, is no invention.
        for name in [
            "geography_get_country_info",
            "geography.get_country_info",
            "GeographyGetCountryInfo",
            "get_country",
            "triangle_area",
            "calculate_triangle_area",
            "recipe_search",
            "math",
            "search",
            "get_info",
        ] {
            assert_eq!(invented(&call(name), tools), None, "{name}");
        }
        // A namespace shared with tools (`home` of `home.*`) is no resemblance.
        let home = [
            ("home_set_thermostat", "home.set_thermostat"),
            ("home_set_lights", "home.set_lights"),
            ("home_lock_door", "home.lock_door"),
        ];
        for name in [
            "home_get_bulb_power",
            "home_cancel_subscription",
            "homeTelevisionOn",
        ] {
            assert_eq!(invented(&call(name), home).as_deref(), Some(name), "{name}");
        }
        for name in [
            "home_set_light",
            "set_lights",
            "lock_the_door",
            "home_thermostat",
            "home",
        ] {
            assert_eq!(invented(&call(name), home), None, "{name}");
        }
        // Answers and values with no name are not calls.
        assert_eq!(invented(&json!({"answer": "Bom dia"}), tools), None);
        assert_eq!(invented(&json!({"text": "Bom dia"}), tools), None);
        assert_eq!(invented(&json!({"name": 3}), tools), None);
    }
}
