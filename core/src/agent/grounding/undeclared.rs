//! Keys a tool does not take, inside the objects of a call's arguments.
//!
//! Tools as servers hand them over are open objects: no `additionalProperties`, so a
//! call that adds keys still fits their schema. A small model writing in prose adds them
//! at every depth: another tool's argument in each item of a list (`"level": 50` in a
//! playlist's tracks, from the volume tool beside it), an argument of the call repeated
//! in each item (`"original_servings": 4` in every ingredient of a recipe, which the call
//! also gives where the tool takes it), or a setting of its own (`"explicit": true`). The
//! tool would get keys it never asked for, and a strict server refuses the call.
//!
//! A key that the object's schema does not list, where that schema lists its
//! `properties` and describes no other keys, is found when nothing in its value is
//! something the conversation gives (see [`Conversation::gives`]), or when it repeats,
//! with the same value, an argument the call gives at its own place. The top level of
//! the arguments is judged with the optional arguments (see `unasked`); this module
//! looks inside them, through `$ref`s and alternatives, to a bounded depth.

use serde_json::{Map, Value};

use super::Conversation;
use super::unasked::{declares_all, parts};

/// How deep inside a call's arguments keys are judged: a schema from a tool server may
/// nest (or refer to itself) without end.
const MAX_DEPTH: usize = 8;

/// A key inside an object of a call's arguments that the tool's schema does not list
/// there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::agent) struct Undeclared {
    /// Where it is: the tokens of its pointer under the call's `arguments`, its own key
    /// last (`["tracks", "0", "level"]`).
    pub path: Vec<String>,
    /// It repeats, with the same value, an argument the call gives at its own place.
    pub repeats: bool,
}

impl Conversation {
    /// The keys inside the arguments of a call `{"name": …, "arguments": …}` of a tool
    /// whose arguments' schema is `schema` that the tool does not take there (see the
    /// module), in the order the call writes them.
    pub fn undeclared_inside(&self, call: &Value, schema: &Value) -> Vec<Undeclared> {
        let Some(arguments) = call.get("arguments").and_then(Value::as_object) else {
            return Vec::new();
        };
        let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
            return Vec::new();
        };
        let mut walk = Walk {
            conversation: self,
            root: schema,
            arguments,
            declared: properties,
            found: Vec::new(),
            path: Vec::new(),
        };
        for (name, value) in arguments {
            if let Some(property) = properties.get(name) {
                walk.path.push(name.clone());
                walk.value(&[property], value, 1);
                walk.path.pop();
            }
        }
        walk.found
    }

    /// Whether the conversation gives something of `value`: a string with words that it
    /// holds (or with no words, which says too little to be judged), a number it holds,
    /// or an item or member that it gives. A boolean, a null and an empty array or object
    /// give nothing.
    pub(super) fn gives(&self, value: &Value) -> bool {
        match value {
            Value::String(s) => super::words::words(s).is_empty() || self.holds(value),
            Value::Number(_) => self.holds(value),
            Value::Bool(_) | Value::Null => false,
            Value::Array(items) => items.iter().any(|item| self.gives(item)),
            Value::Object(members) => members.values().any(|member| self.gives(member)),
        }
    }
}

/// The walk through a call's arguments, beside their schema.
struct Walk<'a> {
    conversation: &'a Conversation,
    /// The arguments' schema, which `$ref`s point into.
    root: &'a Value,
    /// The call's arguments, for keys that repeat one of them.
    arguments: &'a Map<String, Value>,
    /// The arguments the tool takes.
    declared: &'a Map<String, Value>,
    found: Vec<Undeclared>,
    /// The tokens of the pointer of the value walked, under `arguments`.
    path: Vec<String>,
}

impl<'a> Walk<'a> {
    /// Judges the keys of the objects inside `value`, whose schema is each of `schemas`
    /// at once (a key that alternatives both list is judged against both).
    fn value(&mut self, schemas: &[&'a Value], value: &Value, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let parts: Vec<&'a Value> = schemas
            .iter()
            .flat_map(|schema| parts(self.root, schema))
            .collect();
        match value {
            Value::Object(members) => self.object(&parts, members, depth),
            Value::Array(items) => {
                // Items of a tuple have a schema each; those are not walked.
                if parts.iter().any(|p| p.get("prefixItems").is_some()) {
                    return;
                }
                let item_schemas: Vec<&'a Value> = parts
                    .iter()
                    .filter_map(|p| p.get("items"))
                    .filter(|items| items.is_object())
                    .collect();
                if item_schemas.is_empty() {
                    return;
                }
                for (i, item) in items.iter().enumerate() {
                    self.path.push(i.to_string());
                    self.value(&item_schemas, item, depth + 1);
                    self.path.pop();
                }
            }
            _ => {}
        }
    }

    fn object(&mut self, parts: &[&'a Value], members: &Map<String, Value>, depth: usize) {
        let declaring: Vec<&'a Map<String, Value>> = parts
            .iter()
            .filter_map(|p| p.get("properties").and_then(Value::as_object))
            .collect();
        // Where a part takes other keys (a schema for them, an object with no properties
        // of its own, a reference that leads nowhere), any key may be the tool's.
        let closed = !declaring.is_empty() && parts.iter().all(|p| !self.open(p));
        for (key, member) in members {
            let properties: Vec<&'a Value> = declaring.iter().filter_map(|d| d.get(key)).collect();
            self.path.push(key.clone());
            if !properties.is_empty() {
                self.value(&properties, member, depth + 1);
            } else if closed {
                let repeats =
                    self.declared.contains_key(key) && self.arguments.get(key) == Some(member);
                if repeats || !self.conversation.gives(member) {
                    self.found.push(Undeclared {
                        path: self.path.clone(),
                        repeats,
                    });
                }
            }
            self.path.pop();
        }
    }

    /// Whether a part of an object's schema takes keys it does not list: it says so
    /// ([`declares_all`]), it is `true` or `{}`, an object with no `properties` and
    /// nothing it stands for, or a `$ref` that does not resolve within the arguments'
    /// schema.
    fn open(&self, part: &Value) -> bool {
        if part == &Value::Bool(true) || part.as_object().is_some_and(Map::is_empty) {
            return true;
        }
        let unresolved = part.get("$ref").and_then(Value::as_str).is_some_and(|r| {
            r.strip_prefix('#')
                .and_then(|p| self.root.pointer(p))
                .is_none()
        });
        unresolved || !declares_all(part) || free(part)
    }
}

/// Whether a part of an object's schema is an object that takes any key: of type
/// `object` (alone or among others), with no `properties` and nothing it stands for (no
/// `$ref`, no alternatives).
fn free(part: &Value) -> bool {
    let object = match part.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => false,
    };
    object
        && part.get("properties").is_none()
        && ["$ref", "anyOf", "oneOf", "allOf"]
            .iter()
            .all(|k| part.get(k).is_none())
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{Conversation, Undeclared};

    fn playlist() -> Value {
        json!({"type": "object", "properties": {
            "name": {"type": "string"},
            "tracks": {"type": "array", "items": {"type": "object", "properties": {
                "title": {"type": "string"},
                "artist": {"type": "string"}
            }, "required": ["title", "artist"]}},
            "public": {"type": "boolean"}
        }, "required": ["name", "tracks"]})
    }

    fn found(request: &str, schema: &Value, arguments: Value) -> Vec<(String, bool)> {
        let conversation = Conversation::new(None, &[], request, request);
        let call = json!({"name": "t", "arguments": arguments});
        conversation
            .undeclared_inside(&call, schema)
            .into_iter()
            .map(|Undeclared { path, repeats }| (path.join("/"), repeats))
            .collect()
    }

    const ROAD_TRIP: &str = "Create a playlist called 'Road Trip' with 'Africa' by Toto";

    #[test]
    fn a_key_another_tool_takes_inside_each_item_is_found() {
        let arguments = json!({"name": "Road Trip", "tracks": [
            {"title": "Africa", "artist": "Toto", "level": 50},
            {"title": "Rosanna", "artist": "Toto", "level": 50, "shuffle": true, "tags": []}
        ]});
        assert_eq!(
            found(ROAD_TRIP, &playlist(), arguments),
            [
                ("tracks/0/level".to_owned(), false),
                ("tracks/1/level".to_owned(), false),
                ("tracks/1/shuffle".to_owned(), false),
                ("tracks/1/tags".to_owned(), false),
            ]
        );
    }

    #[test]
    fn a_key_the_user_gave_a_value_of_stays_unless_it_repeats_an_argument() {
        let schema = json!({"type": "object", "properties": {
            "ingredients": {"type": "array", "items": {"$ref": "#/$defs/Ingredient"}},
            "servings": {"type": "integer"}
        }, "$defs": {"Ingredient": {"type": "object", "properties": {
            "name": {"type": "string"}, "grams": {"type": "number"}
        }}}});
        let request = "Scale to 6 servings: 200 g flour, organic please";
        let arguments = json!({"servings": 6, "ingredients": [
            {"name": "flour", "grams": 200, "servings": 6, "quality": "organic", "note": {"x": 1}}
        ]});
        assert_eq!(
            found(request, &schema, arguments),
            [
                ("ingredients/0/servings".to_owned(), true),
                ("ingredients/0/note".to_owned(), false),
            ]
        );
    }

    #[test]
    fn objects_that_take_other_keys_keep_them() {
        let request = "Tag the photo";
        let open = [
            json!({"type": "object", "properties": {"x": {}}, "additionalProperties": {"type": "string"}}),
            json!({"type": "object", "properties": {"x": {}}, "patternProperties": {"^c": {}}}),
            json!({"type": "object"}),
            json!({"anyOf": [{"type": "object", "properties": {"x": {}}}, {"type": "object"}]}),
            json!({}),
        ];
        for inner in open {
            let schema = json!({"type": "object", "properties": {"meta": inner.clone()}});
            let arguments = json!({"meta": {"color": "red", "on": true}});
            assert_eq!(found(request, &schema, arguments), [], "{inner}");
        }
    }

    #[test]
    fn a_key_is_judged_against_every_alternative_that_lists_its_parent() {
        // Both shapes list `style`, each with other keys: `fill` is the square's.
        let schema = json!({"type": "object", "properties": {"shape": {"anyOf": [
            {"type": "object", "properties": {"radius": {}, "style": {"type": "object", "properties": {"stroke": {}}}}},
            {"type": "object", "properties": {"side": {}, "style": {"type": "object", "properties": {"fill": {}}}}}
        ]}}});
        let arguments = json!({"shape": {"side": 3, "style": {"fill": false, "glow": true}}});
        assert_eq!(
            found("A square of side 3", &schema, arguments),
            [("shape/style/glow".to_owned(), false)]
        );
        // Items too: a key of either list's items is the tool's.
        let schema = json!({"type": "object", "properties": {"points": {"anyOf": [
            {"type": "array", "items": {"type": "object", "properties": {"x": {}}}},
            {"type": "array", "items": {"type": "object", "properties": {"y": {}}}}
        ]}}});
        let arguments = json!({"points": [{"x": true, "y": false, "z": true}]});
        assert_eq!(
            found("points", &schema, arguments),
            [("points/0/z".to_owned(), false)]
        );
    }

    #[test]
    fn schemas_that_may_list_keys_elsewhere_keep_them() {
        let listed = json!({"x": {}});
        for inner in [
            json!({"type": "object", "properties": listed, "unevaluatedProperties": {"type": "boolean"}}),
            json!({"type": "object", "properties": listed, "if": {"required": ["x"]}, "then": {"properties": {"on": {}}}}),
            json!({"type": "object", "properties": listed, "dependentSchemas": {"x": {"properties": {"on": {}}}}}),
            json!({"type": "object", "properties": listed, "dependencies": {"x": {"properties": {"on": {}}}}}),
            json!({"anyOf": [{"type": "object", "properties": listed}, {"$ref": "other.json#/Meta"}]}),
            json!({"anyOf": [{"type": "object", "properties": listed}, {"type": ["object", "null"]}]}),
            json!({"anyOf": [{"type": "object", "properties": listed}, true]}),
            json!({"anyOf": [{"type": "object", "properties": listed}, {}]}),
        ] {
            let schema = json!({"type": "object", "properties": {"meta": inner.clone()}});
            let arguments = json!({"meta": {"x": 1, "on": true}});
            assert_eq!(found("meta", &schema, arguments), [], "{inner}");
        }
        // The items of a tuple have a schema each, which the walk does not follow.
        let schema = json!({"type": "object", "properties": {"pair": {"type": "array",
            "prefixItems": [{"type": "object", "properties": {"a": {}}}],
            "items": {"type": "object", "properties": {"b": {}}}}}});
        let arguments = json!({"pair": [{"a": true}, {"b": true, "c": true}]});
        assert_eq!(found("pair", &schema, arguments), []);
    }

    #[test]
    fn only_an_argument_the_tool_takes_is_repeated() {
        // `level` is no argument of the tool: inside the track it is judged as any other
        // key, not as a repeat of the top-level key (which `unasked` leaves out).
        let arguments = json!({"name": "Road Trip", "level": 50, "tracks": [
            {"title": "Africa", "artist": "Toto", "level": 50, "name": "Road Trip"}
        ]});
        assert_eq!(
            found(ROAD_TRIP, &playlist(), arguments),
            [
                ("tracks/0/level".to_owned(), false),
                ("tracks/0/name".to_owned(), true),
            ]
        );
    }

    #[test]
    fn the_keys_of_any_alternative_are_the_tool_s() {
        let schema = json!({"type": "object", "properties": {"shape": {"oneOf": [
            {"type": "object", "properties": {"radius": {"type": "number"}}},
            {"type": "object", "properties": {"side": {"type": "number"}}}
        ]}}});
        let arguments = json!({"shape": {"radius": 7, "side": 3, "filled": false}});
        assert_eq!(
            found("A circle of radius 7", &schema, arguments),
            [("shape/filled".to_owned(), false)]
        );
    }

    #[test]
    fn a_schema_that_refers_to_itself_is_walked_to_a_bounded_depth() {
        let schema = json!({"type": "object", "properties": {"node": {"$ref": "#/$defs/N"}},
            "$defs": {"N": {"type": "object", "properties": {"child": {"$ref": "#/$defs/N"}}}}});
        let mut node = json!({"extra": true});
        for _ in 0..50 {
            node = json!({"child": node});
        }
        let arguments = json!({ "node": node });
        assert_eq!(found("a tree", &schema, arguments), []);
        let shallow = json!({"node": {"child": {"extra": true}}});
        assert_eq!(
            found("a tree", &schema, shallow),
            [("node/child/extra".to_owned(), false)]
        );
    }

    proptest::proptest! {
        /// A call with only the keys its tool takes, whatever their values and the
        /// request, has nothing left out, inside or at the top.
        #[test]
        fn a_call_of_declared_keys_is_never_touched(
            request in ".{0,60}",
            name in ".{0,20}",
            tracks in proptest::collection::vec((".{0,20}", ".{0,20}"), 0..4),
            public in proptest::option::of(proptest::bool::ANY),
        ) {
            let tracks: Vec<Value> = tracks
                .into_iter()
                .map(|(title, artist)| json!({"title": title, "artist": artist}))
                .collect();
            let mut arguments = json!({"name": name, "tracks": tracks});
            if let Some(public) = public {
                arguments["public"] = json!(public);
            }
            let conversation = Conversation::new(None, &[], &request, &request);
            let call = json!({"name": "t", "arguments": arguments});
            proptest::prop_assert!(conversation.undeclared_inside(&call, &playlist()).is_empty());
            proptest::prop_assert!(conversation.unasked(&call, &playlist()).is_empty());
        }

        /// A key the tool does not take, with a word of the request as its value and
        /// repeating no argument, stays.
        #[test]
        fn a_key_holding_the_user_s_word_stays(word in "[a-z]{3,12}", key in "[a-z_]{1,12}") {
            proptest::prop_assume!(!["title", "artist", "name", "tracks", "public"].contains(&key.as_str()));
            let request = format!("A playlist of Africa by Toto, {word} please");
            let arguments = json!({"name": "x", "tracks": [
                {"title": "Africa", "artist": "Toto", key.clone(): word.clone()}
            ], key: [word]});
            let conversation = Conversation::new(None, &[], &request, &request);
            let call = json!({"name": "t", "arguments": arguments});
            proptest::prop_assert!(conversation.undeclared_inside(&call, &playlist()).is_empty());
            proptest::prop_assert!(conversation.unasked(&call, &playlist()).is_empty());
        }
    }

    #[test]
    fn what_the_conversation_gives_is_judged_at_any_depth() {
        let conversation = Conversation::new(None, &[], "Oslo at 9", "Oslo at 9");
        for given in [
            json!("Oslo"),
            json!(9),
            json!("€"),
            json!(["x", "Oslo"]),
            json!({"a": {"b": 9}}),
        ] {
            assert!(conversation.gives(&given), "{given}");
        }
        for not_given in [
            json!(true),
            json!(null),
            json!([]),
            json!({}),
            json!("Paris"),
            json!({"r": 0, "g": 0.5}),
        ] {
            assert!(!conversation.gives(&not_given), "{not_given}");
        }
    }
}
