//! Hostile input: deep nesting and huge lines must give a result in linear
//! time, never a stack overflow or a panic. Sizes are the ones the issue names.

// Test helpers may panic: a panic here is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_core::{
    ListItem, MAX_LIST_DEPTH, build_outline, parse_list, parse_tables, render_outline,
};

const DEEP: usize = 100_000;

fn max_depth(items: &[ListItem]) -> usize {
    let mut deepest = 0;
    let mut stack: Vec<(&ListItem, usize)> = items.iter().map(|i| (i, 1)).collect();
    while let Some((item, d)) = stack.pop() {
        deepest = deepest.max(d);
        stack.extend(item.children.iter().map(|c| (c, d + 1)));
    }
    deepest
}

fn count(items: &[ListItem]) -> usize {
    let mut n = 0;
    let mut stack: Vec<&ListItem> = items.iter().collect();
    while let Some(item) = stack.pop() {
        n += 1;
        stack.extend(item.children.iter());
    }
    n
}

#[test]
fn deeply_nested_block_quotes_hide_their_heading() {
    let md = format!("{}# buried\n# top\n", "> ".repeat(DEEP));
    let outline = build_outline(&md);
    assert_eq!(
        outline.nodes.len(),
        1,
        "only the top-level heading is a node"
    );
    assert_eq!(outline.nodes[0].title, "top");
    assert_eq!(outline.preamble_md.len(), 2 * DEEP + "# buried\n".len());
    assert!(parse_list(&md).is_none(), "a quoted list is not top-level");
}

#[test]
fn deeply_nested_bullets_are_capped_without_losing_items() {
    let md = format!("{}x\n", "- ".repeat(DEEP));
    let list = parse_list(&md).unwrap();
    assert_eq!(count(&list.items), DEEP, "every item is kept");
    assert_eq!(
        max_depth(&list.items),
        MAX_LIST_DEPTH,
        "nesting stops at the cap"
    );
    // The innermost item carries the text; it ends up last among the flattened siblings.
    let mut level = &list.items;
    for _ in 1..MAX_LIST_DEPTH {
        level = &level[0].children;
    }
    assert_eq!(level.len(), DEEP - MAX_LIST_DEPTH + 1);
    assert_eq!(level.last().unwrap().text, "x");
    assert!(level[..level.len() - 1].iter().all(|i| i.text.is_empty()));
    let json = serde_json::to_string(&list).unwrap();
    let back: flexmd_core::ParsedList = serde_json::from_str(&json).unwrap();
    assert_eq!(back, list, "a capped list reads back from JSON");
}

#[test]
fn deeply_nested_ordered_and_mixed_containers() {
    let md = format!("{}x\n", "1. ".repeat(DEEP));
    let list = parse_list(&md).unwrap();
    assert!(list.ordered);
    assert_eq!(count(&list.items), DEEP);
    assert_eq!(list.items[0].index, Some(1));

    let md = format!("{}x\n", "- > ".repeat(DEEP / 2));
    let list = parse_list(&md).unwrap();
    assert_eq!(count(&list.items), DEEP / 2);
    assert_eq!(build_outline(&md).nodes.len(), 0);
}

#[test]
fn fifty_megabyte_single_line() {
    let line = "word | ".repeat(50 * 1024 * 1024 / 7);
    let outline = build_outline(&line);
    assert_eq!(outline.preamble_md.len(), line.len());
    assert!(parse_list(&line).is_none());
    assert!(parse_tables(&line).is_empty());

    let heading = format!("# {line}\n");
    let outline = build_outline(&heading);
    assert_eq!(outline.nodes[0].title.len(), line.trim().len());
    assert_eq!(build_outline(&render_outline(&outline)), outline);
}

#[test]
fn many_headings_in_one_document() {
    let md = "# a\n## b\n### c\n".repeat(DEEP / 3);
    let outline = build_outline(&md);
    assert_eq!(outline.nodes.len(), DEEP / 3);
    assert_eq!(outline.nodes.last().unwrap().key, format!("a-{}", DEEP / 3));
}

/// Pushes `md` in 64-byte pieces (at character boundaries).
fn stream(md: &str) -> flexmd_core::MarkdownParts {
    let mut stream = flexmd_core::MarkdownStream::new();
    let mut at = 0;
    while at < md.len() {
        let mut end = (at + 64).min(md.len());
        while !md.is_char_boundary(end) {
            end += 1;
        }
        stream.push(&md[at..end]);
        at = end;
    }
    stream.finish().1
}

#[test]
fn a_stream_of_lines_that_only_look_like_headings_stays_linear() {
    // Each `# x` is checked by the parser and found to be comment text; the
    // checks' budget keeps the 100 000 of them from re-parsing the comment
    // each time (which would be quadratic: hours, not milliseconds).
    let md = format!("# start\n<!--\n{}-->\n# end\n", "# x\n".repeat(DEEP));
    let parts = stream(&md);
    assert_eq!(parts, flexmd_core::read_markdown_in_one_parse(&md));
    let titles: Vec<&str> = parts
        .outline
        .nodes
        .iter()
        .map(|n| n.title.as_str())
        .collect();
    assert_eq!(titles, ["start", "end"]);
    // `---` under a list item is a rule, not a setext heading: each check fails.
    let md = "- a\n---\n".repeat(DEEP);
    assert_eq!(stream(&md), flexmd_core::read_markdown_in_one_parse(&md));
}

#[test]
fn a_stream_of_many_headings_reads_each_once() {
    let md = "## h\ntext\n".repeat(DEEP);
    let parts = stream(&md);
    assert_eq!(parts.outline.nodes.len(), DEEP);
    assert_eq!(parts.outline.nodes[DEEP - 1].key, format!("h-{}", DEEP));
}
