//! Panics of caller code (semantic checks, tool handlers) caught at the boundary: their
//! message, for the error that reports them.

use std::any::Any;

/// The message a panic carried (`panic!("…")` gives a `&str` or a `String`).
pub(crate) fn message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "the panic carried no message".to_owned())
}
