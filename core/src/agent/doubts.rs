//! What the replies to a union of tools with an answer say about its choice of a call or
//! the answer, and what the loop does about it: which replies are questioned (a call made
//! of nothing the conversation holds, an answer that skips the tool the request names),
//! where the first attempt is made (in prose), whether a fix goes on under the grammar,
//! and when the model is asked for its answer alone. Each decision is a function of the
//! replies so far, with no provider.

use serde_json::Value;

use super::request::Target;
use super::run::Question;
use super::{conversation, grounding, not_an_answer, read};
use crate::provider::Mode;
use crate::{Error, Violation, ViolationKind};

/// The modes of a union of tools with an answer: its first attempt in plain prompt mode
/// where the provider also has a grammar (`json_schema`), the grammar next.
///
/// Under the union's grammar, a small model calls a tool whatever it is asked: its first
/// tokens must open a call or the answer, and a call is what the prompt is about. Measured
/// on the tool-choice evaluation (0.5B model), it answered 1 of 16 requests no tool fits
/// under the grammar, 11 of 16 in prompt mode. The choice is made in prose; a reply that
/// then needs fixing goes on under the grammar (see `decide`).
pub(super) fn choose_in_prose(target: &Target, modes: Vec<Mode>) -> Vec<Mode> {
    let union_with_answer = target.union.is_some() && target.has_answer();
    if !union_with_answer
        || modes.first() != Some(&Mode::JsonSchema)
        || !modes.contains(&Mode::Prompt)
    {
        return modes;
    }
    let mut chosen = vec![Mode::Prompt];
    chosen.extend(modes.into_iter().filter(|m| *m != Mode::Prompt));
    chosen
}

/// What a rejected reply to a union of tools says of its functions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Doubts {
    /// It called a function that is none of the union's and resembles none
    /// ([`grounding::invented`]).
    pub invented: bool,
    /// Each of its calls called none of the union's functions ([`calls_none`]): it named,
    /// as functions are named, a function that is none of the union's and resembles none,
    /// with arguments that are not those of one of the union's tools; or, to a request
    /// that asks to know something, it wrote a value where the name goes, with arguments
    /// no tool takes.
    pub missing: bool,
    /// It called a function with none of the values the user wrote
    /// ([`ViolationKind::Ungrounded`], [`ViolationKind::CopiedExample`]).
    pub ungrounded: bool,
    /// It answered a request that asks for what a function does
    /// ([`ViolationKind::SkippedTool`]).
    pub skipped: bool,
    /// It called the function the request names with none of the values the user wrote
    /// ([`ViolationKind::Unstated`]).
    pub unstated: bool,
    /// It answered with a type word alone (`"string"`), sent back once
    /// ([`not_an_answer::is_type_word_violation`]).
    pub type_word: bool,
    /// Its call's name, or its being JSON at all, was the format's choice, not the
    /// model's ([`ViolationKind::ForcedCall`], [`ViolationKind::ForcedJson`]).
    pub forced: bool,
    /// It answered, and ran to the token limit before the answer's end, where the
    /// conversation questions the answer for nothing (see `Agent::answered_at_length`).
    pub answered_at_length: bool,
    /// It wrote back the union's shape that a repair showed it
    /// ([`ViolationKind::SchemaEchoed`]): neither a call nor the answer.
    pub echoed: bool,
    /// It called one of the union's functions, by its name or by one that resembles it
    /// (a misspelt or shortened name, or a generic one: not [`grounding::invented`]).
    /// Never a reply that wrote the shape back, whose names are the shape's.
    pub called: bool,
}

impl Doubts {
    /// The doubts of a reply to `target`, asked in `ask`: its text as read (`raw`), and
    /// the error it was rejected with.
    pub fn of(target: &Target, ask: &Question<'_>, raw: &str, error: &Error) -> Self {
        if target.union.is_none() || !target.has_answer() {
            return Doubts::default();
        }
        let tools: Vec<(&str, &str)> = target.tool_names().collect();
        let calls = calls_in(raw);
        let asks_to_know = conversation_of(ask).asks_to_know();
        let echoed = error.echoed();
        Doubts {
            invented: calls
                .iter()
                .any(|call| grounding::invented(call, tools.iter().copied()).is_some()),
            missing: !calls.is_empty()
                && calls
                    .iter()
                    .all(|call| calls_none(target, asks_to_know, call, tools.iter().copied())),
            ungrounded: rejected_for(error, |kind| {
                matches!(
                    kind,
                    ViolationKind::Ungrounded { .. } | ViolationKind::CopiedExample { .. }
                )
            }),
            skipped: rejected_for(error, |kind| {
                matches!(kind, ViolationKind::SkippedTool { .. })
            }),
            unstated: rejected_for(error, |kind| matches!(kind, ViolationKind::Unstated { .. })),
            type_word: rejected_for(error, not_an_answer::is_type_word_violation),
            forced: rejected_for(error, |kind| {
                matches!(
                    kind,
                    ViolationKind::ForcedCall { .. } | ViolationKind::ForcedJson { .. }
                )
            }),
            // Known only from the reply's values as read, before the cut rejected them.
            answered_at_length: false,
            echoed,
            called: !echoed
                && calls.iter().any(|call| {
                    call.get("name").is_some()
                        && grounding::invented(call, tools.iter().copied()).is_none()
                }),
        }
    }

    pub fn and(self, other: Doubts) -> Doubts {
        Doubts {
            invented: self.invented || other.invented,
            missing: self.missing || other.missing,
            ungrounded: self.ungrounded || other.ungrounded,
            skipped: self.skipped || other.skipped,
            unstated: self.unstated || other.unstated,
            type_word: self.type_word || other.type_word,
            forced: self.forced || other.forced,
            answered_at_length: self.answered_at_length || other.answered_at_length,
            echoed: self.echoed || other.echoed,
            called: self.called || other.called,
        }
    }
}

/// The calls a reply's text holds, as local repair reads them: one, several, or none.
fn calls_in(raw: &str) -> Vec<Value> {
    match read::closest(raw) {
        Some(Value::Array(items)) => items,
        Some(one) => vec![one],
        None => Vec::new(),
    }
}

/// Whether one of the error's violations is of a kind `is` holds for.
fn rejected_for(error: &Error, is: impl Fn(&ViolationKind) -> bool) -> bool {
    error.violations().iter().any(|v| is(v.kind()))
}

/// Whether a call calls none of the target's functions, by its name and its arguments:
/// - it names, as functions are named, a function that is none of the union's and
///   resembles none ([`grounding::names_a_missing_function`]: `cancel_subscription`), and
///   its arguments are not those of one of the union's tools ([`arguments_of_a_tool`]);
/// - or, where the request asks to know something (`asks_to_know`: "Which planet has the
///   most moons?", not "Play Kind of Blue"), it writes a value or an answer where the
///   name goes ([`grounding::names_a_value`]: `Jupiter`, `BMI calculation algorithm`),
///   and no tool takes any of its arguments ([`takes_no_argument_of_a_tool`]). A value
///   beside an argument of a tool (`Road Trip` with the `tracks` of
///   `music.create_playlist`) is that tool's call with its name misplaced; a value with
///   no arguments, or in reply to a command, says nothing either way.
///
/// In the tool-choice evaluation's runs at `53c29f6` (every row, both models), 22 of the
/// 23 replies with a value where the name goes were to requests no tool fits; the other
/// was `Road Trip` beside `tracks`, to a command.
fn calls_none<'a>(
    target: &Target,
    asks_to_know: bool,
    call: &Value,
    tools: impl IntoIterator<Item = (&'a str, &'a str)> + Clone,
) -> bool {
    (grounding::names_a_missing_function(call, tools.clone()) && !arguments_of_a_tool(target, call))
        || (asks_to_know
            && grounding::names_a_value(call, tools)
            && takes_no_argument_of_a_tool(target, call))
}

/// Whether a call has arguments and none of them is an argument any of the target's
/// tools declares ([`grounding::declared_arguments`], names compared in lower case with
/// their letters and digits only: `weightKg` is `weight_kg`). A tool that declares none
/// (`{"type": "object"}`) may take any key, so then every argument may be one of its.
fn takes_no_argument_of_a_tool(target: &Target, call: &Value) -> bool {
    let Some(arguments) = call.get("arguments").and_then(Value::as_object) else {
        return false;
    };
    if arguments.is_empty() {
        return false;
    }
    let Some(declared) = target
        .tools()
        .into_iter()
        .flatten()
        .map(|tool| grounding::declared_arguments(&tool.arguments))
        .collect::<Option<Vec<Vec<String>>>>()
    else {
        return false;
    };
    arguments.keys().all(|key| {
        let key = grounding::plain_key(key);
        declared.iter().flatten().all(|name| *name != key)
    })
}

/// Whether a call's arguments are those of one of the target's tools: each of its keys
/// an argument of the tool, and every argument the tool requires there. Such a call is
/// that tool under another name (`get_capital({"country": "France"})` for
/// `geography.get_country_info`), not a call of a function the union lacks. A call with no
/// arguments is no tool's.
fn arguments_of_a_tool(target: &Target, call: &Value) -> bool {
    let Some(arguments) = call.get("arguments").and_then(Value::as_object) else {
        return false;
    };
    if arguments.is_empty() {
        return false;
    }
    target.tools().into_iter().flatten().any(|tool| {
        let schema = &tool.arguments;
        let known = |key: &str| schema["properties"].get(key).is_some();
        let required = schema["required"].as_array().into_iter().flatten();
        arguments.keys().all(|key| known(key))
            && required
                .filter_map(Value::as_str)
                .all(|key| arguments.contains_key(key))
    })
}

/// The error of a reply whose calls are made of nothing the conversation holds, or
/// whose answer skips the tool the request names (or, naming none, holds every number of:
/// [`grounding::Conversation::skips_by_values`]), where the union has an answer (see
/// [`grounding`]). An answer that skips a tool is questioned once: a model that answers
/// again after it was told is taken at its word (a request may name a tool that cannot
/// do what it asks). So is a call of the tool the request names with none of the values
/// the user wrote ([`ViolationKind::Unstated`]), except words with no digit read out of
/// a request that names the tool in full ("CHF" for "Swiss francs" beside
/// `get_exchange_rate`): the model may have inferred them, and a model that calls again
/// is taken at its word, unless the request asks to know something
/// ([`grounding::Conversation::asks_to_know`]: "Which planet has the most moons?", not
/// "Turn the volume up a bit") and every call of the reply is made up again: asked what
/// the world holds, a small model told that `astronomy.planet_distance` for Mercury and
/// Venus holds nothing of the request calls it again, and every such repeat in the
/// evaluation's runs was wrong. That second [`ViolationKind::Unstated`] has the model
/// asked for its answer alone ([`no_function_fits`]). An answer after the question is
/// not questioned as skipping the tool, nor a call after an answer that was, but to keep
/// that answer (below).
/// An answer that says nothing of the model's own (a tool's name, the forms sent back:
/// [`not_an_answer`]) is sent back first, whatever was asked before.
/// A call made of nothing the user wrote is questioned each time, and
/// a second one has the model asked for its answer alone (see `decide`), where the
/// answer alone is still the model's.
///
/// After an answer was questioned as skipping a tool and is held (`held`: the tool it
/// skipped, see [`only_skipped`]), a call of that tool with none of the user's values is
/// questioned as [`ViolationKind::Unstated`] too, where every call of the reply is so
/// made up: the held answer then stands ([`answer_stands`]), and nothing is sent back.
/// Told "the request asks for what `ecommerce.track_package` does" for "How do I track
/// my running pace with my phone?", a small model calls it for `"12345"`; the tool did
/// not fit, and its first answer was right. Where some call of the reply holds a value
/// of the user's, no such question is asked, and the call is taken.
///
/// A reply `cut` at the token limit is not questioned for a call made up again.
///
/// The conversation is what `ask` holds ([`conversation_of`]); `doubts` are those of the
/// replies so far.
pub(super) fn questioned(
    ask: &Question<'_>,
    doubts: Doubts,
    values: &[Value],
    held: Option<&str>,
    cut: bool,
) -> Option<Error> {
    let (target, history) = (ask.target, ask.history);
    if target.union.is_none() || !target.has_answer() {
        return None;
    }
    let conversation = conversation_of(ask);
    // Once results are in, answering is what the model should do; an answer beside
    // calls waits for their results.
    // A choice questioned once (an answer that skips a tool, a call of values the request
    // does not hold) is the model's to keep: each question is asked once, and neither
    // after the other (a call after a skip is questioned only to keep the held answer,
    // never sent back for it), but a call made up again for a question, below.
    let choice_questioned = doubts.skipped || doubts.unstated;
    // Once results are in, a call follows them (another door after "there is no door
    // \"back\""), not the request's words alone.
    let before_results = !conversation::results_in(history);
    // The tool a held answer skipped, where a made-up call of it keeps the answer.
    let held = held.filter(|_| doubts.skipped && !doubts.unstated && before_results);
    let held_tool = held.and_then(|tool| target.tool_of(&serde_json::json!({ "name": tool })));
    let of_held = |value: &Value| {
        held_tool
            .zip(target.tool_of(value))
            .is_some_and(|(skipped, called)| std::ptr::eq(skipped, called))
    };
    let answers_only =
        !choice_questioned && before_results && values.iter().all(|v| v.get("answer").is_some());
    // Told that its call holds nothing the user wrote, the model called so again, for a
    // request that asks to know something: its second say that no tool does that. Not
    // of a reply cut at the token limit, whose calls only the closing of the cut made.
    let unstated_again =
        doubts.unstated && !doubts.skipped && before_results && !cut && conversation.asks_to_know();
    // What each tool is about, for the check of an answer and of unstated values.
    let about = target.tools_about();
    let tools = || {
        about
            .iter()
            .map(|(shown, server, about, _)| (*shown, *server, about.as_str()))
    };
    let tools_and_arguments = || {
        about
            .iter()
            .map(|(shown, _, about, arguments)| (*shown, about.as_str(), *arguments))
    };
    let mut violations: Vec<Violation> = values
        .iter()
        .enumerate()
        .filter_map(|(i, value)| {
            let violation = not_an_answer::not_an_answer(target, value, doubts.type_word)
                .or_else(|| {
                    conversation.ungrounded(
                        value,
                        &target.about(value),
                        &examples_of(target, value),
                    )
                })
                .or_else(|| {
                    ((!choice_questioned && before_results) || of_held(value) || unstated_again)
                        .then(|| {
                            let about = tools().map(|(_, _, about)| about);
                            let tool = target.tool_of(value)?;
                            let required = required_of(target, value);
                            conversation.unstated(value, &tool.server_name, &required, about)
                        })
                        .flatten()
                })
                .or_else(|| {
                    answers_only
                        .then(|| {
                            conversation.skips(value, tools()).or_else(|| {
                                conversation.skips_by_values(value, tools_and_arguments())
                            })
                        })
                        .flatten()
                })?;
            Some(of_call(violation, i, values.len()))
        })
        .collect();
    if let Some(tool) = held {
        // Questioned for the held answer alone, a call stands where the answer does not.
        let stands = !violations.is_empty()
            && answer_stands(target, tool, values, &Error::new(violations.clone()));
        if !stands {
            violations.retain(|v| !matches!(v.kind(), ViolationKind::Unstated { .. }));
        }
    }
    let unstated = |v: &Violation| matches!(v.kind(), ViolationKind::Unstated { .. });
    let calls = values.iter().filter(|v| v.get("answer").is_none()).count();
    if unstated_again && violations.iter().filter(|v| unstated(v)).count() < calls {
        // Asked again only where every call of the reply is made up again.
        violations.retain(|v| !unstated(v));
    }
    (!violations.is_empty()).then(|| Error::new(violations))
}

/// A violation of the `i`th of a reply's `len` calls, at its place in the reply: as it
/// is for one call, under the call's index for several.
fn of_call(violation: Violation, i: usize, len: usize) -> Violation {
    match len {
        1 => violation,
        _ => Error::single(violation)
            .under(&i.to_string())
            .into_violations()
            .remove(0),
    }
}

/// The names of the arguments the tool a call names requires; none for no known tool.
fn required_of(target: &Target, call: &Value) -> Vec<String> {
    target
        .tool_of(call)
        .and_then(|tool| tool.arguments["required"].as_array())
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// The example phrases the documentation of the tool a call names gives of its values
/// ([`grounding::examples::of`]); none for no known tool.
fn examples_of(target: &Target, call: &Value) -> Vec<Vec<String>> {
    target
        .tool_of(call)
        .map(|tool| {
            let description = tool.description.as_deref().unwrap_or_default();
            grounding::examples::of(description, &tool.arguments)
        })
        .unwrap_or_default()
}

/// Whether the replies to a union with an answer have said that none of its functions
/// fits: one called only functions the union lacks ([`calls_none`]: by a function's name,
/// or by a value where the name goes beside arguments no tool takes); or two did, each
/// by a call of a function that is none of the union's and resembles none, or by a call
/// made of nothing the user wrote, in any order; or, to a request that asks to know
/// something, the model called the tool the request names with none of the user's values
/// again after it was told ([`ViolationKind::Unstated`] twice: see [`questioned`]). The
/// model is then asked for its answer alone.
///
/// Asked something no function does, a small model names the function it would need
/// (`translateGoodMorning`, `shop_cancel_subscription`), and told that there is none, names
/// it again, or fills a real one with placeholders or with the request's words
/// (`recipes_search` for a wine pairing); a larger one calls a function of the same
/// subject with values of its own (`{"city": "London"}` for "Why is the sky blue?"), and
/// calls it again once told. A function's name that resembles none of the union's, with
/// arguments that are none of its tools', is the model saying what is missing, and is
/// taken at its word at once; so is an answer written as the name (`Jupiter` for "Which
/// planet has the most moons?") beside arguments no tool takes. Any other sign may be a
/// slip (a value of the request written as the name beside a tool's argument, or to a
/// command: `Road Trip`; a tool's arguments under another name), so it is sent back as
/// any other; two say what the model means. A call whose function's name the grammar
/// chose, where the model would have written something else ([`ViolationKind::ForcedCall`]),
/// or that the format made JSON where the model would have begun in prose
/// ([`ViolationKind::ForcedJson`]), is taken as the model's answer at once: in that
/// format, told again, it can only call again. So is an answer that ran to the token
/// limit (see `Agent::answered_at_length`): the model chose to answer, and asked for the
/// answer alone, briefly and in plain text, it ends it. So is a reply that writes back
/// the union's shape a repair showed it, where no reply before it called one of the
/// union's functions, or where the calls before it were doubted as made of nothing the
/// user wrote: shown the functions' shapes, the model had no call to put in them (an
/// answer, prose that names the tools, a call of a function the union lacks or of
/// made-up values, then the shape). Where a reply before it called one of the functions
/// and was sent back only for what its schema says (a value outside a pattern, a
/// missing argument), the model had a call in mind, and the shape is sent back as
/// before. The answer alone is still the model's: it is asked for, never made up.
///
/// In every saved run of the tool-choice evaluation's three sets and of the extraction
/// tasks (both models, every row), a reply wrote the shape back in 58 asks, all in tools
/// mode, whose repair shows the shape. In 41 no reply before it had called one of the
/// functions, and no function fits any of their requests; 10 of them ended with no reply
/// taken (the model wrote the shape back again). In 8 a call before it was doubted so, no
/// function fits any of their requests, and each ended with no reply taken. In the other
/// 9 a call before it broke its schema; in two of those (one extraction task, in two
/// runs) a function fits.
pub(super) fn no_function_fits(before: Doubts, now: Doubts) -> bool {
    let doubted = |d: Doubts| d.invented || d.ungrounded;
    let no_call_in_mind = !before.called || before.ungrounded || before.unstated;
    now.missing
        || now.forced
        || now.answered_at_length
        || (doubted(before) && doubted(now))
        || (before.unstated && now.unstated)
        || (now.echoed && no_call_in_mind)
}

/// The conversation an ask holds, as the grounding checks read it: the developer's
/// system text, the caller's history (its system messages too), the prompt and the
/// request. The shape instructions the library adds to the system text are no part of
/// it: their descriptions, examples and defaults are no evidence of what was asked.
fn conversation_of(ask: &Question<'_>) -> grounding::Conversation {
    grounding::Conversation::new(ask.system, ask.history, ask.prompt, ask.request)
}

mod held;
mod left_out;

pub(super) use held::{answer_stands, kept_over_echo, kept_over_rejected, only_skipped};
pub(super) use left_out::{leave_out_unasked, leave_out_unasked_to_fit};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod in_full_tests;

#[cfg(test)]
mod held_tests;

#[cfg(test)]
mod repeat_tests;

#[cfg(test)]
mod rejected_tests;

#[cfg(test)]
mod value_name_tests;
