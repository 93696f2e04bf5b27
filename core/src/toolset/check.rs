//! Semantic checks: what a tool's schema cannot say ("`name` must be one of the devices
//! this home knows"), run on the arguments once the schema passes, reported as ordinary
//! violations under `/arguments`.

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use serde_json::Value;

use super::Toolset;
use crate::Error;
use crate::error::{Violation, ViolationKind, quote};
use crate::suggest;
use crate::value::describe_value;

/// A check of one tool's arguments.
pub(super) type Check = Arc<dyn Fn(&Value) -> Result<(), Rejection> + Send + Sync>;

/// Why a check rejected a tool's arguments: a message about the arguments as a whole, or
/// violations at pointers inside them (`/name`, `/items/0`).
///
/// A check returns `Err(…)` of anything that converts: a `String` or `&str`, a
/// [`Violation`], a `Vec<Violation>`, an [`Error`].
#[derive(Debug, Clone, PartialEq)]
pub enum Rejection {
    /// About the arguments as a whole: reported at `/arguments`.
    Message(String),
    /// Each at its pointer inside the arguments.
    Violations(Vec<Violation>),
}

impl From<String> for Rejection {
    fn from(message: String) -> Self {
        Rejection::Message(message)
    }
}

impl From<&str> for Rejection {
    fn from(message: &str) -> Self {
        Rejection::Message(message.to_owned())
    }
}

impl From<Violation> for Rejection {
    fn from(violation: Violation) -> Self {
        Rejection::Violations(vec![violation])
    }
}

impl From<Vec<Violation>> for Rejection {
    fn from(violations: Vec<Violation>) -> Self {
        Rejection::Violations(violations)
    }
}

impl From<Error> for Rejection {
    fn from(error: Error) -> Self {
        Rejection::Violations(error.into_violations())
    }
}

impl Rejection {
    /// Every rejection of several checks together: `Ok` when all passed.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::toolset::{Rejection, one_of};
    ///
    /// let args = json!({ "name": "lamp", "area": "attic" });
    /// let checked = Rejection::all([
    ///     one_of(&args, "/name", ["lamp", "tv"]),
    ///     one_of(&args, "/area", ["kitchen", "bedroom"]),
    ///     Err("lamps in the attic are off limits".into()),
    /// ]);
    /// let Err(Rejection::Violations(found)) = checked else { panic!() };
    /// let pointers: Vec<&str> = found.iter().map(|v| v.pointer()).collect();
    /// assert_eq!(pointers, ["/area", ""]);
    /// ```
    pub fn all(checks: impl IntoIterator<Item = Result<(), Rejection>>) -> Result<(), Rejection> {
        let mut found = Vec::new();
        for rejection in checks.into_iter().filter_map(Result::err) {
            match rejection {
                Rejection::Message(message) => {
                    found.push(Violation::new("", ViolationKind::Invalid { message }));
                }
                Rejection::Violations(violations) => found.extend(violations),
            }
        }
        if found.is_empty() {
            Ok(())
        } else {
            Err(Rejection::Violations(found))
        }
    }

    /// The violations, under `/arguments`.
    pub(super) fn into_violations(self) -> Vec<Violation> {
        match self {
            Rejection::Message(message) => vec![Violation::new(
                "/arguments",
                ViolationKind::Invalid { message },
            )],
            Rejection::Violations(violations) if violations.is_empty() => vec![Violation::new(
                "/arguments",
                ViolationKind::Invalid {
                    message: "the arguments were rejected without a reason".into(),
                },
            )],
            Rejection::Violations(violations) => violations
                .into_iter()
                .map(|v| Error::single(v).under("arguments"))
                .flat_map(Error::into_violations)
                .collect(),
        }
    }
}

/// A check that panicked: a bug in the check, not in the model's reply, so no repair
/// prompt can fix it. The agent ends the ask with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct CheckPanic {
    /// The tool whose check panicked, as the server spells it; for a derived type's
    /// `#[schema(validate = ...)]` check, the type's schema name.
    pub tool: String,
    /// The panic's message, when it had one.
    pub message: String,
}

impl fmt::Display for CheckPanic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the check of the tool {} panicked: {}",
            quote(&self.tool),
            self.message
        )
    }
}

impl Toolset {
    /// Adds a check to a tool: run on the arguments after the schema passed, before the
    /// call is returned. What it rejects is reported as violations under `/arguments`,
    /// with the same [`Display`](crate::Error), suggestions and repair prompts as
    /// schema violations. A tool the set does not have is an error.
    ///
    /// A check that panics does not unwind into the caller: the panic is caught and
    /// returned as [`ReadError::CheckPanicked`](super::ReadError::CheckPanicked), which is
    /// not a problem of the reply and must not be sent to the model as one.
    ///
    /// ```
    /// use serde_json::{Value, json};
    /// use toolschema::Toolset;
    /// use toolschema::toolset::one_of;
    ///
    /// let devices = ["bedroom light", "kitchen light"];
    /// let tools = Toolset::new()
    ///     .tool("HassTurnOn", "Turn on a device.", json!({
    ///         "type": "object", "properties": { "name": { "type": "string" } }
    ///     }))?
    ///     .check("HassTurnOn", move |args: &Value| one_of(args, "/name", devices))?;
    ///
    /// let err = tools.parse(r#"{"name": "HassTurnOn", "arguments": {"name": "bedroom lihgt"}}"#).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     r#"/arguments/name: "bedroom lihgt" is not one of "bedroom light", "kitchen light"; did you mean "bedroom light"?"#
    /// );
    /// # Ok::<(), toolschema::Error>(())
    /// ```
    pub fn check<F>(mut self, tool: &str, check: F) -> Result<Self, Error>
    where
        F: Fn(&Value) -> Result<(), Rejection> + Send + Sync + 'static,
    {
        let Some(&i) = self.by_name.get(tool) else {
            let names = self.tools.iter().map(|t| t.name.as_str());
            let suggestion = suggest::closest(tool, names);
            let mut violation = Violation::new(
                "",
                ViolationKind::Invalid {
                    message: format!("the set has no tool {} to check", quote(tool)),
                },
            );
            if let Some(s) = suggestion {
                violation = violation.with_suggestion(s);
            }
            return Err(Error::single(violation));
        };
        self.tools[i].check = Some(Arc::new(check));
        Ok(self)
    }

    /// Runs the check of the tool at `index` on its arguments.
    pub(super) fn run_check(&self, index: usize, arguments: &Value) -> Result<(), Failed> {
        let Some(check) = &self.tools[index].check else {
            return Ok(());
        };
        match catch_unwind(AssertUnwindSafe(|| check(arguments))) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(rejection)) => Err(Failed::Rejected(rejection.into_violations())),
            Err(payload) => {
                let message = crate::panic::message(payload.as_ref());
                Err(Failed::Panicked(CheckPanic {
                    tool: self.tools[index].name.clone(),
                    message,
                }))
            }
        }
    }
}

/// What a failed check found.
pub(super) enum Failed {
    Rejected(Vec<Violation>),
    Panicked(CheckPanic),
}

/// Checks that the string at `pointer` in the arguments is one of `allowed`: "`name` must
/// be one of the devices this home knows". The violation lists them (the first 20) and
/// suggests the closest to a near miss, as the validator does for an `enum`. An absent
/// value passes (whether it may be absent is the schema's business).
///
/// `?` returns the first rejection from a check; [`Rejection::all`] reports every one.
///
/// ```
/// use serde_json::json;
/// use toolschema::toolset::one_of;
///
/// let args = json!({ "area": "Kitchen" });
/// assert!(one_of(&args, "/area", ["kitchen", "bedroom"]).is_err());
/// assert!(one_of(&args, "/area", ["Kitchen"]).is_ok());
/// assert!(one_of(&args, "/name", ["lamp"]).is_ok());
/// ```
pub fn one_of<I>(arguments: &Value, pointer: &str, allowed: I) -> Result<(), Rejection>
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    let Some(value) = arguments.pointer(pointer) else {
        return Ok(());
    };
    let allowed: Vec<String> = allowed.into_iter().map(|a| a.as_ref().to_owned()).collect();
    if value
        .as_str()
        .is_some_and(|s| allowed.iter().any(|a| a == s))
    {
        return Ok(());
    }
    let values: Vec<Value> = allowed.iter().map(|a| Value::from(a.as_str())).collect();
    let found = match value {
        Value::String(_) => crate::value::short_json(value),
        other => describe_value(other),
    };
    let mut violation = Violation::new(
        pointer,
        ViolationKind::NotAllowed {
            found,
            allowed: crate::value::list_values(&values),
        },
    );
    if let Some(s) = value
        .as_str()
        .and_then(|s| suggest::closest(s, allowed.iter().map(String::as_str)))
    {
        violation = violation.with_suggestion(s);
    }
    Err(violation.into())
}
