//! The bundled example answers (`examples/responses/`), read the way the OFS
//! layer will read them: outline, then the lists and tables of each section.

// Test helpers may panic: a panic here is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_core::{MdNode, build_outline, normalize_title, parse_list, parse_tables};
use pretty_assertions::assert_eq;

fn example(name: &str) -> String {
    let path = format!(
        "{}/../../examples/responses/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

fn find<'a>(nodes: &'a [MdNode], name: &str) -> &'a MdNode {
    let mut stack: Vec<&MdNode> = nodes.iter().collect();
    while let Some(node) = stack.pop() {
        if normalize_title(&node.title) == normalize_title(name) {
            return node;
        }
        stack.extend(node.children.iter());
    }
    panic!("no section {name}")
}

#[test]
fn quirks_answer_keeps_bold_label_in_preamble_and_reads_paren_numbers() {
    let md = example("quirks.md");
    let outline = build_outline(&md);
    let titles: Vec<&str> = outline.nodes.iter().map(|n| n.title.as_str()).collect();
    assert_eq!(
        titles,
        ["Long Answer", "Reasoning:", "Assumptions —", "Unknowns"],
        "a bold line is not a heading: the OFS layer's lenient matcher handles it"
    );
    assert!(outline.preamble_md.contains("**Short answer:**"));

    let reasoning = parse_list(&find(&outline.nodes, "reasoning").content_md).unwrap();
    assert!(reasoning.ordered);
    let indexes: Vec<Option<u64>> = reasoning.items.iter().map(|i| i.index).collect();
    assert_eq!(indexes, [Some(1), Some(2), Some(3)]);
    assert_eq!(
        reasoning.items[1].children[0].text,
        "Finance accepts quotes up to 15 minutes old."
    );

    let assumptions = parse_list(&find(&outline.nodes, "Assumptions").content_md).unwrap();
    assert!(!assumptions.ordered, "`*` bullets are a list");
    assert_eq!(assumptions.items.len(), 2);

    let unknowns = &find(&outline.nodes, "unknowns").content_md;
    assert!(parse_list(unknowns).is_none(), "`None.` is no list");

    let tables = parse_tables(unknowns);
    assert_eq!(
        tables.len(),
        1,
        "the table sits in the last section's content"
    );
    assert_eq!(
        tables[0].columns,
        ["#", "property1", "property2", "property3"]
    );
    assert_eq!(
        tables[0].rows[1],
        ["2", "Fallback", "last rate", "on error"]
    );
}

#[test]
fn nested_answer_has_front_matter_sub_headings_and_a_fenced_lookalike() {
    let md = example("nested.md");
    let outline = build_outline(&md);
    assert!(outline.preamble_md.starts_with("---\nmodel: example-llm"));
    assert_eq!(outline.nodes.len(), 1, "one # title over everything");
    let root = &outline.nodes[0];
    let children: Vec<(&str, usize)> = root
        .children
        .iter()
        .map(|n| (n.key.as_str(), n.children.len()))
        .collect();
    assert_eq!(
        children,
        [
            ("short-answer", 0),
            ("long-answer", 2),
            ("reasoning", 0),
            ("assumptions", 0),
            ("unknowns", 0)
        ]
    );
    let phase2 = &root.children[1].children[1];
    assert_eq!(phase2.title, "Phase 2 — cut over");
    assert!(
        phase2.content_md.contains("# SELECT count(*)"),
        "fenced lookalike stays content"
    );

    let reasoning = parse_list(&find(&outline.nodes, "Reasoning").content_md).unwrap();
    assert_eq!(reasoning.items[0].children.len(), 2);
    assert_eq!(
        reasoning.items[0].children[1].text,
        "Checksums catch changed rows."
    );
}

#[test]
fn clean_answer_sections_are_all_level_two() {
    let outline = build_outline(&example("clean.md"));
    assert!(outline.preamble_md.is_empty());
    assert!(
        outline
            .nodes
            .iter()
            .all(|n| n.level == 2 && n.children.is_empty())
    );
    let long = find(&outline.nodes, "long answer");
    assert_eq!(
        long.content_md.matches("\n\n").count(),
        2,
        "two paragraphs, exact source"
    );
}
