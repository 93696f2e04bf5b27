//! The request for each mode, and the reply read back as text for the parse layer.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::dialect::{Dialect, DialectSchema, WRAPPER};
use crate::message::{Message, ToolCall};
use crate::provider::{Mode, Reply, Request, ToolChoice, ToolSpec};
use crate::render;
use crate::schema::Schema;
use crate::tool_union::{AnswerDescription, ToolDescription, ToolNames, UnionDescription};

/// How the first request states the shape the reply must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PromptForm {
    /// The compact, TypeScript-like form (far fewer tokens than JSON Schema) and an example.
    #[default]
    Compact,
    /// The type's JSON Schema, pretty-printed, and an example.
    JsonSchema,
    /// Both forms and an example.
    Both,
}

/// Which example value the first request shows for a record (see
/// [`Agent::example_form`](super::Agent::example_form)). Unions of tools show their
/// example call as before, whichever is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ExampleForm {
    /// Strings as placeholders that cannot pass for facts of the request: `"<name>"` where
    /// any text will do, the form of a pattern or format (`"INV-0000"`, `"YYYY-MM-DD"`)
    /// where one is required; optional keys absent. See
    /// [`render::placeholder_example`](crate::render::placeholder_example).
    #[default]
    Placeholders,
    /// Realistic values (`"text"`, `"INV-0123"`, `"2025-06-14"`), optional keys absent: what
    /// the first request showed before, and what small models copy into answers whose
    /// request gives another value or none. See
    /// [`render::sparse_example_schema`](crate::render::sparse_example_schema).
    Values,
}

/// What is asked for, prepared once per ask.
pub(crate) struct Target {
    pub schema: Arc<Schema>,
    pub name: String,
    pub compact: String,
    pub example: Value,
    /// The example of a record with placeholders for its strings ([`ExampleForm::Placeholders`]).
    pub placeholders: Value,
    /// The union of tool calls the target is, described once; `None` for any other
    /// target.
    pub union: Option<UnionDescription>,
    /// The union of tools whose answer alone this is, asked for once the model has said
    /// that no function fits ([`Target::answer_only`]).
    pub only_answer: Option<UnionDescription>,
}

impl Target {
    /// What the Auto fallback memory knows this target by: its name and a hash of the
    /// shape the model is shown, so that two tool sets (both named `choice`) or two types
    /// of one name in different modules are remembered apart.
    pub fn memory_key(&self) -> (String, u64) {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let mut hasher = DefaultHasher::new();
        self.compact.hash(&mut hasher);
        (self.name.clone(), hasher.finish())
    }

    /// The tools of a union of tool calls; `None` for any other target.
    pub fn tools(&self) -> Option<&[ToolDescription]> {
        self.union.as_ref().map(|u| u.tools.as_slice())
    }

    /// Whether the target is a union of tools with a direct answer, or that answer alone.
    pub fn has_answer(&self) -> bool {
        self.answer().is_some()
    }

    /// The answer of a union of tools, or the answer alone.
    fn answer(&self) -> Option<&AnswerDescription> {
        match &self.union {
            Some(union) => union.answer.as_ref(),
            None => self.only_answer.as_ref()?.answer.as_ref(),
        }
    }

    /// The answer's shape in the compact form, when it is not plain text.
    pub(super) fn answer_shape(&self) -> Option<&str> {
        self.answer()?.shape.as_deref()
    }

    /// The tools' names as servers spell them and as the model is shown them.
    pub fn names(&self) -> &ToolNames {
        static NONE: std::sync::LazyLock<ToolNames> = std::sync::LazyLock::new(ToolNames::default);
        match (&self.union, &self.only_answer) {
            (Some(union), _) | (None, Some(union)) => &union.names,
            (None, None) => &NONE,
        }
    }

    /// Each tool's name as the model is shown it and as its server spells it.
    pub fn tool_names(&self) -> impl Iterator<Item = (&str, &str)> {
        self.tools()
            .into_iter()
            .flatten()
            .map(|t| (t.name.as_str(), t.server_name.as_str()))
    }

    /// The names, description and arguments' names of the tool a call `{"name": …}` names
    /// (both spellings of its name), for telling whether a request is about it; empty for
    /// no known tool.
    pub fn about(&self, call: &Value) -> String {
        self.tool_of(call).map(about).unwrap_or_default()
    }

    /// Each tool's names (as the model is shown it and as its server spells it), what it
    /// is about ([`Target::about`]) and its arguments' schema.
    pub fn tools_about(&self) -> Vec<(&str, &str, String, &Value)> {
        self.tools()
            .into_iter()
            .flatten()
            .map(|t| {
                (
                    t.name.as_str(),
                    t.server_name.as_str(),
                    about(t),
                    &t.arguments,
                )
            })
            .collect()
    }

    /// Whether a native call is of the tool the union's answer is sent as (see
    /// [`UnionDescription::is_answer_tool`]).
    pub fn is_answer_call(&self, call: &ToolCall) -> bool {
        self.union
            .as_ref()
            .is_some_and(|union| union.is_answer_tool(&call.name))
    }

    /// The tool a call `{"name": …}` names, as the model is shown it or as its server
    /// spells it ([`UnionDescription::tool`]).
    pub fn tool_of(&self, call: &Value) -> Option<&ToolDescription> {
        let name = call.get("name").and_then(Value::as_str)?;
        self.union.as_ref()?.tool(name)
    }

    /// What is asked for: a derived type or a schema of its own, described once.
    pub fn new(schema: Arc<Schema>, name: &str) -> Self {
        let union = UnionDescription::of(&schema, ToolNames::default());
        Target::with_union(schema, name, union)
    }

    /// The union of tools given as OpenAI's `tools` array, with an answer: the target
    /// of the unit tests of the checks of a choice.
    #[cfg(test)]
    pub(crate) fn tools_with_answer(tools: &Value) -> Self {
        let tools = crate::Toolset::from_openai_tools(tools)
            .expect("the tools load")
            .with_answer();
        Target::with_union(
            tools.schema().clone(),
            "choice",
            tools.description().cloned(),
        )
    }

    /// A forecast tool, or the answer: the target of the unit tests of a union's requests
    /// and replies.
    #[cfg(test)]
    pub(crate) fn forecast_or_answer() -> Self {
        Target::tools_with_answer(&serde_json::json!([{"type": "function", "function": {
            "name": "weather.get_forecast",
            "description": "The forecast for a city.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}
        }}]))
    }

    /// A union of tools already described (a `Toolset`'s), with its schema.
    pub fn with_union(schema: Arc<Schema>, name: &str, union: Option<UnionDescription>) -> Self {
        Target {
            compact: render::compact_schema(&schema),
            // Optional keys shown as absent: with values there, small models copy them
            // into answers whose request gives none (measured in examples/eval).
            example: render::sparse_example_schema(&schema),
            placeholders: render::placeholder_example_schema(&schema),
            name: snake(name),
            union,
            only_answer: None,
            schema,
        }
    }

    /// The answer of a union of tools with an answer, as a target of its own: a union of
    /// that one alternative, asked for with "none of the functions does what the request
    /// asks, so answer it yourself". `None` for any other target.
    pub fn answer_only(&self) -> Option<Target> {
        let union = crate::schema::union::ToolUnion::at_root(&self.schema)?;
        let mut part = self.schema.part_to_json(union.answer?.alternative);
        let definitions = part.as_object_mut()?.remove("$defs");
        let mut json = json!({ "oneOf": [part] });
        if let Some(definitions) = definitions {
            json["$defs"] = definitions;
        }
        let schema = Schema::from_json(json).ok()?;
        let mut target = Target::new(Arc::new(schema), &self.name);
        target.only_answer = self.union.clone();
        Some(target)
    }

    /// Whether a request for the target in `mode` carries tools: in tools mode, except
    /// for the answer of a union asked for alone, which is text. Without tools, the
    /// conversation's calls and results are written as text too (a server rejects native
    /// calls in a request that defines no tools), and a call written as text says
    /// nothing of the server.
    pub fn sends_tools(&self, mode: Mode) -> bool {
        mode == Mode::Tools && self.only_answer.is_none()
    }

    /// The mode a request for the target in the loop's `mode` is sent in: the union's
    /// answer asked for alone, where it is text, in prose (no grammar, no JSON format, no
    /// tools) whatever the mode, and read as the reply's text (`read`: a reply in prose is
    /// the answer); `mode` otherwise.
    ///
    /// Written inside a JSON string, under a grammar or the JSON format, a small model's
    /// answer runs on: asked alone for the answer to "What volume of water fills an
    /// Olympic swimming pool?" in `json_object`, the 0.5B model wrote `{"answer":
    /// "1000000…` to the token limit, and a how-to answer ran to it through quotes it
    /// left unescaped. Of 32 answers asked alone in the 0.5B model's runs of the
    /// tool-choice evaluation, 4 ran to the limit that way, under both JSON formats; the
    /// same 21 requests asked in plain text each came to an end in one replay.
    pub fn sent_in(&self, mode: Mode) -> Mode {
        if self.only_answer.is_some() && self.answer_shape().is_none() {
            Mode::Prompt
        } else {
            mode
        }
    }

    /// Whether the target is a record: an object with fields, not a union.
    pub fn is_record(&self) -> bool {
        let root = self.schema.resolve(self.schema.root());
        !root.properties.is_empty() && root.one_of.is_empty() && root.any_of.is_empty()
    }

    /// The system message that states the shape, with an example value in the given form
    /// or none. `after_results`: the conversation already holds results of calls.
    /// `dialect`: the dialect of the request, whose grammar may wrap the reply (see
    /// [`Self::wrapper`]).
    pub fn instructions(
        &self,
        mode: Mode,
        form: PromptForm,
        example: Option<ExampleForm>,
        after_results: bool,
        dialect: Dialect,
    ) -> String {
        let shape = match form {
            PromptForm::Compact => self.compact.clone(),
            PromptForm::JsonSchema => self.pretty_schema(),
            PromptForm::Both => format!(
                "{}\nThe same shape as a JSON Schema:\n{}",
                self.compact,
                self.pretty_schema()
            ),
        };
        let notation = match form {
            PromptForm::JsonSchema => "this JSON Schema",
            _ => {
                "this shape (TypeScript notation: `?` marks an optional key; no other keys are allowed)"
            }
        };
        match mode {
            // Before the tools: in tools mode too, the answer alone is asked for as text.
            _ if self.only_answer.is_some() => self.answer_only_instructions(),
            Mode::Tools if self.union.is_some() => match self.answer() {
                Some(answer) => format!(
                    "Call the tool that does what the request asks. When none of the other \
                     tools does, call {} with the answer.",
                    answer.tool
                ),
                None => String::from("Call the tool that fits the request."),
            },
            Mode::Tools => format!("Call the tool {} with the answer.", self.name),
            // A union of tools: what each does, and when to call rather than answer.
            _ if self.union.is_some() => {
                self.union_instructions(form, after_results, self.wrapper(mode, dialect))
            }
            _ => {
                let shown = match example {
                    Some(ExampleForm::Placeholders) => {
                        format!("For example:\n{}\n", self.placeholders)
                    }
                    Some(ExampleForm::Values) => format!("For example:\n{}\n", self.example),
                    None => String::new(),
                };
                format!(
                    "Reply with one JSON value of {notation}:\n{shape}\n{shown}Reply with the JSON only."
                )
            }
        }
    }

    /// The key the request's grammar wraps the reply in: in [`Mode::JsonSchema`], when
    /// `dialect` needs an object root and the target's is not one (a union of tools is
    /// an `anyOf`). A prompt that shows the reply's form shows it wrapped, as the grammar
    /// will make the model write it: shown `{"name": …}` and made to write
    /// `{"value": {…}}`, a small model mostly calls where no function fits.
    pub fn wrapper(&self, mode: Mode, dialect: Dialect) -> Option<&'static str> {
        let wraps = mode == Mode::JsonSchema
            && dialect
                .apply(self.schema.to_json())
                .is_ok_and(|converted| converted.wrapped);
        wraps.then_some(WRAPPER)
    }

    fn pretty_schema(&self) -> String {
        serde_json::to_string_pretty(&self.schema.to_json()).unwrap_or_default()
    }

    /// The request in `mode`, or why the mode cannot carry this target.
    pub fn request(
        &self,
        mode: Mode,
        messages: Vec<Message>,
        dialect: Dialect,
    ) -> Result<(Request, Shaped), String> {
        let mut request = Request::new(messages);
        request.mode = mode;
        request.schema_name = self.name.clone();
        let mut shaped = Shaped::default();
        match mode {
            Mode::JsonSchema => {
                let converted = dialect
                    .apply(self.schema.to_json())
                    .map_err(|e| e.to_string())?;
                request.schema = Some(converted.schema.clone());
                shaped.whole = Some(converted);
            }
            // A union's answer is text, not a tool call: asked for alone, it sends no tool.
            Mode::Tools if !self.sends_tools(mode) => {}
            Mode::Tools => match &self.union {
                Some(union) => {
                    // The answer first, as a tool of its own: small models call a tool
                    // far more readily than they leave the tools for text.
                    if let Some(answer) = union
                        .answer_definition(dialect)
                        .map_err(|e| e.to_string())?
                    {
                        request.tools.push(answer.spec());
                        shaped.answer = Some(answer.shaped);
                    }
                    for tool in union.definitions(dialect).map_err(|e| e.to_string())? {
                        request.tools.push(tool.spec());
                        shaped.tools.push((tool.name, tool.shaped));
                    }
                    request.tool_choice = Some(if union.has_answer() {
                        ToolChoice::Auto
                    } else {
                        ToolChoice::Required
                    });
                }
                None => {
                    let converted = dialect
                        .apply(self.schema.to_json())
                        .map_err(|e| e.to_string())?;
                    let description = self.schema.resolve(self.schema.root()).description.clone();
                    let mut parameters = converted.schema.clone();
                    // Said once, as the tool's description.
                    if let Some(map) = parameters.as_object_mut()
                        && description.is_some()
                        && map.get("description").and_then(Value::as_str) == description.as_deref()
                    {
                        map.shift_remove("description");
                    }
                    request.tools.push(ToolSpec {
                        name: self.name.clone(),
                        description,
                        parameters,
                    });
                    request.tool_choice = Some(ToolChoice::Tool(self.name.clone()));
                    shaped.whole = Some(converted);
                }
            },
            Mode::JsonObject | Mode::Prompt | Mode::Auto => {}
        }
        Ok((request, shaped))
    }

    /// The reply as the text to parse: tool calls written in the target's JSON form.
    pub fn reply_text(&self, reply: &Reply) -> String {
        if reply.tool_calls.is_empty() {
            return reply.text.clone();
        }
        let calls: Vec<String> = reply
            .tool_calls
            .iter()
            .map(|call| self.call_text(call))
            .collect();
        match calls.as_slice() {
            [one] => one.clone(),
            _ => format!("[{}]", calls.join(", ")),
        }
    }

    /// One call as text, to show and record. For a union: `{"name": …, "arguments": …}`
    /// with the arguments as the model wrote them. Never parsed: native calls are read as
    /// data (see `native.rs`).
    pub fn call_text(&self, call: &ToolCall) -> String {
        let arguments = call.arguments.as_text();
        let arguments = if arguments.trim().is_empty() {
            "{}".to_owned()
        } else {
            arguments
        };
        // The answer's call is written as the answer it gives, `{"answer": …}`.
        if self.union.is_some() && !self.is_answer_call(call) {
            format!(
                "{{\"name\": {}, \"arguments\": {arguments}}}",
                json!(call.name)
            )
        } else {
            arguments
        }
    }
}

/// The dialect's schemas a request was sent with, to read the reply back against the
/// strict schema, which validation always uses.
#[derive(Debug, Default)]
pub(crate) struct Shaped {
    /// The whole answer's schema: a `json_schema` response format, or the one tool of a
    /// type that is not a union.
    whole: Option<DialectSchema>,
    /// The arguments' schema of each tool of a union, by tool name.
    tools: Vec<(String, DialectSchema)>,
    /// The schema of the answer's tool's arguments, `{"answer": …}`, where the union's
    /// answer was sent as a tool.
    answer: Option<DialectSchema>,
}

impl Shaped {
    /// A value written against the dialect's schemas, as the strict schema reads it: out
    /// of the `{"value": …}` wrapper, and without the nulls that stand for absent fields.
    pub fn restore(&self, value: Value) -> Value {
        let value = match &self.whole {
            Some(schema) => schema.unwrap(value),
            None => value,
        };
        if self.tools.is_empty() {
            return value;
        }
        match value {
            Value::Array(calls) => calls.into_iter().map(|c| self.restore_call(c)).collect(),
            call => self.restore_call(call),
        }
    }

    /// The arguments of a call of the answer's tool, as the strict schema reads them.
    pub fn restore_answer(&self, arguments: Value) -> Value {
        match &self.answer {
            Some(schema) => schema.unwrap(arguments),
            None => arguments,
        }
    }

    /// A tool call `{"name": …, "arguments": …}` with its arguments restored.
    fn restore_call(&self, mut call: Value) -> Value {
        let name = call.get("name").and_then(Value::as_str).map(str::to_owned);
        if let Some(name) = name
            && let Some((_, schema)) = self.tools.iter().find(|(n, _)| *n == name)
            && let Some(arguments) = call.get_mut("arguments")
        {
            *arguments = schema.unwrap(arguments.take());
        }
        call
    }
}

/// `PersonRecord` → `person_record`, for tool and schema names.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else {
            out.push('_');
        }
    }
    let out = out.trim_matches('_').to_owned();
    if out.is_empty() { "answer".into() } else { out }
}

/// A tool's names (both spellings), description and arguments' names: what the words of
/// a request are compared with to tell whether it is about the tool.
fn about(tool: &ToolDescription) -> String {
    let server = if tool.server_name == tool.name {
        ""
    } else {
        tool.server_name.as_str()
    };
    let description = tool.description.as_deref().unwrap_or_default();
    // The arguments' names say what the tool is about too (`brightness`).
    let arguments: Vec<&str> = tool
        .arguments
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    format!(
        "{} {server} {description} {}",
        tool.name,
        arguments.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{PromptForm, Target};
    use crate::dialect::Dialect;
    use crate::provider::Mode;

    fn forecast_or_answer() -> Target {
        Target::forecast_or_answer()
    }

    /// Where the grammar will make the model write `{"value": …}`, the prompt shows the
    /// call and the answer in it; where nothing wraps the reply, it shows them bare.
    #[test]
    fn a_union_shows_its_reply_wrapped_where_the_grammar_wraps_it() {
        let target = forecast_or_answer();
        let text =
            |mode, dialect| target.instructions(mode, PromptForm::Compact, None, false, dialect);
        let wrapped = text(Mode::JsonSchema, Dialect::OpenAiStrict);
        assert_eq!(
            target.wrapper(Mode::JsonSchema, Dialect::OpenAiStrict),
            Some("value")
        );
        assert!(
            wrapped.contains(
                r#"reply with JSON {"value": {"name": "<function name>", "arguments": {…}}}"#
            ),
            "{wrapped}"
        );
        assert!(
            wrapped.contains(r#"reply {"value": {"answer": "<your answer>"}}."#),
            "{wrapped}"
        );
        for (mode, dialect) in [
            (Mode::Prompt, Dialect::OpenAiStrict),
            (Mode::JsonObject, Dialect::OpenAiStrict),
            (Mode::JsonSchema, Dialect::Strict),
            (Mode::JsonSchema, Dialect::Gemini),
        ] {
            let bare = text(mode, dialect);
            assert_eq!(target.wrapper(mode, dialect), None, "{mode:?} {dialect:?}");
            assert!(!bare.contains(r#""value""#), "{mode:?} {dialect:?}: {bare}");
            assert!(
                bare.contains(r#"reply with JSON {"name": "<function name>", "arguments": {…}}"#),
                "{bare}"
            );
            assert!(
                bare.contains(r#"reply {"answer": "<your answer>"}."#),
                "{bare}"
            );
        }
    }

    /// The grounding checks find a call's tool, its description and its examples, by
    /// either spelling of its name.
    #[test]
    fn a_call_names_its_tool_as_shown_or_as_its_server_spells_it() {
        let target = forecast_or_answer();
        for name in ["weather_get_forecast", "weather.get_forecast"] {
            let call = json!({"name": name, "arguments": {}});
            let tool = target.tool_of(&call).expect(name);
            assert_eq!(tool.server_name, "weather.get_forecast");
            assert!(target.about(&call).contains("The forecast for a city."));
        }
        assert!(target.tool_of(&json!({"name": "weather"})).is_none());
        assert!(target.tool_of(&json!({"answer": "Sunny"})).is_none());
        assert_eq!(target.about(&json!({"name": "get_weather"})), "");
    }
}
