use serde_json::{Value, json};

use super::{Doubts, answer_stands, leave_out_unasked, no_function_fits, only_skipped};
use crate::ViolationKind;
use crate::agent::request::Target;
use crate::agent::run::Question;

pub(super) const NONE: Doubts = Doubts {
    invented: false,
    missing: false,
    ungrounded: false,
    skipped: false,
    unstated: false,
    type_word: false,
    forced: false,
    answered_at_length: false,
    echoed: false,
    called: false,
};
const INVENTED: Doubts = Doubts {
    invented: true,
    ..NONE
};
const MISSING: Doubts = Doubts {
    invented: true,
    missing: true,
    ..NONE
};
const UNGROUNDED: Doubts = Doubts {
    ungrounded: true,
    ..NONE
};

#[test]
fn two_signs_say_nothing_fits() {
    assert!(no_function_fits(INVENTED, INVENTED));
    assert!(no_function_fits(UNGROUNDED, UNGROUNDED));
    assert!(no_function_fits(INVENTED, UNGROUNDED));
    assert!(no_function_fits(UNGROUNDED, INVENTED));
    assert!(no_function_fits(INVENTED.and(UNGROUNDED), INVENTED));
}

#[test]
fn a_missing_function_named_says_nothing_fits_at_once() {
    for before in [NONE, INVENTED, UNGROUNDED, MISSING] {
        assert!(no_function_fits(before, MISSING), "{before:?}");
    }
    // Named before, and not now: the reply now is what counts.
    assert!(!no_function_fits(MISSING, NONE));
}

#[test]
fn the_doubts_of_a_reply_tell_a_function_s_name_from_a_value_in_its_place() {
    let target = finance();
    let error = crate::Error::new(Vec::new());
    let ask = question(&target, "What is it?");
    let doubts = |raw: &str| Doubts::of(&target, &ask, raw, &error);
    for named in [
        r#"{"name": "cancel_subscription", "arguments": {}}"#,
        r#"{"name": "getDayOfWeek", "arguments": {"date": "2000-01-01"}}"#,
        r#"{"name": "wine", "arguments": {"dish": "risotto"}}"#,
        r#"[{"name": "wine", "arguments": {}}, {"name": "weather.forecast", "arguments": {}}]"#,
    ] {
        let d = doubts(named);
        assert!(d.invented && d.missing, "{named}: {d:?}");
    }
    // A valid call beside one of a function the union lacks: sent back, so that the
    // model can keep the valid one.
    let beside = r#"[{"name": "loan", "arguments": {"principal": 1}}, {"name": "weather.forecast", "arguments": {}}]"#;
    let d = doubts(beside);
    assert!(d.invented && !d.missing, "{d:?}");
    // A tool's arguments under another name: that tool, misnamed.
    for misnamed in [
        r#"{"name": "get_monthly_payment", "arguments": {"principal": 250000}}"#,
        r#"{"name": "ticker_price", "arguments": {"ticker": "MSFT"}}"#,
        r#"{"name": "mortgage_payment", "arguments": {"principal": 1, "currency": "EUR"}}"#,
    ] {
        let d = doubts(misnamed);
        assert!(d.invented && !d.missing, "{misnamed}: {d:?}");
    }
    // Arguments that are some of a tool's but miss one it requires, or add one it
    // lacks: no tool's.
    for other in [
        r#"{"name": "currency_rates", "arguments": {"currency": "EUR"}}"#,
        r#"{"name": "ticker_news", "arguments": {"ticker": "MSFT", "days": 3}}"#,
    ] {
        let d = doubts(other);
        assert!(d.missing, "{other}: {d:?}");
    }
    // A value or an answer where the name goes: invented, but no function named.
    for value in [
        r#"{"name": "Road Trip", "arguments": {}}"#,
        r#"{"name": "Chardonnay", "arguments": {}}"#,
        r#"{"name": "good morning", "arguments": {}}"#,
    ] {
        let d = doubts(value);
        assert!(d.invented && !d.missing, "{value}: {d:?}");
    }
    // The union's own functions, misspelt or shortened, and answers.
    for known in [
        r#"{"name": "loan", "arguments": {"principal": 1}}"#,
        r#"{"name": "get_loan_payment", "arguments": {"principal": 1}}"#,
        r#"{"name": "stock_quote", "arguments": {}}"#,
        r#"{"answer": "cancel_subscription"}"#,
    ] {
        let d = doubts(known);
        assert!(!d.invented && !d.missing, "{known}: {d:?}");
    }
}

#[test]
fn one_sign_says_nothing() {
    assert!(!no_function_fits(NONE, INVENTED));
    assert!(!no_function_fits(NONE, UNGROUNDED));
    assert!(!no_function_fits(INVENTED, NONE));
    assert!(!no_function_fits(UNGROUNDED, NONE));
    assert!(!no_function_fits(NONE, NONE));
}

const ECHOED: Doubts = Doubts {
    echoed: true,
    ..NONE
};
const UNSTATED: Doubts = Doubts {
    unstated: true,
    ..NONE
};
const CALLED: Doubts = Doubts {
    called: true,
    ..NONE
};

#[test]
fn the_shape_written_back_where_no_function_was_called_says_nothing_fits() {
    // After an answer, prose, a function the union lacks, or nothing before it.
    for before in [NONE, INVENTED, MISSING, UNGROUNDED, ECHOED] {
        assert!(no_function_fits(before, ECHOED), "{before:?}");
    }
    // Or after a call doubted as made of nothing the user wrote.
    for doubted in [UNGROUNDED, UNSTATED] {
        assert!(no_function_fits(CALLED.and(doubted), ECHOED), "{doubted:?}");
    }
    // A call of one of the functions came before it, sent back for its schema alone:
    // the shape is sent back as before.
    for before in [CALLED, CALLED.and(INVENTED), CALLED.and(ECHOED)] {
        assert!(!no_function_fits(before, ECHOED), "{before:?}");
    }
    // A call of one of the functions, whatever came before, says nothing on its own.
    for before in [NONE, ECHOED, INVENTED] {
        assert!(!no_function_fits(before, CALLED), "{before:?}");
    }
}

#[test]
fn a_reply_calls_one_of_the_functions_by_its_name_or_one_like_it() {
    let target = finance();
    let ask = question(&target, "What is it?");
    let none = crate::Error::new(Vec::new());
    let doubts = |raw: &str| Doubts::of(&target, &ask, raw, &none);
    for called in [
        r#"{"name": "loan", "arguments": {"principal": 1}}"#,
        r#"{"name": "get_loan_payment", "arguments": {"principal": 1}}"#,
        r#"{"name": "quote", "arguments": {"ticker": "text"}}"#,
        r#"[{"name": "cancel_subscription", "arguments": {}}, {"name": "loan", "arguments": {}}]"#,
    ] {
        let d = doubts(called);
        assert!(d.called && !d.echoed, "{called}: {d:?}");
    }
    for not_called in [
        r#"{"name": "cancel_subscription", "arguments": {}}"#,
        r#"{"name": "good morning", "arguments": {"answer": "Bom dia"}}"#,
        r#"{"answer": "loan"}"#,
        "A loan calculator cannot tell you that.",
        "",
    ] {
        let d = doubts(not_called);
        assert!(!d.called && !d.echoed, "{not_called}: {d:?}");
    }
    // The shape written back names the functions, but calls none of them.
    let echo = crate::Error::single(crate::Violation::new("", ViolationKind::SchemaEchoed));
    let shape =
        r#"{name: "loan", arguments: {principal: number, currency?: string}} | {answer: string}"#;
    let d = Doubts::of(&target, &ask, shape, &echo);
    assert!(d.echoed && !d.called, "{d:?}");
}

/// The union of an OpenAI tools array, with an answer.
pub(super) fn union_of(tools: Value) -> Target {
    Target::tools_with_answer(&tools)
}

/// A request alone, with no system text or history.
pub(super) fn question<'a>(target: &'a Target, request: &'a str) -> Question<'a> {
    Question {
        target,
        system: None,
        history: &[],
        prompt: request,
        request,
        cancel: None,
    }
}

/// A loan calculator and a stock quote, with an answer.
fn finance() -> Target {
    union_of(json!([
        {"type": "function", "function": {
            "name": "loan",
            "parameters": {"type": "object", "properties": {
                "principal": {"type": "number"},
                "currency": {"type": "string"}
            }, "required": ["principal"]}
        }},
        {"type": "function", "function": {
            "name": "quote",
            "parameters": {"type": "object", "properties": {"ticker": {"type": "string"}}}
        }}
    ]))
}

/// The calls of `values` once the unasked arguments not at `kept` are left out.
fn left(values: &[Value], kept: &[&str]) -> Vec<Value> {
    let target = finance();
    let ask = question(&target, "A loan of 250000, and the price of MSFT?");
    let mut values = values.to_vec();
    leave_out_unasked(&ask, &mut values, kept);
    values
}

#[test]
fn a_value_written_to_fix_a_violation_is_kept_whatever_the_number_of_calls() {
    let loan = json!({"name": "loan", "arguments": {"principal": 250000, "currency": "EUR"}});
    let quote = json!({"name": "quote", "arguments": {"ticker": "MSFT"}});
    let two = [loan.clone(), quote.clone()];
    // The violation was of an attempt of one call, of two, or of the other call.
    for kept in [
        "/arguments/currency",
        "/0/arguments/currency",
        "/1/arguments/currency",
    ] {
        assert_eq!(left(&two, &[kept]), two, "{kept}");
        let one = std::slice::from_ref(&loan);
        assert_eq!(left(one, &[kept]), one, "{kept}");
    }
    // A violation elsewhere keeps nothing here.
    for kept in [
        "/arguments/principal",
        "/0/arguments",
        "/arguments/currency/code",
    ] {
        let without = json!({"name": "loan", "arguments": {"principal": 250000}});
        assert_eq!(left(&two, &[kept]), [without, quote.clone()], "{kept}");
    }
}

#[test]
fn an_answer_that_skips_a_tool_is_told_the_tool_its_request_describes() {
    use super::questioned;
    let tool = |name: &str, description: &str| {
        json!({"type": "function", "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": {"region": {"type": "string"}}}
        }})
    };
    let target = union_of(json!([
        tool(
            "weather.get_forecast",
            "Returns the daily weather forecast for a city."
        ),
        tool(
            "weather.get_alerts",
            "Lists the severe weather warnings in force."
        ),
    ]));
    let request = "Are there any extreme weather warnings in force for Queensland?";
    let ask = question(&target, request);
    let answer = json!({"answer": "Heat waves."});
    let error = questioned(&ask, NONE, &[answer], None, false).expect("the answer skips a tool");
    assert!(
        error.to_string().contains("\"weather_get_alerts\""),
        "{error}"
    );
}

#[test]
fn a_pointer_in_a_call_is_read_without_the_call_s_index() {
    use super::left_out::in_call;
    assert_eq!(in_call("/arguments/x"), "/arguments/x");
    assert_eq!(in_call("/0/arguments/x"), "/arguments/x");
    assert_eq!(in_call("/12/arguments/x"), "/arguments/x");
    assert_eq!(in_call("/1"), "");
    // Only the first token, and only an index.
    assert_eq!(in_call("/arguments/0"), "/arguments/0");
    assert_eq!(in_call("/x1/arguments"), "/x1/arguments");
    assert_eq!(in_call("//arguments"), "//arguments");
    assert_eq!(in_call(""), "");
    assert_eq!(in_call("/é/0"), "/é/0");
}

#[test]
fn a_member_is_taken_out_at_its_path_and_nowhere_else() {
    let call = json!({"name": "t", "arguments": {"a": 1, "list": [{"k": 1, "x": 2}, {"x": 3}]}});
    let path = |tokens: &[&str]| tokens.iter().map(|t| t.to_string()).collect::<Vec<_>>();
    let (without, written) =
        super::left_out::without_member(&call, &path(&["list", "1", "x"])).unwrap();
    assert_eq!(written, json!(3));
    assert_eq!(
        without["arguments"],
        json!({"a": 1, "list": [{"k": 1, "x": 2}, {}]})
    );
    let (without, _) = super::left_out::without_member(&call, &path(&["a"])).unwrap();
    assert_eq!(
        without["arguments"],
        json!({"list": [{"k": 1, "x": 2}, {"x": 3}]})
    );
    for missing in [
        path(&["list", "2", "x"]),
        path(&["list", "one", "x"]),
        path(&["a", "x"]),
        path(&["list", "0", "y"]),
        path(&["list"]).into_iter().chain(path(&["0"])).collect(),
        Vec::new(),
    ] {
        assert_eq!(
            super::left_out::without_member(&call, &missing),
            None,
            "{missing:?}"
        );
    }
}

/// A volume control and a player, with an answer.
pub(super) fn music() -> Target {
    union_of(json!([
        {"type": "function", "function": {
            "name": "music.set_volume",
            "description": "Sets the playback volume.",
            "parameters": {"type": "object", "properties": {
                "level": {"type": "integer", "description": "0 to 100."},
                "device": {"type": "string"}
            }, "required": ["level"]}
        }},
        {"type": "function", "function": {
            "name": "music.play",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"}},
                "required": ["query"]}
        }}
    ]))
}

#[test]
fn a_call_of_the_named_tool_with_none_of_the_users_values_is_questioned_once() {
    use super::questioned;
    use crate::ViolationKind;
    let target = music();
    let ask = question(
        &target,
        "What volume of water fills an Olympic swimming pool?",
    );
    let call = json!({"name": "music.set_volume", "arguments": {"level": 100}});
    let error =
        questioned(&ask, NONE, std::slice::from_ref(&call), None, false).expect("questioned");
    let violation = &error.violations()[0];
    assert_eq!(violation.pointer(), "/arguments");
    assert!(
        matches!(violation.kind(), ViolationKind::Unstated { values } if values == &["100"]),
        "{violation:?}"
    );
    assert!(
        error.to_string().contains(r#"reply {"answer": …}"#),
        "{error}"
    );
    let doubts = Doubts::of(&target, &ask, &call.to_string(), &error);
    assert!(doubts.unstated && !doubts.ungrounded, "{doubts:?}");
    // Called again to this question, the call is asked after again (see
    // `repeat_tests`); an answer is the model's, which the request's word "volume" would
    // otherwise question as skipping the tool.
    assert!(questioned(&ask, doubts, std::slice::from_ref(&call), None, false).is_some());
    let answer = json!({"answer": "About 2.5 million litres."});
    assert!(questioned(&ask, NONE, std::slice::from_ref(&answer), None, false).is_some());
    assert!(questioned(&ask, doubts, &[answer], None, false).is_none());
    // Nor once results are in: a call then follows them.
    let history = [crate::message::Message::tool_result(
        Some("call_1".into()),
        "There is no device \"kitchen\".",
    )];
    let after = Question {
        history: &history,
        ..question(
            &target,
            "What volume of water fills an Olympic swimming pool?",
        )
    };
    assert!(questioned(&after, NONE, std::slice::from_ref(&call), None, false).is_none());
    // Nor is a call questioned so after an answer was.
    let skipped = Doubts {
        skipped: true,
        ..NONE
    };
    assert!(questioned(&ask, skipped, &[call], None, false).is_none());
}

#[test]
fn a_call_of_the_named_tool_with_a_value_of_the_user_or_no_required_value_stands() {
    use super::questioned;
    let target = music();
    for (request, arguments) in [
        // A value the user wrote.
        ("Set the volume to 30", json!({"level": 30})),
        (
            "Play some Vivaldi",
            json!({"query": "Vivaldi Four Seasons"}),
        ),
        // One value of the user's is enough, beside values of the model's own.
        (
            "Volume up on the kitchen speaker",
            json!({"level": 80, "device": "kitchen"}),
        ),
    ] {
        let name = if arguments.get("query").is_some() {
            "music.play"
        } else {
            "music.set_volume"
        };
        let call = json!({"name": name, "arguments": arguments});
        let ask = question(&target, request);
        assert!(
            questioned(&ask, NONE, &[call], None, false).is_none(),
            "{request}"
        );
    }
    // A request that says little beyond the tool leaves the values to the model.
    for request in [
        "Volume?",
        "Full volume",
        "volume up please",
        "Louder volume!!",
    ] {
        let call = json!({"name": "music.set_volume", "arguments": {"level": 100}});
        let ask = question(&target, request);
        assert!(
            questioned(&ask, NONE, &[call], None, false).is_none(),
            "{request}"
        );
    }
    // Only an optional argument of the model's own: left out later, never questioned.
    let call = json!({"name": "music.set_volume", "arguments": {"device": "kitchen"}});
    let ask = question(&target, "What volume is it at?");
    assert!(questioned(&ask, NONE, &[call], None, false).is_none());
}

proptest::proptest! {
    /// A call of the named tool holding any word or number of the request is never
    /// questioned as unstated, whatever values of its own it holds beside.
    #[test]
    fn a_call_with_a_value_of_the_request_is_never_questioned_as_unstated(
        word in "[A-Z][a-z]{3,9}",
        level in 0u32..=100,
        own in "[a-z]{4,8}",
        lead in "(Set the volume|Volume|Turn the volume up|volume pls) ",
    ) {
        use super::questioned;
        let target = music();
        let request = format!("{lead}on the {word} speaker to {level}");
        let ask = question(&target, &request);
        for arguments in [
            json!({"level": level, "device": own}),
            json!({"level": 7_777, "device": word}),
        ] {
            let call = json!({"name": "music.set_volume", "arguments": arguments});
            proptest::prop_assert!(questioned(&ask, NONE, &[call], None, false).is_none());
        }
    }
}

#[test]
fn only_an_answer_sent_back_for_the_skip_alone_is_doubted() {
    use crate::{Error, Violation, ViolationKind};
    let skipped = || {
        let kind = ViolationKind::SkippedTool {
            tool: "quote".into(),
        };
        Violation::new("/answer", kind)
    };
    assert_eq!(
        only_skipped(&Error::new(vec![skipped()])).as_deref(),
        Some("quote")
    );
    let cut = Violation::new("", ViolationKind::CutOff { max_tokens: None });
    assert_eq!(only_skipped(&Error::new(vec![cut, skipped()])), None);
    assert_eq!(only_skipped(&Error::new(Vec::new())), None);
    let invalid = Violation::new(
        "/answer",
        ViolationKind::Invalid {
            message: "no".into(),
        },
    );
    assert_eq!(only_skipped(&Error::new(vec![invalid])), None);
}

#[test]
fn the_answer_stands_only_over_made_up_calls_among_them_the_tool_it_skipped() {
    use crate::{Error, Violation, ViolationKind};
    let target = finance();
    let quote = json!({"name": "quote", "arguments": {"ticker": "AAPL"}});
    let loan = json!({"name": "loan", "arguments": {"principal": 1}});
    let made_up = |at: &str| {
        let kind = ViolationKind::Ungrounded {
            values: vec!["1".into()],
        };
        Violation::new(at, kind)
    };
    let copied = |at: &str| {
        let kind = ViolationKind::CopiedExample {
            values: vec!["\"AAPL\"".into()],
        };
        Violation::new(at, kind)
    };
    let stands = |calls: &[Value], violations: Vec<Violation>| {
        answer_stands(&target, "quote", calls, &Error::new(violations))
    };
    assert!(stands(
        std::slice::from_ref(&quote),
        vec![copied("/arguments")]
    ));
    assert!(stands(
        std::slice::from_ref(&quote),
        vec![made_up("/arguments")]
    ));
    // Several calls, every one made up, the tool skipped among them.
    let both = [quote.clone(), loan.clone()];
    assert!(stands(
        &both,
        vec![copied("/0/arguments"), made_up("/1/arguments")]
    ));
    // One call not made up; a made-up call of another tool alone; no call at all.
    assert!(!stands(&both, vec![copied("/0/arguments")]));
    assert!(!stands(&both, vec![made_up("/1/arguments")]));
    assert!(!stands(
        std::slice::from_ref(&loan),
        vec![made_up("/arguments")]
    ));
    assert!(!stands(&[], vec![made_up("/arguments")]));
    // Rejected for something else.
    let other = Violation::new(
        "/arguments/ticker",
        ViolationKind::Invalid {
            message: "no".into(),
        },
    );
    assert!(!stands(std::slice::from_ref(&quote), vec![other]));
    // A tool the union lacks was never skipped.
    let error = Error::new(vec![copied("/arguments")]);
    assert!(!answer_stands(&target, "stock", &[quote], &error));
}
