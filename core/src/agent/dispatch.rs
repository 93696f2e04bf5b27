//! Which handler runs each tool of a loop's union, worked out when the loop starts. A
//! handler registered under a name no tool has is a typo: the model would be told that
//! its tool does not exist, call it again and again, and the run would end at its step
//! limit with nothing pointing at the name. So it ends the loop before any model call.

use std::collections::HashMap;
use std::fmt;

use super::AskError;
use crate::error::quote;
use crate::suggest;
use crate::tool_union::UnionDescription;

/// The handler's name of each tool: as its server spells it, or, when only that is
/// registered, as the model is shown it.
pub(super) struct Handlers {
    by_tool: HashMap<String, String>,
}

impl Handlers {
    /// Checks each registered name against both spellings of the union's tools (`None`
    /// when the type asked for is no union of tools, whose calls go by the names they
    /// carry). A tool with no handler is no error: the model may never call it, and if it
    /// does it is told that the tool is not available.
    pub fn new<'a>(
        union: Option<&UnionDescription>,
        registered: impl IntoIterator<Item = &'a str>,
    ) -> Result<Handlers, AskError> {
        let mut by_tool = HashMap::new();
        let Some(union) = union else {
            return Ok(Handlers { by_tool });
        };
        let mut unknown = Vec::new();
        for name in registered {
            match union.tool(name).map(|tool| &tool.server_name) {
                // The server's spelling wins where a handler is registered under both.
                Some(server) if by_tool.get(server).is_some_and(|h| h == server) => {}
                Some(server) => {
                    by_tool.insert(server.clone(), name.to_owned());
                }
                None => {
                    let spellings = union
                        .tools
                        .iter()
                        .flat_map(|t| [t.server_name.as_str(), t.name.as_str()]);
                    unknown.push(UnknownHandler {
                        name: name.to_owned(),
                        did_you_mean: suggest::closest(name, spellings).map(str::to_owned),
                    });
                }
            }
        }
        if unknown.is_empty() {
            return Ok(Handlers { by_tool });
        }
        unknown.sort_by(|a, b| a.name.cmp(&b.name));
        Err(AskError::UnknownHandlers {
            handlers: unknown,
            tools: union.tools.iter().map(|t| t.server_name.clone()).collect(),
            attempts: Vec::new(),
        })
    }

    /// The name the handler of `tool` (as its server spells it) is registered under.
    pub fn of<'a>(&'a self, tool: &'a str) -> &'a str {
        self.by_tool.get(tool).map_or(tool, String::as_str)
    }
}

/// A handler registered under a name no tool of the loop's union has.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownHandler {
    /// The name the handler is registered under.
    pub name: String,
    /// The tool's name (either spelling) closest to it, when it is close enough to be a
    /// typo (`get_exchange_rate` for `GetExchangeRate`).
    pub did_you_mean: Option<String>,
}

/// The message of [`AskError::UnknownHandlers`]: a line per handler, each with its
/// did-you-mean, or else the union's tools.
pub(super) struct Unknown<'a>(pub &'a [UnknownHandler], pub &'a [String]);

/// Where no name is close, the union's tools are listed, this many at most.
const LISTED: usize = 10;

impl fmt::Display for Unknown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, handler) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(
                f,
                "a handler is registered for {}, a tool the union does not have",
                quote(&handler.name)
            )?;
            match &handler.did_you_mean {
                Some(tool) => write!(f, "; did you mean {}?", quote(tool))?,
                None if self.1.is_empty() => f.write_str("; the union has no tools")?,
                None => {
                    let listed: Vec<String> =
                        self.1.iter().take(LISTED).map(|t| quote(t)).collect();
                    let more = if self.1.len() > LISTED { ", …" } else { "" };
                    write!(f, "; its tools are {}{more}", listed.join(", "))?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn tools() -> crate::Toolset {
        let tool = |name: &str| json!({ "name": name, "inputSchema": { "type": "object" } });
        let tools = json!({ "tools": [tool("get_exchange_rate"), tool("time.get_current_time")] });
        crate::Toolset::from_mcp_tools(&tools).expect("the tools load")
    }

    #[test]
    fn either_spelling_names_a_tool_and_the_server_s_wins() {
        let handlers =
            Handlers::new(tools().description(), ["time_get_current_time"]).expect("known");
        assert_eq!(
            handlers.of("time.get_current_time"),
            "time_get_current_time"
        );
        let both = ["time_get_current_time", "time.get_current_time"];
        let handlers = Handlers::new(tools().description(), both).expect("known");
        assert_eq!(
            handlers.of("time.get_current_time"),
            "time.get_current_time"
        );
        let both = ["time.get_current_time", "time_get_current_time"];
        let handlers = Handlers::new(tools().description(), both).expect("known");
        assert_eq!(
            handlers.of("time.get_current_time"),
            "time.get_current_time"
        );
        // A tool with no handler goes by its own name.
        assert_eq!(handlers.of("get_exchange_rate"), "get_exchange_rate");
    }

    #[test]
    fn every_unknown_name_is_reported_with_the_closest_tool_or_the_tools() {
        let err = Handlers::new(
            tools().description(),
            ["GetExchangeRate", "weather", "get_exchange_rate"],
        )
        .err()
        .expect("unknown names");
        assert_eq!(
            err.to_string(),
            "a handler is registered for \"GetExchangeRate\", a tool the union does not have; \
             did you mean \"get_exchange_rate\"?\n\
             a handler is registered for \"weather\", a tool the union does not have; its \
             tools are \"get_exchange_rate\", \"time.get_current_time\""
        );
        assert!(err.attempts().is_empty());
    }

    #[test]
    fn no_union_of_tools_checks_nothing() {
        let handlers = Handlers::new(None, ["anything"]).expect("no check");
        assert_eq!(handlers.of("anything"), "anything");
    }
}
