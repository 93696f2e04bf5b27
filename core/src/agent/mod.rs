//! `Agent::ask::<T>()`: the typed retry loop.
//!
//! Each attempt builds the request for its mode, calls the provider (retrying transport
//! failures with backoff, separately), reads the reply through the lenient parse, and
//! on violations sends a repair prompt for the next attempt, up to `max_attempts` model
//! calls for content.
//!
//! The loop (`run.rs`) works on a schema and a function that turns a reply's values into
//! the result: [`Agent::ask`] is the typed layer for a derived type, [`Agent::ask_tools`]
//! the one for a run-time union ([`Toolset`](crate::Toolset)). Both return a request
//! ([`Ask`]) that takes earlier messages the caller keeps and a cancel token before it is
//! awaited, and both have a tool loop ([`Ask::run`]).

mod asking;
mod cap;
mod choice;
mod conversation;
mod decide;
mod dispatch;
mod doubts;
mod error;
mod events;
mod forced;
mod forms;
mod grounding;
mod native;
mod not_an_answer;
mod partial;
mod ran;
mod read;
mod request;
mod retry;
mod run;
mod runner;
mod tool_loop;
mod tools;

use std::sync::Arc;

use serde_json::Value;
use tracing::{Instrument, info_span};

pub use asking::{Answered, Ask, Sent, ToolLoop, Tools, Typed};
pub use cap::ReplyCap;
pub use dispatch::UnknownHandler;
pub use error::{AskError, Attempt};
pub use events::{Event, Metrics};
pub use ran::{Ran, ToolRun};
pub use request::{ExampleForm, PromptForm};
pub use retry::{Backoff, CancelToken, Delays};
pub use runner::ToolRunner;
#[allow(deprecated)]
pub use tools::StepOutcome;
pub use tools::{ToolFailure, ToolPanic, Toolbox};

use crate::Error;
use crate::coerce::Coercion;
use crate::dialect::Dialect;
use crate::feedback::RepairStrategy;
use crate::message::Message;
use crate::provider::{Mode, Provider};
use crate::schema::Schema;
use crate::tool_schema::ToolSchema;
use crate::toolset::CheckPanic;
use events::Counters;
use request::Target;
use run::{Question, Refused, Success};

type Listener = Arc<dyn Fn(&Event) + Send + Sync>;

/// What an ask makes of a reply with several calls of a union.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Several {
    /// One value is asked for: several calls are a violation the model is asked to fix
    /// (a `Vec` of the union asks for several).
    Refused,
    /// A step of the tool loop: every call runs.
    Each,
}

/// The modes each target (by [`Target::memory_key`]) has given up.
type GivenUp = std::collections::HashMap<(String, u64), Vec<Mode>>;

/// Asks a model for typed values.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use toolschema::{Agent, ToolSchema};
/// use toolschema::provider::Scripted;
///
/// #[derive(ToolSchema, Debug)]
/// struct City { name: String, population: u32 }
///
/// // A fenced reply is fixed locally: one call.
/// let model = Scripted::new(["```json\n{\"name\": \"Oslo\", \"population\": 709000}\n```"]);
/// let agent = Agent::new(model.clone()).max_attempts(3);
/// let city: City = agent.ask("The largest city in Norway?").await?;
/// assert_eq!(city.name, "Oslo");
/// assert_eq!(model.calls(), 1);
/// assert_eq!(agent.metrics().fixed_locally, 1);
/// # Ok::<(), toolschema::AskError>(())
/// # }).unwrap();
/// ```
pub struct Agent<P> {
    provider: P,
    max_attempts: usize,
    mode: Mode,
    dialect: Option<Dialect>,
    system: Option<String>,
    temperature: Option<f32>,
    repair_temperature: Option<f32>,
    max_tokens: ReplyCap,
    strategy: RepairStrategy,
    form: PromptForm,
    example: bool,
    example_form: ExampleForm,
    coercion: Coercion,
    backoff: Backoff,
    budget: Option<u64>,
    max_reply_chars: usize,
    grounded_calls: bool,
    listener: Option<Listener>,
    counters: Arc<Counters>,
    /// Under `Mode::Auto`, the provider's modes each target has given up: later asks for
    /// the same type or tool set leave them out.
    skipped_modes: Arc<std::sync::Mutex<GivenUp>>,
}

impl<P: Provider> Agent<P> {
    /// An agent over a provider: 3 attempts, [`Mode::Auto`], safe coercion.
    pub fn new(provider: P) -> Self {
        Agent {
            provider,
            max_attempts: 3,
            mode: Mode::Auto,
            dialect: None,
            system: None,
            temperature: None,
            repair_temperature: None,
            max_tokens: ReplyCap::Sized,
            strategy: RepairStrategy::Conversation,
            form: PromptForm::Compact,
            example: true,
            example_form: ExampleForm::Placeholders,
            coercion: Coercion::Safe,
            backoff: Backoff::new(),
            budget: None,
            max_reply_chars: 2_000,
            grounded_calls: true,
            listener: None,
            counters: Arc::default(),
            skipped_modes: Arc::default(),
        }
    }

    /// At most this many model calls for content (attempts, not retries).
    pub fn max_attempts(mut self, attempts: usize) -> Self {
        self.max_attempts = attempts.max(1);
        self
    }

    /// The mode; [`Mode::Auto`] tries the provider's best first and falls back.
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// The schema dialect of tools and response formats (by default the provider's).
    pub fn dialect(mut self, dialect: Dialect) -> Self {
        self.dialect = Some(dialect);
        self
    }

    /// A system prompt put before the shape instructions. Its words are part of the
    /// conversation that [`Agent::grounded_calls`] reads, as the user's are: a value it
    /// gives ("The user's time zone is Europe/Oslo.") is a value given.
    pub fn system(mut self, system: impl Into<String>) -> Self {
        self.system = Some(system.into());
        self
    }

    /// The sampling temperature sent with every attempt. By default none is sent, so the
    /// server's own default applies (1 at OpenAI and Anthropic); repair attempts use
    /// [`Agent::repair_temperature`] when it is set.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// use toolschema::{Agent, ToolSchema};
    /// use toolschema::provider::Scripted;
    ///
    /// #[derive(ToolSchema, Debug)]
    /// struct City { name: String }
    ///
    /// let model = Scripted::new([r#"{"name": "Oslo"}"#, r#"{"name": "Oslo"}"#]);
    /// let _: City = Agent::new(model.clone()).ask("Capital of Norway?").await?;
    /// let _: City = Agent::new(model.clone()).temperature(0.0).ask("Capital of Norway?").await?;
    /// assert_eq!(model.requests()[0].temperature, None);
    /// assert_eq!(model.requests()[1].temperature, Some(0.0));
    /// # Ok::<(), toolschema::AskError>(())
    /// # }).unwrap();
    /// ```
    pub fn temperature(mut self, temperature: f32) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// The temperature of repair attempts (by default that of [`Agent::temperature`],
    /// and none when that is not set either).
    pub fn repair_temperature(mut self, temperature: f32) -> Self {
        self.repair_temperature = Some(temperature);
        self
    }

    /// At most this many tokens per reply (`max_tokens`). By default the cap is sized
    /// from the shape asked for ([`ReplyCap::Sized`]: 1 024 tokens, plus one for every two
    /// characters of the shape's compact prompt form, at most 4 096): a server told no
    /// limit lets a reply run to the end of its context, and a small model under a
    /// grammar can loop until it gets there. A reply cut at the cap is reported as cut
    /// ([`ViolationKind::CutOff`](crate::ViolationKind::CutOff)). [`Agent::reply_cap`]
    /// chooses how the cap is made, or sends none.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// use toolschema::{Agent, ToolSchema};
    /// use toolschema::provider::Scripted;
    ///
    /// #[derive(ToolSchema, Debug)]
    /// struct City { name: String }
    ///
    /// let model = Scripted::new([r#"{"name": "Oslo"}"#, r#"{"name": "Oslo"}"#]);
    /// let _: City = Agent::new(model.clone()).ask("Capital of Norway?").await?;
    /// let _: City = Agent::new(model.clone()).max_tokens(256).ask("Capital of Norway?").await?;
    /// let sized = model.requests()[0].max_tokens.unwrap();
    /// assert!((1_024..=4_096).contains(&sized));
    /// assert_eq!(model.requests()[1].max_tokens, Some(256));
    /// # Ok::<(), toolschema::AskError>(())
    /// # }).unwrap();
    /// ```
    pub fn max_tokens(mut self, tokens: u32) -> Self {
        self.max_tokens = ReplyCap::Fixed(tokens);
        self
    }

    /// Whether the checks that a reply follows the conversation are on (they are by
    /// default). They apply only to unions of tools with an answer (a
    /// [`Toolset`](crate::Toolset) with [`with_answer`](crate::Toolset::with_answer), a
    /// derived enum with an `#[answer]` variant): asked for a union with no answer, or for
    /// any other type, the model has no other choice than the one it made, and its reply
    /// is taken as written. `grounded_calls(false)` turns every one of them off.
    ///
    /// A first reply that calls a tool with values found nowhere in the conversation is
    /// sent back. Asked something no tool does, small models still call one, with values
    /// of their own making; told so, they answer. One value the user or a tool wrote is
    /// enough for a call to stand; a second call made of nothing the conversation holds
    /// has the model asked for its answer alone. A call of a tool the request names is let stand so (the model may infer its
    /// values: `"Paris"` for "the capital of France"), except that one none of whose
    /// values the user wrote, to a request that says more than which tool it wants (two
    /// words or more that no tool is about), is sent back once
    /// ([`ViolationKind::Unstated`](crate::ViolationKind::Unstated): `{"level": 100}`
    /// beside `music.set_volume` for "What volume of water fills an Olympic swimming
    /// pool?"): the model may keep it, or answer, and either is then taken, except a
    /// call made up again for a request that asks to know something ("What…?",
    /// "Which…?"), which has the model asked for its answer alone; a command ("Turn the
    /// volume up") keeps it. A short request ("Time?", "Full brightness") leaves the
    /// values to the model.
    ///
    /// An answer to a request that uses a word of a tool's name is sent back once
    /// ([`ViolationKind::SkippedTool`](crate::ViolationKind::SkippedTool)), and so is one to
    /// a request that names no tool but writes in digits every number a tool of numbers
    /// requires and uses a word of what it does ("Find the roots of x^2 + 4x + 4 = 0."
    /// beside `solve_quadratic`); an answer made again is taken. If the model, told, calls
    /// that tool, every call it writes made of values the user never wrote (its
    /// description's examples, placeholders), the request holds nothing the tool needs: the
    /// first answer is taken, and the ask ends, reported as
    /// [`FixKind::AnswerKept`](crate::FixKind::AnswerKept) on the last attempt. So it is
    /// when the attempts run out with no call of the model's taken (calls that do not
    /// read, the tool's shape sent back): the question was the library's, and unasked
    /// the answer would have stood. On the last attempt an answer is not questioned so at
    /// all, as no attempt is left to call the tool; nor is an answer cut at the token
    /// limit before its end, which is sent back as cut, to be written whole and questioned
    /// then.
    ///
    /// An answer that is only the name of one of the tools
    /// ([`ViolationKind::NamedNotCalled`](crate::ViolationKind::NamedNotCalled):
    /// `{"answer": "sports_get_match_results"}`) or the library's own text sent back
    /// ([`ViolationKind::CopiedForm`](crate::ViolationKind::CopiedForm): `<your answer>`,
    /// a piece of the instructions) is sent back each time; a type word alone (`"string"`)
    /// once.
    ///
    /// A call's optional arguments whose values appear nowhere in the conversation, are
    /// none the tool lists and are not the defaults it states (`"age": 16` for "I'm 165cm
    /// and 80kg, what's my BMI?", the description's example `"cm"` for a unit) are left
    /// out of the call, so that the tool's default applies; each is reported as a fix,
    /// [`FixKind::UnaskedArgument`](crate::FixKind::UnaskedArgument), with the value as
    /// written. So are keys the tool does not take, at any depth of the arguments, with
    /// nothing in them the conversation gives (`"level": 50` in each track of a
    /// playlist), and keys repeating inside an object an argument the call gives at its
    /// own place ([`FixKind::RepeatedArgument`](crate::FixKind::RepeatedArgument)), where
    /// the object's schema lists its properties and takes no other keys. Sent back,
    /// models under a grammar write such a value again. An argument
    /// stays where the model wrote it to fix a violation of an earlier attempt, and where
    /// the call would not fit the tool's schema without it (one of several keys it needs).
    /// The conversation is the user's messages, the tools' results, the earlier calls,
    /// and the developer's words: [`Agent::system`] and the history's system messages;
    /// never the descriptions, examples and defaults of the tools.
    ///
    /// Turn it off for tools whose arguments the model composes from nothing the user
    /// wrote (a poem to save, a generated password, an e-mail's subject), or infers
    /// (two guests for "me and my husband").
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// use serde_json::json;
    /// use toolschema::provider::{Mode, Scripted};
    /// use toolschema::{Agent, Choice, FixKind, Toolset};
    ///
    /// let bmi = Toolset::from_openai_tools(&json!([{"type": "function", "function": {
    ///     "name": "bmi",
    ///     "parameters": {"type": "object", "properties": {
    ///         "height_cm": {"type": "number"},
    ///         "weight_kg": {"type": "number"},
    ///         "age": {"type": "integer"}
    ///     }, "required": ["height_cm", "weight_kg"]}
    /// }}]))?;
    /// let call = r#"{"name": "bmi", "arguments": {"height_cm": 165, "weight_kg": 80, "age": 16}}"#;
    /// let request = "I'm 165cm and 80kg, what's my BMI?";
    ///
    /// // With an answer, the age the user never gave is left out, and reported.
    /// let agent = Agent::new(Scripted::new([call])).mode(Mode::JsonObject);
    /// let answered = agent.ask_tools(&bmi.clone().with_answer(), request).answered().await?;
    /// let Choice::Calls(calls) = &answered.value else { panic!("a call") };
    /// assert_eq!(calls[0].arguments(), &json!({"height_cm": 165, "weight_kg": 80}));
    /// let fixes = answered.attempts[0].fixes();
    /// assert!(matches!(fixes[0].kind(), FixKind::UnaskedArgument { key, .. } if key == "age"));
    ///
    /// // Turned off, or with no answer to choose, the call is taken as written.
    /// let off = Agent::new(Scripted::new([call])).mode(Mode::JsonObject).grounded_calls(false);
    /// let Choice::Calls(calls) = off.ask_tools(&bmi.clone().with_answer(), request).await? else { panic!() };
    /// assert_eq!(calls[0].arguments()["age"], 16);
    /// let no_answer = Agent::new(Scripted::new([call])).mode(Mode::JsonObject);
    /// let Choice::Calls(calls) = no_answer.ask_tools(&bmi, request).await? else { panic!() };
    /// assert_eq!(calls[0].arguments()["age"], 16);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    pub fn grounded_calls(mut self, on: bool) -> Self {
        self.grounded_calls = on;
        self
    }

    /// How the cap on each reply's tokens is chosen: sized from the shape (the default),
    /// fixed, or none at all.
    ///
    /// ```
    /// use toolschema::Agent;
    /// use toolschema::agent::ReplyCap;
    /// use toolschema::provider::Scripted;
    ///
    /// // The server's own limit, as before toolschema sent a cap of its own.
    /// let agent = Agent::new(Scripted::new(["{}"])).reply_cap(ReplyCap::Unlimited);
    /// ```
    pub fn reply_cap(mut self, cap: ReplyCap) -> Self {
        self.max_tokens = cap;
        self
    }

    pub fn repair_strategy(mut self, strategy: RepairStrategy) -> Self {
        self.strategy = strategy;
        self
    }

    /// How the first request states the shape (by default the compact form).
    pub fn prompt_form(mut self, form: PromptForm) -> Self {
        self.form = form;
        self
    }

    /// Whether the first request shows an example value (by default it does).
    pub fn example(mut self, show: bool) -> Self {
        self.example = show;
        self
    }

    /// What the first request's example of a record is made of: placeholders that cannot
    /// pass for facts of the request (the default), or realistic values. Unions of tools
    /// show their example call either way.
    ///
    /// ```
    /// use toolschema::{Agent, ToolSchema};
    /// use toolschema::agent::ExampleForm;
    /// use toolschema::provider::Scripted;
    ///
    /// #[derive(ToolSchema, Debug)]
    /// struct Invoice {
    ///     #[schema(pattern = "^INV-[0-9]{4}$")]
    ///     number: String,
    ///     customer: String,
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// let model = Scripted::new([r#"{"number": "INV-0317", "customer": "Ann"}"#]);
    /// let agent = Agent::new(model.clone());
    /// let invoice: Invoice = agent.ask("INV-0317 for Ann").await.unwrap();
    /// assert!(model.request_texts()[0].contains(r#"{"number":"INV-0000","customer":"<customer>"}"#));
    ///
    /// let model = Scripted::new([r#"{"number": "INV-0317", "customer": "Ann"}"#]);
    /// let agent = Agent::new(model.clone()).example_form(ExampleForm::Values);
    /// let invoice: Invoice = agent.ask("INV-0317 for Ann").await.unwrap();
    /// assert!(model.request_texts()[0].contains(r#"{"number":"INV-0123","customer":"text"}"#));
    /// # });
    /// ```
    pub fn example_form(mut self, form: ExampleForm) -> Self {
        self.example_form = form;
        self
    }

    pub fn coercion(mut self, coercion: Coercion) -> Self {
        self.coercion = coercion;
        self
    }

    /// Transport retry: how often and how long to wait (429, 5xx, timeouts).
    pub fn backoff(mut self, backoff: Backoff) -> Self {
        self.backoff = backoff;
        self
    }

    /// The most prompt and completion tokens one ask may use.
    pub fn token_budget(mut self, tokens: u64) -> Self {
        self.budget = Some(tokens);
        self
    }

    /// How much of a failed reply a repair prompt quotes.
    pub fn max_reply_chars(mut self, chars: usize) -> Self {
        self.max_reply_chars = chars;
        self
    }

    /// Calls `listener` with each [`Event`].
    pub fn on_event(mut self, listener: impl Fn(&Event) + Send + Sync + 'static) -> Self {
        self.listener = Some(Arc::new(listener));
        self
    }

    /// The counters over every ask so far.
    pub fn metrics(&self) -> Metrics {
        self.counters.snapshot()
    }

    pub fn provider(&self) -> &P {
        &self.provider
    }

    fn emit(&self, event: Event) {
        if let Some(listener) = &self.listener {
            listener(&event);
        }
    }

    /// Asks for a `T`: a request, sent when awaited, that takes its options first
    /// (earlier messages, a cancel token; see [`Ask`]).
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// use toolschema::{Agent, ToolSchema};
    /// use toolschema::provider::Scripted;
    ///
    /// #[derive(ToolSchema, Debug)]
    /// struct City { name: String }
    ///
    /// let agent = Agent::new(Scripted::new([r#"{"name": "Oslo"}"#]));
    /// let city: City = agent.ask("The capital of Norway?").await?;
    /// assert_eq!(city.name, "Oslo");
    /// # Ok::<(), toolschema::AskError>(())
    /// # }).unwrap();
    /// ```
    pub fn ask<'a, T: ToolSchema>(&'a self, prompt: &'a str) -> Ask<'a, P, Typed<T>> {
        Ask::new(self, Typed::new(), prompt)
    }

    /// Asks for a `T` after earlier messages that the caller keeps: see [`Ask::history`].
    #[deprecated(since = "0.2.0", note = "use `agent.ask(prompt).history(&history)`")]
    pub async fn ask_with<T: ToolSchema + Send>(
        &self,
        history: &[Message],
        prompt: &str,
    ) -> Result<T, AskError> {
        self.ask(prompt).history(history).await
    }

    /// Asks for a `T`, ending early when `cancel` is cancelled.
    #[deprecated(since = "0.2.0", note = "use `agent.ask(prompt).cancel(&token)`")]
    pub async fn ask_cancellable<T: ToolSchema + Send>(
        &self,
        prompt: &str,
        cancel: &CancelToken,
    ) -> Result<T, AskError> {
        self.ask(prompt).cancel(cancel).await
    }

    /// Asks for a `T` after earlier messages: the typed layer over [`Agent::ask_schema`].
    /// A reply with several calls of a union gives every one to the typed layer, each
    /// checked (a violation in the `i`-th under `/i`); `several` says what comes of them.
    async fn ask_in<T: ToolSchema>(
        &self,
        history: &[Message],
        prompt: &str,
        request: &str,
        cancel: Option<&CancelToken>,
        several: Several,
    ) -> Result<Success<T>, AskError> {
        let build = |values: &[Value]| {
            let mut typed = Vec::with_capacity(values.len());
            let mut violations = Vec::new();
            for (i, value) in values.iter().enumerate() {
                match T::from_json(value.clone()) {
                    Ok(value) => typed.push(value),
                    // A check of the type that panicked is a bug of the program, not of
                    // the reply: it ends the ask instead of being sent back to the model.
                    Err(e) if e.panicked_check().is_some() => {
                        let message = e.panicked_check().map(ToString::to_string);
                        let panic = CheckPanic {
                            tool: T::schema_name().into_owned(),
                            message: message.unwrap_or_default(),
                        };
                        return Err(Refused::CheckPanicked(panic, e));
                    }
                    Err(e) if values.len() == 1 => return Err(Refused::from(e)),
                    Err(e) => violations.extend(e.under(&i.to_string()).into_violations()),
                }
            }
            if !violations.is_empty() {
                return Err(Refused::from(Error::new(violations)));
            }
            if typed.len() > 1 && several == Several::Refused {
                let message = format!(
                    "the reply makes {} tool calls where one call or the answer is asked for: \
                     make one call",
                    typed.len()
                );
                let violation =
                    crate::Violation::new("", crate::ViolationKind::Invalid { message });
                return Err(Refused::from(Error::single(violation)));
            }
            typed
                .into_iter()
                .next()
                .ok_or_else(|| Error::internal("the reply held no value").into())
        };
        let target = Target::new(Schema::of::<T>(), &T::schema_name());
        let ask = Question {
            target: &target,
            system: self.system.as_deref(),
            history,
            prompt,
            request,
            cancel,
        };
        self.ask_schema(&ask, build).await
    }

    /// Asks for a value of `target`'s schema, which `build` turns into a `T`: what
    /// `build` rejects is a violation of that attempt, repaired like any other.
    async fn ask_schema<T>(
        &self,
        ask: &Question<'_>,
        build: impl Fn(&[Value]) -> Result<T, Refused>,
    ) -> Result<Success<T>, AskError> {
        let span = info_span!("ask", target = %ask.target.name, provider = self.provider.name());
        async move {
            self.counters.ask();
            if let Some(error) = ask.target.schema.problem() {
                return Err(AskError::Schema {
                    error,
                    attempts: Vec::new(),
                });
            }
            match self.run_attempts(ask, build).await {
                Ok(done) => {
                    let attempts = done.attempts.len();
                    self.counters
                        .success(attempts, done.fixed_locally, done.usage.total());
                    self.emit(Event::Done {
                        attempts,
                        usage: done.usage,
                    });
                    Ok(done)
                }
                Err(e) => {
                    if matches!(e, AskError::Exhausted { .. }) {
                        self.counters.exhausted();
                    }
                    Err(e)
                }
            }
        }
        .instrument(span)
        .await
    }
}

/// The user's request a repair prompt quotes: the prompt, or else the history's last user
/// message.
fn request_of<'a>(history: &'a [Message], prompt: &'a str) -> &'a str {
    if !prompt.is_empty() {
        return prompt;
    }
    history
        .iter()
        .rev()
        .find(|m| m.role == crate::message::Role::User)
        .map_or("", |m| m.content.as_str())
}
