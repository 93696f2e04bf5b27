//! Whether a reply follows the conversation: a call made of something the user or a tool
//! wrote, an answer that does not skip the tool the request names.
//!
//! Asked something no tool does, a small model under a grammar, or one that has been told
//! to call, still calls a tool: with values of its own making (`{"principal": 100000,
//! "annual_rate": 4.5}` for "Who wrote Moby-Dick?"), often the placeholders of an
//! example. Such a call has nothing to do with the conversation: none of its values
//! appears anywhere in what the user and the tools wrote, and no word the user wrote
//! appears in the tool's name, description or arguments' names
//! ([`Conversation::ungrounded`]). Nor has a call none of whose values the conversation
//! holds and some of whose values are the examples its tool's documentation gives
//! (`"e.g. 'Serie A'"`, see [`examples`]), even where the request names the tool's subject:
//! the values are the documentation's, not the user's.
//!
//! The other way round, asked for what a tool does, a small model often works the result
//! out itself (`{"answer": "12"}` for "the greatest common divisor of 84 and 36" with
//! `math.gcd` at hand), or makes it up. Such an answer skips a tool whose very name the
//! request uses ([`Conversation::skips`]), or a tool of numbers whose every required value
//! the request writes, and whose description it uses ([`Conversation::skips_by_values`]:
//! "Find the roots of x^2 + 4x + 4 = 0." beside `solve_quadratic`).
//!
//! Either reply is sent back once, with a violation that says so, and the model may do
//! the other thing; a model that replies the same way again is taken at its word (but a
//! call made up again for a question: see `doubts::questioned`). The
//! tests are deliberately weak, so that they fire only on clear cases: for a call, one
//! value that appears is enough to stand, and so is one word of the request in the tool's
//! name or description (`Time?` stands for `get_current_time({"timezone": "UTC"})`); a
//! value appears when one of its words (or its number) does; booleans and nulls say
//! nothing either way; a call with no value to judge stands. For an answer, only the words
//! of a tool's name count, not its description, and not the generic verbs of names
//! (`get`, `search`, `list` …); its description counts only where the request also holds a
//! number for each number the tool requires and one of the listed values for each of its
//! `enum`s, and the tool requires nothing else.
//!
//! A call that stands may still hold what the user never gave: optional arguments and
//! keys the tool does not take (see `unasked`), at any depth of its arguments (see
//! `undeclared`). Those are left out of the call, not sent back.

use serde_json::Value;

use crate::error::{bounded, quote};
use crate::message::{Message, Role};
use crate::{Violation, ViolationKind};

pub(super) mod examples;
mod fills;
mod question;
mod unasked;
mod undeclared;
mod words;

use words::{
    initials, leaves, name_words, names_a_function, namespace_words, numbers, same_word,
    text_bounded, unspaced, words, words_bounded,
};

/// The most values named in a violation.
const NAMED: usize = 4;

/// The fewest telling words beyond the tools' that make a request say more than which
/// tool it wants ([`Conversation::unstated`]): one is often a modifier ("Full brightness",
/// "Current time?").
const UNSTATED_AFTER: usize = 2;

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

/// The words and numbers of what the developer, the user and the tools wrote: the
/// developer's system text, the earlier messages (system messages too) and the request;
/// never the prompt the library generates (its tool descriptions hold defaults and
/// examples, which are no evidence of what the user asked for), which the caller leaves
/// out of `system`.
pub(super) struct Conversation {
    words: Vec<String>,
    numbers: Vec<f64>,
    /// The words the user wrote (the request and the user's messages).
    asked: Vec<String>,
    /// How many numbers the user's latest request writes in digits
    /// ([`fills::numbers_in_digits`]).
    asked_numbers: usize,
    /// The initials of a few words in a row (`au` of "astronomical units").
    initials: Vec<String>,
    /// The start of the text, lowercased, where a value in a script written without
    /// spaces is looked for.
    text: String,
    /// Whether the user's latest request asks for something to be known
    /// ([`question::asks_to_know`]).
    asks_to_know: bool,
}

impl Conversation {
    /// The conversation of the developer's `system` text, the `history` before the
    /// `prompt`, and the user's `request` that repair prompts quote. The developer's
    /// words are evidence of a value as the user's are, but not of what the user asks
    /// for: only the user's words say which tool a request names ([`Conversation::skips`]).
    pub fn new(system: Option<&str>, history: &[Message], prompt: &str, request: &str) -> Self {
        let mut asked = format!("{prompt}\n{request}");
        for message in history.iter().filter(|m| m.role == Role::User) {
            asked.push('\n');
            asked.push_str(&message.content);
        }
        // The user's words first, then the rest in the order it was written: of a long
        // conversation (a long tool result), what the bounds below cut is never the user's.
        let mut text = format!("{asked}\n");
        if let Some(system) = system {
            text.push_str(system);
            text.push('\n');
        }
        for message in history {
            if message.role != Role::User {
                text.push_str(&message.content);
                text.push('\n');
            }
            for call in &message.tool_calls {
                text.push_str(&call.arguments.as_text());
                text.push('\n');
            }
        }
        // Bounded: the check compares every word of a value with every word here.
        Conversation {
            words: words_bounded(&text),
            numbers: numbers(&text),
            asked: words_bounded(&asked),
            asked_numbers: fills::numbers_in_digits(latest_request(history, prompt, request)),
            asks_to_know: question::asks_to_know(latest_request(history, prompt, request)),
            initials: initials(&text),
            text: text_bounded(&text),
        }
    }

    /// The violation of an answer `{"answer": …}` to a request that uses a word of the
    /// name of one of `tools` (each as the model is shown it, as its server spells it, and
    /// what it is about: names, description, arguments' names): the request asks for what
    /// that tool does. `None` for any other value.
    ///
    /// The tool named is the one more of whose name the request uses (`weather.get_alerts`
    /// rather than `weather.get_forecast` for "any weather alerts?"); between tools whose
    /// names it uses as much, as when only their shared service word is used ("extreme
    /// weather warnings" among three `weather.*` tools), the one more of whose description
    /// it uses (`get_alerts`, "Lists the severe weather warnings"); the first of those that
    /// still tie.
    pub fn skips<'a>(
        &self,
        value: &Value,
        tools: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>,
    ) -> Option<Violation> {
        value.get("answer")?;
        let (_, shown) = tools
            .into_iter()
            .map(|(shown, server, about)| {
                let mut words = name_words(shown);
                words.extend(name_words(server));
                words.sort();
                words.dedup();
                let used = words
                    .iter()
                    .filter(|word| self.asked.iter().any(|w| same_word(w, word)))
                    .count();
                ((used, self.uses_of(about)), shown)
            })
            .filter(|((used, _), _)| *used > 0)
            .fold(((0, 0), None), |best, (score, shown)| {
                if score > best.0 {
                    (score, Some(shown))
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

    /// How many of the words the user wrote are words of `about` ([`telling`]).
    fn uses_of(&self, about: &str) -> usize {
        telling(&self.asked, &words_bounded(about)).count()
    }

    /// The violation of a call `{"name": …, "arguments": …}` none of whose values appears
    /// in the conversation, of a tool described by `about` (its names and description)
    /// that no word of the conversation names; or one none of whose values appears in the
    /// conversation and some of whose values are the examples its tool's documentation
    /// gives (`examples`, see [`examples::of`]), whether or not the conversation names the
    /// tool: those are the documentation's values, not the user's. `None` for any other
    /// value.
    pub fn ungrounded(
        &self,
        call: &Value,
        about: &str,
        examples: &[Vec<String>],
    ) -> Option<Violation> {
        let arguments = call.get("arguments")?;
        call.get("name")?;
        let mut values = Vec::new();
        leaves(arguments, &mut values);
        if values.is_empty() || values.iter().any(|v| self.holds(v)) {
            return None;
        }
        let copied: Vec<Value> = values
            .iter()
            .filter(|v| examples::is_example(v, examples))
            .cloned()
            .collect();
        let kind = if !copied.is_empty() {
            ViolationKind::CopiedExample {
                values: named(&copied),
            }
        } else if self.names(about) {
            return None;
        } else {
            ViolationKind::Ungrounded {
                values: named(&values),
            }
        };
        Some(Violation::new("/arguments", kind))
    }

    /// The violation of a call `{"name": …, "arguments": …}` none of whose values appears
    /// in the conversation, though the arguments its tool requires (`required`, their
    /// names) hold values, to a request that says more than which tool it wants: at least
    /// [`UNSTATED_AFTER`] words the user wrote that no tool of the union is about
    /// (`tools`: what each is about). This is the call [`Conversation::ungrounded`] lets
    /// stand because the request names its tool. Its values are the model's: inferred
    /// from the request (`"1914-07-28"` for "the day the First World War began": a call
    /// the model makes again, after the question, is taken for a command, and not for a
    /// question, where every such repeat measured was made up; see `doubts::questioned`), or
    /// made up for a request that only
    /// uses a word of the tool ("What volume of water fills an Olympic swimming pool?" →
    /// `{"level": 100}`), which the model alone can tell apart. A request that says
    /// little beyond the tool ("Time?", "Full brightness") leaves the values to the model:
    /// its defaults stand. So do the values of optional arguments alone: those the user
    /// never gave are left out of the call (see `unasked`). So do words the model read
    /// out of a request that names the tool by the whole of its name
    /// ([`Conversation::names_in_full`]: "exchange rate" for `get_exchange_rate`,
    /// `"CHF"` and `"SEK"` for "Swiss francs to Swedish kronor"): such a request asks
    /// for what the tool does, and codes of what it names are the model's reading of it,
    /// not values made up; numbers, and strings with digits (dates, amounts), are still
    /// questioned, for the numbers a request means are the ones it writes. `tool` is the called tool's name as its server spells it.
    /// `None` for any other value.
    pub fn unstated<'a>(
        &self,
        call: &Value,
        tool: &str,
        required: &[String],
        tools: impl IntoIterator<Item = &'a str>,
    ) -> Option<Violation> {
        let arguments = call.get("arguments")?.as_object()?;
        call.get("name")?;
        let mut stated = Vec::new();
        for key in required {
            if let Some(value) = arguments.get(key) {
                leaves(value, &mut stated);
            }
        }
        self.none_stated(&call["arguments"], stated, tool, tools)
    }

    /// [`Conversation::unstated`] of a call the union's schema rejected, where what it
    /// requires may be missing: every value it holds is judged as the required ones of a
    /// call that fits. Read only after an answer was held for skipping its tool (see
    /// `doubts::kept_over_rejected`). `None` for a call with no values (`{}`: the form's
    /// `{…}` copied says nothing of the request), and where `unstated` lets a call stand.
    pub fn made_up<'a>(
        &self,
        call: &Value,
        tool: &str,
        tools: impl IntoIterator<Item = &'a str>,
    ) -> Option<Violation> {
        call.get("name")?;
        let arguments = call.get("arguments")?;
        let mut values = Vec::new();
        leaves(arguments, &mut values);
        self.none_stated(arguments, values, tool, tools)
    }

    /// The [`ViolationKind::Unstated`] of a call's `arguments` none of whose values the
    /// conversation holds, naming `stated` (the values judged; a call with none stands),
    /// with the exceptions [`Conversation::unstated`] gives.
    fn none_stated<'a>(
        &self,
        arguments: &Value,
        stated: Vec<Value>,
        tool: &str,
        tools: impl IntoIterator<Item = &'a str>,
    ) -> Option<Violation> {
        let mut values = Vec::new();
        leaves(arguments, &mut values);
        if values.iter().any(|v| self.holds(v)) {
            return None;
        }
        if stated.is_empty() || self.beyond_the_tools(tools) < UNSTATED_AFTER {
            return None;
        }
        let read_out = stated.iter().all(|v| {
            v.as_str()
                .is_some_and(|s| !s.bytes().any(|b| b.is_ascii_digit()))
        });
        if read_out && self.names_in_full(tool) {
            return None;
        }
        Some(Violation::new(
            "/arguments",
            ViolationKind::Unstated {
                values: named(&stated),
            },
        ))
    }

    /// Whether the user's latest request is a question asking for something to be known
    /// ("Which planet has the most moons?"), not a command ("Turn it up"): see
    /// [`question::asks_to_know`].
    pub fn asks_to_know(&self) -> bool {
        self.asks_to_know
    }

    /// Whether the user wrote every word of the name of the tool its server spells
    /// `tool`, less its namespace and generic verbs ([`name_words`]), where there are two
    /// or more: "exchange rate" for `finance.get_exchange_rate`, "half-life remaining"
    /// for `science.half_life_remaining`. One word may be used in another sense ("What
    /// volume of water fills an Olympic swimming pool?" beside `music.set_volume`); the
    /// whole of a name of several words names the tool.
    fn names_in_full(&self, tool: &str) -> bool {
        let own = tool.rsplit(['.', '/', ':']).next().unwrap_or_default();
        let words = name_words(own);
        words.len() >= 2
            && words
                .iter()
                .all(|word| self.asked.iter().any(|w| same_word(w, word)))
    }

    /// Whether the user wrote a word of the name of an argument (`brightness` in "Full
    /// brightness"): then the argument was asked for, whatever value the model gave it.
    pub fn asks_for(&self, argument: &str) -> bool {
        name_words(argument)
            .iter()
            .any(|word| self.asked.iter().any(|w| same_word(w, word)))
    }

    /// How many telling words the user wrote (four letters or more, not ones that any
    /// sentence has) that no tool of `tools` is about.
    fn beyond_the_tools<'a>(&self, tools: impl IntoIterator<Item = &'a str>) -> usize {
        let about: Vec<String> = tools.into_iter().flat_map(words_bounded).collect();
        let named: Vec<&String> = telling(&self.asked, &about).collect();
        self.asked
            .iter()
            .filter(|w| w.chars().count() >= 4 && !COMMON.contains(&w.as_str()))
            .filter(|w| !named.contains(w))
            .count()
    }

    fn holds(&self, value: &Value) -> bool {
        match value {
            Value::String(s) => {
                let words = words(s);
                words.iter().take(MAX_VALUE_WORDS).any(|w| self.has_word(w))
                    || (words.len() == 1 && self.initials.contains(&words[0]))
            }
            Value::Number(n) => n.as_f64().is_some_and(|n| {
                self.numbers
                    .iter()
                    .any(|m| (m - n).abs() <= f64::EPSILON * n.abs().max(1.0))
            }),
            _ => false,
        }
    }

    /// Whether a word of the conversation is a word of `about` ([`telling`]).
    fn names(&self, about: &str) -> bool {
        telling(&self.words, &words(about)).next().is_some()
    }

    /// A word of a value is in the conversation when a word there begins with it or it
    /// begins with a word there (`light` and `lights`, `Oslo` in `Europe/Oslo`), of three
    /// letters or more; shorter words must match whole (`de`, `NY`). A word of a script
    /// written without spaces is in the conversation when its text is (`上海` in
    /// "明天上海天气怎么样").
    fn has_word(&self, word: &str) -> bool {
        if unspaced(word) {
            return self.text.contains(word);
        }
        self.words.iter().any(|w| {
            if w.chars().count() < 3 || word.chars().count() < 3 {
                w == word
            } else {
                w.starts_with(word) || word.starts_with(w.as_str())
            }
        })
    }
}

/// What the user asks now: the request repair prompts quote, or else the prompt, or else
/// the history's last user message.
fn latest_request<'a>(history: &'a [Message], prompt: &'a str, request: &'a str) -> &'a str {
    [request, prompt]
        .into_iter()
        .find(|text| !text.trim().is_empty())
        .or_else(|| {
            let user = history.iter().rev().find(|m| m.role == Role::User);
            user.map(|m| m.content.as_str())
        })
        .unwrap_or_default()
}

/// The words of `written`, of four letters or more and not ones that any sentence has,
/// that are words of `about` of four letters or more, or begin one, or one begins them.
fn telling<'w>(written: &'w [String], about: &'w [String]) -> impl Iterator<Item = &'w String> {
    written
        .iter()
        .filter(|w| w.chars().count() >= 4 && !COMMON.contains(&w.as_str()))
        .filter(|w| {
            about
                .iter()
                .any(|a| a.chars().count() >= 4 && same_word(w, a))
        })
}

/// The first few of `values` as a violation names them, strings quoted and bounded.
fn named(values: &[Value]) -> Vec<String> {
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
    named
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
    if tools.iter().any(|(shown, server)| {
        plain_key(shown) == plain_key(name) || plain_key(server) == plain_key(name)
    }) {
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

/// Whether a call names, the way functions are named ([`names_a_function`]), a function
/// that is none of `tools` and resembles none ([`invented`]): `cancel_subscription` among
/// `shop.search_products` and `shop.get_order_status`. The model says the function the
/// request needs is missing. A value or an answer written where the name goes (`Road
/// Trip`, `Chardonnay`) says no such thing and is not counted.
pub(super) fn names_a_missing_function<'a>(
    value: &Value,
    tools: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> bool {
    invented_name(value, tools).is_some_and(names_a_function)
}

/// Whether a call writes, where the function's name goes, something that is no function's
/// name and is not named as functions are ([`names_a_function`]): a value or an answer
/// (`Road Trip`, `Jupiter`, `BMI calculation algorithm`). What it says of the union's
/// functions is for its arguments to tell (see `doubts`).
pub(super) fn names_a_value<'a>(
    value: &Value,
    tools: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> bool {
    invented_name(value, tools).is_some_and(|name| !names_a_function(name))
}

/// The name a call gives, where it is [`invented`].
fn invented_name<'v, 'a>(
    value: &'v Value,
    tools: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Option<&'v str> {
    invented(value, tools)?;
    value.get("name")?.as_str()
}

/// The names of the arguments a tool's arguments `schema` declares, at its top level or
/// in the schemas it stands for (`$ref`, `allOf`, `anyOf`, `oneOf`: see
/// [`unasked::parts`]), each as [`plain_key`] writes it. `None` where none declares any
/// (`{"type": "object"}`, a `$ref` that leads nowhere): such a tool may take any key.
pub(super) fn declared_arguments(schema: &Value) -> Option<Vec<String>> {
    let names: Vec<String> = unasked::parts(schema, schema)
        .into_iter()
        .filter_map(|part| part.get("properties").and_then(Value::as_object))
        .flat_map(|properties| properties.keys().map(|key| plain_key(key)))
        .collect();
    (!names.is_empty()).then_some(names)
}

/// An argument's name in lower case, its letters and digits only: `weightKg`,
/// `weight_kg` and `Weight-KG` are one name.
pub(super) fn plain_key(key: &str) -> String {
    key.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod copied_tests;
#[cfg(test)]
mod tests;
