//! What is not read as calls, and the error each reply gets instead: never a panic, never
//! a guess.

use super::*;

/// The violations both unions report for `raw`, the same for each.
#[track_caller]
fn refused_by_both(raw: &str) -> Vec<String> {
    let derived = match Parser::new().parse::<Step>(raw) {
        Ok(p) => panic!(
            "{raw:?} was read as {:?} with {:?}",
            p.value,
            lines(&p.fixes)
        ),
        Err(e) => violations(&e),
    };
    let set = match toolset().parse(raw) {
        Ok(choice) => panic!("{raw:?} was read as {choice}"),
        Err(e) => violations(&e),
    };
    assert_eq!(derived, set, "{raw:?}");
    derived
}

const TOOLS: &str =
    r#""get_weather", "switch_lamp", "create_event", "search", "math_triangle_area""#;

#[test]
fn an_unknown_tool_is_reported_as_one() {
    // After a marker, or in a reply of calls alone whose name nearly names a tool, the name
    // is read as written so that the violation is the misspelled tool's.
    for raw in [
        r#"[get_wether(city="Paris")]"#,
        r#"[TOOL_CALLS]get_wether[ARGS]{"city": "Paris"}"#,
        r#"<function=get_wether>{"city": "Paris"}</function>"#,
        "<tool_call>\nget_wether(city='Paris')\n</tool_call>",
    ] {
        assert_eq!(
            refused_by_both(raw),
            [format!(
                r#"/name: "get_wether" is not one of {TOOLS}; did you mean "get_weather"?"#
            )],
            "{raw}"
        );
    }
    assert_eq!(
        refused_by_both(r#"<function=fly_to>{"city": "Paris"}</function>"#),
        [format!(
            r#"/name: "fly_to" is not one of {TOOLS}; no function has that name; if none of the functions does what the request asks, reply {{"answer": …}} instead"#
        )]
    );
    // A name that is no tool and nearly none, without a marker, is no call: the reply gets
    // the shape to write.
    let violations = Parser::new()
        .parse::<Step>(r#"[fly_to(city="Paris")]"#)
        .unwrap_err();
    assert!(
        violations.to_string().contains("write a tool call as"),
        "{violations}"
    );
    assert!(
        !lines(violations.fixes())
            .iter()
            .any(|f| f.contains("written as text")),
        "{:?}",
        violations.fixes()
    );
}

#[test]
fn arguments_by_position_are_read_only_where_they_have_one_place() {
    for (raw, tool, count) in [
        (r#"get_weather("Paris", 3)"#, "get_weather", 2),
        ("[switch_lamp('desk', True)]", "switch_lamp", 2),
        // One value by position, but two parameters: which one is a guess.
        (r#"get_weather("Paris")"#, "get_weather", 1),
    ] {
        assert_eq!(
            refused_by_both(raw),
            [format!(
                "(root): a tool call written as name(key=value) that could not be read: {tool}(…) passes {count} argument(s) by position; write each argument by its name: {tool}(key=value)"
            )],
            "{raw}"
        );
    }
    // A named argument after one by position is no call in Python either.
    assert_eq!(
        refused_by_both("search(query='a', 'b')"),
        [
            "(root): a tool call written as name(key=value) that could not be read: an argument without a name after named ones at \"'b')\""
        ]
    );
}

#[test]
fn malformed_literals_are_errors_that_say_where() {
    let message = |why: &str| {
        format!("(root): a tool call written as name(key=value) that could not be read: {why}")
    };
    for (raw, why) in [
        (
            r#"[get_weather(city="Paris)]"#,
            r#"a string with no closing quote at "\"Paris)]""#,
        ),
        (
            "get_weather(city=Paris)",
            r#"expected a value, found the name `Paris` at "Paris)""#,
        ),
        (
            "get_weather(city=str(1))",
            r#"expected a value, found a call to `str` (a call inside a call is not read) at "str(1))""#,
        ),
        (
            "get_weather(city='Paris', days=007)",
            r#"`007` is not a number this reader keeps as written at "007)""#,
        ),
        (
            "get_weather(city='Paris', days=99999999999999999999)",
            r#"`99999999999999999999` is not a number this reader keeps as written at "99999999999999999999)""#,
        ),
        (
            "create_event(title='x', attendees=[], place={1: 'B2'})",
            r#"a dict key that is not a string at "1: 'B2'})""#,
        ),
        (
            "[get_weather(city='Paris' days=3)]",
            r#"expected `,` or `)`, found `d` at "days=3)]""#,
        ),
        (
            "get_weather(city='Paris', city='Rome')",
            r#"the argument `city` is given twice at "city='Rome')""#,
        ),
    ] {
        assert_eq!(refused_by_both(raw), [message(why)], "{raw}");
    }
    let deep = format!("search(query={}1{})", "[".repeat(5000), "]".repeat(5000));
    let found = refused_by_both(&deep);
    assert!(found[0].contains("nested more than 32 deep"), "{found:?}");
}

#[test]
fn a_marked_format_that_does_not_read_is_an_error_not_a_guess() {
    assert_eq!(
        refused_by_both("[TOOL_CALLS] the weather in Paris"),
        [
            r#"(root): a tool call written as [TOOL_CALLS]name[ARGS]{…} that could not be read: [TOOL_CALLS] is followed by no call: "the weather in Paris""#
        ]
    );
    assert_eq!(
        refused_by_both("<function=get weather>{\"city\": \"Paris\"}</function>"),
        [
            r#"(root): a tool call written as <function=name>{…}</function> that could not be read: "get weather" is no tool name"#
        ]
    );
    // The arguments of a tool that does not take them are its violations.
    assert_eq!(
        refused_by_both(r#"<function=get_weather>{"city": true}</function>"#),
        ["/arguments/city: expected a string, found the boolean true"]
    );
}

#[test]
fn more_calls_than_the_cap_are_refused() {
    let calls = vec!["search(query='x')"; 33].join(", ");
    let found = refused_by_both(&format!("[{calls}]"));
    assert_eq!(
        found,
        [
            "(root): a tool call written as name(key=value) that could not be read: more than 32 tool calls in one reply"
        ]
    );
    // 32 are read.
    let calls = vec!["search(query='x')"; 32].join(", ");
    let read = toolset().parse(&format!("[{calls}]")).unwrap();
    assert!(matches!(read, Choice::Calls(calls) if calls.len() == 32));
}

#[test]
fn several_calls_are_not_one() {
    assert_eq!(
        violations(
            &Parser::new()
                .parse::<Step>("<tool_call>search(query='a')</tool_call><tool_call>search(query='b')</tool_call>")
                .unwrap_err()
        ),
        ["(root): the reply makes 2 tool calls, and one call or the answer is read here: make one call"]
    );
    // The first of two JSON blocks fits alone; it is not taken for the reply.
    let raw = "<tool_call>{\"name\": \"search\", \"arguments\": {\"query\": \"a\"}}</tool_call>\n<tool_call>{\"name\": \"search\", \"arguments\": {\"query\": \"b\"}}</tool_call>";
    assert!(Parser::new().parse::<Step>(raw).is_err());
}

/// Inputs built against the readers are refused; how their time grows with their size is
/// measured in `core/benches/text_calls.rs`.
#[test]
fn hostile_input_is_refused() {
    for raw in [
        "get_weather(".repeat(100_000),
        format!("[{}", "search(query='".repeat(50_000)),
        "<tool_call>".repeat(50_000),
        "[TOOL_CALLS]".repeat(50_000),
        "<function=".repeat(50_000),
        format!("<|python_tag|>{}", "{".repeat(100_000)),
    ] {
        assert!(toolset().parse(&raw).is_err(), "{}", &raw[..20]);
        assert!(Parser::new().parse::<Step>(&raw).is_err(), "{}", &raw[..20]);
    }
}
