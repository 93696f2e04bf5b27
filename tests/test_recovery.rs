//! Local recovery of shapes and envelopes: replies whose values are right but whose shape
//! around them is not quite the schema's, read the one way that fits, each reading
//! reported, and never taken where the reply fits as written or where two readings fit.
//!
//! `recovery/shapes.rs`: a value for an object's one required field, an object wrapped in
//! a key the schema lacks, several values for a list, an enum value with a note.
//! `recovery/abbreviations.rs`: an enum value written as its abbreviation.
//! `recovery/joined_lists.rs`: several lists where one is expected.
//! `recovery/keys.rs`: keys in another case, unknown keys. `recovery/envelopes.rs`: tool
//! calls in other envelopes, and the shape to write when a union reply cannot be read.
//! `recovery/properties.rs`: any valid document is read as it is, with no fix.
//! `recovery/separators.rs`: a value under a pattern written with separators in it.
//! `recovery/shape_echo.rs`: the prompt's shape sent back, types where values go.
//!
//! The policy, class by class, is `docs/recovery.md`.

// Test types are built and compared whole; not every field is read on its own.
#![allow(dead_code)]

use serde_json::Value;
use toolschema::{Coercion, Error, Parser, ToolSchema};

/// The fixes as the parse reports them, one line each.
fn lines(fixes: &[toolschema::Fix]) -> Vec<String> {
    fixes.iter().map(ToString::to_string).collect()
}

/// The value read at the given level and its fixes; panics with the violations otherwise.
#[track_caller]
fn read_at<T: ToolSchema>(level: Coercion, raw: &str) -> (T, Vec<String>) {
    match Parser::new().coercion(level).parse::<T>(raw) {
        Ok(parsed) => (parsed.value, lines(&parsed.fixes)),
        Err(e) => panic!("{raw:?} was not read:\n{e}\nfixes: {:?}", lines(e.fixes())),
    }
}

/// The value read by the default parse, and its fixes.
#[track_caller]
fn read<T: ToolSchema>(raw: &str) -> (T, Vec<String>) {
    read_at(Coercion::Safe, raw)
}

/// The violations of a reply that must not be read, one line each.
#[track_caller]
fn refused<T: ToolSchema + std::fmt::Debug>(raw: &str) -> Vec<String> {
    refused_at::<T>(Coercion::Safe, raw)
}

#[track_caller]
fn refused_at<T: ToolSchema + std::fmt::Debug>(level: Coercion, raw: &str) -> Vec<String> {
    match Parser::new().coercion(level).parse::<T>(raw) {
        Ok(parsed) => panic!(
            "{raw:?} was read as {:?} with {:?}",
            parsed.value,
            lines(&parsed.fixes)
        ),
        Err(e) => violations(&e),
    }
}

fn violations(e: &Error) -> Vec<String> {
    e.violations().iter().map(ToString::to_string).collect()
}

/// A fix at the root, as displayed.
fn root(fix: &str) -> String {
    format!("(root): {fix}")
}

/// JSON text of a value.
fn text(value: &Value) -> String {
    value.to_string()
}

#[path = "recovery/shapes.rs"]
mod shapes;

#[path = "recovery/abbreviations.rs"]
mod abbreviations;

#[path = "recovery/keys.rs"]
mod keys;

#[path = "recovery/joined_lists.rs"]
mod joined_lists;

#[path = "recovery/envelopes.rs"]
mod envelopes;

#[path = "recovery/properties.rs"]
mod properties;

#[path = "recovery/separators.rs"]
mod separators;

#[path = "recovery/shape_echo.rs"]
mod shape_echo;
