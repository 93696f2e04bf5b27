//! `Agent::ask::<T>()`: the typed retry loop.
//!
//! Each attempt builds the request for its mode, calls the provider (retrying transport
//! failures with backoff, separately), reads the reply through the lenient parse, and
//! on violations sends a repair prompt for the next attempt, up to `max_attempts` model
//! calls for content.

mod error;
mod events;
mod read;
mod request;
mod retry;
mod tools;

use std::sync::Arc;

use serde_json::Value;
use tracing::{Instrument, debug, info_span, warn};

pub use error::{AskError, Attempt};
pub use events::{Event, Metrics};
pub use request::PromptForm;
pub use retry::{Backoff, CancelToken, Delays};
pub use tools::{StepOutcome, Toolbox};

use crate::Error;
use crate::coerce::Coercion;
use crate::dialect::Dialect;
use crate::feedback::{RepairPrompt, RepairStrategy};
use crate::message::Message;
use crate::parse::Parser;
use crate::provider::{FinishReason, Mode, Provider, ProviderError, Reply, Request, Usage};
use crate::schema::{Schema, ToolSchema};
use events::Counters;
use request::Target;

type Listener = Arc<dyn Fn(&Event) + Send + Sync>;

/// The reason of a fallback from native tools to text.
const TEXT_CALL: &str = "the reply wrote the tool call as text, not as a native tool call";

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
    max_tokens: Option<u32>,
    strategy: RepairStrategy,
    form: PromptForm,
    example: bool,
    coercion: Coercion,
    backoff: Backoff,
    budget: Option<u64>,
    max_reply_chars: usize,
    listener: Option<Listener>,
    counters: Arc<Counters>,
    /// Under `Mode::Auto`, how many of the provider's modes each target has had to skip:
    /// later asks for the same type start where the last one ended.
    skipped_modes: Arc<std::sync::Mutex<std::collections::HashMap<String, usize>>>,
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
            max_tokens: None,
            strategy: RepairStrategy::Conversation,
            form: PromptForm::Compact,
            example: true,
            coercion: Coercion::Safe,
            backoff: Backoff::new(),
            budget: None,
            max_reply_chars: 2_000,
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

    /// A system prompt put before the shape instructions.
    pub fn system(mut self, system: impl Into<String>) -> Self {
        self.system = Some(system.into());
        self
    }

    pub fn temperature(mut self, temperature: f32) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// The temperature of repair attempts (by default the same as the first).
    pub fn repair_temperature(mut self, temperature: f32) -> Self {
        self.repair_temperature = Some(temperature);
        self
    }

    pub fn max_tokens(mut self, tokens: u32) -> Self {
        self.max_tokens = Some(tokens);
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

    /// Asks for a `T`.
    pub async fn ask<T: ToolSchema>(&self, prompt: &str) -> Result<T, AskError> {
        self.ask_in(Vec::new(), prompt, None)
            .await
            .map(|(value, _, _)| value)
    }

    /// Asks for a `T`, ending early when `cancel` is cancelled.
    pub async fn ask_cancellable<T: ToolSchema>(
        &self,
        prompt: &str,
        cancel: &CancelToken,
    ) -> Result<T, AskError> {
        self.ask_in(Vec::new(), prompt, Some(cancel))
            .await
            .map(|(value, _, _)| value)
    }

    /// One step of the tool loop: the conversation so far, the step(s) the model took.
    pub(crate) async fn ask_steps<T: ToolSchema>(
        &self,
        history: Vec<Message>,
    ) -> Result<(T, Vec<Value>, Reply), AskError> {
        self.ask_in(history, "", None).await
    }

    /// Asks for a `T` after earlier messages (the tool loop's conversation).
    pub(crate) async fn ask_in<T: ToolSchema>(
        &self,
        history: Vec<Message>,
        prompt: &str,
        cancel: Option<&CancelToken>,
    ) -> Result<(T, Vec<Value>, Reply), AskError> {
        let span = info_span!("ask", target = %T::schema_name(), provider = self.provider.name());
        async move {
            self.counters.ask();
            let schema = Schema::of::<T>();
            if let Some(error) = schema.problem() {
                return Err(AskError::Schema {
                    error,
                    attempts: Vec::new(),
                });
            }
            let target = Target::new(schema, &T::schema_name());
            // The typed value is built inside the loop: what the type rejects is a
            // violation of that attempt, repaired and kept like any other.
            let build = |values: &[Value]| match values.first() {
                Some(first) => T::from_json(first.clone()),
                None => Err(Error::internal("the reply held no value")),
            };
            match self
                .run_attempts(&target, history, prompt, cancel, build)
                .await
            {
                Ok(done) => {
                    self.counters
                        .success(done.attempts, done.fixed_locally, done.usage.total());
                    self.emit(Event::Done {
                        attempts: done.attempts,
                        usage: done.usage,
                    });
                    Ok((done.value, done.values, done.reply))
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

    /// The loop: attempts until a reply's values fit the schema and `build` accepts them.
    async fn run_attempts<T>(
        &self,
        target: &Target,
        history: Vec<Message>,
        prompt: &str,
        cancel: Option<&CancelToken>,
        build: impl Fn(&[Value]) -> Result<T, Error>,
    ) -> Result<Success<T>, AskError> {
        let dialect = self.dialect.unwrap_or_else(|| self.provider.dialect());
        let mut modes: Vec<Mode> = match self.mode {
            Mode::Auto => {
                let all = self.provider.auto_modes();
                let skip = self.skipped(&target.name).min(all.len().saturating_sub(1));
                all[skip..].to_vec()
            }
            fixed => vec![fixed],
        };
        let mut attempts: Vec<Attempt> = Vec::new();
        let mut usage = Usage::default();
        let mut best: Option<(usize, Value)> = None;
        let mut repair_messages: Option<Vec<Message>> = None;
        let parser = Parser::new().coercion(self.coercion);
        let mut attempt = 0;
        while attempt < self.max_attempts {
            attempt += 1;
            let Some(&mode) = modes.first() else {
                return Err(AskError::Provider {
                    error: ProviderError::Config(
                        "no mode can carry this type with this provider".into(),
                    ),
                    attempts,
                });
            };
            let base = self.base_messages(target, mode, &history, prompt);
            let messages = repair_messages.clone().unwrap_or_else(|| base.clone());
            let (mut request, shaped) = match target.request(mode, messages, dialect) {
                Ok(built) => built,
                Err(reason) if modes.len() > 1 => {
                    self.fall_back(&target.name, &mut modes, reason);
                    attempt -= 1;
                    continue;
                }
                Err(reason) => {
                    return Err(AskError::Provider {
                        error: ProviderError::Config(reason),
                        attempts,
                    });
                }
            };
            request.temperature = if attempt > 1 {
                self.repair_temperature.or(self.temperature)
            } else {
                self.temperature
            };
            request.max_tokens = self.max_tokens;
            self.emit(Event::AttemptStarted { attempt, mode });
            debug!(attempt, %mode, "attempt started");
            let reply = match self.call(&request, attempt, cancel).await {
                Ok(reply) => reply,
                Err(CallError::Cancelled) => return Err(AskError::Cancelled { attempts }),
                Err(CallError::Provider(error))
                    if error.rejects_mode() && self.mode == Mode::Auto && modes.len() > 1 =>
                {
                    self.fall_back(&target.name, &mut modes, error.to_string());
                    repair_messages = None;
                    attempt -= 1;
                    continue;
                }
                Err(CallError::Provider(error)) => {
                    return Err(AskError::Provider { error, attempts });
                }
            };
            usage += reply.usage;
            let raw = target.reply_text(&reply);
            self.emit(Event::ReplyReceived {
                attempt,
                usage: reply.usage,
                finish: reply.finish.clone(),
                chars: raw.chars().count(),
            });
            let parsed = read::read(&parser, target, &reply, &raw, &shaped, mode).and_then(
                |(values, fixes)| match build(&values) {
                    Ok(value) => Ok((value, values, fixes)),
                    Err(e) => Err(e.with_fixes(fixes)),
                },
            );
            // A server that ignores `tools` writes the call as text: the rest of the ask
            // goes on in the next mode.
            if self.mode == Mode::Auto
                && mode == Mode::Tools
                && modes.len() > 1
                && read::call_as_text(&reply, &raw)
            {
                self.fall_back(&target.name, &mut modes, TEXT_CALL.into());
            }
            let record = |error: Option<Error>| Attempt {
                number: attempt,
                mode,
                request: request.text(),
                raw: raw.clone(),
                error,
                usage: reply.usage,
                finish: reply.finish.clone(),
            };
            match parsed {
                Ok((value, values, fixes)) => {
                    if !fixes.is_empty() {
                        self.emit(Event::FixedLocally {
                            attempt,
                            fixes: fixes.clone(),
                        });
                    }
                    // Inside the tool loop, the step keeps every attempt it took.
                    tools::record_step(|| {
                        attempts.push(record(None));
                        attempts
                    });
                    return Ok(Success {
                        value,
                        values,
                        reply,
                        attempts: attempt,
                        fixed_locally: !fixes.is_empty(),
                        usage,
                    });
                }
                Err(error) => {
                    warn!(
                        attempt,
                        violations = error.violations().len(),
                        "reply rejected"
                    );
                    self.emit(Event::Violations {
                        attempt,
                        error: error.clone(),
                    });
                    let closest = read::closest(&raw);
                    // On a tie the later reply wins: it was written knowing what was wrong.
                    if let Some(value) = closest.clone()
                        && best
                            .as_ref()
                            .is_none_or(|(n, _)| error.violations().len() <= *n)
                    {
                        best = Some((error.violations().len(), value));
                    }
                    let mut repair = RepairPrompt::for_schema(&target.schema, &raw, &error);
                    if let Some(value) = &closest {
                        repair = repair.corrected(value);
                    }
                    let repair = repair
                        .request(prompt)
                        .attempt(attempt, self.max_attempts)
                        .truncated(reply.finish == FinishReason::Length)
                        .max_reply_chars(self.max_reply_chars);
                    attempts.push(record(Some(error)));
                    if let Some(limit) = self.budget
                        && usage.total() > limit
                    {
                        return Err(AskError::Budget {
                            used: usage.total(),
                            limit,
                            attempts,
                        });
                    }
                    if attempt < self.max_attempts {
                        // The conversation of the mode the next attempt is in.
                        let next = modes.first().copied().unwrap_or(mode);
                        let base = if next == mode {
                            base
                        } else {
                            self.base_messages(target, next, &history, prompt)
                        };
                        repair_messages = Some(repair.messages(self.strategy, &base));
                        self.emit(Event::RepairSent {
                            attempt,
                            strategy: self.strategy,
                        });
                    }
                }
            }
        }
        Err(AskError::Exhausted {
            attempts,
            best: best.map(|(_, v)| v),
        })
    }

    fn fall_back(&self, target: &str, modes: &mut Vec<Mode>, reason: String) {
        let from = modes.remove(0);
        if let Some(&to) = modes.first() {
            warn!(%from, %to, %reason, "mode fallback");
            if self.mode == Mode::Auto {
                let mut skipped = self.skipped_modes.lock().unwrap_or_else(|e| e.into_inner());
                *skipped.entry(target.to_owned()).or_default() += 1;
            }
            self.emit(Event::ModeFallback { from, to, reason });
        }
    }

    fn skipped(&self, target: &str) -> usize {
        let skipped = self.skipped_modes.lock().unwrap_or_else(|e| e.into_inner());
        skipped.get(target).copied().unwrap_or(0)
    }

    /// The first messages of an ask: system prompt with the shape, history, the request.
    fn base_messages(
        &self,
        target: &Target,
        mode: Mode,
        history: &[Message],
        prompt: &str,
    ) -> Vec<Message> {
        let instructions = target.instructions(mode, self.form, self.example);
        let system = match &self.system {
            Some(s) => format!("{s}\n\n{instructions}"),
            None => instructions,
        };
        let mut messages = vec![Message::system(system)];
        messages.extend(history.iter().cloned());
        if !prompt.is_empty() {
            messages.push(Message::user(prompt));
        }
        messages
    }

    /// One model call, retrying transport failures.
    async fn call(
        &self,
        request: &Request,
        attempt: usize,
        cancel: Option<&CancelToken>,
    ) -> Result<Reply, CallError> {
        let mut delays = self.backoff.into_iter();
        loop {
            if cancel.is_some_and(CancelToken::is_cancelled) {
                return Err(CallError::Cancelled);
            }
            let result = match cancel {
                Some(token) => tokio::select! {
                    r = self.provider.complete(request) => r,
                    () = token.cancelled() => return Err(CallError::Cancelled),
                },
                None => self.provider.complete(request).await,
            };
            let error = match result {
                Ok(reply) => return Ok(reply),
                Err(e) => e,
            };
            if !error.is_retryable() {
                return Err(CallError::Provider(error));
            }
            let Some(backoff) = delays.next() else {
                return Err(CallError::Provider(error));
            };
            let delay = error
                .retry_after()
                .map_or(backoff, |d| d.min(self.backoff.max_delay()));
            warn!(attempt, %error, ?delay, "transport retry");
            self.emit(Event::TransportRetry {
                attempt,
                error,
                delay,
            });
            match cancel {
                Some(token) => tokio::select! {
                    () = tokio::time::sleep(delay) => {}
                    () = token.cancelled() => return Err(CallError::Cancelled),
                },
                None => tokio::time::sleep(delay).await,
            }
        }
    }
}

/// What a successful run of the loop gives.
struct Success<T> {
    value: T,
    /// The reply's values (one per tool call when the model made several).
    values: Vec<Value>,
    reply: Reply,
    /// The attempts used, the successful one included.
    attempts: usize,
    /// Whether the reply needed local fixes.
    fixed_locally: bool,
    usage: Usage,
}

enum CallError {
    Provider(ProviderError),
    Cancelled,
}
