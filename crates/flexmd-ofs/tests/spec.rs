//! The OFS block: fixtures (`fixtures/specs/<case>.md` → `<case>.json`:
//! the spec and its diagnostics), the seed's canonical block, and properties.
//! Run with `FLEXMD_BLESS=1` to rewrite expected files, then review the diff.

// Test helpers may panic: a panic here is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::Path;

use flexmd_core::{OfsSection, OfsTable, OutputFormatSpec, SectionKind, TableKind};
use flexmd_ofs::{enrich_instructions, parse_spec, prompt, render_spec};
use pretty_assertions::assert_eq;
use proptest::prelude::*;
use serde_json::json;

#[test]
fn spec_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/specs");
    let cases = flexmd_testkit::check_fixtures(&dir, &[], |case, md| {
        let parsed = parse_spec(md);
        let rendered = render_spec(&parsed.value);
        assert_eq!(
            parse_spec(&rendered).value,
            parsed.value,
            "{} should survive render",
            case.display()
        );
        let diagnostics: Vec<String> = parsed
            .diagnostics
            .iter()
            .map(|d| format!("{}:{} {}: {}", d.line, d.column, d.code, d.message))
            .collect();
        serde_json::to_string_pretty(&json!({
            "spec": parsed.value,
            "diagnostics": diagnostics,
        }))
        .unwrap()
            + "\n"
    });
    assert!(cases.len() >= 6);
}

fn section(name: &str, kind: SectionKind) -> OfsSection {
    OfsSection {
        name: name.to_owned(),
        kind,
        hint: None,
    }
}

#[test]
fn seed_canonical_block_is_the_default_ofs_plus_its_tables() {
    let md = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/specs/answer.md"
    ))
    .unwrap();
    let parsed = parse_spec(&md);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let columns: Vec<String> = ["property1", "property2", "property3"]
        .map(String::from)
        .to_vec();
    assert_eq!(
        parsed.value,
        OutputFormatSpec {
            sections: vec![
                section("Short answer", SectionKind::Prose),
                section("Long answer", SectionKind::Prose),
                section("Reasoning", SectionKind::OrderedList),
                section("Assumptions", SectionKind::List),
                section("Unknowns", SectionKind::List),
            ],
            tables: vec![
                OfsTable {
                    columns: columns.clone(),
                    kind: TableKind::Table,
                    by: None
                },
                OfsTable {
                    columns,
                    kind: TableKind::OrderedTable,
                    by: Some("property2".into())
                },
            ],
            ..OutputFormatSpec::default()
        }
    );
    assert_eq!(
        render_spec(&parsed.value),
        md,
        "the seed's block is the canonical form"
    );
}

#[test]
fn enrich_gives_only_the_rules_that_apply() {
    let prose_only = OutputFormatSpec {
        sections: vec![section("A", SectionKind::Prose)],
        empty_section_value: None,
        ..OutputFormatSpec::default()
    };
    assert_eq!(enrich_instructions(&prose_only), "");
    assert_eq!(prompt(&prose_only), render_spec(&prose_only));

    let md = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/specs/answer.md"
    ))
    .unwrap();
    assert_eq!(
        enrich_instructions(&parse_spec(&md).value),
        "Rules:\n\
         - If a section is empty, write `None`.\n\
         - List sections must use '-' bullets (nested allowed).\n\
         - Ordered-list sections must use numbered items (nested allowed).\n\
         - Tables must be Markdown pipe tables with the specified columns.\n\
         - Ordered tables must add a first column named '#' with rows numbered 1..N.\n"
    );
}

fn name() -> impl Strategy<Value = String> {
    "[A-Z][a-z]{0,6}( [a-z0-9]{1,6}){0,3}".prop_map(String::from)
}

fn spec() -> impl Strategy<Value = OutputFormatSpec> {
    let kind = prop_oneof![
        Just(SectionKind::Prose),
        Just(SectionKind::List),
        Just(SectionKind::OrderedList)
    ];
    let hint = proptest::option::of("[a-z]{1,6}( [a-z0-9,()]{1,6}){0,3}".prop_map(String::from));
    let sections = proptest::collection::vec((name(), kind, hint), 0..6).prop_map(|items| {
        let mut out: Vec<OfsSection> = Vec::new();
        for (name, kind, hint) in items {
            if !out
                .iter()
                .any(|s| s.name.to_lowercase() == name.to_lowercase())
            {
                out.push(OfsSection { name, kind, hint });
            }
        }
        out
    });
    let table = (
        proptest::collection::vec("[a-z#][a-z0-9_ ]{0,6}[a-z0-9]", 1..4),
        any::<bool>(),
        proptest::option::of("[a-z][a-z0-9]{0,5}"),
    )
        .prop_map(|(columns, ordered, by)| OfsTable {
            columns,
            kind: if ordered {
                TableKind::OrderedTable
            } else {
                TableKind::Table
            },
            by,
        });
    (
        sections,
        proptest::collection::vec(table, 0..3),
        any::<bool>(),
        proptest::option::of("[A-Za-z/]{1,6}"),
    )
        .prop_map(
            |(sections, tables, tables_optional, empty)| OutputFormatSpec {
                sections,
                tables,
                tables_optional,
                empty_section_value: empty,
                ..OutputFormatSpec::default()
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parse_reads_back_what_render_writes(spec in spec()) {
        let md = render_spec(&spec);
        let parsed = parse_spec(&md);
        prop_assert!(parsed.diagnostics.is_empty(), "{:?}\n{}", parsed.diagnostics, md);
        prop_assert_eq!(parsed.value, spec, "rendered:\n{}", md);
    }

    #[test]
    fn parse_spec_never_panics(s in "\\PC*") {
        let parsed = parse_spec(&s);
        let _ = prompt(&parsed.value);
    }
}
