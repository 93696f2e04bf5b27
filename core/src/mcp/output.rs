//! What a `tools/call` result says, as text a model can read: its text content, the
//! other content described in brackets, and whether the tool reported an error.

use serde_json::Value;

/// The result of one `tools/call`, as it goes back to the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// The text content, blocks joined by newlines; other content (images, audio,
    /// resources) described in brackets; the structured content as JSON when there is
    /// nothing else.
    pub text: String,
    /// The tool reported a failure (`isError: true`): the model reads it as an error.
    pub is_error: bool,
    /// `structuredContent`, when the tool gave one.
    pub structured: Option<Value>,
}

impl ToolOutput {
    /// Reads a `CallToolResult` in its JSON form (`content`, `isError`,
    /// `structuredContent`).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::mcp::ToolOutput;
    ///
    /// let output = ToolOutput::from_result(&json!({
    ///     "content": [{"type": "text", "text": "no such city"}],
    ///     "isError": true
    /// }));
    /// assert_eq!(output.text, "no such city");
    /// assert!(output.is_error);
    /// ```
    pub fn from_result(result: &Value) -> ToolOutput {
        let blocks = result
            .get("content")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let structured = result
            .get("structuredContent")
            .filter(|v| !v.is_null())
            .cloned();
        let mut text: Vec<String> = blocks.iter().map(describe).collect();
        if text.is_empty()
            && let Some(structured) = &structured
        {
            text.push(structured.to_string());
        }
        ToolOutput {
            text: text.join("\n"),
            is_error: result.get("isError").and_then(Value::as_bool) == Some(true),
            structured,
        }
    }
}

fn describe(block: &Value) -> String {
    let field = |name: &str| block.get(name).and_then(Value::as_str);
    match field("type") {
        Some("text") => field("text").unwrap_or_default().to_owned(),
        Some(kind @ ("image" | "audio")) => format!(
            "[{kind}, {}, {} bytes of base64]",
            field("mimeType").unwrap_or("unknown type"),
            field("data").map_or(0, str::len)
        ),
        Some("resource") => {
            let resource = block.get("resource").unwrap_or(&Value::Null);
            let uri = resource.get("uri").and_then(Value::as_str).unwrap_or("?");
            match resource.get("text").and_then(Value::as_str) {
                Some(text) => format!("[resource {uri}]\n{text}"),
                None => format!("[resource {uri}, binary]"),
            }
        }
        Some("resource_link") => format!(
            "[link {} to {}]",
            field("name").unwrap_or("?"),
            field("uri").unwrap_or("?")
        ),
        _ => block.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn text_blocks_are_joined_and_other_content_is_described() {
        let output = ToolOutput::from_result(&json!({
            "content": [
                {"type": "text", "text": "first"},
                {"type": "image", "data": "aGVsbG8=", "mimeType": "image/png"},
                {"type": "resource", "resource": {"uri": "file:///a.txt", "text": "hello"}},
                {"type": "resource_link", "name": "b", "uri": "file:///b"},
                {"type": "text", "text": "last"}
            ]
        }));
        assert_eq!(
            output.text,
            "first\n[image, image/png, 8 bytes of base64]\n[resource file:///a.txt]\nhello\n\
             [link b to file:///b]\nlast"
        );
        assert!(!output.is_error);
    }

    #[test]
    fn structured_content_speaks_when_there_is_no_content() {
        let output = ToolOutput::from_result(&json!({
            "content": [], "structuredContent": {"sum": 3}, "isError": false
        }));
        assert_eq!(output.text, r#"{"sum":3}"#);
        assert_eq!(output.structured, Some(json!({"sum": 3})));
    }
}
