//! Renders the Markdown docs of the home assistant's tools into `$OUT_DIR/TOOLS.md`, for
//! `src/main.rs` to `include_str!`. The types come from the `home-tools` crate: a build
//! script can use its dependencies' types, not those of the crate it builds.

use std::path::PathBuf;
use std::{env, fs};

fn main() {
    // Cargo reruns this when a dependency (home-tools, toolschema) changes, and when this
    // file does; nothing else in the package goes into the docs.
    println!("cargo::rerun-if-changed=build.rs");
    let docs = toolschema::docs::markdown::<home_tools::HomeStep>();
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let path = out_dir.join("TOOLS.md");
    if let Err(e) = fs::write(&path, docs) {
        panic!("cannot write {}: {e}", path.display());
    }
}
