//! Unions of tools known only at run time: an MCP server's `tools/list`, an OpenAI
//! `tools` array, a Home Assistant bridge's intents.
//!
//! A [`Toolset`] is the run-time twin of a derived union (an enum with `#[tool]` and
//! `#[answer]` variants): its schema is built by the same builder the derive's code calls,
//! so the model sees the same shapes, a reply gets the same two tiers of validation (the
//! call's envelope and tool name, then the arguments under `/arguments`), the same
//! violations and the same repair prompts.
//!
//! ```
//! use serde_json::json;
//! use toolschema::{Choice, Toolset};
//!
//! let tools = Toolset::from_openai_tools(&json!([{
//!     "type": "function",
//!     "function": {
//!         "name": "get_weather",
//!         "description": "Look up the weather for a city.",
//!         "parameters": {
//!             "type": "object",
//!             "properties": { "city": { "type": "string" } },
//!             "required": ["city"]
//!         }
//!     }
//! }]))?
//! .with_answer();
//!
//! let Choice::Calls(calls) = tools.parse(r#"{"name": "get_weather", "arguments": {"city": "Paris"}}"#)? else {
//!     unreachable!()
//! };
//! assert_eq!(calls[0].name(), "get_weather");
//! assert_eq!(calls[0].arguments(), &json!({ "city": "Paris" }));
//!
//! let err = tools.parse(r#"{"name": "get_wether", "arguments": {"city": "Paris"}}"#).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     r#"/name: "get_wether" is not allowed here; the only allowed value is "get_weather"; did you mean "get_weather"?"#
//! );
//! # Ok::<(), toolschema::Error>(())
//! ```
//!
//! Names are kept as the server spells them ([`ValidCall::name`]); what models see is a name
//! every provider accepts (see [`Toolset::model_name`]).
//!
//! For the agent and other callers that run their own parse: [`Toolset::schema`] is what
//! to validate against and render, [`Toolset::definitions`] the per-tool definitions for
//! native tool calling in a provider's dialect, [`Toolset::choose`] turns validated values
//! into a [`Choice`] (names mapped back, checks run), and [`Toolset::read`] keeps a
//! panicking check ([`ReadError::CheckPanicked`], fatal: end the ask) apart from a wrong
//! reply ([`ReadError::Invalid`], repairable: send the repair prompt).

mod build;
mod check;
mod choice;
mod describe;
mod load;
mod type_names;

use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::Error;
use crate::error::{Violation, ViolationKind, quote};
use crate::schema::{Generator, Node, Schema};
use crate::tool_schema::ToolSchema;

pub use crate::tool_union::ToolDefinition;
pub use crate::tool_union::names::is_model_name;
pub use check::{CheckPanic, Rejection, one_of};
pub(crate) use choice::AnswerBeside;
pub use choice::{Choice, ReadError, ValidCall};

/// The former name of [`ValidCall`]: a validated call, apart from the call as a model
/// wrote it ([`crate::ToolCall`]).
#[deprecated(since = "0.2.0", note = "renamed `ValidCall`")]
pub type Call = ValidCall;

use build::Built;
use check::Check;

/// A union of tool calls, and optionally a direct answer, built at run time.
///
/// Build one from a provider's or a server's tool list ([`Toolset::from_openai_tools`],
/// [`Toolset::from_mcp_tools`], [`Toolset::from_anthropic_tools`]) or by hand
/// ([`Toolset::new`] and [`Toolset::tool`]); add the answer with [`Toolset::with_answer`];
/// read replies with [`Toolset::parse`].
///
/// Tools of several servers go in one set namespaced by server, and derived tools beside
/// them:
///
/// ```
/// use serde_json::json;
/// use toolschema::{Choice, Toolset, ToolSchema};
///
/// #[derive(ToolSchema, Debug, PartialEq)]
/// struct Remember { note: String }
///
/// #[derive(ToolSchema, Debug, PartialEq)]
/// enum Local {
///     /// Keep a note for later.
///     #[tool] Remember(Remember),
/// }
///
/// let time = Toolset::from_mcp_tools(&json!({ "tools": [{
///     "name": "get_current_time",
///     "description": "The current time in a time zone.",
///     "inputSchema": { "type": "object", "properties": { "timezone": { "type": "string" } }, "required": ["timezone"] }
/// }]}))?
/// .namespaced("time");
///
/// let tools = Toolset::new().with_derived::<Local>()?.merge(time)?.with_answer();
/// assert_eq!(tools.names().collect::<Vec<_>>(), ["remember", "time.get_current_time"]);
/// // Models are shown names every provider accepts.
/// assert_eq!(tools.model_name("time.get_current_time"), Some("time_get_current_time"));
///
/// let reply = r#"[{"name": "time_get_current_time", "arguments": {"timezone": "Europe/Oslo"}},
///                 {"name": "remember", "arguments": {"note": "call Ann"}}]"#;
/// let Choice::Calls(calls) = tools.parse(reply)? else { unreachable!() };
/// assert_eq!(calls[0].name(), "time.get_current_time");
/// assert_eq!(calls[1].typed::<Local>()?, Local::Remember(Remember { note: "call Ann".into() }));
/// # Ok::<(), toolschema::Error>(())
/// ```
#[derive(Clone, Default)]
pub struct Toolset {
    tools: Vec<Tool>,
    /// Original name → index into `tools`.
    by_name: HashMap<String, usize>,
    answer: Option<Answer>,
    /// The derived unions whose tools are in the set, each described once.
    derived: Vec<Derived>,
    built: OnceLock<Built>,
}

/// One tool of the set.
#[derive(Clone)]
struct Tool {
    /// As the server spells it.
    name: String,
    description: Option<String>,
    source: Source,
    check: Option<Check>,
}

#[derive(Clone)]
enum Source {
    /// An input schema given at run time (checked when it was added).
    Json(Value),
    /// The tool a derived union (the set's `union`-th) names `own_name`.
    Derived { union: usize, own_name: String },
}

#[derive(Clone)]
enum Answer {
    /// `{"answer": "…"}`: text, as a derived `#[answer] Answer(String)`.
    Text,
    /// An answer with its own schema.
    Schema(Value),
}

#[derive(Clone)]
struct Derived {
    type_id: TypeId,
    describe: fn(&mut Generator) -> Node,
}

impl std::fmt::Debug for Toolset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Toolset")
            .field(
                "tools",
                &self.tools.iter().map(|t| &t.name).collect::<Vec<_>>(),
            )
            .field("answer", &self.answer.is_some())
            .finish()
    }
}

impl Toolset {
    /// An empty set: add tools with [`Toolset::tool`].
    pub fn new() -> Self {
        Toolset::default()
    }

    /// Adds a tool: its name as the server spells it, a description, and the JSON Schema
    /// of its arguments, loaded as [`Schema::from_json`] loads a schema.
    ///
    /// A schema that does not load (an unsupported keyword, an invalid one) or a name the
    /// set has already is an error that names the tool.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::Toolset;
    ///
    /// let tools = Toolset::new()
    ///     .tool("light.turn_on", "Turn on a light.", json!({
    ///         "type": "object",
    ///         "properties": { "brightness": { "type": "integer", "maximum": 255 } }
    ///     }))?;
    /// assert_eq!(tools.len(), 1);
    ///
    /// let err = tools.clone().tool("light.turn_on", "", json!({})).unwrap_err();
    /// assert_eq!(err.to_string(), r#"(root): the tool "light.turn_on" is in the set twice; tool names must be unique (namespace the tools of each server with Toolset::namespaced)"#);
    ///
    /// let err = tools.tool("scene", "", json!({ "type": "object", "if": {} })).unwrap_err();
    /// assert_eq!(err.to_string(), r#"/if: tool "scene": the keyword "if" is not supported by toolschema"#);
    /// # Ok::<(), toolschema::Error>(())
    /// ```
    pub fn tool(
        mut self,
        name: &str,
        description: &str,
        input_schema: Value,
    ) -> Result<Self, Error> {
        self.add_json(name, description, input_schema, "", "")?;
        Ok(self)
    }

    /// Adds a tool given as JSON, or leaves the set as it was and says why not: a
    /// duplicate name located at `name_at`, problems of the schema under `schema_at`
    /// (pointers into the tool list the tool came from).
    fn add_json(
        &mut self,
        name: &str,
        description: &str,
        input_schema: Value,
        name_at: &str,
        schema_at: &str,
    ) -> Result<(), Error> {
        self.check_name(name, name_at)?;
        build::check_schema(name, &input_schema, schema_at)?;
        self.push(Tool {
            name: name.to_owned(),
            description: (!description.trim().is_empty()).then(|| description.to_owned()),
            source: Source::Json(input_schema),
            check: None,
        });
        Ok(())
    }

    fn check_name(&self, name: &str, at: &str) -> Result<(), Error> {
        let message = if name.is_empty() {
            "a tool name must not be empty".to_owned()
        } else if self.by_name.contains_key(name) {
            format!(
                "the tool {} is in the set twice; tool names must be unique (namespace the \
                 tools of each server with Toolset::namespaced)",
                quote(name)
            )
        } else {
            return Ok(());
        };
        Err(Error::single(Violation::new(
            at,
            ViolationKind::Invalid { message },
        )))
    }

    fn push(&mut self, tool: Tool) {
        self.by_name.insert(tool.name.clone(), self.tools.len());
        self.tools.push(tool);
        self.built = OnceLock::new();
    }

    /// Adds the `#[tool]` variants of a derived union `T` (its `#[answer]`, if any, is not
    /// taken: the set's answer is [`Toolset::with_answer`]'s). A call to one of them can be
    /// read back as a `T` with [`ValidCall::typed`].
    ///
    /// A type that is not a union of tools, or a tool name the set has already, is an
    /// error.
    pub fn with_derived<T: ToolSchema>(mut self) -> Result<Self, Error> {
        let schema = Schema::of::<T>();
        let tools = build::derived_tools(&schema).ok_or_else(|| {
            Error::internal(format!(
                "{} is not a union of tools: derive ToolSchema on an enum with #[tool] variants",
                T::schema_name()
            ))
        })?;
        let union = match self
            .derived
            .iter()
            .position(|d| d.type_id == TypeId::of::<T>())
        {
            Some(i) => i,
            None => {
                self.derived.push(Derived {
                    type_id: TypeId::of::<T>(),
                    describe: T::describe,
                });
                self.derived.len() - 1
            }
        };
        for (name, description) in tools {
            self.check_name(&name, "")?;
            self.push(Tool {
                name: name.clone(),
                description,
                source: Source::Derived {
                    union,
                    own_name: name,
                },
                check: None,
            });
        }
        Ok(self)
    }

    /// Adds the direct answer as text: `{"answer": "…"}`, as a derived
    /// `#[answer] Answer(String)`. Asked in [`Mode::Tools`](crate::provider::Mode::Tools),
    /// the answer is sent as one more tool before the others (see there);
    /// [`Toolset::definitions`] stay the set's own tools.
    pub fn with_answer(mut self) -> Self {
        self.answer = Some(Answer::Text);
        self.built = OnceLock::new();
        self
    }

    /// Adds a direct answer that has its own JSON Schema: `{"answer": <value>}`.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::{Choice, Toolset};
    ///
    /// let tools = Toolset::new()
    ///     .tool("search", "Search the web.", json!({ "type": "object", "properties": { "q": { "type": "string" } } }))?
    ///     .with_answer_schema(json!({ "type": "object", "properties": { "city": { "type": "string" } }, "required": ["city"] }))?;
    /// assert_eq!(tools.parse(r#"{"answer": {"city": "Oslo"}}"#)?, Choice::Answer(json!({ "city": "Oslo" })));
    /// assert_eq!(tools.parse(r#"{"answer": {}}"#).unwrap_err().to_string(), "/answer/city: missing required field");
    /// # Ok::<(), toolschema::Error>(())
    /// ```
    pub fn with_answer_schema(mut self, schema: Value) -> Result<Self, Error> {
        build::check_schema("the answer", &schema, "")?;
        self.answer = Some(Answer::Schema(schema));
        self.built = OnceLock::new();
        Ok(self)
    }

    /// Every tool renamed `{server}.{name}`: the tools of one server among others'.
    pub fn namespaced(mut self, server: &str) -> Self {
        for tool in &mut self.tools {
            tool.name = format!("{server}.{}", tool.name);
        }
        self.by_name = self
            .tools
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.clone(), i))
            .collect();
        self.built = OnceLock::new();
        self
    }

    /// The tools of `other` after this set's, with their checks. A tool name in both, or
    /// an answer in both, is an error.
    pub fn merge(mut self, other: Toolset) -> Result<Self, Error> {
        if self.answer.is_some() && other.answer.is_some() {
            return Err(Error::internal(
                "both sets have an answer; a union has one answer",
            ));
        }
        for tool in &other.tools {
            self.check_name(&tool.name, "")?;
        }
        let offset = self.derived.len();
        self.derived.extend(other.derived);
        self.answer = self.answer.or(other.answer);
        for mut tool in other.tools {
            if let Source::Derived { union, .. } = &mut tool.source {
                *union += offset;
            }
            self.push(tool);
        }
        Ok(self)
    }

    /// The number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether the set has no tool.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// Whether the set takes a direct answer.
    pub fn has_answer(&self) -> bool {
        self.answer.is_some()
    }

    /// The tool names as the servers spell them, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().map(|t| t.name.as_str())
    }

    /// The name models see for a tool; `None` for a tool the set does not have.
    ///
    /// Providers restrict tool names (OpenAI: `^[a-zA-Z0-9_-]{1,64}$`; Anthropic and
    /// Gemini much the same), servers do not. The mapping depends only on the set of
    /// names, never on their order:
    ///
    /// - a name that is already allowed is its own;
    /// - any other has each run of other characters replaced by one `_`
    ///   (`time.get_current_time` → `time_get_current_time`);
    /// - where that is longer than 64 characters, or another tool's name is (or becomes)
    ///   the same, it is cut to 55 characters and gets `_` and 8 hex digits of a hash of
    ///   the original name; should even that collide, `_2`, `_3`, … in the order of the
    ///   original names.
    ///
    /// The union's schema, prompts, docs and [`Toolset::definitions`] use these names;
    /// [`ValidCall::name`] gives the original back.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::Toolset;
    ///
    /// let tools = Toolset::new()
    ///     .tool("files/read file", "", json!({ "type": "object" }))?
    ///     .tool("files_read_file", "", json!({ "type": "object" }))?;
    /// assert_eq!(tools.model_name("files_read_file"), Some("files_read_file"));
    /// let mapped = tools.model_name("files/read file").unwrap();
    /// assert!(mapped.starts_with("files_read_file_") && mapped.len() == 24);
    /// assert_eq!(tools.original_name(mapped), Some("files/read file"));
    /// # Ok::<(), toolschema::Error>(())
    /// ```
    pub fn model_name(&self, name: &str) -> Option<&str> {
        let i = *self.by_name.get(name)?;
        Some(self.built().model_names[i].as_str())
    }

    /// The tool a model-facing name stands for, as the server spells it.
    pub fn original_name(&self, model_name: &str) -> Option<&str> {
        let i = *self.built().by_model_name.get(model_name)?;
        Some(self.tools[i].name.as_str())
    }

    /// The union's schema, in model-facing names: what the agent validates against and
    /// what the renderers show (`render::compact_schema`, `render::example_schema`,
    /// `docs::markdown_schema`, `RepairPrompt::for_schema` all take it as they take a
    /// derived union's).
    ///
    /// Built once, on first use, in time linear in the size of the tools' schemas.
    pub fn schema(&self) -> &Arc<Schema> {
        &self.built().schema
    }

    /// The set as one description of a union of tools, which everything that writes or
    /// reads its tools takes; `None` for a set with no tool.
    pub(crate) fn description(&self) -> Option<&crate::tool_union::UnionDescription> {
        self.built().description.as_ref()
    }

    fn built(&self) -> &Built {
        self.built.get_or_init(|| build::build(self))
    }
}
