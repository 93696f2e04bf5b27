//! What a tool loop did: the answer, each call it ran and what went back to the model,
//! every attempt of every step and the tokens they took.

use std::fmt;

use serde_json::Value;

use super::Attempt;
use crate::provider::Usage;

/// A tool loop that answered, and what it did on the way: given by
/// [`ToolLoop::ran`](super::ToolLoop::ran), as [`Answered`](super::Answered) is by
/// [`Ask::answered`](super::Ask::answered).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Ran<O> {
    /// The `#[answer]` variant of a derived union, or the answer's value of a
    /// [`Toolset`](crate::Toolset): what awaiting the loop gives.
    pub answer: O,
    /// Every call the model made, in the order they ran, with what went back to it.
    pub calls: Vec<ToolRun>,
    /// Every attempt of every step, the one that answered last.
    pub attempts: Vec<Attempt>,
    /// The tokens of every attempt.
    pub usage: Usage,
    /// The steps the loop took: the replies it took, the answer's included.
    pub steps: usize,
}

impl<O> Ran<O> {
    pub(super) fn new(
        answer: O,
        calls: Vec<ToolRun>,
        attempts: Vec<Attempt>,
        steps: usize,
    ) -> Self {
        let mut usage = Usage::default();
        for attempt in &attempts {
            usage += attempt.usage();
        }
        Ran {
            answer,
            calls,
            attempts,
            usage,
            steps,
        }
    }
}

/// One call of a tool loop, and what went back to the model.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolRun {
    /// The step whose reply made the call (1-based).
    pub step: usize,
    /// The call's id: the provider's for a native call, else one made up (`call_0`).
    pub id: Option<String>,
    /// The tool as the model named it (`time_get_current_time`).
    pub name: String,
    /// The tool as the union's server spells it (`time.get_current_time`); for a derived
    /// union, the same as [`ToolRun::name`].
    pub tool: String,
    /// The arguments, as the tool received them.
    pub arguments: Value,
    /// The tool's output, or the error the model was told (a handler's error, a tool no
    /// handler runs).
    pub result: Result<String, String>,
    /// The same call as an earlier one, with the same arguments: it did not run again;
    /// the model was told so, with the earlier result (which `result` repeats).
    pub repeated: bool,
}

/// `get_weather({"city":"Oslo"}) → 3°C`, `… failed: …`, `… repeated → …`.
impl fmt::Display for ToolRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.tool, self.arguments)?;
        if self.repeated {
            f.write_str(" repeated")?;
        }
        match &self.result {
            Ok(output) => write!(f, " → {output}"),
            Err(error) => write!(f, " failed: {error}"),
        }
    }
}
