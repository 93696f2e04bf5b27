//! Reading a reply to a [`Toolset`]: the calls it makes, or the answer.

use std::fmt;

use serde_json::{Map, Value};

use super::check::{CheckPanic, Failed};
use super::{Source, Tool, Toolset};
use crate::Error;
use crate::envelope::renamed_calls;
use crate::error::{Violation, ViolationKind};
use crate::parse::{Parsed, Parser, several_calls};
use crate::repair::Fix;
use crate::tool_schema::ToolSchema;

/// What a reply to a [`Toolset`] chose: tool calls (one or several), or the answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Choice {
    Calls(Vec<ValidCall>),
    Answer(Value),
}

/// What an answer beside calls in one reply is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AnswerBeside {
    /// A violation: one reply is asked for, and it cannot both call and answer.
    Refused,
    /// Dropped: a step of a tool loop, whose calls run; the answer was written before
    /// their results, and the model answers again once they are in.
    Dropped,
}

/// One validated tool call.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidCall {
    name: String,
    model_name: String,
    /// The name the tool's derived union knows it by, for [`ValidCall::typed`].
    union_name: String,
    arguments: Value,
}

impl ValidCall {
    /// The tool, as the server spells it (`time.get_current_time`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name the model used (`time_get_current_time`); see [`Toolset::model_name`].
    pub fn model_name(&self) -> &str {
        &self.model_name
    }

    /// The arguments, valid against the tool's schema and its check.
    pub fn arguments(&self) -> &Value {
        &self.arguments
    }

    /// Takes the arguments out.
    pub fn into_arguments(self) -> Value {
        self.arguments
    }

    /// The call as a value of the derived union `T` its tool came from
    /// ([`Toolset::with_derived`]); an error when `T` has no such tool.
    pub fn typed<T: ToolSchema>(&self) -> Result<T, Error> {
        let mut call = Map::new();
        call.insert("name".into(), Value::from(self.union_name.as_str()));
        call.insert("arguments".into(), self.arguments.clone());
        crate::from_value(Value::Object(call))
    }
}

/// Why a reply to a [`Toolset`] could not be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReadError {
    /// The reply is wrong: every violation, for a repair prompt.
    #[error("{0}")]
    Invalid(Error),
    /// A tool's check panicked: not the reply's fault, and nothing a model can repair.
    #[error("{0}")]
    CheckPanicked(CheckPanic),
}

/// A panicking check becomes a violation at the call's arguments, so that
/// [`Toolset::parse`] keeps its `toolschema::Error`; use [`Toolset::read`] to tell the two
/// apart.
impl From<ReadError> for Error {
    fn from(e: ReadError) -> Self {
        match e {
            ReadError::Invalid(e) => e,
            ReadError::CheckPanicked(panic) => Error::single(Violation::new(
                "/arguments",
                ViolationKind::Invalid {
                    message: panic.to_string(),
                },
            )),
        }
    }
}

impl From<Error> for ReadError {
    fn from(e: Error) -> Self {
        ReadError::Invalid(e)
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Choice::Answer(value) => write!(f, "answer {value}"),
            Choice::Calls(calls) => {
                for (i, call) in calls.iter().enumerate() {
                    if i > 0 {
                        f.write_str("\n")?;
                    }
                    write!(f, "{}({})", call.name, call.arguments)?;
                }
                Ok(())
            }
        }
    }
}

impl Toolset {
    /// Reads a reply: the lenient parse ([`Parser::parse_value`] on [`Toolset::schema`]:
    /// extraction, local repair, call envelopes), the call's name and envelope, then its
    /// arguments against the tool's schema (violations under `/arguments`), then the
    /// tool's check.
    ///
    /// Several calls in one reply — a list, `{"tool_calls": […]}`, several
    /// `<tool_call>` blocks, one object per line — give every call; a violation in the
    /// second call is at `/1/…`.
    ///
    /// A check that panics is reported here as a violation; [`Toolset::read`] returns it
    /// as what it is, a fatal error.
    pub fn parse(&self, raw: &str) -> Result<Choice, Error> {
        self.read(&Parser::new(), raw)
            .map(|parsed| parsed.value)
            .map_err(Error::from)
    }

    /// [`Toolset::parse`] with a configured [`Parser`], the fixes applied, and a
    /// panicking check kept apart from the reply's violations.
    pub fn read(&self, parser: &Parser, raw: &str) -> Result<Parsed<Choice>, ReadError> {
        // Tools named as their servers spell them (`"time.get_current_time"`) are read as
        // the names the model is shown, first: a call so named is no wrong call.
        let (values, fixes) = match self.with_model_names(raw) {
            Some((text, renamed)) => {
                let (values, mut fixes) = self.values(parser, &text)?;
                fixes.splice(0..0, renamed);
                (values, fixes)
            }
            None => self.values(parser, raw)?,
        };
        let choice = self.choose(values).map_err(|e| match e {
            ReadError::Invalid(e) => ReadError::Invalid(e.with_fixes(fixes.clone())),
            fatal => fatal,
        })?;
        Ok(Parsed {
            value: choice,
            fixes,
        })
    }

    /// The values of the calls a reply makes (or of its answer), with the fixes needed.
    fn values(&self, parser: &Parser, raw: &str) -> Result<(Vec<Value>, Vec<Fix>), Error> {
        let schema = self.schema();
        match parser.parse_value(schema, raw) {
            // The answer is one.
            Ok(parsed) if parsed.value.get("answer").is_some() => {
                Ok((vec![parsed.value], parsed.fixes))
            }
            // A call may be the first of several; a wrong one among them is reported, not
            // dropped.
            Ok(parsed) => match several_calls(parser, schema, raw, true) {
                Some(Ok(many)) if many.0.len() > 1 => Ok(many),
                Some(Err(e)) => Err(e),
                _ => Ok((vec![parsed.value], parsed.fixes)),
            },
            Err(e) => match several_calls(parser, schema, raw, false) {
                Some(found) => found,
                None => Err(e),
            },
        }
    }

    /// The reply's calls with the tool names they spell as the servers do
    /// (`"time.get_current_time"`) written as the model-facing names, as JSON text, and
    /// the fixes that took (each renaming an `EnumCase` fix at its call's name);
    /// `None` where no call spells a name so. Values inside arguments are never renamed.
    fn with_model_names(&self, raw: &str) -> Option<(String, Vec<Fix>)> {
        let built = self.built();
        let differ = |(tool, shown): (&Tool, &String)| tool.name != *shown;
        if !self.tools.iter().zip(&built.model_names).any(differ) {
            return None;
        }
        let rename = |name: &str| {
            let i = *self.by_name.get(name)?;
            let shown = &built.model_names[i];
            (shown != name).then(|| shown.clone())
        };
        renamed_calls(raw, &rename)
    }

    /// The choice that values valid against [`Toolset::schema`] make — one value per
    /// call, as the agent reads native tool calls — with names mapped back to the
    /// servers' and each tool's check run. For callers that run their own parse.
    ///
    /// A value that is not valid, an answer beside calls, or two answers are violations;
    /// with several values, each violation is under the value's index (`/1/arguments/…`).
    pub fn choose(&self, values: Vec<Value>) -> Result<Choice, ReadError> {
        self.choose_as(values, AnswerBeside::Refused)
    }

    /// [`Toolset::choose`], with an answer beside calls refused or dropped.
    pub(crate) fn choose_as(
        &self,
        values: Vec<Value>,
        beside: AnswerBeside,
    ) -> Result<Choice, ReadError> {
        let several = values.len() > 1;
        let at = |i: usize, e: Error| if several { e.under(&i.to_string()) } else { e };
        let mut violations: Vec<Violation> = Vec::new();
        let mut calls = Vec::new();
        let mut answers = Vec::new();
        for (i, value) in values.into_iter().enumerate() {
            if let Err(e) = self.schema().validate(&value) {
                violations.extend(at(i, e).into_violations());
                continue;
            }
            match self.call_of(value) {
                Ok(call) => calls.push((i, call)),
                Err(answer) => answers.push((i, answer)),
            }
        }
        // The first answer stands when there is no call; every other one is too many,
        // unless answers beside calls are dropped.
        let refused = match (calls.is_empty(), beside) {
            (true, _) => answers.get(1..).unwrap_or_default(),
            (false, AnswerBeside::Dropped) => &[],
            (false, AnswerBeside::Refused) => &answers[..],
        };
        for (i, _) in refused {
            let message = if calls.is_empty() {
                "a reply holds one answer; give only one"
            } else {
                "an answer cannot come with tool calls in one reply: call the tools, and \
                 answer once their results are in"
            };
            let v = Violation::new(
                "/answer",
                ViolationKind::Invalid {
                    message: message.into(),
                },
            );
            violations.extend(at(*i, Error::single(v)).into_violations());
        }
        for (i, (index, call)) in &calls {
            match index.map(|index| self.run_check(index, &call.arguments)) {
                Some(Err(Failed::Rejected(found))) => {
                    violations.extend(at(*i, Error::new(found)).into_violations());
                }
                Some(Err(Failed::Panicked(panic))) => {
                    return Err(ReadError::CheckPanicked(panic));
                }
                Some(Ok(())) | None => {}
            }
        }
        if !violations.is_empty() {
            return Err(ReadError::Invalid(Error::new(violations)));
        }
        Ok(match answers.pop() {
            Some((_, answer)) if calls.is_empty() => Choice::Answer(answer),
            _ => Choice::Calls(calls.into_iter().map(|(_, (_, call))| call).collect()),
        })
    }

    /// A valid value as a call (with its tool's index), or the answer it holds.
    fn call_of(&self, value: Value) -> Result<(Option<usize>, ValidCall), Value> {
        let Value::Object(mut map) = value else {
            return Err(Value::Null);
        };
        if let Some(answer) = map.remove("answer") {
            return Err(answer);
        }
        let model_name = match map.remove("name") {
            Some(Value::String(name)) => name,
            _ => String::new(),
        };
        let arguments = map.remove("arguments").unwrap_or_default();
        let index = self.built().by_model_name.get(&model_name).copied();
        let tool = index.map(|i| &self.tools[i]);
        let union_name = match tool.map(|t| &t.source) {
            Some(Source::Derived { own_name, .. }) => own_name.clone(),
            _ => model_name.clone(),
        };
        Ok((
            index,
            ValidCall {
                name: tool.map_or_else(|| model_name.clone(), |t| t.name.clone()),
                union_name,
                model_name,
                arguments,
            },
        ))
    }
}
