//! The validator's frame budget: whether a schema that refers to itself can recurse
//! past it on any value JSON text can hold.

use super::MAX_FRAMES;
use crate::schema::MAX_DEPTH;
use crate::schema::{Node, Schema};

impl Schema {
    /// Whether checking any value parsed from JSON text (which nests at most
    /// [`MAX_DEPTH`] levels) stays within the validator's frame budget.
    pub(crate) fn frames_suffice(&self) -> bool {
        let mut memo = std::collections::HashMap::new();
        self.frames(&self.root, MAX_DEPTH, 0, &mut memo) <= MAX_FRAMES
    }

    /// The most frames checking a value against `node` can take when the value nests at
    /// most `levels` more levels (an upper bound; `MAX_FRAMES + 1` once past the budget).
    /// Each `check` is one frame; `$ref`s and alternatives stay on the value's level,
    /// items and properties go one level down.
    fn frames<'a>(
        &'a self,
        node: &'a Node,
        levels: usize,
        used: usize,
        memo: &mut std::collections::HashMap<(*const Node, usize), usize>,
    ) -> usize {
        let over = MAX_FRAMES + 1;
        if used >= MAX_FRAMES {
            return over;
        }
        let key = (node as *const Node, levels);
        if let Some(&frames) = memo.get(&key) {
            return frames;
        }
        let mut deepest = 0;
        let same_level = node
            .reference
            .and_then(|id| self.definition(id))
            .into_iter()
            .chain(&node.all_of)
            .chain(&node.any_of)
            .chain(&node.one_of)
            .chain(node.not.as_deref())
            .chain(node.property_names.as_deref());
        for child in same_level {
            deepest = deepest.max(self.frames(child, levels, used + 1, memo));
        }
        if levels > 0 {
            let below = node
                .prefix_items
                .iter()
                .chain(node.items.as_deref())
                .chain(node.properties.iter().map(|p| &p.node))
                .chain(node.additional_properties.as_deref())
                .chain(node.pattern_properties.iter().map(|(_, n)| n));
            for child in below {
                deepest = deepest.max(self.frames(child, levels - 1, used + 1, memo));
            }
        }
        let frames = (deepest + 1).min(over);
        memo.insert(key, frames);
        frames
    }
}
