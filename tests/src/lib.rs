//! Support for toolschema's integration tests.
//!
//! [`values`] is the value generator of the agreement test (`tests/test_agreement.rs`):
//! a proptest strategy that walks a JSON Schema to build values meant to be valid, and
//! mutates some of them where validators tend to slip.

mod mutate;
mod walk;

use std::cell::Cell;

use proptest::strategy::{BoxedStrategy, Strategy, Union};
use serde_json::Value;

use walk::{Mode, Walker};

/// Values for `schema`: a third built to be valid, the rest mutated (wrong types,
/// `null`s, missing and unknown keys, near-miss names, numbers at and just outside their
/// bounds, strings at their length limits, duplicates in sets, wrong tags) at one spot of
/// the schema, at the root, or anywhere.
///
/// The generator follows `$ref` (`#` and `#/$defs/…`) a few levels deep, so recursive
/// types stay small; it reads `type`, `enum`, `const`, `properties`, `required`,
/// `additionalProperties`, the `allOf` rules toolschema writes for aliases, `items`,
/// `prefixItems`, `minimum`/`maximum`, `minLength`/`maxLength`, `pattern` (anchored
/// patterns proptest can generate from), `minItems`/`maxItems`, `uniqueItems`, `anyOf`
/// and `oneOf`. "Meant to be valid" is not a promise: the validators decide.
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// use serde_json::json;
///
/// let schema = json!({ "type": "integer", "minimum": 1, "maximum": 3 });
/// let strategy = toolschema_tests::values(&schema);
/// let mut runner = TestRunner::deterministic();
/// let values: Vec<_> = (0..300)
///     .map(|_| strategy.new_tree(&mut runner).unwrap().current())
///     .collect();
/// assert!(values.contains(&json!(3))); // at the bound
/// assert!(values.contains(&json!(4))); // just past it
/// assert!(values.contains(&json!(2.0))); // an integer written as a float
/// assert!(values.contains(&json!("42"))); // the wrong type
/// ```
pub fn values(schema: &Value) -> BoxedStrategy<Value> {
    let spots = Cell::new(0);
    let walk = |mode| {
        spots.set(0);
        Walker::new(schema, mode, &spots).root()
    };
    let clean = walk(Mode::Clean);
    let everywhere = walk(Mode::Everywhere);
    // One value in each spot alone: mutations elsewhere would hide the one that matters
    // (a bound off by one in one field of twelve).
    let count = spots.get();
    let one_spot: Vec<_> = (0..count).map(|spot| walk(Mode::At(spot))).collect();
    // The root alone, too: a spot among many in the union, yet the only one where a
    // wrong type cannot be absorbed by an absent field or another alternative.
    let root = walk(Mode::At(0));
    // Clean first: proptest shrinks toward earlier alternatives.
    Union::new_weighted(vec![
        (2, clean),
        (2, Union::new(one_spot).boxed()),
        (1, root),
        (1, everywhere),
    ])
    .boxed()
}
