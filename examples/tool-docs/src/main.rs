//! Prints the Markdown docs of the home assistant's tools, rendered at build time by
//! `build.rs` with `toolschema::docs::markdown` and compiled in: no schema work at run
//! time. Paste them into a system prompt, or commit them beside the code.
//!
//! ```sh
//! cargo run -q -p tool-docs                                  # print them
//! cargo run -q -p tool-docs > examples/tool-docs/TOOLS.md    # refresh the committed copy
//! ```

/// The tool docs, as `build.rs` rendered them.
const TOOLS_MD: &str = include_str!(concat!(env!("OUT_DIR"), "/TOOLS.md"));

fn main() {
    print!("{TOOLS_MD}");
}
