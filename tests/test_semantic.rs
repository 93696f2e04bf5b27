//! Semantic checks of derived types (`#[schema(validate = path)]`): what a schema cannot
//! say, run once the schema passed, reported as ordinary violations at their pointers, so
//! `from_str`, `parse`, repair prompts and the agent treat them like any other.

use std::collections::HashSet;

use toolschema::provider::Scripted;
use toolschema::toolset::Rejection;
use toolschema::{Agent, AskError, Error, RepairPrompt, ToolSchema, Violation, ViolationKind};

/// Each violation as `Display` writes it.
fn lines(err: &Error) -> Vec<String> {
    err.violations().iter().map(ToString::to_string).collect()
}

fn known_sku(sku: &str) -> Result<(), String> {
    match sku.strip_prefix("SKU-") {
        Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => Ok(()),
        _ => Err(format!(
            "{sku:?} is not in the catalogue; SKUs look like \"SKU-1042\""
        )),
    }
}

/// A line of an order.
#[derive(ToolSchema, Debug, PartialEq)]
struct Line {
    #[schema(validate = known_sku)]
    sku: String,
    #[schema(range(min = 1))]
    quantity: u32,
}

/// An order: its lines name different products, and a discount needs a coupon.
#[derive(ToolSchema, Debug, PartialEq)]
#[schema(validate = check_order)]
struct Order {
    lines: Vec<Line>,
    #[schema(range(max = 50))]
    discount_percent: u8,
    coupon: Option<String>,
}

fn check_order(order: &Order) -> Result<(), Rejection> {
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    for (i, line) in order.lines.iter().enumerate() {
        if !seen.insert(&line.sku) {
            found.push(Violation::new(
                format!("/lines/{i}/sku"),
                ViolationKind::Invalid {
                    message: format!("{:?} is on an earlier line; add to its quantity", line.sku),
                },
            ));
        }
    }
    if order.discount_percent > 0 && order.coupon.is_none() {
        found.push(Violation::new(
            "/coupon",
            ViolationKind::Invalid {
                message: "a discount needs the coupon that grants it".into(),
            },
        ));
    }
    if found.is_empty() {
        Ok(())
    } else {
        Err(found.into())
    }
}

const GOOD_ORDER: &str = r#"{"lines": [{"sku": "SKU-1", "quantity": 2}, {"sku": "SKU-7", "quantity": 1}], "discount_percent": 10, "coupon": "SPRING"}"#;

mod field {
    use super::*;

    #[test]
    fn passes_what_the_check_accepts() {
        let line: Line = toolschema::from_str(r#"{"sku": "SKU-1042", "quantity": 3}"#).unwrap();
        assert_eq!(
            line,
            Line {
                sku: "SKU-1042".into(),
                quantity: 3
            }
        );
    }

    #[test]
    fn rejects_at_the_fields_pointer_on_every_entry_point() {
        let err = toolschema::from_str::<Line>(r#"{"sku": "ABC", "quantity": 3}"#).unwrap_err();
        assert_eq!(
            lines(&err),
            [r#"/sku: "ABC" is not in the catalogue; SKUs look like "SKU-1042""#]
        );
        assert!(matches!(
            err.violations()[0].kind(),
            ViolationKind::Invalid { .. }
        ));

        // The lenient parse repairs and coerces first; the check sees the repaired value.
        let err =
            toolschema::parse::<Line>("```json\n{'sku': 'ABC', quantity: '3',}\n```").unwrap_err();
        assert_eq!(err.violations()[0].pointer(), "/sku");
        assert!(
            !err.fixes().is_empty(),
            "the fixes are kept beside the violation"
        );

        let value = serde_json::json!({"sku": "SKU-", "quantity": 3});
        let err = toolschema::from_value::<Line>(value).unwrap_err();
        assert_eq!(err.violations()[0].pointer(), "/sku");
    }

    #[test]
    fn runs_only_once_the_schema_passed() {
        // `quantity` breaks the schema: the check does not run on a value the schema
        // rejected, so only the schema's violation is reported.
        let err = toolschema::from_str::<Line>(r#"{"sku": "ABC", "quantity": 0}"#).unwrap_err();
        assert_eq!(lines(&err), ["/quantity: 0 is below the minimum of 1"]);
    }

    #[test]
    fn a_check_reports_inside_the_field() {
        fn no_blank_tags(tags: &[String]) -> Result<(), Vec<Violation>> {
            let blank: Vec<Violation> = tags
                .iter()
                .enumerate()
                .filter(|(_, t)| t.trim().is_empty())
                .map(|(i, _)| {
                    let message = "a tag cannot be blank".to_owned();
                    Violation::new(format!("/{i}"), ViolationKind::Invalid { message })
                })
                .collect();
            if blank.is_empty() { Ok(()) } else { Err(blank) }
        }

        #[derive(ToolSchema, Debug)]
        struct Note {
            #[schema(validate = no_blank_tags)]
            tags: Vec<String>,
        }

        let note: Note = toolschema::from_str(r#"{"tags": ["a", "b"]}"#).unwrap();
        assert_eq!(note.tags, ["a", "b"]);
        let err = toolschema::from_str::<Note>(r#"{"tags": ["a", " ", "b", ""]}"#).unwrap_err();
        assert_eq!(
            lines(&err),
            [
                "/tags/1: a tag cannot be blank",
                "/tags/3: a tag cannot be blank"
            ]
        );
    }

    #[test]
    fn newtype_tuple_and_renamed_fields() {
        fn even(n: &u32) -> Result<(), &'static str> {
            if n.is_multiple_of(2) {
                Ok(())
            } else {
                Err("must be even")
            }
        }

        #[derive(ToolSchema, Debug, PartialEq)]
        struct Even(#[schema(validate = even)] u32);

        #[derive(ToolSchema, Debug, PartialEq)]
        struct Pair(u32, #[schema(validate = even)] u32);

        #[derive(ToolSchema, Debug, PartialEq)]
        #[serde(rename_all = "camelCase")]
        struct Grid {
            cell_count: Even,
            #[schema(validate = even)]
            row_count: u32,
        }

        assert_eq!(toolschema::from_str::<Even>("4").unwrap(), Even(4));
        let err = toolschema::from_str::<Even>("3").unwrap_err();
        assert_eq!(lines(&err), ["(root): must be even"]);

        let err = toolschema::from_str::<Pair>("[1, 3]").unwrap_err();
        assert_eq!(lines(&err), ["/1: must be even"]);

        let err = toolschema::from_str::<Grid>(r#"{"cellCount": 3, "rowCount": 5}"#).unwrap_err();
        assert_eq!(
            lines(&err),
            ["/cellCount: must be even", "/rowCount: must be even"]
        );
    }
}

mod container {
    use super::*;

    #[test]
    fn passes_a_good_value() {
        let order: Order = toolschema::from_str(GOOD_ORDER).unwrap();
        assert_eq!(order.lines.len(), 2);
    }

    #[test]
    fn reports_several_violations_at_their_pointers() {
        let reply = r#"{"lines": [{"sku": "SKU-1", "quantity": 2}, {"sku": "SKU-7", "quantity": 1}, {"sku": "SKU-1", "quantity": 1}], "discount_percent": 10, "coupon": null}"#;
        let err = toolschema::from_str::<Order>(reply).unwrap_err();
        assert_eq!(
            lines(&err),
            [
                r#"/lines/2/sku: "SKU-1" is on an earlier line; add to its quantity"#,
                "/coupon: a discount needs the coupon that grants it",
            ]
        );
    }

    #[test]
    fn a_message_is_about_the_value_as_a_whole() {
        fn at_most_three(order: &Order) -> Result<(), String> {
            if order.lines.len() <= 3 {
                Ok(())
            } else {
                Err(format!("{} lines; split the order", order.lines.len()))
            }
        }

        #[derive(ToolSchema, Debug)]
        struct Cart {
            #[schema(validate = at_most_three)]
            order: Order,
        }

        let lines_of = |skus: &[&str]| {
            let lines: Vec<String> = skus
                .iter()
                .map(|sku| format!(r#"{{"sku": "{sku}", "quantity": 1}}"#))
                .collect();
            format!(
                r#"{{"order": {{"lines": [{}], "discount_percent": 0, "coupon": null}}}}"#,
                lines.join(", ")
            )
        };
        let cart = toolschema::from_str::<Cart>(&lines_of(&["SKU-1", "SKU-2"])).unwrap();
        assert_eq!(cart.order.lines.len(), 2);

        let four = lines_of(&["SKU-1", "SKU-2", "SKU-3", "SKU-4"]);
        let err = toolschema::from_str::<Cart>(&four).unwrap_err();
        assert_eq!(lines(&err), ["/order: 4 lines; split the order"]);

        // The order's own check runs first; the field's check runs only on an order that
        // was built.
        let repeated = lines_of(&["SKU-1", "SKU-1", "SKU-1", "SKU-1"]);
        let err = toolschema::from_str::<Cart>(&repeated).unwrap_err();
        assert_eq!(
            err.violations()
                .iter()
                .map(Violation::pointer)
                .collect::<Vec<_>>(),
            [
                "/order/lines/1/sku",
                "/order/lines/2/sku",
                "/order/lines/3/sku"
            ]
        );
    }

    #[test]
    fn waits_for_the_fields_checks() {
        // A line whose SKU fails its own check: the order's check does not run (it would
        // see a value its fields rejected), so the repeated SKU is not reported yet.
        let reply = r#"{"lines": [{"sku": "nope", "quantity": 1}, {"sku": "nope", "quantity": 1}], "discount_percent": 0, "coupon": null}"#;
        let err = toolschema::from_str::<Order>(reply).unwrap_err();
        assert_eq!(
            err.violations()
                .iter()
                .map(Violation::pointer)
                .collect::<Vec<_>>(),
            ["/lines/0/sku", "/lines/1/sku"]
        );
    }
}

mod nested {
    use super::*;

    /// Turn on a device by name.
    #[derive(ToolSchema, Debug, PartialEq)]
    struct TurnOn {
        #[schema(validate = known_device)]
        name: String,
    }

    fn known_device(name: &str) -> Result<(), Rejection> {
        toolschema::toolset::one_of(
            &serde_json::Value::from(name),
            "",
            ["bedroom light", "kitchen light"],
        )
    }

    fn answer_not_blank(step: &Step) -> Result<(), String> {
        match step {
            Step::Answer(text) if text.trim().is_empty() => {
                Err("an answer cannot be empty; call a tool or say what you did".into())
            }
            _ => Ok(()),
        }
    }

    #[derive(ToolSchema, Debug, PartialEq)]
    #[schema(validate = answer_not_blank)]
    enum Step {
        #[tool]
        TurnOn(TurnOn),
        #[answer]
        Answer(String),
    }

    #[derive(ToolSchema, Debug, PartialEq)]
    enum Shape {
        Circle {
            #[schema(validate = positive)]
            radius: f64,
        },
        Square(Side),
    }

    #[derive(ToolSchema, Debug, PartialEq)]
    struct Side(#[schema(validate = positive)] f64);

    fn positive(x: &f64) -> Result<(), String> {
        if *x > 0.0 {
            Ok(())
        } else {
            Err(format!("{x} is not positive"))
        }
    }

    #[derive(ToolSchema, Debug, PartialEq)]
    #[serde(tag = "kind", content = "shape")]
    enum Tagged {
        One(Shape),
    }

    #[test]
    fn a_tool_calls_arguments_are_under_arguments() {
        let step: Step =
            toolschema::from_str(r#"{"name": "turn_on", "arguments": {"name": "kitchen light"}}"#)
                .unwrap();
        assert_eq!(
            step,
            Step::TurnOn(TurnOn {
                name: "kitchen light".into()
            })
        );
        let err = toolschema::from_str::<Step>(
            r#"{"name": "turn_on", "arguments": {"name": "bedroom lihgt"}}"#,
        )
        .unwrap_err();
        assert_eq!(
            lines(&err),
            [
                r#"/arguments/name: "bedroom lihgt" is not one of "bedroom light", "kitchen light"; did you mean "bedroom light"?"#
            ]
        );
        let err = toolschema::from_str::<Step>(r#"{"answer": " "}"#).unwrap_err();
        assert_eq!(
            lines(&err),
            ["(root): an answer cannot be empty; call a tool or say what you did"]
        );
    }

    #[test]
    fn variants_fields_are_under_the_variant() {
        let err = toolschema::from_str::<Shape>(r#"{"Circle": {"radius": -1}}"#).unwrap_err();
        assert_eq!(lines(&err), ["/Circle/radius: -1 is not positive"]);
        let err = toolschema::from_str::<Shape>(r#"{"Square": 0}"#).unwrap_err();
        assert_eq!(lines(&err), ["/Square: 0 is not positive"]);
        let err = toolschema::from_str::<Tagged>(r#"{"kind": "One", "shape": {"Square": -2}}"#)
            .unwrap_err();
        assert_eq!(lines(&err), ["/shape/Square: -2 is not positive"]);
    }

    #[test]
    fn every_failing_item_of_a_list_is_reported() {
        #[derive(ToolSchema, Debug)]
        struct Shelf {
            orders: Vec<Order>,
        }

        let bad = r#"{"lines": [{"sku": "SKU-1", "quantity": 1}, {"sku": "SKU-1", "quantity": 1}], "discount_percent": 0, "coupon": null}"#;
        let shelf: Shelf =
            toolschema::from_str(&format!(r#"{{"orders": [{GOOD_ORDER}]}}"#)).unwrap();
        assert_eq!(shelf.orders.len(), 1);
        let reply = format!(r#"{{"orders": [{bad}, {GOOD_ORDER}, {bad}]}}"#);
        let err = toolschema::from_str::<Shelf>(&reply).unwrap_err();
        assert_eq!(
            err.violations()
                .iter()
                .map(Violation::pointer)
                .collect::<Vec<_>>(),
            ["/orders/0/lines/1/sku", "/orders/2/lines/1/sku"]
        );
    }
}

mod feedback {
    use super::*;

    #[test]
    fn the_repair_prompt_shows_the_checks_message() {
        let request = "two of SKU-1 and one SKU-7, with the SPRING coupon's 10% off";
        let reply = r#"{"lines": [{"sku": "SKU-1", "quantity": 2}, {"sku": "SKU 7", "quantity": 1}], "discount_percent": 10, "coupon": "SPRING"}"#;
        let err = toolschema::from_str::<Order>(reply).unwrap_err();
        let prompt = RepairPrompt::new::<Order>(reply, &err)
            .request(request)
            .attempt(2, 3);
        let text = prompt.to_string();
        assert!(text.contains("/lines/1/sku"), "{text}");
        insta::assert_snapshot!("order_field_check", text);

        let reply = r#"{"lines": [{"sku": "SKU-1", "quantity": 1}, {"sku": "SKU-1", "quantity": 1}], "discount_percent": 10, "coupon": null}"#;
        let err = toolschema::from_str::<Order>(reply).unwrap_err();
        let prompt = RepairPrompt::new::<Order>(reply, &err)
            .request(request)
            .attempt(2, 3);
        insta::assert_snapshot!("order_container_check", prompt.to_string());
    }
}

mod agent {
    use super::*;

    #[tokio::test]
    async fn the_agent_repairs_a_failed_check() {
        let bad = r#"{"lines": [{"sku": "SKU-1", "quantity": 1}, {"sku": "SKU-1", "quantity": 1}], "discount_percent": 10, "coupon": null}"#;
        let model = Scripted::new([bad, GOOD_ORDER]);
        let agent = Agent::new(model.clone()).max_attempts(3);
        let order: Order = agent
            .ask("two of SKU-1 and one SKU-7, SPRING coupon for 10% off")
            .await
            .unwrap();
        assert_eq!(order.coupon.as_deref(), Some("SPRING"));
        assert_eq!(model.calls(), 2);
        let repair = &model.request_texts()[1];
        assert!(
            repair.contains(r#"/lines/1/sku: "SKU-1" is on an earlier line; add to its quantity"#),
            "{repair}"
        );
        assert!(
            repair.contains("/coupon: a discount needs the coupon that grants it"),
            "{repair}"
        );
        assert_eq!(agent.metrics().fixed_by_model, 1);
    }
}

mod panics {
    use super::*;

    fn first_is_upper(code: &str) -> Result<(), String> {
        let first = code.chars().next().expect("a room code is never empty");
        if first.is_uppercase() {
            Ok(())
        } else {
            Err("a room code starts with a capital letter".into())
        }
    }

    #[derive(ToolSchema, Debug)]
    struct Room {
        #[schema(validate = first_is_upper)]
        code: String,
    }

    fn boom(floor: &Floor) -> Result<(), String> {
        if floor.rooms.is_empty() {
            std::panic::panic_any(42_u8);
        }
        Ok(())
    }

    #[derive(ToolSchema, Debug)]
    #[schema(validate = boom)]
    struct Floor {
        rooms: Vec<Room>,
    }

    #[test]
    fn a_panicking_check_is_an_error_not_a_crash() {
        let room: Room = toolschema::from_str(r#"{"code": "B12"}"#).unwrap();
        assert_eq!(room.code, "B12");

        let err = toolschema::from_str::<Room>(r#"{"code": ""}"#).unwrap_err();
        let panicked = err.panicked_check().expect("the panic is reported");
        assert_eq!(panicked.pointer(), "/code");
        assert_eq!(
            *panicked.kind(),
            ViolationKind::CheckPanicked {
                check: "first_is_upper".into(),
                message: "a room code is never empty".into(),
            }
        );
        assert_eq!(
            err.to_string(),
            "/code: the check `first_is_upper` panicked: a room code is never empty"
        );
        assert!(
            toolschema::parse::<Room>("{code: ''}")
                .unwrap_err()
                .panicked_check()
                .is_some()
        );

        // A panic without a message, in a container's check.
        let floor: Floor = toolschema::from_str(r#"{"rooms": [{"code": "A1"}]}"#).unwrap();
        assert_eq!(floor.rooms.len(), 1);
        let err = toolschema::from_str::<Floor>(r#"{"rooms": []}"#).unwrap_err();
        assert_eq!(
            lines(&err),
            ["(root): the check `boom` panicked: the panic carried no message"]
        );

        // A check that did not panic is not reported as one.
        let err = toolschema::from_str::<Room>(r#"{"code": "b12"}"#).unwrap_err();
        assert!(err.panicked_check().is_none());
    }

    #[tokio::test]
    async fn a_panicking_check_ends_the_ask_with_an_error() {
        let model = Scripted::new([r#"{"code": ""}"#, r#"{"code": ""}"#]);
        let agent = Agent::new(model.clone()).max_attempts(2);
        let err = agent.ask::<Room>("the big room").await.unwrap_err();
        // The ask ends at the panic: no repair is sent, the attempt is kept.
        assert!(matches!(err, AskError::CheckPanicked { .. }), "{err}");
        assert_eq!(model.calls(), 1);
        let first = &err.attempts()[0];
        assert!(
            first
                .violations()
                .iter()
                .any(|v| matches!(v.kind(), ViolationKind::CheckPanicked { .. })),
            "{err}"
        );
    }
}
