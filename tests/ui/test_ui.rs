//! Compile-error tests: every message the derive can emit, with its span, plus one
//! valid input using many attributes. Regenerate the `.stderr` files with
//! `TRYBUILD=overwrite cargo test -p toolschema-ui-tests` and review them.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("derive/*.rs");
    t.compile_fail("schema_attr/*.rs");
    t.compile_fail("serde/*.rs");
    t.compile_fail("tool/*.rs");
    t.pass("pass/*.rs");
}
