//! Markdown artifacts: the structural index and the inline queries.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_artifact::{CodeEntry, Image, Link, MemoryReader, SpooledMarkdownArtifact};
use serde_json::json;

fn md(text: &str) -> SpooledMarkdownArtifact {
    SpooledMarkdownArtifact::new(MemoryReader::new(text))
}

fn heads(a: &SpooledMarkdownArtifact) -> Vec<(u8, String, usize, usize)> {
    a.md_headings(None)
        .into_iter()
        .map(|h| (h.depth, h.text, h.start_line, h.end_line))
        .collect()
}

#[test]
fn frontmatter_present_empty_absent_unclosed() {
    assert_eq!(
        md("---\na: 1\nlist: [x, y]\n---\nbody")
            .md_frontmatter()
            .unwrap(),
        Some(json!({"a": 1, "list": ["x", "y"]}))
    );
    assert_eq!(
        md("---\n---\nbody").md_frontmatter().unwrap(),
        Some(json!({}))
    );
    assert_eq!(
        md("---\r\nk: v\r\n...\r\n").md_frontmatter().unwrap(),
        Some(json!({"k": "v"}))
    );
    assert_eq!(
        md("# no front matter\n---\na: 1\n---\n")
            .md_frontmatter()
            .unwrap(),
        None
    );
    let unclosed = md("---\na: 1\n# Title\n");
    assert_eq!(unclosed.md_frontmatter().unwrap(), None);
    assert_eq!(
        heads(&unclosed),
        [],
        "an unclosed block hides nothing... and is not front matter"
    );
    assert!(
        md("---\na: [1\n---\n")
            .md_frontmatter()
            .unwrap_err()
            .to_string()
            .starts_with("the front matter is not YAML")
    );
    let bomb = "---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\ni: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]\n---\n";
    assert!(
        md(bomb).md_frontmatter().is_err(),
        "alias expansion is limited"
    );
}

#[test]
fn atx_setext_closing_hashes_and_crlf() {
    let a = md(
        "# One #\r\ntext\r\n  ## Two ##   \r\nPara line\r\n===\r\n####### seven\r\n#no\r\nSub\r\n---\r\n",
    );
    assert_eq!(
        heads(&a),
        [
            (1, "One".to_owned(), 0, 2),
            (2, "Two".to_owned(), 2, 2),
            (1, "Para line".to_owned(), 3, 9),
            // Seven `#`s is text, and a paragraph of several lines becomes
            // one setext heading, as CommonMark says.
            (2, "####### seven #no Sub".to_owned(), 5, 9),
        ]
    );
    let sections = a.md_sections(Some(1));
    assert_eq!(
        (
            sections[1].heading_line,
            sections[1].body_start_line,
            sections[1].body_end_line
        ),
        (3, 5, 9)
    );
    assert_eq!(md("    # indented code\n").md_headings(None), []);
    assert_eq!(
        heads(&md("# C# notes\n")),
        [(1, "C# notes".to_owned(), 0, 1)]
    );
}

#[test]
fn headings_inside_fences_and_unclosed_fences() {
    let a = md("# A\n```js\n# not\n```\n~~~~\n```\n# still code\n~~~~\n## B\n````\n# open");
    assert_eq!(
        heads(&a),
        [(1, "A".to_owned(), 0, 10), (2, "B".to_owned(), 8, 10)]
    );
    assert_eq!(
        a.md_code_blocks(None),
        [
            CodeEntry {
                lang: Some("js".to_owned()),
                start_line: 1,
                end_line: 3
            },
            CodeEntry {
                lang: None,
                start_line: 4,
                end_line: 7
            },
            CodeEntry {
                lang: None,
                start_line: 9,
                end_line: 10
            },
        ]
    );
    assert_eq!(a.md_code_blocks(Some("")).len(), 2);
    assert_eq!(a.md_code_blocks(Some("js")).len(), 1);
    // A closing fence has no info string and is at least as long.
    let b = md("```\n``` not a close\n``\n```\nafter");
    assert_eq!(b.md_code_blocks(None)[0].end_line, 3);
}

#[test]
fn sections_end_before_the_next_heading_of_the_same_or_higher_level() {
    let a = md("# A\na\n## A1\nx\n## A2\ny\n# B\n");
    let s: Vec<(String, usize, usize)> = a
        .md_sections(None)
        .into_iter()
        .map(|s| (s.heading, s.body_start_line, s.body_end_line))
        .collect();
    assert_eq!(
        s,
        [
            ("A".to_owned(), 1, 5),
            ("A1".to_owned(), 3, 3),
            ("A2".to_owned(), 5, 5),
            ("B".to_owned(), 7, 7)
        ]
    );
    assert_eq!(a.md_sections(Some(2)).len(), 2);
}

#[test]
fn links_images_and_text_over_ranges() {
    let doc = "# Links\nSee [the guide](https://g.example \"Guide\") and <https://auto.example>.\nA [ref link][r] and ![logo](logo.png 'Logo').\n\n| a | b |\n|---|---|\n| `x` | y |\n\n[r]: https://ref.example \"Ref\"\n";
    let a = md(doc);
    assert_eq!(
        a.md_links(None, None),
        [
            Link {
                text: "the guide".to_owned(),
                url: "https://g.example".to_owned(),
                title: Some("Guide".to_owned())
            },
            Link {
                text: "https://auto.example".to_owned(),
                url: "https://auto.example".to_owned(),
                title: None
            },
            Link {
                text: "ref link".to_owned(),
                url: "https://ref.example".to_owned(),
                title: Some("Ref".to_owned())
            },
        ]
    );
    // Line 2 alone: the reference resolves against the whole document.
    assert_eq!(a.md_links(Some(2), Some(3))[0].url, "https://ref.example");
    assert_eq!(
        a.md_images(None, None),
        [Image {
            alt: "logo".to_owned(),
            url: "logo.png".to_owned(),
            title: Some("Logo".to_owned())
        }]
    );
    assert_eq!(
        a.md_text(Some(0), Some(7)),
        "Links\n\nSee the guide and https://auto.example.\nA ref link and logo.\n\na\tb\n\nx\ty"
    );
}

#[test]
fn md_ast_positions_are_document_lines_and_guards_hold() {
    let a = md("# Title\n\nintro\n\n## Part\n\nbody *text*\n");
    let ast = a.md_ast(Some(4), Some(7)).unwrap();
    assert_eq!(ast["type"], "root");
    assert_eq!(ast["children"][0]["type"], "heading");
    assert_eq!(
        ast["children"][0]["position"]["start"]["line"], 5,
        "document line 4, 1-based"
    );
    assert_eq!(ast["children"][0]["position"]["start"]["offset"], 16);
    let deep = format!("{}x\n", "> ".repeat(40));
    assert!(
        md(&deep)
            .md_ast(None, None)
            .unwrap_err()
            .to_string()
            .contains("nests block quotes or lists deeper than 32")
    );
    // A markdown-rs panic (found by proptest) is an error, not a crash.
    let err = md("---\n[l](u)\n> ")
        .md_ast(None, None)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("markdown-rs failed on this range"), "{err}");
    let big = "word ".repeat(300_000);
    assert!(
        md(&big)
            .md_ast(None, None)
            .unwrap_err()
            .to_string()
            .contains("md_ast reads at most")
    );
}

/// A long document read a chunk at a time: the pieces past 1 MiB cut at
/// blank lines (not inside fenced code), each chunk starting where a piece
/// starts, and the chunks joined are the whole text.
#[test]
fn md_text_by_chunks_over_pieces_cut_at_blank_lines() {
    let mut text = String::new();
    for i in 0..40_000 {
        text.push_str(&format!("Paragraph {i} with *some* words.\n\n"));
        if i % 5_000 == 0 {
            text.push_str("```\ncode\n\nstill code\n```\n\n");
        }
    }
    let a = md(&text);
    let (mut texts, mut at, mut starts) = (Vec::new(), None, Vec::new());
    loop {
        let chunk = a.md_text_chunk(None, None, at, 64 << 10);
        texts.push(chunk.text);
        match chunk.next {
            Some(next) => {
                starts.push(next);
                at = Some(next);
            }
            None => break,
        }
    }
    // About 1.3 MB of text: pieces of a little over 1 MiB.
    assert_eq!(texts.len(), 2);
    assert_eq!(starts, [58_900]);
    assert_eq!(texts.join("\n\n"), a.md_text(None, None));
}

/// Bare URLs, `www.` links and e-mail addresses in text are links, as
/// remark-gfm reads them; in code and in a link's text they are not.
#[test]
fn autolink_literals_are_links() {
    let doc = SpooledMarkdownArtifact::new(MemoryReader::new(
        "# Notes\n\nFixed in https://github.com/acme/widget/pull/42 (see www.acme.io/blog).\n\
         Mail support@acme.io.\n\n`https://code.example` and [docs https://x.io](https://docs.acme.io)\n\n\
         ```\nhttps://fenced.example\n```\n",
    ));
    let links: Vec<(String, String)> = doc
        .md_links(None, None)
        .into_iter()
        .map(|l| (l.text, l.url))
        .collect();
    let expected = [
        (
            "https://github.com/acme/widget/pull/42",
            "https://github.com/acme/widget/pull/42",
        ),
        ("www.acme.io/blog", "http://www.acme.io/blog"),
        ("support@acme.io", "mailto:support@acme.io"),
        ("docs https://x.io", "https://docs.acme.io"),
    ]
    .map(|(t, u)| (t.to_owned(), u.to_owned()));
    assert_eq!(links, expected);
    // A chunk at a time gives the same.
    let mut chunked = Vec::new();
    let mut at = None;
    loop {
        let chunk = doc.md_links_chunk(None, None, at, 1);
        chunked.extend(chunk.items.into_iter().map(|l| (l.text, l.url)));
        match chunk.next {
            Some(next) => at = Some(next),
            None => break,
        }
    }
    assert_eq!(chunked, expected);
}
