//! Several lists (or objects) one after another where one list is expected
//! (docs/recovery.md, "Several lists where one list is expected"): `[1, 2]\n[3]`,
//! `[{"a":1}][{"a":2}]`, a list then an object: one list of every item, in order. Only
//! where the root takes a list and the values as written are no list it takes.

use proptest::prelude::*;
use serde_json::json;
use toolschema::{Coercion, Parser, ToolSchema};

use super::{read, read_at, text};

#[derive(ToolSchema, Debug, PartialEq, Clone)]
struct Step {
    name: String,
    minutes: u32,
}

fn step(name: &str, minutes: u32) -> Step {
    Step {
        name: name.into(),
        minutes,
    }
}

fn joined(count: usize) -> String {
    format!("joined {count} JSON lists into one list of their items")
}

#[test]
fn lists_one_after_another_are_one_list_of_their_items() {
    let (items, fixes) = read::<Vec<u32>>("[1, 2]\n[3]");
    assert_eq!(items, [1, 2, 3]);
    assert_eq!(
        fixes[..2],
        [joined(2), "added a missing comma (at byte 7)".into()]
    );
    assert_eq!(read::<Vec<u32>>("[1, 2], [3], []").0, [1, 2, 3]);
    let (steps, fixes) =
        read::<Vec<Step>>(r#"[{"name": "boil", "minutes": 5}][{"name": "steep", "minutes": 3}]"#);
    assert_eq!(steps, [step("boil", 5), step("steep", 3)]);
    assert_eq!(fixes[0], joined(2));
    // A list, then an object: the object is one more item.
    let raw = "[{\"name\": \"boil\", \"minutes\": 5}]\n{\"name\": \"steep\", \"minutes\": 3}";
    assert_eq!(
        read::<Vec<Step>>(raw).0,
        [step("boil", 5), step("steep", 3)]
    );
    // Pretty-printed, in a fence; at the lenient level too.
    let raw = "```json\n[\n  1,\n  2\n]\n[\n  3\n]\n```";
    assert_eq!(read::<Vec<u32>>(raw).0, [1, 2, 3]);
    assert_eq!(read_at::<Vec<u32>>(Coercion::Lenient, "[1] [2]").0, [1, 2]);
}

#[test]
fn objects_one_after_another_stay_the_several_values_they_are() {
    // JSON Lines: the objects are the items already (`SeveralValues`), nothing joined.
    let (steps, fixes) = read::<Vec<Step>>(
        "{\"name\": \"boil\", \"minutes\": 5}\n{\"name\": \"steep\", \"minutes\": 3}",
    );
    assert_eq!(steps, [step("boil", 5), step("steep", 3)]);
    assert!(fixes[0].starts_with("read 2 JSON values"), "{fixes:?}");
    assert!(!fixes.iter().any(|f| f.starts_with("joined")), "{fixes:?}");
}

#[test]
fn lists_are_not_joined_where_the_values_fit_as_written_or_no_list_is_expected() {
    // A list of lists takes the lists as they are.
    let (lists, fixes) = read::<Vec<Vec<u32>>>("[1, 2]\n[3]");
    assert_eq!(lists, [vec![1, 2], vec![3]]);
    assert!(fixes[0].starts_with("read 2 JSON values"), "{fixes:?}");
    // One list is read as it is.
    assert_eq!(read::<Vec<u32>>("[1, 2, 3]"), (vec![1, 2, 3], vec![]));
    // No list expected: the candidate that fits, as before (the longer span first).
    let (first, fixes) =
        read::<Step>("{\"name\": \"boil\", \"minutes\": 5}\n{\"name\": \"steep\", \"minutes\": 3}");
    assert_eq!(first, step("steep", 3));
    assert!(!fixes.iter().any(|f| f.starts_with("joined")), "{fixes:?}");
    // Without coercion nothing is joined: the first list that fits, as before.
    let (first, fixes) = read_at::<Vec<u32>>(Coercion::None, "[1, 2]\n[3]");
    assert_eq!(first, [1, 2]);
    assert!(!fixes.iter().any(|f| f.starts_with("joined")), "{fixes:?}");
    // Items that do not fit once joined, and scalars beside a list, are not joined: the
    // candidates are read as before (the first list, its text around it reported).
    for raw in ["[1, 2]\n[\"x\"]", "[1, 2]\n3"] {
        let (first, fixes) = read::<Vec<u32>>(raw);
        assert_eq!(first, [1, 2]);
        assert_eq!(fixes, ["left out the text around the JSON"]);
    }
}

proptest! {
    #[test]
    fn any_lists_one_after_another_are_one_list(
        lists in prop::collection::vec(
            prop::collection::vec(("[a-z ]{0,8}", 0u32..1000), 0..4),
            2..5,
        ),
        separator in prop::sample::select(vec!["", "\n", ", ", " ", ",\n", "\n\n"]),
        pretty in any::<bool>(),
    ) {
        let written: Vec<String> = lists
            .iter()
            .map(|l| {
                let value = json!(l.iter().map(|(n, m)| json!({"name": n, "minutes": m})).collect::<Vec<_>>());
                if pretty { serde_json::to_string_pretty(&value).expect("JSON") } else { text(&value) }
            })
            .collect();
        let raw = written.join(separator);
        let steps: Vec<Step> = lists.iter().flatten().map(|(n, m)| step(n, *m)).collect();
        let parsed = Parser::new().parse::<Vec<Step>>(&raw).map_err(|e| TestCaseError::fail(format!("{raw:?}: {e}")))?;
        prop_assert_eq!(parsed.value, steps);
        let fixes = super::lines(&parsed.fixes);
        prop_assert!(fixes.contains(&joined(lists.len())), "{:?}", fixes);
    }

    #[test]
    fn one_list_or_a_list_of_lists_is_never_joined(
        lists in prop::collection::vec(prop::collection::vec(0u32..1000, 0..4), 1..4),
        separator in prop::sample::select(vec!["", "\n", ", "]),
    ) {
        // One list alone, of numbers or of lists, is read as it is.
        let one = text(&json!(lists));
        let parsed = Parser::new().parse::<Vec<Vec<u32>>>(&one).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&parsed.value, &lists);
        prop_assert!(parsed.fixes.is_empty(), "{:?}", parsed.fixes);
        let flat: Vec<u32> = lists.iter().flatten().copied().collect();
        let parsed = Parser::new().parse::<Vec<u32>>(&text(&json!(flat))).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(parsed.fixes.is_empty(), "{:?}", parsed.fixes);
        // Lists one after another where a list of lists is expected are its items.
        let raw = lists.iter().map(|l| text(&json!(l))).collect::<Vec<_>>().join(separator);
        if lists.len() > 1 {
            let parsed = Parser::new().parse::<Vec<Vec<u32>>>(&raw).map_err(|e| TestCaseError::fail(format!("{raw:?}: {e}")))?;
            prop_assert_eq!(&parsed.value, &lists);
            let fixes = super::lines(&parsed.fixes);
            prop_assert!(!fixes.iter().any(|f| f.starts_with("joined")), "{:?}", fixes);
        }
    }
}
