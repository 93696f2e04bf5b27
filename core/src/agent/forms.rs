//! How the prompts describe a reply to a union of tools: the first instructions (the
//! functions, then how to call one and when to answer instead), the answer alone, and the
//! forms a repair asks for again.
//!
//! A reply's form is given with placeholders that cannot pass for values
//! (`{"name": "<function name>", "arguments": {…}}`), never as an example call, and never
//! as the union's shape in TypeScript notation (`{ name: "a"; arguments: {…} } | …`):
//! small models copy an example's values into real calls, and asked for "this shape" a
//! 0.5B model wrote the shape back, `|` and all, which no reading turns into a call.

use super::request::{PromptForm, Target};
use crate::provider::Mode;

impl Target {
    /// The instructions of the answer alone of a union of tools, in any mode.
    pub(super) fn answer_only_instructions(&self) -> String {
        format!(
            "None of the functions does what the request asks, so answer it yourself: \
             reply with JSON {}Reply with the JSON only.",
            self.answer_sentence(None)
        )
    }

    /// The instructions of a union of tools in a text mode: the functions, each with
    /// what it does and its arguments, then how to call one and when to answer instead,
    /// inside `wrapper` where the request's grammar wraps the reply.
    pub(super) fn union_instructions(
        &self,
        form: PromptForm,
        after_results: bool,
        wrapper: Option<&str>,
    ) -> String {
        let notation = match form {
            PromptForm::JsonSchema => "arguments as JSON Schema",
            _ => "arguments in TypeScript notation; `?` marks an optional one",
        };
        let mut text = format!("You can call these functions ({notation}):\n");
        for tool in self.tools().into_iter().flatten() {
            text.push('\n');
            if let Some(description) = &tool.description {
                for line in description.lines() {
                    text.push_str("// ");
                    text.push_str(line);
                    text.push('\n');
                }
            }
            let arguments = match form {
                PromptForm::Compact => tool.shape.clone(),
                PromptForm::JsonSchema => {
                    serde_json::to_string_pretty(&tool.arguments).unwrap_or_default()
                }
                PromptForm::Both => format!(
                    "{}\nAs JSON Schema: {}",
                    tool.shape,
                    serde_json::to_string_pretty(&tool.arguments).unwrap_or_default()
                ),
            };
            text.push_str(&format!("{}: {arguments}\n", tool.name));
        }
        text.push_str(&format!(
            "\nWhen one of the functions does what the request asks, call it: reply with JSON \
             {}, the arguments taken from {}. \
             Do not compute or make up its result yourself.\n",
            call_form(wrapper),
            source(after_results)
        ));
        if self.has_answer() {
            text.push_str(&format!(
                "{}, reply {}",
                when_to_answer(after_results),
                self.answer_sentence(wrapper)
            ));
        }
        text.push_str("Reply with the JSON only.");
        text
    }

    /// The forms a repair asks a reply to a union of tools with an answer to take, in
    /// `mode` (inside `wrapper` where the request's grammar wraps the reply): a call of one
    /// of the functions the first instructions listed, or the answer, with the same
    /// placeholders as they gave. `None` for any other target, whose repair shows its
    /// shape.
    pub(super) fn reply_forms(
        &self,
        mode: Mode,
        after_results: bool,
        wrapper: Option<&str>,
    ) -> Option<String> {
        if self.union.is_none() || !self.has_answer() {
            return None;
        }
        let call = match mode {
            Mode::Tools => "a call of one of the tools".to_owned(),
            _ => format!(
                "{}, a call of one of the functions above",
                call_form(wrapper)
            ),
        };
        let answer = match mode {
            Mode::Tools => format!("the text {}", self.answer_sentence(None)),
            _ => self.answer_sentence(wrapper),
        };
        Some(format!(
            "{call}, the arguments taken from {};\nor, {}, {}",
            source(after_results),
            lowercase_first(when_to_answer(after_results)),
            answer.trim_end()
        ))
    }

    /// The answer's form, ending its sentence: `{"answer": "<your answer>"}.` for text,
    /// the answer's shape on lines of its own otherwise.
    fn answer_sentence(&self, wrapper: Option<&str>) -> String {
        match self.answer_shape() {
            Some(shape) => format!(
                "{}, the answer of this shape:\n{shape}\n",
                wrapped(r#"{"answer": …}"#, wrapper)
            ),
            None => format!("{}.\n", wrapped(r#"{"answer": "<your answer>"}"#, wrapper)),
        }
    }
}

/// The form of a call, with placeholders.
fn call_form(wrapper: Option<&str>) -> String {
    wrapped(r#"{"name": "<function name>", "arguments": {…}}"#, wrapper)
}

/// Where a call's arguments come from.
fn source(after_results: bool) -> &'static str {
    if after_results {
        "the conversation"
    } else {
        "the request"
    }
}

/// When the answer is the reply.
fn when_to_answer(after_results: bool) -> &'static str {
    if after_results {
        "When the results above give what the request asks for, or none of the functions does what it asks"
    } else {
        "When none of the functions does what the request asks"
    }
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `form`, the JSON of a reply, inside `{"<wrapper>": …}` when there is a wrapper.
fn wrapped(form: &str, wrapper: Option<&str>) -> String {
    match wrapper {
        Some(key) => format!("{{\"{key}\": {form}}}"),
        None => form.to_owned(),
    }
}
