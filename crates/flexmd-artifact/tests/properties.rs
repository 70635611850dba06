//! Properties: line views agree with a plain split, grep over the whole
//! buffer agrees with grep line by line, and nothing panics on messy input.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_artifact::{
    Encoding, GrepFlags, GrepPattern, JsonFormat, MemoryReader, SpooledArtifact,
    SpooledJsonArtifact, SpooledMarkdownArtifact, compile_path,
};
use proptest::prelude::*;

fn messy() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "a", "b", "ab", " ", "\n", "\r\n", "\r", "#", "## x", "```", "~~~", "---", "[l](u)",
        "![i](p)", "{", "}", "\"", ":", "1", "é", "\u{feff}", "> ", "- ", "\t",
    ]);
    prop::collection::vec(pieces, 0..80).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn lines_are_a_split_on_newline(text in messy()) {
        let a = SpooledArtifact::new(MemoryReader::new(text.clone()));
        // A byte order mark is not part of the first line.
        let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let expected: Vec<String> = if text.is_empty() {
            Vec::new()
        } else {
            body.split('\n').map(str::to_owned).collect()
        };
        prop_assert_eq!(a.line_count(), expected.len());
        prop_assert_eq!(a.cat(None, None), expected.clone());
        prop_assert_eq!(a.tail(3), expected[expected.len().saturating_sub(3)..].to_vec());
        prop_assert_eq!(a.as_string(), text);
    }

    #[test]
    fn whole_buffer_grep_is_per_line_grep(
        text in messy(),
        pattern in prop::sample::select(vec!["a", "^a", "b$", "^$", "a.b", "[^x]+", "\\s", "(a|b)+$", "é"]),
    ) {
        let a = SpooledArtifact::new(MemoryReader::new(text.clone()));
        let p = GrepPattern::new(pattern, GrepFlags::default()).unwrap();
        let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let per_line: Vec<String> = if text.is_empty() { Vec::new() } else {
            body.split('\n')
                .filter(|line| {
                    // The line on its own, as a second line (a first line
                    // would lose a byte order mark it starts with).
                    let one = SpooledArtifact::new(MemoryReader::new(format!("\n{line}")));
                    one.grep_lines(&p, 2).unwrap().contains(&1)
                })
                .map(str::to_owned)
                .collect()
        };
        prop_assert_eq!(a.grep(pattern, GrepFlags::NONE).unwrap(), per_line);
    }

    #[test]
    fn grep_by_windows_is_the_whole_grep(
        text in messy(),
        pattern in prop::sample::select(vec!["a", "^a", "b$", "^$", "", ".*", "[^x]+", "\\s", "\u{feff}"]),
        max_bytes in 1usize..40,
    ) {
        let a = SpooledArtifact::new(MemoryReader::new(text.clone()));
        let p = GrepPattern::new(pattern, GrepFlags::default()).unwrap();
        let (mut lines, mut at, mut windows) = (Vec::new(), Some(0), 0);
        while let Some(start) = at {
            let window = a.grep_chunk(&p, start, max_bytes).unwrap();
            prop_assert!(window.next.is_none_or(|next| next > start && next < text.len()));
            lines.extend(window.lines);
            at = window.next;
            windows += 1;
        }
        prop_assert!(windows <= text.len().max(1));
        prop_assert_eq!(lines, a.grep(pattern, GrepFlags::NONE).unwrap());
    }

    #[test]
    fn md_text_by_chunks_is_the_whole_text(
        text in messy(),
        range in (0usize..12, 0usize..12),
        max_bytes in 1usize..40,
    ) {
        let a = SpooledMarkdownArtifact::new(MemoryReader::new(text.clone()));
        for (start, end) in [(None, None), (Some(range.0), Some(range.1))] {
            let (mut texts, mut at, mut chunks) = (Vec::new(), None, 0);
            loop {
                let chunk = a.md_text_chunk(start, end, at, max_bytes);
                if !chunk.text.is_empty() {
                    texts.push(chunk.text);
                }
                chunks += 1;
                prop_assert!(chunks <= text.len() + 1);
                match chunk.next {
                    Some(next) => {
                        prop_assert!(at.is_none_or(|at| next > at));
                        at = Some(next);
                    }
                    None => break,
                }
            }
            prop_assert_eq!(texts.join("\n\n"), a.md_text(start, end));
            let (mut links, mut images, mut at) = (Vec::new(), Vec::new(), None);
            loop {
                let l = a.md_links_chunk(start, end, at, max_bytes);
                let i = a.md_images_chunk(start, end, at, max_bytes);
                prop_assert_eq!(l.next, i.next);
                links.extend(l.items);
                images.extend(i.items);
                match l.next {
                    Some(next) => at = Some(next),
                    None => break,
                }
            }
            prop_assert_eq!(links, a.md_links(start, end));
            prop_assert_eq!(images, a.md_images(start, end));
        }
    }

    #[test]
    fn headings_and_sections_by_chunks_are_the_whole_lists(
        text in messy(),
        depth in prop::option::of(1u8..4),
        max in 1usize..4,
    ) {
        let a = SpooledMarkdownArtifact::new(MemoryReader::new(text));
        let (mut headings, mut sections, mut at) = (Vec::new(), Vec::new(), Some(0));
        while let Some(start) = at {
            let h = a.md_headings_chunk(depth, start, max);
            let s = a.md_sections_chunk(depth, start, max);
            prop_assert_eq!(h.next, s.next);
            prop_assert!(!h.items.is_empty() || start == 0);
            headings.extend(h.items);
            sections.extend(s.items);
            at = h.next;
        }
        prop_assert_eq!(headings, a.md_headings(depth));
        prop_assert_eq!(sections, a.md_sections(depth));
    }

    #[test]
    fn nothing_panics(text in messy(), path in prop::sample::select(vec!["$", "$..*", "$.a", "$[0]", "$[?@ > 1]", "$[", ""])) {
        let md = SpooledMarkdownArtifact::new(MemoryReader::new(text.clone()));
        let _ = md.md_sections(None);
        let _ = md.md_code_blocks(None);
        let _ = md.md_frontmatter();
        let _ = md.md_links(None, None);
        let _ = md.md_text(Some(1), Some(5));
        let _ = md.md_ast(None, None);
        if let Ok(json) = SpooledJsonArtifact::new(MemoryReader::new(text.clone()), None) {
            let _ = json.json_get(path);
            let _ = json.json_keys();
        }
        let hinted = SpooledJsonArtifact::new(MemoryReader::new(text), Some(JsonFormat::Jsonl)).unwrap();
        let _ = hinted.json_filter(path);
        let _ = hinted.json_slice(Some(1), None);
    }

    /// JSONPath-Plus rewriting never panics, and what it accepts runs.
    #[test]
    fn jsonpath_plus_paths_never_panic(pieces in prop::collection::vec(prop::sample::select(vec![
        "$", "..", ".", "a", "[", "]", "?", "(", ")", "@", "@root", "===", "!==", "==", "=", "<",
        "'", "\"", "\\", "/", "/x/i", ".match(", ".test(", "&&", "||", "1", "-", "*", "~",
        "(@.length-1)", "@parent", ".length", " ", "é",
    ]), 0..30)) {
        let path = pieces.concat();
        if let Ok(compiled) = compile_path(&path) {
            let _ = compiled.query(&serde_json::json!([{"a": "x", "b": [1, 2]}])).all();
        }
    }
}

/// Words of the shapes tokenizers split differently: letters, digits,
/// spaces in runs, punctuation, non-ASCII, line breaks.
fn prose() -> impl Strategy<Value = String> {
    let word = prop::sample::select(vec![
        "word",
        " ",
        "  ",
        "\n",
        "\t",
        "123",
        "4.5",
        "é",
        "日本語",
        "🙂",
        "!",
        "don't",
        "a-b",
        ",",
    ]);
    prop::collection::vec(word, 0..4000).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// A count done a chunk at a time (as the npm package does between
    /// turns of the event loop) is the whole count, whatever the chunk size.
    #[test]
    fn a_count_by_chunks_is_the_whole_count(
        text in prose(),
        size in prop::sample::select(vec![1usize, 4096, 5000, 65536, 1 << 20]),
    ) {
        let artifact = SpooledArtifact::new(MemoryReader::new(text.clone()));
        for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
            let (mut total, mut at) = (0, Some(0));
            while let Some(start) = at {
                let chunk = artifact.estimate_tokens_chunk(encoding, start, size);
                // Each chunk moves on.
                prop_assert!(chunk.next.is_none_or(|n| n > start));
                total += chunk.tokens;
                at = chunk.next;
            }
            prop_assert_eq!(total, artifact.estimate_tokens(encoding));
        }
    }
}

/// Markdown with the lines the structure index reads: headings (ATX and
/// setext), fences, front matter, rules, definitions, lists.
fn markdown() -> impl Strategy<Value = String> {
    let line = prop::sample::select(vec![
        "---",
        "# Title",
        "## Part",
        "text",
        "Setext",
        "===",
        "```rust",
        "~~~",
        "```",
        "- item",
        "> quote",
        "[ref]: https://example.com \"T\"",
        "***",
        "",
        "title: x",
        "    code",
    ]);
    prop::collection::vec(line, 0..200).prop_map(|v| v.join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// The structure index built a piece at a time (as the npm package
    /// does between turns of the event loop) is the index built at once.
    #[test]
    fn the_index_by_pieces_is_the_whole_index(
        text in markdown(),
        budget in prop::sample::select(vec![1usize, 7, 64, 4096]),
    ) {
        let whole = SpooledMarkdownArtifact::new(MemoryReader::new(text.clone()));
        let pieces = SpooledMarkdownArtifact::new(MemoryReader::new(text));
        let mut calls = 0;
        while !pieces.index_chunk(budget) {
            calls += 1;
            prop_assert!(calls <= 100_000, "the index never completes");
        }
        prop_assert_eq!(pieces.md_headings(None), whole.md_headings(None));
        prop_assert_eq!(pieces.md_code_blocks(None), whole.md_code_blocks(None));
        prop_assert_eq!(
            format!("{:?}", pieces.md_frontmatter()),
            format!("{:?}", whole.md_frontmatter())
        );
        prop_assert_eq!(pieces.md_links(None, None), whole.md_links(None, None));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The text a piece at a time, on any bytes (invalid UTF-8 included),
    /// joins to the whole text, and every piece moves on.
    #[test]
    fn the_text_by_pieces_is_the_whole_text(
        bytes in prop::collection::vec(any::<u8>(), 0..300),
        size in 0usize..20,
    ) {
        let artifact = SpooledArtifact::new(MemoryReader::new(bytes));
        let (mut text, mut at) = (String::new(), Some(0));
        while let Some(start) = at {
            let piece = artifact.as_string_chunk(start, size);
            prop_assert!(piece.next.is_none_or(|n| n > start));
            text.push_str(&piece.text);
            at = piece.next;
        }
        prop_assert_eq!(text, artifact.as_string());
    }
}
