//! Markdown documentation of a type or a union of tools, for prompts and for people:
//! generate it at build time and `include_str!` it.

use std::fmt::Write as _;

use crate::render;
use crate::schema::union::ToolUnion;
use crate::schema::{Node, Schema};
use crate::tool_schema::ToolSchema;

/// Markdown docs for `T`: for a union of tools, one section per tool (name, description,
/// arguments in compact form, an example call, field hints) and the answer; for any
/// other type, its description, compact form, an example and field hints.
///
/// ```
/// use toolschema::ToolSchema;
///
/// #[derive(ToolSchema)]
/// struct GetWeather {
///     /// City name, e.g. "Paris".
///     #[schema(hint = "a city, not a country")]
///     city: String,
/// }
///
/// #[derive(ToolSchema)]
/// enum Step {
///     /// Look up the weather for a city.
///     #[tool]
///     GetWeather(GetWeather),
///     #[answer]
///     Answer(String),
/// }
///
/// let docs = toolschema::docs::markdown::<Step>();
/// assert!(docs.contains("## `get_weather`\n\nLook up the weather for a city."));
/// assert!(docs.contains("- `city`: a city, not a country"));
/// ```
pub fn markdown<T: ToolSchema>() -> String {
    markdown_schema(&Schema::of::<T>(), &T::schema_name())
}

/// Markdown docs for a schema known at run time, titled `title`.
pub fn markdown_schema(schema: &Schema, title: &str) -> String {
    let root = schema.resolve(schema.root());
    match ToolUnion::at_root(schema) {
        Some(tools) => union(schema, root, &tools),
        None => single(schema, root, title),
    }
}

/// A section of a union's docs: a tool (its name) or the answer (`name` is `None`), its
/// alternative and what it carries (the arguments or the answer).
struct Section<'a> {
    name: Option<&'a str>,
    node: &'a Node,
    payload: &'a Node,
}

fn union(schema: &Schema, root: &Node, union: &ToolUnion) -> String {
    let mut out = String::from("# Tools\n\n");
    if let Some(d) = &root.description {
        let _ = writeln!(out, "{d}\n");
    }
    out.push_str(
        "Reply with exactly one JSON object: a tool call `{\"name\": …, \"arguments\": {…}}`",
    );
    out.push_str(if union.has_answer() {
        " or the answer `{\"answer\": …}`.\n"
    } else {
        ".\n"
    });
    let tools = union.tools.iter().map(|t| Section {
        name: Some(t.name),
        node: t.alternative,
        payload: t.arguments,
    });
    let answer = union.answer.iter().map(|a| Section {
        name: None,
        node: a.alternative,
        payload: a.value,
    });
    for section_of in tools.chain(answer) {
        let example = render::example_node(schema, section_of.node);
        let (title, shape, example_title) = match section_of.name {
            Some(name) => (format!("`{name}`"), "Arguments", "Example call"),
            None => ("Answer".to_owned(), "Shape", "Example"),
        };
        heading(&mut out, &title);
        describe(&mut out, schema, section_of.node, section_of.payload);
        section(
            &mut out,
            shape,
            "ts",
            &render::compact_node(schema, section_of.payload),
        );
        section(&mut out, example_title, "json", &example.to_string());
        hints(&mut out, schema, section_of.payload);
    }
    finish(out)
}

/// A `##` heading after exactly one blank line.
fn heading(out: &mut String, text: &str) {
    while out.ends_with("\n\n") {
        out.pop();
    }
    let _ = write!(out, "\n## {text}\n\n");
}

/// The text with one newline at the end.
fn finish(mut out: String) -> String {
    while out.ends_with('\n') {
        out.pop();
    }
    out.push('\n');
    out
}

fn single(schema: &Schema, root: &Node, title: &str) -> String {
    let mut out = format!("# {title}\n\n");
    if let Some(d) = &root.description {
        let _ = writeln!(out, "{d}\n");
    }
    // The description is the paragraph above; the shape need not repeat it.
    let shape = render::compact_with(schema, root.description.is_none());
    section(&mut out, "Shape", "ts", &shape);
    section(
        &mut out,
        "Example",
        "json",
        &render::example_schema(schema).to_string(),
    );
    hints(&mut out, schema, root);
    finish(out)
}

fn describe(out: &mut String, schema: &Schema, node: &Node, payload: &Node) {
    let text = node
        .description
        .as_deref()
        .or(schema.resolve(payload).description.as_deref());
    if let Some(text) = text {
        let _ = writeln!(out, "{text}\n");
    }
}

fn section(out: &mut String, heading: &str, language: &str, body: &str) {
    let _ = writeln!(out, "{heading}:\n\n```{language}\n{body}\n```\n");
}

/// `- path: hint` for every field with a hint, looking into nested types once.
fn hints(out: &mut String, schema: &Schema, node: &Node) {
    let mut found = Vec::new();
    collect(schema, node, String::new(), &mut found, &mut Vec::new());
    if found.is_empty() {
        return;
    }
    out.push_str("Field hints:\n\n");
    for (path, hint) in found {
        let _ = writeln!(out, "- `{path}`: {hint}");
    }
}

fn collect(
    schema: &Schema,
    node: &Node,
    path: String,
    found: &mut Vec<(String, String)>,
    seen: &mut Vec<usize>,
) {
    if let Some(id) = node.reference {
        if seen.contains(&id.0) {
            return;
        }
        seen.push(id.0);
    }
    let resolved = schema.resolve(node);
    for p in &resolved.properties {
        let child = if path.is_empty() {
            p.name.clone()
        } else {
            format!("{path}.{}", p.name)
        };
        if let Some(hint) = p
            .node
            .hint
            .as_ref()
            .or(schema.resolve(&p.node).hint.as_ref())
        {
            found.push((child.clone(), hint.clone()));
        }
        collect(schema, &p.node, child, found, seen);
    }
    if let Some(items) = &resolved.items {
        collect(schema, items, format!("{path}[]"), found, seen);
    }
    for alt in resolved.any_of.iter().chain(&resolved.one_of) {
        collect(schema, alt, path.clone(), found, seen);
    }
}
