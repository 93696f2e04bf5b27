//! `#` comments (docs/recovery.md, "`#` comments"): after a value on its line, on a line
//! of their own, before and after the document, in arrays and objects; a `#` in a string
//! is text, and a `#` that starts a value (`#fff`) or stands in a bare word (`issue #12`)
//! is the value's.

use proptest::prelude::*;
use serde_json::{Value, json};
use toolschema::repair::{FixKind, repair};

use super::FixKind::*;
use super::{parsed, reads};

#[test]
fn a_comment_after_a_value_on_its_line_is_removed() {
    let doc = json!({"s": "x", "n": 1, "t": true, "z": null, "l": [1], "o": {"a": 2}});
    for comment in [
        "# note",
        "#note",
        "# it's \"fine\", {really} [ok]",
        "## twice #",
    ] {
        let text = format!(
            "{{\"s\": \"x\" {comment}\n, \"n\": 1 {comment}\n, \"t\": true {comment}\n, \
             \"z\": null {comment}\n, \"l\": [1] {comment}\n, \"o\": {{\"a\": 2}} {comment}\n}}"
        );
        reads(&text, doc.clone(), &vec![Comment; 6]);
        let text = format!(
            "{{\n  \"s\": \"x\", {comment}\n  \"n\": 1, {comment}\n  \"t\": true, {comment}\n  \
             \"z\": null, {comment}\n  \"l\": [1], {comment}\n  \"o\": {{\"a\": 2}} {comment}\n}}"
        );
        reads(&text, doc.clone(), &vec![Comment; 6]);
    }
    // In an array, after the last item, after a bare word.
    reads(
        "[\"a\", # one\n \"b\" # two\n]",
        json!(["a", "b"]),
        &[Comment, Comment],
    );
    reads(
        "{title: budget review # for Q3\n, room: B2 # east\n}",
        json!({"title": "budget review", "room": "B2"}),
        &[
            UnquotedKey,
            UnquotedString,
            Comment,
            UnquotedKey,
            UnquotedString,
            Comment,
        ],
    );
}

#[test]
fn a_comment_on_its_own_line_is_removed() {
    let text = "# the result\n{\n  # who\n  \"name\": \"Ann\",\n  # tags, \"quoted\"\n  \
                \"tags\": [\n    # first\n    \"a\"\n  ]\n}\n# done";
    reads(
        text,
        json!({"name": "Ann", "tags": ["a"]}),
        &vec![Comment; 5],
    );
    // Through the lenient parse too: in a fence, after prose.
    let reply = format!("Here it is:\n```json\n{text}\n```");
    assert_eq!(parsed(&reply).0, json!({"name": "Ann", "tags": ["a"]}));
}

#[test]
fn a_hash_in_a_string_or_a_word_is_text() {
    for text in [
        r##"{"color": "#fff", "tag": "# not a comment", "lang": "C#"}"##,
        "{\"a\": \"x # y\\n# z\", \"b\": [\"#\", \"##\"]}",
    ] {
        let strict: Value = serde_json::from_str(text).expect("valid JSON");
        reads(text, strict, &[]);
    }
    // A `#` right where a value starts is the value: a colour, a tag, a number.
    reads(
        "{color: #fff, \"bg\": #000000, n: #1}",
        json!({"color": "#fff", "bg": "#000000", "n": "#1"}),
        &[
            UnquotedKey,
            UnquotedString,
            UnquotedString,
            UnquotedKey,
            UnquotedString,
        ],
    );
    reads("[#a, #b]", json!(["#a", "#b"]), &vec![UnquotedString; 2]);
    // In a bare word, a `#` not followed by blank is the word's.
    reads(
        "{title: issue #12, n: 1}",
        json!({"title": "issue #12", "n": 1}),
        &[UnquotedKey, UnquotedString, UnquotedKey],
    );
    // After a quote, a `#` whose line holds the string's end quote is the string's.
    for inner in [
        r#"issue "foo" #12 is open"#,
        r#"say "x" # ok"#,
        r#"see "x", #1 fan"#,
    ] {
        reads(
            &format!(r#"{{"a": "{inner}", "b": 1}}"#),
            json!({"a": inner, "b": 1}),
            &vec![UnescapedQuote; 2],
        );
    }
}

/// Words of a comment: letters, quotes in pairs, commas, brackets, `#`.
fn comment() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-z]{1,7}".boxed(),
        "[a-z]{1,5}".prop_map(|w| format!("\"{w}\"")).boxed(),
        prop::sample::select(vec![",", "{", "}", "[", "]", ":", "#", "it's", "//"])
            .prop_map(str::to_owned)
            .boxed(),
    ];
    // `#word ,` where an item may start is the item `#word`.
    (
        prop::sample::select(vec!["# ", "#", "## "]),
        "[a-z]{1,7}",
        prop::collection::vec(piece, 0..4),
    )
        .prop_filter("no item", |(mark, _, words)| {
            *mark != "#"
                || !words
                    .first()
                    .is_some_and(|w| [",", "]", "}"].contains(&w.as_str()))
        })
        .prop_map(|(mark, first, words)| format!("{mark}{first} {}", words.join(" ")))
}

/// Documents whose strings hold `#` and quotes.
fn document() -> impl Strategy<Value = Value> {
    let text = prop::sample::select(vec!["#fff", "# no", "a # b", "C#", "x \"#\" y", "plain"]);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::from),
        text.prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z#]{1,5}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .prop_map(|v| if v.is_object() { v } else { json!({ "v": v }) })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn comments_after_lines_and_on_lines_of_their_own_are_removed(
        doc in document(),
        places in prop::collection::vec((any::<prop::sample::Index>(), any::<bool>(), comment()), 1..5),
    ) {
        let pretty = serde_json::to_string_pretty(&doc).expect("JSON");
        let mut lines: Vec<String> = pretty.lines().map(str::to_owned).collect();
        // Comments after lines first (one a line), then on lines of their own.
        let mut after = std::collections::BTreeMap::new();
        let mut own = Vec::new();
        for (at, own_line, comment) in places {
            if own_line {
                own.push((at, comment));
            } else {
                after.insert(at.index(lines.len()), comment);
            }
        }
        let comments = after.len() + own.len();
        for (i, comment) in after {
            let line = format!("{} {comment}", lines[i]);
            lines[i] = line;
        }
        for (at, comment) in own {
            let i = at.index(lines.len() + 1);
            lines.insert(i, comment);
        }
        let text = lines.join("\n");
        let (value, fixes) = repair(&text).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        prop_assert_eq!(&value, &doc, "{}", text);
        let kinds: Vec<FixKind> = fixes.iter().map(|f| f.kind().clone()).collect();
        prop_assert_eq!(kinds, vec![Comment; comments], "{}", text);
    }

    #[test]
    fn valid_documents_whose_strings_hold_hashes_are_read_as_they_are(
        doc in document(),
        pretty in any::<bool>(),
    ) {
        let text = if pretty { serde_json::to_string_pretty(&doc).expect("JSON") } else { doc.to_string() };
        let (value, fixes) = repair(&text).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        prop_assert_eq!(&value, &doc, "{}", text);
        prop_assert!(fixes.is_empty(), "{}: {:?}", text, fixes);
        prop_assert_eq!(parsed(&text), (doc.clone(), vec![]));
    }
}
