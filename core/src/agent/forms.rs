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
    /// The instructions of the answer alone of a union of tools, in any mode: an answer
    /// that is text in a few plain words, sent in prose (see [`Target::sent_in`]); any
    /// other answer as JSON of its shape.
    pub(super) fn answer_only_instructions(&self) -> String {
        const NONE_FITS: &str =
            "None of the functions does what the request asks, so answer it yourself";
        match self.answer_shape() {
            None => format!("{NONE_FITS}, briefly, in plain text."),
            Some(_) => format!(
                "{NONE_FITS}: reply with JSON {}Reply with the JSON only.",
                self.answer_sentence(None)
            ),
        }
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
        text.push('\n');
        text.push_str(&self.how_to_reply(after_results, wrapper));
        text
    }

    /// The end of the first instructions of a union of tools: how to call one, when to
    /// answer instead, and that the reply is the JSON alone.
    fn how_to_reply(&self, after_results: bool, wrapper: Option<&str>) -> String {
        let mut text = format!(
            "When one of the functions does what the request asks, call it: reply with JSON \
             {}, the arguments taken from {}. \
             Do not compute or make up its result yourself.\n",
            call_form(wrapper),
            source(after_results)
        );
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

    /// What the library itself writes to the model about the form of a reply to a union
    /// of tools with an answer, in any mode, before results or after: the instructions'
    /// end, the repair forms and the answer alone's instructions, without the functions'
    /// names and documentation. An answer that is only a piece of this text is the form
    /// sent back, not an answer (see `not_an_answer`).
    pub(super) fn own_reply_texts(&self) -> Vec<String> {
        let mut texts = vec![self.answer_only_instructions()];
        for after_results in [false, true] {
            texts.push(self.how_to_reply(after_results, None));
            texts.extend(self.reply_forms(Mode::Prompt, after_results, None));
        }
        texts
    }

    /// The forms a repair asks a reply to a union of tools with an answer to take, in a
    /// text `mode` (inside `wrapper` where the request's grammar wraps the reply): a call
    /// of one of the functions the first instructions listed, or the answer, with the same
    /// placeholders as they gave. `None` for any other target, and in tools mode, whose
    /// repair shows the union's shape: there a call is the server's, not text, and asked
    /// for "a call of one of the tools, the arguments taken from the request; or … the
    /// text {"answer": …}", the 1.5B model wrote the first half back as its answer. On
    /// 1.5B the shape is about even with these forms in tools mode (near misses 5 of 12
    /// right against 1, plain cases 21 of 24 against 22, the 64 main cases 48 against 50,
    /// where it writes the shape back); every earlier 0.5B comparison favoured the shape.
    pub(super) fn reply_forms(
        &self,
        mode: Mode,
        after_results: bool,
        wrapper: Option<&str>,
    ) -> Option<String> {
        if self.union.is_none() || !self.has_answer() || mode == Mode::Tools {
            return None;
        }
        Some(format!(
            "{}, a call of one of the functions above, the arguments taken from {};\nor, {}, {}",
            call_form(wrapper),
            source(after_results),
            lowercase_first(when_to_answer(after_results)),
            self.answer_sentence(wrapper).trim_end()
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

/// The placeholders of the forms, which no answer holds.
pub(super) const PLACEHOLDERS: [&str; 2] = ["<function name>", "<your answer>"];

/// When the answer is the reply.
pub(super) fn when_to_answer(after_results: bool) -> &'static str {
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
