//! Repair-prompt templates: text with named `{placeholder}`s, filled from a
//! [`RepairPrompt`].

use super::RepairPrompt;

/// The placeholders a template may use.
///
/// `{keep}` names the fields of the reply that were right (no violation at, under or over
/// them), to be kept as they are (`These fields were right; keep them as they are:
/// /number, /customer.`); empty when none was. `{example}` is an example of the shape whose
/// strings are placeholders (`"<name>"`, `"INV-0000"`, see
/// [`crate::render::placeholder_example_schema`]), and it is empty (its line dropped) unless
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
