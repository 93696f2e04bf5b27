//! A valid example value generated from a schema: `#[schema(example)]` values where
//! given, otherwise values inside the ranges, lengths, patterns and enums.

use std::cell::{Cell, RefCell};

use regex_syntax::hir::{Class, Hir, HirKind};
use serde_json::{Map, Number, Value};

use crate::schema::{DefId, Node, Schema, Types};
use crate::value::json_eq;

/// Nesting beyond which optional parts are left out, so recursive types end.
const DEEP: usize = 6;

/// Nodes written at most: a bound on the search among alternatives.
const MAX_STEPS: usize = 20_000;

pub(crate) fn generate(schema: &Schema) -> Value {
    generate_node(schema, &schema.root)
}

/// An example of one node of a schema (a tool's arguments).
pub(crate) fn generate_node(schema: &Schema, node: &Node) -> Value {
    Generator::new(schema, false).value(node, 0, 0)
}

/// An example in which optional keys are `null` where the schema allows it and left out
/// otherwise: what a reply looks like when the request does not give them.
pub(crate) fn generate_sparse(schema: &Schema) -> Value {
    Generator::new(schema, true).value(&schema.root, 0, 0)
}

/// A sparse example whose strings are placeholders, not values: `"<name>"` where any text
/// will do, the form of a pattern or format (`"INV-0000"`, `"YYYY-MM-DD"`) where one is
/// required. Numbers, booleans, enums, defaults and `#[schema(example)]` values are as in
/// [`generate_sparse`].
pub(crate) fn generate_placeholders(schema: &Schema) -> Value {
    let mut generator = Generator::new(schema, true);
    generator.placeholders = true;
    generator.value(&schema.root, 0, 0)
}

struct Generator<'a> {
    schema: &'a Schema,
    /// The definitions being written, outermost first.
    expanding: RefCell<Vec<DefId>>,
    steps: Cell<usize>,
    /// Optional keys as absent (`null` or left out) rather than with a value.
    sparse: bool,
    /// Strings as placeholders named after their key (see [`generate_placeholders`]).
    placeholders: bool,
    /// The key whose value is being written, for placeholders.
    label: RefCell<String>,
}

impl<'a> Generator<'a> {
    fn new(schema: &'a Schema, sparse: bool) -> Self {
        Generator {
            schema,
            expanding: RefCell::new(Vec::new()),
            steps: Cell::new(0),
            sparse,
            placeholders: false,
            label: RefCell::new("value".to_owned()),
        }
    }

    /// `salt` varies values so unique items differ.
    fn value(&self, node: &Node, depth: usize, salt: usize) -> Value {
        let Some(id) = node.reference else {
            return self.resolved(node, depth, salt);
        };
        // A definition met again inside itself: from here on only what is required, so
        // the example of a recursive type shows one level of nesting and ends.
        let depth = if self.expanding.borrow().contains(&id) {
            depth.max(DEEP + 1)
        } else {
            depth
        };
        self.expanding.borrow_mut().push(id);
        let value = self.resolved(self.schema.resolve(node), depth, salt);
        self.expanding.borrow_mut().pop();
        value
    }

    fn resolved(&self, node: &Node, depth: usize, salt: usize) -> Value {
        self.steps.set(self.steps.get() + 1);
        if depth > 64 || self.steps.get() > MAX_STEPS {
            return Value::Null;
        }
        if let Some(example) = node.examples.get(salt).or(node.examples.first()) {
            return example.clone();
        }
        if let Some(constant) = &node.constant {
            return constant.clone();
        }
        if let Some(values) = &node.enumeration {
            let non_null: Vec<&Value> = values.iter().filter(|v| !v.is_null()).collect();
            let pick = non_null
                .get(salt % non_null.len().max(1))
                .copied()
                .or(values.first());
            return pick.cloned().unwrap_or(Value::Null);
        }
        if let Some(default) = &node.default
            && salt == 0
        {
            return default.clone();
        }
        if !node.all_of.is_empty() {
            // Merge object parts; otherwise the first part decides.
            let mut merged = Map::new();
            let mut other = None;
            for part in std::iter::once(node).chain(node.all_of.iter()) {
                match self.typed(part, depth, salt) {
                    Some(Value::Object(map)) => merged.extend(map),
                    Some(v) => other = other.or(Some(v)),
                    None => {}
                }
            }
            return if merged.is_empty() {
                other.unwrap_or(Value::Null)
            } else {
                Value::Object(merged)
            };
        }
        if let Some(v) = self.typed(node, depth, salt) {
            return v;
        }
        let alternatives = if node.one_of.is_empty() {
            &node.any_of
        } else {
            &node.one_of
        };
        // Inside a recursive type, alternatives that recurse again come last, so the
        // example ends.
        let mut order: Vec<&Node> = alternatives.iter().collect();
        if depth > DEEP {
            order.sort_by_key(|alt| self.recurses(alt));
        }
        // Prefer an alternative that is not null, and one that the value passes alone.
        let mut fallback = None;
        for alt in order {
            let candidate = self.value(alt, depth + 1, salt);
            if candidate.is_null() && fallback.is_none() {
                fallback = Some(candidate);
                continue;
            }
            if self.schema.passes(node, &candidate) {
                return candidate;
            }
            fallback = fallback.or(Some(candidate));
        }
        fallback.unwrap_or(Value::Null)
    }

    /// Whether a node refers, directly or through other definitions, to one of the
    /// definitions being written.
    fn recurses(&self, node: &Node) -> bool {
        let expanding = self.expanding.borrow();
        let mut seen: Vec<DefId> = Vec::new();
        let mut todo = vec![node.clone()];
        while let Some(mut next) = todo.pop() {
            let mut refs = Vec::new();
            next.for_each_mut(&mut |n| refs.extend(n.reference));
            for id in refs {
                if expanding.contains(&id) {
                    return true;
                }
                if !seen.contains(&id) {
                    seen.push(id);
                    todo.extend(self.schema.definition(id).cloned());
                }
            }
        }
        false
    }

    /// A value of the node's own type, if it has one.
    fn typed(&self, node: &Node, depth: usize, salt: usize) -> Option<Value> {
        let types = match node.types {
            Some(t) => t,
            None if !node.properties.is_empty() => Types::OBJECT,
            None => return None,
        };
        let order = [
            Types::OBJECT,
            Types::ARRAY,
            Types::STRING,
            Types::INTEGER,
            Types::NUMBER,
            Types::BOOLEAN,
            Types::NULL,
        ];
        let chosen = order.into_iter().find(|t| types.contains(*t))?;
        Some(match chosen {
            Types::OBJECT => self.object(node, depth, salt),
            Types::ARRAY => self.array(node, depth, salt),
            Types::STRING if self.placeholders => {
                Value::String(placeholder(node, &self.label.borrow(), salt))
            }
            Types::STRING => Value::String(string(node, salt)),
            Types::INTEGER => number(node, true, salt),
            Types::NUMBER => number(node, false, salt),
            Types::BOOLEAN => Value::Bool(salt.is_multiple_of(2)),
            _ => Value::Null,
        })
    }

    fn object(&self, node: &Node, depth: usize, salt: usize) -> Value {
        let mut map = Map::new();
        for p in &node.properties {
            // Deep inside recursive types, only what is required.
            if !p.required && depth > DEEP {
                continue;
            }
            if !p.required && self.sparse {
                if self.admits_null(&p.node, 0) {
                    map.insert(p.name.clone(), Value::Null);
                }
                continue;
            }
            let outer = self.label.replace(p.name.clone());
            let value = self.value(&p.node, depth + 1, salt);
            self.label.replace(outer);
            map.insert(p.name.clone(), value);
        }
        for name in &node.required_extra {
            map.entry(name.clone()).or_insert(Value::Null);
        }
        if map.is_empty()
            && let Some(values) = node.additional_properties.as_deref().filter(|n| !n.never)
            && depth <= DEEP
        {
            map.insert("key".into(), self.value(values, depth + 1, salt));
        }
        Value::Object(map)
    }

    /// Whether `null` is one of the node's values (looking a few alternatives deep).
    fn admits_null(&self, node: &Node, depth: usize) -> bool {
        let node = self.schema.resolve(node);
        node.types.is_some_and(|t| t.contains(Types::NULL))
            || (depth < 4
                && node
                    .any_of
                    .iter()
                    .chain(&node.one_of)
                    .any(|alt| self.admits_null(alt, depth + 1)))
    }

    fn array(&self, node: &Node, depth: usize, salt: usize) -> Value {
        let mut items: Vec<Value> = node
            .prefix_items
            .iter()
            .enumerate()
            .map(|(i, n)| self.value(n, depth + 1, salt + i))
            .collect();
        if let Some(item) = node.items.as_deref().filter(|n| !n.never) {
            let wanted = if depth > DEEP { 0 } else { 1 };
            let count = node
                .min_items
                .unwrap_or(0)
                .max(wanted)
                .min(node.max_items.unwrap_or(usize::MAX));
            let mut salt = salt;
            while items.len() < count {
                let mut candidate = self.value(item, depth + 1, salt);
                // Unique items must differ: vary until they do, within reason.
                let mut tries = 0;
                while node.unique_items
                    && items.iter().any(|v| json_eq(v, &candidate))
                    && tries < 32
                {
                    salt += 1;
                    tries += 1;
                    candidate = self.value(item, depth + 1, salt);
                }
                items.push(candidate);
                salt += 1;
            }
        }
        Value::Array(items)
    }
}

/// Values people write, tried first against a pattern so an example looks like data:
/// `2025-06-14` for a date pattern, not the first character of each class.
const REALISTIC: &[&str] = &[
    "2025-06-14",
    "2025-06-14T09:30:00Z",
    "09:30:00",
    "09:30",
    "ann@example.com",
    "https://example.com/page",
    "123e4567-e89b-12d3-a456-426614174000",
    "A-100",
    "AB-1234",
    "FR",
    "ABC",
    "EUR",
    "+1 555 0100",
    "555-0100",
    "#1a2b3c",
    "1.2.3",
    "10115",
    "Ann Lee",
    "Ann",
    "ann",
    "text",
    "42",
    "3.5",
    "2025",
    "Q3",
];

/// A string the node accepts: its format's example, a realistic value that fits its
/// pattern, or one built from the pattern with ASCII wherever the pattern allows it.
pub(crate) fn string(node: &Node, salt: usize) -> String {
    let min = node.min_length.unwrap_or(0);
    let max = node.max_length.unwrap_or(usize::MAX);
    let fits = |s: &str| {
        let n = s.chars().count();
        n >= min && n <= max && node.pattern.as_ref().is_none_or(|p| p.regex.is_match(s))
    };
    let by_format = match node.format.as_deref() {
        Some("date") => Some("2025-06-14"),
        Some("date-time") => Some("2025-06-14T09:30:00Z"),
        Some("time") => Some("09:30:00Z"),
        Some("email") => Some("ann@example.com"),
        Some("uri") | Some("url") => Some("https://example.com/page"),
        Some("uuid") => Some("123e4567-e89b-12d3-a456-426614174000"),
        _ => None,
    };
    let word = if salt == 0 {
        "text".to_owned()
    } else {
        format!("text{salt}")
    };
    let mut candidates: Vec<String> = by_format.map(str::to_owned).into_iter().collect();
    if let Some(pattern) = &node.pattern {
        // Realistic values vary with `salt` only among those that fit.
        let realistic: Vec<&str> = REALISTIC.iter().copied().filter(|s| fits(s)).collect();
        if let Some(pick) = realistic.get(salt % realistic.len().max(1)) {
            candidates.push((*pick).to_owned());
        }
        if let Ok(hir) = regex_syntax::parse(&crate::schema::ecma_to_rust(&pattern.source)) {
            candidates.push(from_regex(&hir, salt, min));
        }
    }
    candidates.push(word.clone());
    if let Some(found) = candidates.iter().find(|c| fits(c)) {
        return found.clone();
    }
    // Pad or cut a plain word to the length.
    let base = candidates.first().cloned().unwrap_or(word);
    let mut s: String = base.chars().take(max).collect();
    while s.chars().count() < min {
        s.push('x');
    }
    s
}

/// A placeholder string for a node (see [`generate_placeholders`]): the form its pattern or
/// format requires, else `<label>`, else (a length too short for it) an ordinary example.
fn placeholder(node: &Node, label: &str, salt: usize) -> String {
    if let Some(form) = form(node) {
        return form.text;
    }
    let named = match salt {
        0 => format!("<{label}>"),
        n => format!("<{label} {}>", n + 1),
    };
    let n = named.chars().count();
    if node.pattern.is_none()
        && n >= node.min_length.unwrap_or(0)
        && n <= node.max_length.unwrap_or(usize::MAX)
    {
        return named;
    }
    string(node, salt)
}

/// How a node's strings are written, where a pattern or an asserted format fixes it: the
/// format's form (`YYYY-MM-DD`), or the pattern's mask (`INV-0000` for `^INV-[0-9]{4}$`:
/// literals as written, digits as `0`, letters as `X` or `x`, repetitions at their least).
///
/// A mask matches its pattern but reads as a form, not a value: an invoice numbered
/// `INV-0000` is no invoice of any request, where the realistic example (`INV-0123`) is
/// what a small model copies over the number the request gave. `None` where the mask does
/// not fit the node (a class without those characters, a length it breaks).
pub(crate) fn form(node: &Node) -> Option<StringForm> {
    if let Some(form) = node.format.as_deref().and_then(crate::formats::form) {
        return Some(StringForm {
            text: form.to_owned(),
            legend: None,
        });
    }
    let pattern = node.pattern.as_ref()?;
    let hir = regex_syntax::parse(&crate::schema::ecma_to_rust(&pattern.source)).ok()?;
    let mut mask = Mask::default();
    write_mask(&hir, &mut mask);
    let n = mask.text.chars().count();
    let fits = n >= node.min_length.unwrap_or(0)
        && n <= node.max_length.unwrap_or(usize::MAX)
        && pattern.regex.is_match(&mask.text);
    fits.then(|| StringForm {
        legend: mask.legend(),
        text: mask.text,
    })
}

/// The form of a node's strings ([`form`]), and what its mask's letters stand for.
pub(crate) struct StringForm {
    /// `INV-0000`, `YYYY-MM-DD`.
    pub text: String,
    /// `X stands for a capital letter, 0 for a digit`: a mask of two capitals (`XX`) reads
    /// as a word of its own to a model, which writes `USA` for it; `None` for a format's
    /// form, which says what it is.
    pub legend: Option<String>,
}

/// A pattern's mask as it is written, and which classes stand in it as `X`, `x` or `0`.
#[derive(Default)]
struct Mask {
    text: String,
    /// The classes written as a symbol that they are exactly: `X` for `[A-Z]`, `x` for
    /// `[a-z]`, `0` for `[0-9]` or `\d`.
    classes: Vec<char>,
    /// The symbols that also stand for something else: a literal (`X` of `^X-[0-9]+$`)
    /// or a wider class (`x` of `[a-z0-9]`). They are left out of the legend, which would
    /// misread them.
    unclear: Vec<char>,
}

impl Mask {
    fn legend(&self) -> Option<String> {
        let meant: Vec<String> = [
            ('X', "a capital letter"),
            ('x', "a small letter"),
            ('0', "a digit"),
        ]
        .into_iter()
        .filter(|(symbol, _)| self.classes.contains(symbol) && !self.unclear.contains(symbol))
        .enumerate()
        .map(|(i, (symbol, what))| match i {
            0 => format!("{symbol} stands for {what}"),
            _ => format!("{symbol} for {what}"),
        })
        .collect();
        (!meant.is_empty()).then(|| meant.join(", "))
    }
}

fn write_mask(hir: &Hir, out: &mut Mask) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(lit) => {
            let literal = String::from_utf8_lossy(&lit.0);
            out.unclear
                .extend(literal.chars().filter(|c| matches!(c, 'X' | 'x' | '0')));
            out.text.push_str(&literal);
        }
        HirKind::Class(Class::Unicode(class)) => {
            let allowed = |c: char| {
                class
                    .ranges()
                    .iter()
                    .any(|r| r.start() <= c && c <= r.end())
            };
            let all = |from: char, to: char| (from..=to).all(allowed);
            let c = if all('a', 'z') {
                Some('x')
            } else if all('A', 'Z') {
                Some('X')
            } else if all('0', '9') {
                Some('0')
            } else {
                PREFERRED
                    .chars()
                    .find(|&c| allowed(c))
                    .or_else(|| class.ranges().first().map(|r| r.start()))
            };
            if let Some(symbol @ ('x' | 'X' | '0')) = c {
                // `X` of `[A-Z]` is a capital letter; of `[A-Za-z]`, more than that.
                let (from, to) = match symbol {
                    'x' => ('a', 'z'),
                    'X' => ('A', 'Z'),
                    _ => ('0', '9'),
                };
                let exact = matches!(class.ranges(), [r] if r.start() == from && r.end() == to);
                if exact {
                    out.classes.push(symbol);
                } else {
                    out.unclear.push(symbol);
                }
            }
            out.text.extend(c);
        }
        HirKind::Class(Class::Bytes(class)) => {
            if let Some(r) = class.ranges().first() {
                let c = char::from(r.start());
                // A byte class is never one of the legend's classes.
                if matches!(c, 'X' | 'x' | '0') {
                    out.unclear.push(c);
                }
                out.text.push(c);
            }
        }
        HirKind::Repetition(rep) => {
            let times = rep.min.max(1).min(rep.max.unwrap_or(u32::MAX));
            for _ in 0..times.min(64) {
                write_mask(&rep.sub, out);
            }
        }
        HirKind::Capture(cap) => write_mask(&cap.sub, out),
        HirKind::Concat(parts) => parts.iter().for_each(|part| write_mask(part, out)),
        HirKind::Alternation(alts) => {
            if let Some(first) = alts.first() {
                write_mask(first, out);
            }
        }
    }
}

/// Characters an example prefers, in order, where a class allows them.
const PREFERRED: &str = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -_.@:/+#";

/// A string matching a parsed regular expression: literals, ASCII letters and digits from
/// classes where they allow them, the `salt`-th alternative, repetitions at their minimum
/// (once where they may be empty, and long enough for `min` characters).
fn from_regex(hir: &Hir, salt: usize, min: usize) -> String {
    let mut out = String::new();
    write_regex(hir, salt, &mut out);
    if out.chars().count() < min {
        // Repeat the last repetition more: the simplest way to reach a minimum length.
        let mut longer = String::new();
        write_regex_repeating(hir, salt, min, &mut longer);
        if longer.chars().count() >= min {
            return longer;
        }
    }
    out
}

fn write_regex(hir: &Hir, salt: usize, out: &mut String) {
    write_regex_repeating(hir, salt, 0, out)
}

/// `extra`: how many more times unbounded repetitions may repeat.
fn write_regex_repeating(hir: &Hir, salt: usize, extra: usize, out: &mut String) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(lit) => out.push_str(&String::from_utf8_lossy(&lit.0)),
        HirKind::Class(Class::Unicode(class)) => {
            let allowed = |c: char| {
                class
                    .ranges()
                    .iter()
                    .any(|r| r.start() <= c && c <= r.end())
            };
            let preferred: Vec<char> = PREFERRED.chars().filter(|&c| allowed(c)).collect();
            let c = preferred
                .get(salt % preferred.len().max(1))
                .copied()
                .or_else(|| class.ranges().first().map(|r| r.start()));
            out.extend(c);
        }
        HirKind::Class(Class::Bytes(class)) => {
            if let Some(r) = class.ranges().first() {
                out.push(char::from(r.start()));
            }
        }
        HirKind::Repetition(rep) => {
            let wanted = rep.min.max(1).min(rep.max.unwrap_or(u32::MAX));
            let times = if rep.max.is_none() {
                wanted as usize + extra
            } else {
                wanted as usize
            };
            for i in 0..times.min(64) {
                write_regex_repeating(&rep.sub, salt + i, extra, out);
            }
        }
        HirKind::Capture(cap) => write_regex_repeating(&cap.sub, salt, extra, out),
        HirKind::Concat(parts) => {
            for part in parts {
                write_regex_repeating(part, salt, extra, out);
            }
        }
        HirKind::Alternation(alts) => {
            if let Some(first) = alts.get(salt % alts.len().max(1)) {
                write_regex_repeating(first, salt, extra, out);
            }
        }
    }
}

fn number(node: &Node, integer: bool, salt: usize) -> Value {
    let get = |n: &Option<Number>| n.as_ref().and_then(Number::as_f64);
    let mut low = get(&node.minimum).unwrap_or(f64::MIN);
    let mut high = get(&node.maximum).unwrap_or(f64::MAX);
    if let Some(x) = get(&node.exclusive_minimum) {
        low = low.max(if integer { x.floor() + 1.0 } else { x + 0.5 });
    }
    if let Some(x) = get(&node.exclusive_maximum) {
        high = high.min(if integer { x.ceil() - 1.0 } else { x - 0.5 });
    }
    let preferred = if integer {
        1.0 + salt as f64
    } else {
        1.5 + salt as f64
    };
    let mut value = preferred.clamp(low.min(high), high.max(low));
    if integer {
        value = value.ceil().min(high.floor()).max(low.ceil());
    }
    if let Some(step) = get(&node.multiple_of).filter(|s| *s > 0.0) {
        let k = (value / step).ceil();
        value = k * step;
        if value > high {
            value = (high / step).floor() * step;
        }
    }
    if integer && value.fract() == 0.0 && value.abs() < 9.0e15 {
        return Value::Number(Number::from(value as i64));
    }
    Number::from_f64(value).map_or(Value::Null, Value::Number)
}
