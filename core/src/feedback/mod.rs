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

use serde_json::Value;

use crate::Error;
use crate::error::{Unit, ViolationKind};
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

/// The placeholders a template may use.
///
/// `{keep}` names the fields of the reply that were right (no violation at, under or over
/// them), to be kept as they are (`These fields were right; keep them as they are:
/// /number, /customer.`); empty when none was. `{example}` is an example of the shape whose
/// strings are placeholders (`"<name>"`, `"INV-0000"`, see
/// [`render::placeholder_example_schema`]), and it is empty (its line dropped) unless
/// nothing in the reply was right and some violation is about its shape: an example beside
/// right fields is what small models copy over them (a correct `INV-0317` came back as the
/// example's `INV-0123`), and a violation about a value — an enum, a pattern, a range —
/// already says what to write. It is always empty for a union of tool calls with a direct
/// answer, whose first prompt shows no example call either: told to call the tool its
/// request names, or that a call's values are not the user's, a small model wrote the
/// example's placeholder numbers into the call (`{"weight_kg": 1.5, "height_cm": 1.5}` for
/// "Who came up with the BMI, and why?"). For such a union, `{shape}` is, in the repairs
/// that keep the conversation, the forms of a call and of the answer as its first prompt
/// gave them (`{"name": "<function name>", "arguments": {…}}`), not the union's shape: asked
/// for "this shape", a small model wrote the shape back.
pub const PLACEHOLDERS: &[&str] = &[
    "violations",
    "hints",
    "keep",
    "reply",
    "shape",
    "example",
    "request",
    "attempt",
    "max_attempts",
];

/// A repair-prompt template with `{placeholder}`s; `{{` and `}}` are literal braces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Slot(&'static str),
}

/// A template that does not parse: an unknown placeholder or an unclosed brace.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at byte {offset} of the template")]
pub struct TemplateError {
    pub offset: usize,
    pub message: String,
}

impl Template {
    /// Parses a template.
    ///
    /// ```
    /// use toolschema::feedback::Template;
    ///
    /// assert!(Template::new("Fix: {violations}").is_ok());
    /// let err = Template::new("Fix: {violation}").unwrap_err();
    /// assert_eq!(err.to_string(), "unknown placeholder {violation}; expected one of {violations}, {hints}, {keep}, {reply}, {shape}, {example}, {request}, {attempt}, {max_attempts} at byte 5 of the template");
    /// ```
    pub fn new(text: &str) -> Result<Template, TemplateError> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut rest = text;
        let mut offset = 0;
        while let Some(i) = rest.find(['{', '}']) {
            literal.push_str(&rest[..i]);
            let at = offset + i;
            let tail = &rest[i..];
            if tail.starts_with("{{") || tail.starts_with("}}") {
                literal.push_str(&tail[..1]);
                rest = &tail[2..];
                offset = at + 2;
                continue;
            }
            if tail.starts_with('}') {
                return Err(TemplateError {
                    offset: at,
                    message: "unmatched }; write }} for a literal brace".into(),
                });
            }
            let Some(end) = tail.find('}') else {
                return Err(TemplateError {
                    offset: at,
                    message: "unclosed {; write {{ for a literal brace".into(),
                });
            };
            let name = &tail[1..end];
            let Some(slot) = PLACEHOLDERS.iter().find(|p| **p == name) else {
                let known: Vec<String> = PLACEHOLDERS.iter().map(|p| format!("{{{p}}}")).collect();
                return Err(TemplateError {
                    offset: at,
                    message: format!(
                        "unknown placeholder {{{name}}}; expected one of {}",
                        known.join(", ")
                    ),
                });
            };
            if !literal.is_empty() {
                parts.push(Part::Text(std::mem::take(&mut literal)));
            }
            parts.push(Part::Slot(slot));
            rest = &tail[end + 1..];
            offset = at + end + 1;
        }
        literal.push_str(rest);
        if !literal.is_empty() {
            parts.push(Part::Text(literal));
        }
        Ok(Template { parts })
    }

    /// The default message appended to the conversation after a failed reply.
    pub fn conversation() -> Template {
        Template::new(
            "Your reply could not be used (attempt {attempt} of {max_attempts}). Problems:\n\
             {violations}\n\
             \n\
             {hints}\n\
             \n\
             {keep}\n\
             \n\
             Reply with only the corrected JSON value, in this shape:\n\
             {shape}\n\
             \n\
             For example: {example}",
        )
        .expect("the default template parses")
    }

    /// The default standalone repair request.
    pub fn minimal() -> Template {
        Template::new(
            "Your reply to the request below does not have the required JSON shape. \
             Fix it, and reply with only the corrected JSON.\n\
             \n\
             Request: {request}\n\
             \n\
             Reply:\n\
             {reply}\n\
             \n\
             Problems:\n\
             {violations}\n\
             \n\
             {hints}\n\
             \n\
             {keep}\n\
             \n\
             Required shape:\n\
             {shape}",
        )
        .expect("the default template parses")
    }

    /// Fills the placeholders. A line whose placeholders are all empty is dropped (so
    /// `Request: {request}` disappears when there is no request), and so are runs of
    /// blank lines.
    pub fn render(&self, prompt: &RepairPrompt) -> String {
        let mut lines: Vec<String> = Vec::new();
        let mut line = Line::default();
        for part in &self.parts {
            let (text, slot) = match part {
                Part::Text(t) => (t.clone(), false),
                Part::Slot(name) => (prompt.slot(name), true),
            };
            if slot && text.is_empty() {
                line.empty_slot = true;
            }
            for (i, piece) in text.split('\n').enumerate() {
                if i > 0 {
                    lines.extend(std::mem::take(&mut line).finish());
                    line.filled_slot = slot;
                }
                line.text.push_str(piece);
                line.filled_slot |= slot && !piece.is_empty();
            }
        }
        lines.extend(line.finish());
        let mut out: Vec<String> = Vec::new();
        for line in lines {
            let blank = line.trim().is_empty();
            if blank && out.last().is_none_or(|l| l.trim().is_empty()) {
                continue;
            }
            out.push(line);
        }
        while out.last().is_some_and(|l| l.trim().is_empty()) {
            out.pop();
        }
        out.join("\n")
    }
}

/// A line of a rendered template, and whether its placeholders gave it anything.
#[derive(Default)]
struct Line {
    text: String,
    empty_slot: bool,
    filled_slot: bool,
}

impl Line {
    fn finish(self) -> Option<String> {
        (!self.empty_slot || self.filled_slot).then_some(self.text)
    }
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

    /// Advice for the patterns found in the failed reply, one line each.
    pub fn hints(&self) -> Vec<String> {
        let mut hints: Vec<String> = Vec::new();
        let mut add = |h: String| {
            if !hints.contains(&h) {
                hints.push(h);
            }
        };
        let cut_off = self.truncated || self.error.fixes().iter().any(Fix::completes_a_cut);
        if cut_off {
            add("Your reply was cut off; answer more briefly.".into());
        }
        // The violation says what the reply is; the hint says what to send instead.
        if self
            .error
            .violations()
            .iter()
            .any(|v| *v.kind() == ViolationKind::SchemaEchoed)
        {
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

    /// The failed reply, cut to the configured length, in a fence it cannot close.
    pub fn quoted_reply(&self) -> String {
        let total = self.reply.chars().count();
        let mut body: String = self.reply.chars().take(self.max_reply_chars).collect();
        if total > self.max_reply_chars {
            body.push_str(&format!(
                "\n… ({} more characters cut)",
                total - self.max_reply_chars
            ));
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
                out.push(Message::assistant(self.reply.clone()));
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
                let shown = self.corrected.clone().unwrap_or_else(|| self.reply.clone());
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
