//! Properties over generated input: the builders never panic, and the outline
//! survives render → build.

// Test helpers may panic: a panic here is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_core::{build_outline, parse_list, parse_tables, render_outline};
use proptest::prelude::*;

/// Lines that exercise headings, containers and fences, without setext
/// underlines (so the document's headings are all ATX headings).
fn atx_line() -> impl Strategy<Value = String> {
    prop_oneof![
        (1usize..=7, proptest::collection::vec(title_token(), 0..5)).prop_map(|(n, t)| format!(
            "{} {}",
            "#".repeat(n),
            t.join(" ")
        )),
        "[a-z ]{0,10}".prop_map(String::from),
        Just(String::new()),
        Just("- item".to_owned()),
        Just("  - nested".to_owned()),
        Just("1) step".to_owned()),
        Just("> # quoted".to_owned()),
        Just("```".to_owned()),
        Just("~~~~".to_owned()),
        Just("```\t".to_owned()),
        Just("~~~~  ".to_owned()),
        Just("    # code".to_owned()),
        Just("<div>".to_owned()),
        Just("| a | b |".to_owned()),
        Just("|---|---|".to_owned()),
        Just("&amp; entity".to_owned()),
    ]
}

/// Heading words that are markup, escapes or lookalikes of markup.
fn title_token() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9*_`#&;!~<>\\[\\]\\\\-]{1,6}".prop_map(String::from),
        prop::sample::select(vec![
            "\\*x\\*",
            "*em*",
            "**b**",
            "`a|b`",
            "`x`",
            "&amp;",
            "\\&amp;",
            "&#35;",
            "\\#",
            "#",
            "##",
            "a_b_",
            "\\_a\\_",
            "[x]",
            "[l](u)",
            "![i](s)",
            "<b>",
            "\\<b\\>",
            "~~s~~",
            "\\~x\\~",
            "\\\\",
            "<http://a>",
            "Übung",
            "a  b",
        ])
        .prop_map(String::from),
    ]
}

fn line_ending() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just("\n"), Just("\r\n"), Just("\r")]
}

fn atx_document() -> impl Strategy<Value = String> {
    proptest::collection::vec((atx_line(), line_ending()), 0..24)
        .prop_map(|lines| lines.into_iter().map(|(l, e)| l + e).collect())
}

/// Lines on the edge of what a paragraph line is (digits that may open an
/// ordered list, indentation near four, tabs, quotes, non-ASCII, lone
/// CRs), and headings on the edge of a plain title (closing runs, trailing
/// blanks, `#` inside, setext underlines): the stream reads a heading after
/// paragraphs alone without the parser, and must read it as the parser does.
fn paragraph_document() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        "[a-zA-Z0-9 ]{0,12}".prop_map(String::from),
        (
            0usize..=5,
            "[0-9]{1,3}",
            prop::sample::select(vec![".", ")", "x", ". a", ") b", ""])
        )
            .prop_map(|(n, d, after)| format!("{}{d}{after}", " ".repeat(n))),
        prop::sample::select(vec![
            "(aside)",
            "\"quoted\"",
            "'single'",
            "Übung",
            "\u{feff}- bom item",
            "\u{feff}text",
            "\ttabbed",
            " \tmixed",
            "   three",
            "    four",
            "a\rb",
            "*emph*",
            "===",
            "---",
            "- item",
            "<p>",
            "`code`",
            "[a]: /u",
            "| a | b |",
            "|---|",
            ":--|--:",
            "a | b",
            "--- | ---",
            "> quote",
            "",
        ])
        .prop_map(String::from),
        (
            1usize..=7,
            prop::sample::select(vec![
                "",
                " ",
                "  ",
                "x",
                "x ",
                "x #",
                "x ##  ",
                "x#",
                "#",
                "##",
                " ## ",
                "a  b",
                "a\tb",
                "Phase 1 — go",
                "C# notes",
                "x \\#",
                "a*b",
                "(Note)",
                "50% off",
                "e=mc2",
                "q?",
            ])
        )
            .prop_map(|(n, t)| format!(
                "{}{}{t}",
                "#".repeat(n),
                if t.is_empty() { "" } else { " " }
            )),
    ];
    proptest::collection::vec((line, line_ending()), 0..16)
        .prop_map(|lines| lines.into_iter().map(|(l, e)| l + e).collect())
}

/// Lists on the edge of what the stream reads without a parser: items and
/// sub-items of every marker, number, gap, indentation and first
/// character, next to paragraphs, indented and lazy continuation lines,
/// blank-looking lines and headings.
fn list_document() -> impl Strategy<Value = String> {
    let item = (
        prop::sample::select(vec![
            "-",
            "*",
            "+",
            "1.",
            "2.",
            "1)",
            "3)",
            "10.",
            "0.",
            "1234567890.",
        ]),
        prop::sample::select(vec![" ", " ", "  ", "    ", "     ", "\t", ""]),
        prop::sample::select(vec![
            "a",
            "a",
            "item two",
            "2024 was",
            "(x)",
            "Übung",
            "2. nested",
            "- nested",
            "[ ] task",
            "*emph*",
            "",
            " lead",
            "a\tb",
            "# h",
            "> q",
            "`c`",
            "===",
        ]),
    )
        .prop_map(|(marker, gap, text)| format!("{marker}{gap}{text}"));
    let sub_item = (
        1usize..=5,
        prop::sample::select(vec!["-", "*", "1.", "2.", "1)"]),
        prop::sample::select(vec![" ", " ", "  ", "\t"]),
        prop::sample::select(vec!["b", "sub item", "- deeper", "", "*x*"]),
    )
        .prop_map(|(indent, marker, gap, text)| {
            format!("{}{marker}{gap}{text}", " ".repeat(indent))
        });
    let line = prop_oneof![
        4 => item,
        3 => sub_item,
        2 => prop::sample::select(vec!["", "", " ", "\t", "\u{a0}"]).prop_map(String::from),
        1 => "[a-z]{1,8}( [a-z]{1,5})?".prop_map(String::from),
        2 => (1usize..=5, "[a-z]{1,6}").prop_map(|(n, t)| format!("{}{t}", " ".repeat(n))),
        1 => prop::sample::select(vec!["---", "* * *", "2. x", "x", "   - sub", "  1. sub"])
            .prop_map(String::from),
        1 => (1usize..=3, "[A-Za-z]{1,6}").prop_map(|(n, t)| format!("{} {t}", "#".repeat(n))),
    ];
    proptest::collection::vec((line, line_ending()), 0..16)
        .prop_map(|lines| lines.into_iter().map(|(l, e)| l + e).collect())
}

/// Anything Markdown-shaped, setext underlines and front matter included.
fn any_markdown() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            atx_line(),
            Just("===".to_owned()),
            Just("---".to_owned()),
            Just("[a]: /url".to_owned()),
            "\\PC{0,20}".prop_map(String::from),
        ],
        0..24,
    )
    .prop_map(|lines| lines.join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn builders_never_panic_on_arbitrary_strings(s in "\\PC*") {
        let _ = build_outline(&s);
        let _ = parse_list(&s);
        let _ = parse_tables(&s);
        let _ = render_outline(&build_outline(&s));
    }

    #[test]
    fn builders_never_panic_on_markdown_shapes(s in any_markdown()) {
        let _ = parse_list(&s);
        let _ = parse_tables(&s);
        let once = build_outline(&render_outline(&build_outline(&s)));
        let twice = build_outline(&render_outline(&once));
        prop_assert_eq!(twice, once, "build -> render -> build should be a fixed point");
    }

    #[test]
    fn atx_outline_survives_render(s in atx_document()) {
        let outline = build_outline(&s);
        let rendered = render_outline(&outline);
        prop_assert_eq!(build_outline(&rendered), outline, "rendered:\n{}", rendered);
    }
}

/// The obvious allocator: a set of keys, suffixes tried from 2 up.
fn reference_keys(titles: &[&str]) -> Vec<String> {
    let mut used = std::collections::HashSet::new();
    titles
        .iter()
        .map(|title| {
            let base = flexmd_core::slugify(title);
            let mut key = base.clone();
            let mut n = 2;
            while used.contains(&key) {
                key = format!("{base}-{n}");
                n += 1;
            }
            used.insert(key.clone());
            key
        })
        .collect()
}

proptest! {
    #[test]
    fn keys_match_the_obvious_allocator(
        titles in proptest::collection::vec(
            prop::sample::select(vec![
                "Notes", "notes", "Notes 2", "notes-2", "notes-2-2", "notes-3", "Notes 02",
                "", "?", "section", "section-2", "a-1", "a", "a-0", "2", "2-2",
            ]),
            0..40,
        )
    ) {
        let mut keys = flexmd_core::KeyAllocator::default();
        let got: Vec<String> = titles.iter().map(|t| keys.allocate(t)).collect();
        prop_assert_eq!(got, reference_keys(&titles));
    }
}

proptest! {
    #[test]
    fn one_pass_reads_what_the_single_builders_read(s in any_markdown()) {
        let parts = flexmd_core::read_markdown(&s);
        // Debug shows every span too: positions must agree, not only content.
        prop_assert_eq!(
            format!("{parts:?}"),
            format!("{:?}", flexmd_core::read_markdown_in_one_parse(&s))
        );
        prop_assert_eq!(&parts.outline, &build_outline(&s));
        prop_assert_eq!(&parts.tables, &parse_tables(&s));
        prop_assert_eq!(parts.list_in(&(0..s.len())), parse_list(&s));
    }
}

/// `text` pushed in pieces cut at `cuts` (any byte offsets, moved to the
/// next character boundary); the headings seen after each push, and the
/// final parts.
fn stream_in_pieces(
    text: &str,
    cuts: &[usize],
) -> (
    Vec<Vec<flexmd_core::StreamHeading>>,
    flexmd_core::MarkdownParts,
) {
    let mut stream = flexmd_core::MarkdownStream::new();
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (text.len() + 1)).collect();
    points.push(text.len());
    points.sort_unstable();
    let mut seen = Vec::new();
    let mut at = 0;
    for mut end in points {
        while !text.is_char_boundary(end) {
            end += 1;
        }
        if end <= at {
            continue;
        }
        stream.push(&text[at..end]);
        seen.push(stream.headings().to_vec());
        at = end;
    }
    (seen, stream.finish().1)
}

/// The stream's headings are a prefix of the final ones after every push.
fn assert_prefixes(
    seen: &[Vec<flexmd_core::StreamHeading>],
    whole: &flexmd_core::MarkdownParts,
) -> Result<(), TestCaseError> {
    let mut all = Vec::new();
    let mut stack: Vec<&flexmd_core::MdNode> = whole.outline.nodes.iter().rev().collect();
    while let Some(node) = stack.pop() {
        all.push((node.level, node.title.as_str(), node.key.as_str()));
        stack.extend(node.children.iter().rev());
    }
    for headings in seen {
        prop_assert!(headings.len() <= all.len());
        for (h, want) in headings.iter().zip(&all) {
            prop_assert_eq!((h.level, h.title.as_str(), h.key.as_str()), *want);
        }
    }
    Ok(())
}

/// The stream's end equals one parse of `s` cut at `cuts`, spans included,
/// and its headings after every push are a prefix of the final ones.
fn streams_as_one_parse(s: &str, cuts: &[usize]) -> Result<(), TestCaseError> {
    let whole = flexmd_core::read_markdown_in_one_parse(s);
    let (seen, streamed) = stream_in_pieces(s, cuts);
    // Debug shows every span too: positions must agree, not only content.
    prop_assert_eq!(format!("{streamed:?}"), format!("{whole:?}"));
    // A later link definition may turn a heading's `[a]` into a link.
    if !s.contains("]:") {
        assert_prefixes(&seen, &whole)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_stream_reads_what_one_parse_reads(
        s in any_markdown(),
        cuts in proptest::collection::vec(any::<usize>(), 0..12),
    ) {
        streams_as_one_parse(&s, &cuts)?;
    }

    #[test]
    fn a_stream_reads_headings_after_paragraphs_as_one_parse_does(
        s in paragraph_document(),
        cuts in proptest::collection::vec(any::<usize>(), 0..12),
    ) {
        streams_as_one_parse(&s, &cuts)?;
    }

    #[test]
    fn a_stream_one_character_at_a_time_reads_what_one_parse_reads(s in atx_document()) {
        let cuts: Vec<usize> = s.char_indices().map(|(i, _)| i).collect();
        streams_as_one_parse(&s, &cuts)?;
    }
}

proptest! {
    // Lists take many lines in a row to go wrong: more cases than the rest.
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn a_stream_reads_lists_as_one_parse_does(
        s in list_document(),
        cuts in proptest::collection::vec(any::<usize>(), 0..12),
    ) {
        streams_as_one_parse(&s, &cuts)?;
    }

    #[test]
    fn a_stream_one_character_at_a_time_reads_lists_as_one_parse_does(s in list_document()) {
        let cuts: Vec<usize> = s.char_indices().map(|(i, _)| i).collect();
        streams_as_one_parse(&s, &cuts)?;
    }
}

/// `line_col` counted the obvious way: lines end at `\n`, `\r\n` or a lone
/// `\r`; columns count characters after a leading byte order mark.
fn obvious_line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let mut line = 1;
    let mut column = 1;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if at >= offset {
            break;
        }
        let crlf = c == '\r' && chars.peek().is_some_and(|&(_, n)| n == '\n');
        if c == '\n' || (c == '\r' && !crlf) {
            line += 1;
            column = 1;
        } else if !(at == 0 && c == '\u{feff}') {
            column += 1;
        }
    }
    (line, column)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// An index grown piece by piece (a `\r` at a piece's end included)
    /// answers as one built at once, and both as counting by hand.
    #[test]
    fn line_starts_grown_in_pieces_index_as_one_pass(
        text in "(\u{feff})?([a\r\né😀 ]|\r\n){0,200}",
        cuts in proptest::collection::vec(0usize..400, 0..6),
    ) {
        let mut starts = flexmd_core::LineStarts::new();
        let mut cuts: Vec<usize> = cuts.into_iter().filter(|&c| text.is_char_boundary(c.min(text.len()))).map(|c| c.min(text.len())).collect();
        cuts.sort_unstable();
        for cut in cuts {
            starts.extend(&text[..cut]);
        }
        let grown = flexmd_core::LineIndex::from_starts(&text, starts);
        let whole = flexmd_core::LineIndex::new(&text);
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            prop_assert_eq!(grown.line_col(offset), whole.line_col(offset));
            prop_assert_eq!(whole.line_col(offset), obvious_line_col(&text, offset), "offset {}", offset);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The same over texts of several 4 096-byte blocks, grown in small
    /// pieces as a stream grows it, checked at the block edges (where the
    /// index keeps its character counts), the end, and offsets between.
    #[test]
    fn line_starts_grown_across_blocks_index_as_one_pass(
        unit in "([a\r\né😀 ]|\r\n){1,30}",
        repeat in 150usize..600,
        piece in 1usize..40,
    ) {
        let text = unit.repeat(repeat);
        let mut starts = flexmd_core::LineStarts::new();
        let mut end = 0;
        while end < text.len() {
            end = (end + piece).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            starts.extend(&text[..end]);
        }
        let grown = flexmd_core::LineIndex::from_starts(&text, starts);
        let whole = flexmd_core::LineIndex::new(&text);
        let edges = (1..=text.len() / 4096).flat_map(|k| k * 4096 - 3..=k * 4096 + 3);
        let offsets = edges
            .chain((0..text.len()).step_by(997))
            .chain([text.len()])
            .filter(|&o| o <= text.len() && text.is_char_boundary(o));
        for offset in offsets {
            prop_assert_eq!(grown.line_col(offset), whole.line_col(offset));
            prop_assert_eq!(whole.line_col(offset), obvious_line_col(&text, offset), "offset {}", offset);
        }
    }
}

#[test]
fn line_index_blocks_count_characters_across_block_edges() {
    // Multi-byte characters straddle the 4 096-byte checkpoints.
    let text = format!("{}\n{}", "é".repeat(3000), "😀".repeat(3000));
    let index = flexmd_core::LineIndex::new(&text);
    let last = text.len() - "😀".len();
    assert_eq!(index.line_col(last), (2, 3000));
    assert_eq!(index.line_col(6000), (1, 3001));
    let mut starts = flexmd_core::LineStarts::new();
    for end in (0..=text.len())
        .step_by(7)
        .filter(|&e| text.is_char_boundary(e))
    {
        starts.extend(&text[..end]);
    }
    assert_eq!(
        flexmd_core::LineIndex::from_starts(&text, starts).line_col(last),
        (2, 3000)
    );
}
