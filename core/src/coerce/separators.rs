//! A string under a pattern written with formatting separators between its own
//! characters: `"+47 912 34 567"` for `^\+\d{7,15}$`, `"U2 8315"` for
//! `^[A-Z0-9]{2}\d{1,4}$`. What a separator is, and when a value is read without them,
//! is `validate/separators.rs`, which the advice of a pattern violation shares.

use crate::schema::{Node, Types};
use crate::validate::separators::without_separators;

/// `text` without its separators, where `node` is a string with a pattern that `text`
/// fails and the text without them matches. Not for a node with an `enum`, a `const` or
/// a `format`: their values are matched or described their own way.
pub(super) fn without_pattern_separators(node: &Node, text: &str) -> Option<String> {
    let pattern = &node.pattern.as_ref()?.regex;
    let string = node.types.is_none_or(|t| t.contains(Types::STRING));
    if !string
        || node.enumeration.is_some()
        || node.constant.is_some()
        || node.format.is_some()
        || pattern.is_match(text)
    {
        return None;
    }
    without_separators(text).filter(|kept| pattern.is_match(kept))
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::Schema;
    use crate::coerce::{Coercion, coerce};

    /// The value coerced at `level` against `schema`, and its fixes as text.
    fn coerced_at(level: Coercion, schema: Value, value: Value) -> (Value, Vec<String>) {
        let schema = Schema::from_json(schema).unwrap();
        let mut value = value;
        let mut fixes = Vec::new();
        coerce(&schema, &mut value, level, &mut fixes);
        (value, fixes.iter().map(ToString::to_string).collect())
    }

    fn coerced(schema: Value, value: Value) -> (Value, Vec<String>) {
        coerced_at(Coercion::Safe, schema, value)
    }

    fn phone() -> Value {
        json!({ "type": "string", "pattern": r"^\+\d{7,15}$" })
    }

    #[test]
    fn a_phone_number_in_groups_is_read_without_them() {
        let (value, fixes) = coerced(phone(), json!("+47 912 34 567"));
        assert_eq!(value, json!("+4791234567"));
        assert_eq!(
            fixes,
            [
                r#"(root): read "+47 912 34 567" as "+4791234567", without the separators the pattern does not allow"#
            ]
        );
    }

    #[test]
    fn at_a_field_the_fix_is_reported_at_its_pointer() {
        let schema = json!({
            "type": "object",
            "properties": { "phone": phone() },
            "required": ["phone"]
        });
        let (value, fixes) = coerced(schema, json!({ "phone": "+1 (415) 555-0134" }));
        assert_eq!(value, json!({ "phone": "+14155550134" }));
        assert_eq!(fixes.len(), 1, "{fixes:?}");
        assert!(fixes[0].starts_with("/phone: read "), "{fixes:?}");
    }

    #[test]
    fn nothing_under_none() {
        let (value, fixes) = coerced_at(Coercion::None, phone(), json!("+47 912 34 567"));
        assert_eq!((value, fixes.len()), (json!("+47 912 34 567"), 0));
    }

    #[test]
    fn nothing_without_a_pattern_or_with_an_enum_a_const_or_a_format() {
        for schema in [
            json!({ "type": "string", "maxLength": 5 }),
            json!({ "enum": ["12345", "67890"], "pattern": r"^\d+$" }),
            json!({ "const": "12345", "pattern": r"^\d+$" }),
            json!({ "type": "string", "format": "date", "pattern": r"^\d+$" }),
            json!({ "type": "integer", "pattern": r"^\d+$" }),
        ] {
            let (value, fixes) = coerced(schema.clone(), json!("12 345"));
            assert!(
                !fixes.iter().any(|f| f.contains("separators")),
                "{schema}: {value} {fixes:?}"
            );
        }
    }

    #[test]
    fn nothing_where_the_value_without_separators_still_fails() {
        let (value, fixes) = coerced(phone(), json!("+47 91 23"));
        assert_eq!((value, fixes.len()), (json!("+47 91 23"), 0));
        // The pattern passes, another keyword of the field does not.
        let short = json!({ "type": "string", "pattern": r"^\d+$", "maxLength": 4 });
        let (value, fixes) = coerced(short, json!("12 345"));
        assert_eq!((value, fixes.len()), (json!("12 345"), 0));
    }

    #[test]
    fn in_a_union_only_where_one_alternative_fits() {
        let digits = |n: usize| json!({ "type": "string", "pattern": format!(r"^\d{{{n}}}$") });
        // Five digits fit one alternative only.
        let one = json!({ "anyOf": [digits(5), digits(7)] });
        let (value, fixes) = coerced(one, json!("10 115"));
        assert_eq!((value, fixes.len()), (json!("10115"), 1));
        // Two alternatives that both take the digits: which is not known, nothing read.
        let two = json!({ "anyOf": [digits(5), { "type": "string", "pattern": r"^\d+$" }] });
        let (value, fixes) = coerced(two, json!("10 115"));
        assert_eq!((value, fixes.len()), (json!("10 115"), 0));
    }
}
