//! Keys an object does not allow: renamed when they differ from an absent field's name only
//! in case or separators, dropped when they are no near miss of any field.

use serde_json::{Map, Value};

use crate::repair::FixKind;
use crate::schema::Node;
use crate::suggest;

/// Whether `key` names no field of `node` and matches none of its pattern properties.
fn is_unknown(node: &Node, key: &str) -> bool {
    node.property(key).is_none()
        && !node
            .pattern_properties
            .iter()
            .any(|(p, _)| p.regex.is_match(key))
}

/// Whether the object allows no keys besides its fields (`additionalProperties: false`).
fn is_closed(node: &Node) -> bool {
    node.additional_properties
        .as_deref()
        .is_some_and(|n| n.never)
}

/// The name folded for comparison: lower case, without `-`, `_` and spaces, as
/// did-you-mean folds it.
fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The one field `key` names once case and separators are ignored, if exactly one does.
pub(super) fn folded_field(node: &Node, key: &str) -> Option<usize> {
    let folded = fold(key);
    let mut found = None;
    for (i, property) in node.properties.iter().enumerate() {
        let names = std::iter::once(&property.name).chain(&property.aliases);
        if names.into_iter().any(|name| fold(name) == folded) {
            if found.is_some() {
                return None;
            }
            found = Some(i);
        }
    }
    found
}

/// `startDate`, `Start Date` and `START-DATE` for an absent `start_date`: renamed, where
/// the key is not allowed as written (the object is closed, or the field is required)
/// and no other key names the same field. Key order is kept.
pub(super) fn rename(node: &Node, map: &mut Map<String, Value>) -> Vec<FixKind> {
    let mut renames: Vec<(&str, usize)> = Vec::new();
    for key in map.keys() {
        if !is_unknown(node, key) {
            continue;
        }
        let Some(i) = folded_field(node, key) else {
            continue;
        };
        let open = node.additional_properties.is_none();
        let unwanted = is_closed(node) || (open && node.properties[i].required);
        let present = map.keys().any(|k| node.property(k) == Some(i));
        if unwanted && !present {
            renames.push((key, i));
        }
    }
    // Two keys for one field: which one the model meant is not known.
    let once = |i: usize| renames.iter().filter(|(_, j)| *j == i).count() == 1;
    let renames: Vec<(String, usize)> = renames
        .iter()
        .filter(|(_, i)| once(*i))
        .map(|(k, i)| ((*k).to_owned(), *i))
        .collect();
    if renames.is_empty() {
        return Vec::new();
    }
    let mut fixes = Vec::new();
    let members = std::mem::take(map);
    for (key, member) in members {
        match renames.iter().find(|(k, _)| *k == key) {
            Some((_, i)) => {
                let to = node.properties[*i].name.clone();
                fixes.push(FixKind::RenamedKey {
                    from: key,
                    to: to.clone(),
                });
                map.insert(to, member);
            }
            None => {
                map.insert(key, member);
            }
        }
    }
    fixes
}

/// Keys of a closed object that are no near miss of any of its fields: dropped. A near
/// miss (`nmae` beside `name`) stays, to be reported with its did-you-mean: its value
/// may be one the model meant for that field.
pub(super) fn drop_unknown(node: &Node, map: &mut Map<String, Value>) -> Vec<FixKind> {
    if !is_closed(node) || map.keys().all(|k| !is_unknown(node, k)) {
        return Vec::new();
    }
    let names = || {
        node.properties.iter().flat_map(|p| {
            std::iter::once(p.name.as_str()).chain(p.aliases.iter().map(String::as_str))
        })
    };
    let mut fixes = Vec::new();
    map.retain(|key, _| {
        let keep = !is_unknown(node, key) || suggest::closest(key, names()).is_some();
        if !keep {
            fixes.push(FixKind::DroppedUnknownKey { key: key.clone() });
        }
        keep
    });
    fixes
}
