//! The committed `TOOLS.md` is what `toolschema::docs::markdown` renders now, and what
//! the build script put into the binary.

use std::path::Path;

/// Where the committed copy lives and how to refresh it, from the workspace root.
const COMMITTED: &str = "examples/tool-docs/TOOLS.md";
const REGENERATE: &str = "cargo run -q -p tool-docs > examples/tool-docs/TOOLS.md";

#[test]
fn committed_docs_are_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("TOOLS.md");
    let committed = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {}: {e}; create it with `{REGENERATE}`",
            path.display()
        )
    });
    let current = toolschema::docs::markdown::<home_tools::HomeStep>();
    if let Some(difference) = first_difference(&committed, &current) {
        panic!(
            "{COMMITTED} is stale: it differs from what toolschema::docs::markdown::<HomeStep>() renders now.\n\
             {difference}\n\
             Regenerate it from the workspace root with\n\n    {REGENERATE}\n\n\
             and review the diff before committing."
        );
    }
}

#[test]
fn build_script_rendered_the_same_docs() {
    let built = include_str!(concat!(env!("OUT_DIR"), "/TOOLS.md"));
    assert_eq!(built, toolschema::docs::markdown::<home_tools::HomeStep>());
}

#[test]
fn docs_cover_every_tool_and_the_answer() {
    let docs = toolschema::docs::markdown::<home_tools::HomeStep>();
    for heading in [
        "## `get_weather`",
        "## `set_thermostat`",
        "## `set_lights`",
        "## `list_devices`",
        "## `schedule_routine`",
        "## Answer",
    ] {
        assert!(docs.contains(heading), "no {heading:?} in:\n{docs}");
    }
}

/// The first line where the two texts differ, quoted from both, or `None` if they are equal.
fn first_difference(committed: &str, current: &str) -> Option<String> {
    if committed == current {
        return None;
    }
    let mut committed_lines = committed.lines();
    let mut current_lines = current.lines();
    for number in 1.. {
        match (committed_lines.next(), current_lines.next()) {
            (Some(a), Some(b)) if a == b => continue,
            (None, None) => break,
            (a, b) => {
                let show = |line: Option<&str>| {
                    line.map_or("(end of file)".to_owned(), |l| format!("{l:?}"))
                };
                return Some(format!(
                    "First difference at line {number}:\n  committed: {}\n  now:       {}",
                    show(a),
                    show(b)
                ));
            }
        }
    }
    // Same lines, different line endings or final newline.
    Some("The lines are the same; the line endings or the final newline differ.".to_owned())
}
