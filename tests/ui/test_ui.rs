//! Compile-error tests: every message the derive can emit, with its span, plus one
//! valid input using many attributes. Regenerate the `.stderr` files with
//! `TRYBUILD=overwrite cargo test -p toolschema-tests --test test_ui` and review them.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/derive/*.rs");
    t.compile_fail("ui/schema_attr/*.rs");
    t.compile_fail("ui/serde/*.rs");
    t.compile_fail("ui/tool/*.rs");
    t.pass("ui/pass/*.rs");
}
