//! The compact, TypeScript-like form of a schema for prompts: far fewer tokens than the
//! JSON Schema, and every constraint the validator enforces still stated.

use std::collections::HashMap;

use serde_json::{Number, Value};

use crate::schema::{DefId, Node, Schema, Types};

/// Objects and unions longer than this are written one member per line.
const LINE: usize = 100;

pub(crate) fn render(schema: &Schema) -> String {
    render_with(schema, true)
}

/// The compact form; `root_comment: false` leaves out the root's description, for
/// callers that show it already.
pub(crate) fn render_with(schema: &Schema, root_comment: bool) -> String {
    let hoisted = hoisted(schema);
    let mut writer = Writer {
        schema,
        hoisted: &hoisted,
    };
    let mut out = String::new();
    let mut names: Vec<(&DefId, &String)> = hoisted.iter().collect();
    names.sort_by_key(|(id, _)| id.0);
    for (id, name) in names {
        let Some(node) = schema.definition(*id) else {
            continue;
        };
        comment(&mut out, node.description.as_deref(), "");
        writer.declare(&mut out, name, node);
    }
    let root = &schema.root;
    if !out.is_empty() {
        out.push('\n');
    }
    let node = match root.reference {
        Some(id) if !hoisted.contains_key(&id) => schema.definition(id).unwrap_or(root),
        _ => root,
    };
    let body = writer.expr(node, "", true);
    if root_comment && let Some(description) = node.description.as_deref() {
        comment(&mut out, Some(description), "");
        // A union whose alternatives have comments of their own: keep the root's apart.
        if body.trim_start().starts_with("//") {
            out.push('\n');
        }
    }
    out.push_str(&body);
    out
}

/// The compact form of one node of a schema (a tool's arguments), with the named types
/// it uses declared first.
pub(crate) fn render_node(schema: &Schema, node: &Node) -> String {
    let hoisted = hoisted(schema);
    let mut writer = Writer {
        schema,
        hoisted: &hoisted,
    };
    let body = writer.expr(node, "", false);
    let mut out = String::new();
    let mut names: Vec<(&DefId, &String)> = hoisted
        .iter()
        .filter(|(_, name)| mentions(&body, name))
        .collect();
    names.sort_by_key(|(id, _)| id.0);
    for (id, name) in names {
        let Some(def) = schema.definition(*id) else {
            continue;
        };
        comment(&mut out, def.description.as_deref(), "");
        writer.declare(&mut out, name, def);
    }
    out.push_str(&body);
    out
}

fn mentions(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().last();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// Definitions written once and named: those used more than once, or recursive.
fn hoisted(schema: &Schema) -> HashMap<DefId, String> {
    let mut uses: HashMap<DefId, usize> = HashMap::new();
    let mut recursive: Vec<DefId> = Vec::new();
    fn visit(
        schema: &Schema,
        node: &Node,
        uses: &mut HashMap<DefId, usize>,
        stack: &mut Vec<DefId>,
        recursive: &mut Vec<DefId>,
    ) {
        let mut refs = Vec::new();
        let mut copy = node.clone();
        copy.for_each_mut(&mut |n| refs.extend(n.reference));
        for id in refs {
            if stack.contains(&id) {
                recursive.push(id);
                *uses.entry(id).or_default() += 1;
                continue;
            }
            let first = !uses.contains_key(&id);
            *uses.entry(id).or_default() += 1;
            if first && let Some(target) = schema.definition(id) {
                stack.push(id);
                visit(schema, target, uses, stack, recursive);
                stack.pop();
            }
        }
    }
    let mut stack: Vec<DefId> = schema.root.reference.into_iter().collect();
    let start = schema
        .root
        .reference
        .and_then(|id| schema.definition(id))
        .unwrap_or(&schema.root);
    visit(schema, start, &mut uses, &mut stack, &mut recursive);
    uses.into_iter()
        .filter(|(id, count)| *count > 1 || recursive.contains(id))
        .map(|(id, _)| (id, schema.definitions[id.0].name.clone()))
        .collect()
}

fn comment(out: &mut String, text: Option<&str>, indent: &str) {
    if let Some(text) = text {
        for line in text.lines() {
            out.push_str(indent);
            out.push_str("// ");
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
}

struct Writer<'a> {
    schema: &'a Schema,
    hoisted: &'a HashMap<DefId, String>,
}

impl Writer<'_> {
    /// `type Name = …`; a union of described or long alternatives one per line below.
    fn declare(&mut self, out: &mut String, name: &str, node: &Node) {
        let body = self.expr(node, "", true);
        if body.starts_with('|') || body.starts_with("//") {
            let body = self.expr(node, "  ", true);
            out.push_str(&format!("type {name} =\n{body}\n"));
        } else {
            out.push_str(&format!("type {name} = {body}\n"));
        }
    }

    /// The type expression of a node. `top` is the reply's own root.
    fn expr(&mut self, node: &Node, indent: &str, top: bool) -> String {
        if node.never {
            return "never".into();
        }
        let mut parts: Vec<String> = Vec::new();
        if let Some(id) = node.reference {
            match self.hoisted.get(&id) {
                Some(name) => parts.push(name.clone()),
                None => {
                    let target = self.schema.definition(id).cloned().unwrap_or_default();
                    parts.push(self.expr(&target, indent, false));
                }
            }
        }
        if let Some(values) = &node.enumeration {
            parts.push(values.iter().map(literal).collect::<Vec<_>>().join(" | "));
        } else if let Some(value) = &node.constant {
            parts.push(literal(value));
        } else if let Some(types) = node.types {
            let mut names = Vec::new();
            for name in types.names() {
                if name == "integer" && types.contains(Types::NUMBER) {
                    continue;
                }
                names.push(self.typed(node, name, indent));
            }
            parts.push(names.join(" | "));
        } else if !node.properties.is_empty() {
            parts.push(self.object(node, indent));
        }
        // Comments on the whole node: what an `allOf` part says only as a comment (its
        // bounds, the keys it asks for), and the keys the node's alternatives ask for.
        let mut notes = Vec::new();
        for sub in &node.all_of {
            let e = self.expr(sub, indent, false);
            match e.strip_prefix("any ") {
                Some(note) if note.starts_with("/*") => notes.push(note.to_owned()),
                _ if e == "any" => {}
                _ => parts.push(e),
            }
        }
        let alternatives = if node.one_of.is_empty() {
            &node.any_of
        } else {
            &node.one_of
        };
        if !alternatives.is_empty() {
            match keys_asked(alternatives) {
                Some(sets) => {
                    let how = if node.one_of.is_empty() {
                        "at least one of"
                    } else {
                        "exactly one of"
                    };
                    notes.push(format!("/* with {how}: {sets} */"));
                }
                None => parts.push(self.union(alternatives, indent, top && parts.is_empty())),
            }
        }
        if let Some(not) = &node.not {
            parts.push(format!("/* not {} */", self.expr(not, indent, false)));
        }
        let mut out = match parts.len() {
            0 => "any".to_owned(),
            1 => parts.remove(0),
            _ => parts.join(" & "),
        };
        if (node.types.is_none() || node.enumeration.is_some() || node.constant.is_some())
            && let Some(c) = constraints(node, None)
        {
            out.push_str(&format!(" /* {c} */"));
        }
        for note in notes {
            out.push(' ');
            out.push_str(&note);
        }
        out
    }

    /// `A | B`, one alternative per line (with its description) when long; in
    /// parentheses unless it is the whole reply.
    fn union(&mut self, alternatives: &[Node], indent: &str, top: bool) -> String {
        // `T | null`, the shape of an Option.
        if let [inner, null] = alternatives
            && *null == Node::of_type(Types::NULL)
        {
            return format!("{} | null", self.expr(inner, indent, false));
        }
        let inner = format!("{indent}  ");
        let rendered: Vec<(Option<String>, String)> = alternatives
            .iter()
            .map(|alt| (alt.description.clone(), self.expr(alt, &inner, false)))
            .collect();
        let one_line = rendered
            .iter()
            .all(|(d, e)| d.is_none() && !e.contains('\n'))
            && rendered.iter().map(|(_, e)| e.len() + 3).sum::<usize>() <= LINE;
        if one_line {
            return rendered
                .into_iter()
                .map(|(_, e)| e)
                .collect::<Vec<_>>()
                .join(" | ");
        }
        if top {
            let mut out = String::new();
            for (description, e) in rendered {
                comment(&mut out, description.as_deref(), indent);
                out.push_str(&format!("{indent}| {e}\n"));
            }
            out.pop();
            return out;
        }
        let mut out = String::from("(\n");
        for (description, e) in rendered {
            comment(&mut out, description.as_deref(), &inner);
            out.push_str(&format!("{inner}| {e}\n"));
        }
        out.push_str(indent);
        out.push(')');
        out
    }

    /// One JSON type of a node, with the constraints that apply to it.
    fn typed(&mut self, node: &Node, name: &str, indent: &str) -> String {
        let base = match name {
            "string" => "string".to_owned(),
            "integer" | "number" if sized(node).is_some() => {
                sized(node).unwrap_or_default().to_owned()
            }
            "integer" => "int".to_owned(),
            "number" => "number".to_owned(),
            "boolean" => "boolean".to_owned(),
            "null" => return "null".to_owned(),
            "array" => self.array(node, indent),
            _ => self.object(node, indent),
        };
        match constraints(node, Some(name)) {
            Some(c) => format!("{base} /* {c} */"),
            None => base,
        }
    }

    fn array(&mut self, node: &Node, indent: &str) -> String {
        if !node.prefix_items.is_empty() {
            let items: Vec<String> = node
                .prefix_items
                .iter()
                .map(|i| self.expr(i, indent, false))
                .collect();
            let rest = match node.items.as_deref() {
                Some(rest) if !rest.never => format!(", ...{}[]", self.expr(rest, indent, false)),
                _ => String::new(),
            };
            return format!("[{}{rest}]", items.join(", "));
        }
        match node.items.as_deref() {
            Some(items) => {
                let e = self.expr(items, indent, false);
                if e.contains(' ') && !e.starts_with('{') || e.contains('\n') && !e.starts_with('{')
                {
                    format!("({e})[]")
                } else {
                    format!("{e}[]")
                }
            }
            None => "any[]".to_owned(),
        }
    }

    fn object(&mut self, node: &Node, indent: &str) -> String {
        let inner = format!("{indent}  ");
        let mut lines: Vec<(Option<String>, String)> = Vec::new();
        for p in &node.properties {
            let key = key(&p.name);
            let optional = if p.required { "" } else { "?" };
            let target = p.node.reference.and_then(|id| self.schema.definition(id));
            let description = p.node.description.clone().or_else(|| {
                let hoisted = p
                    .node
                    .reference
                    .is_some_and(|id| self.hoisted.contains_key(&id));
                if hoisted {
                    None
                } else {
                    target.and_then(|t| t.description.clone())
                }
            });
            // Aliases are left out: the model should write the field's own name.
            let mut e = self.expr(&p.node, &inner, false);
            if !p.node.examples.is_empty() {
                let examples: Vec<String> = p.node.examples.iter().map(literal).collect();
                note(&mut e, &format!("e.g. {}", examples.join(", ")));
            }
            lines.push((description, format!("{key}{optional}: {e}")));
        }
        for (pattern, schema) in &node.pattern_properties {
            let e = self.expr(schema, &inner, false);
            lines.push((
                None,
                format!("[key: string /* matches {} */]: {e}", pattern.source),
            ));
        }
        match node.additional_properties.as_deref() {
            Some(n) if n.never => {}
            Some(n) => {
                let e = self.expr(n, &inner, false);
                lines.push((None, format!("[key: string]: {e}")));
            }
            None if node.properties.is_empty() => {
                lines.push((None, "[key: string]: any".to_owned()))
            }
            None => lines.push((None, "[key: string]: any".to_owned())),
        }
        for name in &node.required_extra {
            lines.push((None, format!("{}: any", key(name))));
        }
        if lines.is_empty() {
            return "{}".to_owned();
        }
        let one_line = lines.iter().all(|(d, l)| d.is_none() && !l.contains('\n'))
            && lines.iter().map(|(_, l)| l.len() + 2).sum::<usize>() + 4 <= LINE;
        if one_line {
            let body: Vec<String> = lines.into_iter().map(|(_, l)| l).collect();
            return format!("{{ {} }}", body.join(", "));
        }
        let mut out = String::from("{\n");
        for (description, line) in lines {
            comment(&mut out, description.as_deref(), &inner);
            out.push_str(&format!("{inner}{line},\n"));
        }
        out.push_str(indent);
        out.push('}');
        out
    }
}

/// A key as TypeScript writes it: bare when it is an identifier.
fn key(name: &str) -> String {
    let identifier = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    if identifier {
        name.to_owned()
    } else {
        literal(&Value::from(name))
    }
}

fn literal(value: &Value) -> String {
    value.to_string()
}

/// Bounds in short form: 2^32-1 rather than 4294967295.
fn number(n: &Number) -> String {
    const NAMED: [(i128, &str); 7] = [
        (18_446_744_073_709_551_615, "2^64-1"),
        (9_223_372_036_854_775_807, "2^63-1"),
        (-9_223_372_036_854_775_808, "-2^63"),
        (4_294_967_295, "2^32-1"),
        (2_147_483_647, "2^31-1"),
        (-2_147_483_648, "-2^31"),
        (65_535, "65535"),
    ];
    let exact = n
        .as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from));
    if let Some(i) = exact
        && let Some((_, name)) = NAMED.iter().find(|(v, _)| *v == i)
    {
        return (*name).to_owned();
    }
    n.to_string()
}

/// The name of a machine number type whose whole range the bounds are: `int32` says
/// what `int /* -2^31..=2^31-1 */` says, in two tokens.
fn sized(node: &Node) -> Option<&'static str> {
    let (min, max) = (node.minimum.as_ref()?, node.maximum.as_ref()?);
    let types = node.types?;
    if types.contains(Types::NUMBER) {
        let f32_max = f64::from(f32::MAX);
        return (min.as_f64() == Some(-f32_max) && max.as_f64() == Some(f32_max))
            .then_some("float32");
    }
    if !types.contains(Types::INTEGER) {
        return None;
    }
    let (min, max) = (min.as_i64()?, i128::from(max.as_u64()?));
    match (min, max) {
        (-2_147_483_648, 2_147_483_647) => Some("int32"),
        (0, 4_294_967_295) => Some("uint32"),
        (-9_223_372_036_854_775_808, 9_223_372_036_854_775_807) => Some("int64"),
        (0, 18_446_744_073_709_551_615) => Some("uint64"),
        _ => None,
    }
}

/// Adds a note to a type expression: into its one comment when it has one, so a field
/// reads `string /* 1..=80 chars, e.g. "x" */` rather than two comments in a row.
fn note(e: &mut String, text: &str) {
    if e.ends_with(" */") && e.matches("/*").count() == 1 {
        e.truncate(e.len() - 3);
        e.push_str(&format!(", {text} */"));
    } else {
        e.push_str(&format!(" /* {text} */"));
    }
}

fn range(min: Option<String>, max: Option<String>, unit: &str) -> Option<String> {
    let unit = if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    };
    match (min, max) {
        (Some(a), Some(b)) if a == b => Some(format!("exactly {a}{unit}")),
        (Some(a), Some(b)) => Some(format!("{a}..={b}{unit}")),
        (Some(a), None) => Some(format!("at least {a}{unit}")),
        (None, Some(b)) => Some(format!("at most {b}{unit}")),
        (None, None) => None,
    }
}

/// The keys an `anyOf`/`oneOf` of bare `required` lists asks for, as the prompt says it:
/// `a | b and c` for `[{"required": ["a"]}, {"required": ["b", "c"]}]`. `None` when an
/// alternative says more than which keys it needs (a type, a description): it is
/// rendered as a type then, with its description.
fn keys_asked(alternatives: &[Node]) -> Option<String> {
    let sets = alternatives.iter().map(|alternative| {
        let bare = Node {
            required_extra: alternative.required_extra.clone(),
            title: alternative.title.clone(),
            ..Node::default()
        };
        (!alternative.required_extra.is_empty() && *alternative == bare)
            .then(|| alternative.required_extra.join(" and "))
    });
    Some(sets.collect::<Option<Vec<_>>>()?.join(" | "))
}

/// The constraints of a node that apply to values of type `name` (all, when `None`).
fn constraints(node: &Node, name: Option<&str>) -> Option<String> {
    let applies = |t: &str| name.is_none_or(|n| n == t || (t == "number" && n == "integer"));
    let mut parts = Vec::new();
    if applies("number") {
        let min = node.minimum.as_ref().map(number);
        let max = node.maximum.as_ref().map(number);
        if (min.is_some() || max.is_some()) && (name.is_none() || sized(node).is_none()) {
            parts.extend(range(min, max, ""));
        }
        if let Some(n) = &node.exclusive_minimum {
            parts.push(format!("> {}", number(n)));
        }
        if let Some(n) = &node.exclusive_maximum {
            parts.push(format!("< {}", number(n)));
        }
        if let Some(n) = &node.multiple_of {
            parts.push(format!("multiple of {n}"));
        }
    }
    if applies("string") {
        let unit = if node.max_length == Some(1) && node.min_length == Some(1) {
            "char"
        } else {
            "chars"
        };
        parts.extend(range(
            node.min_length.map(|n| n.to_string()),
            node.max_length.map(|n| n.to_string()),
            unit,
        ));
        if let Some(p) = &node.pattern {
            parts.push(format!("matches {}", p.source));
        }
        if let Some(f) = &node.format {
            parts.push(f.clone());
        }
    }
    if applies("array") {
        parts.extend(range(
            node.min_items.map(|n| n.to_string()),
            node.max_items.map(|n| n.to_string()),
            "items",
        ));
        if node.unique_items {
            parts.push("unique".into());
        }
    }
    if applies("object") {
        parts.extend(range(
            node.min_properties.map(|n| n.to_string()),
            node.max_properties.map(|n| n.to_string()),
            "keys",
        ));
        for (trigger, keys) in &node.dependent_required {
            parts.push(format!("with {trigger:?} also {}", keys.join(", ")));
        }
    }
    // A tuple's length is its item list; don't repeat it.
    if !node.prefix_items.is_empty() {
        parts.retain(|p| !p.ends_with("items"));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}
