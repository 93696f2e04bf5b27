//! What toolschema tells a model after a failed attempt: the repair prompt.
//!
//! A [`RepairPrompt`] gathers the failed reply, the [`Error`], the target's compact form
//! and example, the user's request and the attempt number, and renders them through a
//! [`Template`] with named placeholders. Two strategies send it: continue the
//! conversation, or a minimal standalone request with only what is needed to fix it.
//!
//! A repair keeps what was right. The model is asked to correct its own reply (quoted, or
//! the conversation's last message), guidance is given only for the fields that are wrong,
//! the fields that were right are named to be kept, and no example value is offered that
//! could be copied over them: a pattern or a format is shown as its form (`"INV-0000"`,
//! `"YYYY-MM-DD"`), and the example of the whole shape only when nothing in the reply was
//! right, with placeholders for its strings.

use std::fmt;

mod empty_call;
mod named;
mod template;

pub use template::{PLACEHOLDERS, Template, TemplateError};

use serde_json::Value;

use crate::Error;
use crate::error::{Unit, ViolationKind};
use crate::looped::Loop;
use crate::message::Message;
use crate::render;
use crate::repair::{Fix, FixKind};
use crate::schema::Schema;
use crate::schema::union::ToolUnion;
use crate::tool_schema::ToolSchema;

/// How a repair is sent to the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum RepairStrategy {
    /// Append the failed reply and the repair message to the conversation.
    #[default]
    Conversation,
    /// A fresh request with only the failed reply, what is wrong and the shape: fewer
    /// prompt tokens.
    Minimal,
    /// The conversation, with the failed reply replaced by the JSON read out of it after
    /// local repair (no prose, no fences, syntax fixed), so the model corrects data and
    /// not its wording; the reply itself where no JSON could be read.
    Corrected,
}

/// Everything a repair prompt is made of.
///
/// ```
/// use toolschema::ToolSchema;
/// use toolschema::feedback::RepairPrompt;
///
/// #[derive(ToolSchema, Debug)]
/// struct Weather { city: String }
///
/// let reply = "Sure! ```json\n{\"town\": \"Paris\"}\n```";
/// let err = toolschema::parse::<Weather>(reply).unwrap_err();
/// let prompt = RepairPrompt::new::<Weather>(reply, &err).attempt(1, 3).to_string();
/// assert!(prompt.contains("- /town: unknown field"));
/// assert!(prompt.contains("not in a code fence"));
/// assert!(prompt.contains("{ city: string }"));
/// ```
#[derive(Debug, Clone)]
pub struct RepairPrompt {
    reply: String,
    error: Error,
    shape: String,
    example: Value,
    /// What the reply said, as local repair reads it: where the fields to keep are read.
    value: Option<Value>,
    /// Whether the schema is a union of tool calls (`{"name": …, "arguments": …}`), whose
    /// arguments are checked against the tool the name names.
    tool_union: bool,
    /// Whether that union takes a direct answer beside its calls: no example is shown.
    calls_or_answer: bool,
    /// The forms a reply to that union takes, as the conversation's first instructions
    /// gave them, shown in place of its shape where those instructions are in the
    /// conversation ([`RepairPrompt::reply_forms`]).
    forms: Option<String>,
    request: Option<String>,
    attempt: usize,
    max_attempts: usize,
    truncated: bool,
    max_reply_chars: usize,
    /// The JSON read out of the reply, for [`RepairStrategy::Corrected`].
    corrected: Option<String>,
}

impl RepairPrompt {
    /// A repair prompt for a reply that failed to give a `T`.
    pub fn new<T: ToolSchema>(reply: &str, error: &Error) -> Self {
        RepairPrompt::for_schema(&Schema::of::<T>(), reply, error)
    }

    /// A repair prompt for a schema known at run time.
    pub fn for_schema(schema: &Schema, reply: &str, error: &Error) -> Self {
        let union = ToolUnion::at_root(schema);
        RepairPrompt {
            reply: reply.to_owned(),
            error: error.clone(),
            shape: render::compact_schema(schema),
            example: render::placeholder_example_schema(schema),
            value: crate::extract::closest_value(reply),
            tool_union: union.is_some(),
            calls_or_answer: union.is_some_and(|u| u.has_answer()),
            forms: None,
            request: None,
            attempt: 1,
            max_attempts: 1,
            truncated: false,
            max_reply_chars: 2_000,
            corrected: None,
        }
    }

    /// The JSON read out of the failed reply by local repair, shown back in its place
    /// under [`RepairStrategy::Corrected`].
    pub fn corrected(mut self, value: &Value) -> Self {
        self.corrected = Some(value.to_string());
        self.value = Some(value.clone());
        self
    }

    /// The forms a reply takes, shown for `{shape}` in the repairs that keep the
    /// conversation (whose first instructions listed the functions of a union of tools):
    /// the union's shape in TypeScript notation is what a small model, asked for "this
    /// shape", writes back word for word, `|` and all. The standalone repair
    /// ([`RepairStrategy::Minimal`]) lists no functions, and keeps the shape.
    pub(crate) fn reply_forms(mut self, forms: Option<String>) -> Self {
        self.forms = forms;
        self
    }

    /// The user's original request.
    pub fn request(mut self, request: impl Into<String>) -> Self {
        self.request = Some(request.into());
        self
    }

    /// Which attempt failed, of how many.
    pub fn attempt(mut self, attempt: usize, max_attempts: usize) -> Self {
        self.attempt = attempt;
        self.max_attempts = max_attempts;
        self
    }

    /// The provider said the reply was cut off by the token limit.
    pub fn truncated(mut self, truncated: bool) -> Self {
        self.truncated = truncated;
        self
    }

    /// How much of the failed reply is quoted (characters; 2 000 by default).
    pub fn max_reply_chars(mut self, chars: usize) -> Self {
        self.max_reply_chars = chars;
        self
    }

    /// The loop a reply cut at the token limit ended in, if it did.
    fn looped(&self) -> Option<Loop> {
        self.truncated
            .then(|| Loop::at_end_of(&self.reply))
            .flatten()
    }

    /// The failed reply as the repair shows it: whole, or, where it looped until the
    /// token limit cut it, up to the end of the loop's first round. Sent back whole, the
    /// loop is what a small model reads last, and it writes the same reply again.
    fn said(&self) -> &str {
        self.looped().map_or(&self.reply, |l| l.said(&self.reply))
    }

    /// Advice for the patterns found in the failed reply, one line each.
    pub fn hints(&self) -> Vec<String> {
        let mut hints: Vec<String> = Vec::new();
        let mut add = |h: String| {
            if !hints.contains(&h) {
                hints.push(h);
            }
        };
        let cut_off = self.truncated || self.error.fixes().iter().any(Fix::completes_a_cut);
        match self.looped() {
            Some(looped) => add(looped.hint(&self.reply)),
            None if cut_off => add("Your reply was cut off; answer more briefly.".into()),
            None => {}
        }
        // The violation says what the reply is; the hint says what to send instead.
        if self.error.echoed() {
            add("Do not send the schema back: send data, with the field values filled in from the request.".into());
        }
        let no_json = !self.reply.contains(['{', '['])
            && self
                .error
                .violations()
                .iter()
                .any(|v| matches!(v.kind(), ViolationKind::Syntax { .. }));
        if no_json {
            add("Your reply had no JSON in it: reply with the JSON value alone.".into());
        }
        // A value outside its list with no did-you-mean: the values the request names.
        if let Some(request) = &self.request {
            // The request's words are read once, on the first violation that needs them.
            let mut said: Option<named::RequestWords> = None;
            for violation in self.error.violations() {
                if let ViolationKind::NotAllowed { allowed, .. } = violation.kind()
                    && violation.suggestion().is_none()
                {
                    let said = said.get_or_insert_with(|| named::RequestWords::of(request));
                    if let Some(named) = named::named_in_request(said, allowed) {
                        add(named.hint(violation.pointer()));
                    }
                }
            }
        }
        if self.tool_union
            && let Some(hint) = empty_call::hint(self.value.as_ref(), &self.error)
        {
            add(hint);
        }
        for fix in self.error.fixes() {
            let hint = match fix.kind() {
                FixKind::CodeFence => "Reply with the JSON alone, not in a code fence.".to_owned(),
                FixKind::Prose => {
                    "Reply with the JSON alone: no text before or after it.".to_owned()
                }
                FixKind::Wrapper { tag } => format!("Do not wrap the JSON in <{tag}> tags."),
                FixKind::SingleQuotes | FixKind::SmartQuotes => {
                    "Use straight double quotes (\") around keys and strings.".to_owned()
                }
                FixKind::TrailingComma => {
                    "Put no comma after the last item of an array or object.".to_owned()
                }
                FixKind::UnquotedKey => "Put every key in double quotes.".to_owned(),
                FixKind::Comment => "JSON has no comments; leave them out.".to_owned(),
                FixKind::PythonLiteral { .. } => {
                    "Write true, false and null, not True, False and None.".to_owned()
                }
                FixKind::MissingComma => "Separate items and members with commas.".to_owned(),
                _ => continue,
            };
            add(hint);
        }
        hints
    }

    /// The members of the reply that were right, by key: no violation is at or under
    /// them, and none is about the reply as a whole. Empty when the reply is no object.
    ///
    /// Where the schema is a union of tool calls, the arguments of a call whose name is
    /// wrong are not among them: arguments are checked against the tool the name names, so
    /// those of no tool were checked against nothing, and keeping them would hold the model
    /// to the call it got wrong (a made-up `wine` with a recipe search's arguments). A
    /// record that merely has `name` and `arguments` fields keeps them by the usual rule.
    pub fn kept_fields(&self) -> Vec<&str> {
        let Some(Value::Object(members)) = &self.value else {
            return Vec::new();
        };
        let name_wrong =
            self.tool_union && members.contains_key("name") && !self.error.right_at("/name");
        members
            .keys()
            .filter(|key| !(name_wrong && key.as_str() == "arguments"))
            .filter(|key| {
                let pointer = format!("/{}", crate::pointer::token(key));
                self.error.right_at(&pointer)
            })
            .map(String::as_str)
            .collect()
    }

    /// `These fields were right; keep them as they are: /number, /customer.` The fields are
    /// written as pointers, as the problems are: in a tool call, `/name` (the tool) is not
    /// `/arguments/name`.
    fn keep(&self) -> String {
        let kept: Vec<String> = self
            .kept_fields()
            .into_iter()
            .map(|key| format!("/{}", crate::pointer::token(key)))
            .collect();
        match kept.as_slice() {
            [] => String::new(),
            [one] => format!("This field was right; keep it as it is: {one}."),
            _ => format!(
                "These fields were right; keep them as they are: {}.",
                kept.join(", ")
            ),
        }
    }

    /// The failed reply, cut to the configured length (or after the first round of the
    /// loop it ended in), in a fence it cannot close.
    pub fn quoted_reply(&self) -> String {
        let said = self.said();
        let total = said.chars().count();
        let mut body: String = said.chars().take(self.max_reply_chars).collect();
        if total > self.max_reply_chars {
            body.push_str(&format!(
                "\n… ({} more characters cut)",
                total - self.max_reply_chars
            ));
        }
        if said.len() < self.reply.len() {
            body.push_str("\n… (then the same again, until the token limit)");
        }
        let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
        let fence = "`".repeat(longest.max(2) + 1);
        format!("{fence}\n{body}\n{fence}")
    }

    /// Whether every violation is about a value (an enum, a pattern, a range, a length
    /// of text) in a reply of the right shape. The example is left out then: its
    /// placeholder values are what a small model copies into the fields it is fixing,
    /// and each such violation already says what to write.
    fn only_values_wrong(&self) -> bool {
        let violations = self.error.violations();
        !violations.is_empty()
            && violations.iter().all(|v| {
                matches!(
                    v.kind(),
                    ViolationKind::NotAllowed { .. }
                        | ViolationKind::OutOfRange { .. }
                        | ViolationKind::NotMultipleOf { .. }
                        | ViolationKind::PatternMismatch { .. }
                        | ViolationKind::FormatMismatch { .. }
                        | ViolationKind::TooShort {
                            unit: Unit::Characters,
                            ..
                        }
                        | ViolationKind::TooLong {
                            unit: Unit::Characters,
                            ..
                        }
                )
            })
    }

    fn slot(&self, name: &str) -> String {
        match name {
            "violations" => self
                .error
                .violations()
                .iter()
                .map(|v| format!("- {v}"))
                .collect::<Vec<_>>()
                .join("\n"),
            "hints" => self.hints().join("\n"),
            "reply" => self.quoted_reply(),
            "shape" => self.forms.clone().unwrap_or_else(|| self.shape.clone()),
            "keep" => self.keep(),
            "example"
                if self.calls_or_answer
                    || self.only_values_wrong()
                    || !self.kept_fields().is_empty() =>
            {
                String::new()
            }
            "example" => self.example.to_string(),
            "request" => self.request.clone().unwrap_or_default(),
            "attempt" => self.attempt.to_string(),
            "max_attempts" => self.max_attempts.to_string(),
            _ => String::new(),
        }
    }

    /// The messages for the next attempt. `conversation` is what was sent the first time
    /// (system prompt and request); the failed reply is appended for
    /// [`RepairStrategy::Conversation`].
    pub fn messages(&self, strategy: RepairStrategy, conversation: &[Message]) -> Vec<Message> {
        match strategy {
            RepairStrategy::Conversation => {
                let mut out = conversation.to_vec();
                out.push(Message::assistant(self.said()));
                out.push(Message::user(Template::conversation().render(self)));
                out
            }
            RepairStrategy::Minimal => {
                let standalone = RepairPrompt {
                    forms: None,
                    ..self.clone()
                };
                vec![Message::user(Template::minimal().render(&standalone))]
            }
            RepairStrategy::Corrected => {
                let mut out = conversation.to_vec();
                // A looped reply's JSON, read, holds its loop whole.
                let shown = match (&self.corrected, self.looped()) {
                    (Some(corrected), None) => corrected.clone(),
                    _ => self.said().to_owned(),
                };
                out.push(Message::assistant(shown));
                out.push(Message::user(Template::conversation().render(self)));
                out
            }
        }
    }
}

/// The default conversation template.
impl fmt::Display for RepairPrompt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Template::conversation().render(self))
    }
}
