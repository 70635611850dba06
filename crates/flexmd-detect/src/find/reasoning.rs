//! Reasoning blocks (`<think>`, `<thinking>`, `<reasoning>`,
//! `<scratchpad>`): found, so the search leaves them out, and blanked
//! without moving any offset (README rule 1).

use crate::answer::{REASONING_TAGS, find_ascii_ci};

/// The byte ranges of reasoning blocks: from an opening tag (`<think>`,
/// any case) at the start of a line to the end of its closing tag, or to the
/// end of the text; and, when the chat template wrote the opening tag (the
/// answer holds only `</think>`), from the start of the text to the end of
/// that closing tag ([`orphan_close`]).
pub(crate) fn reasoning_blocks(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut blocks = Vec::new();
    let mut at = 0;
    if let Some(end) = orphan_close(text) {
        blocks.push(0..end);
        at = end;
    }
    while let Some(i) = text.get(at..).and_then(|r| r.find('<')) {
        let open = at + i;
        let rest = text.get(open + 1..).unwrap_or_default();
        let tag = REASONING_TAGS.iter().map(|(tag, _)| tag).find(|t| {
            rest.get(..t.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(t))
                && rest.get(t.len()..).is_some_and(|r| r.starts_with('>'))
        });
        // Only a tag that starts a line opens a block (not one quoted in
        // a sentence or a JSON string). Only the blanks before it are
        // looked at, so many `<` on one long line stay linear.
        let starts_line = || {
            let before = text.as_bytes().get(..open).unwrap_or_default();
            let blanks = before
                .iter()
                .rev()
                .take_while(|b| matches!(b, b' ' | b'\t' | b'\r'))
                .count();
            before.len() == blanks || before.get(before.len() - blanks - 1) == Some(&b'\n')
        };
        let Some(tag) = tag.filter(|_| starts_line()) else {
            at = open + 1;
            continue;
        };
        let body = open + tag.len() + 2;
        let close = format!("</{tag}>");
        let end =
            find_ascii_ci(text.as_bytes(), body, &close).map_or(text.len(), |i| i + close.len());
        blocks.push(open..end);
        at = end;
    }
    blocks
}

/// The end of a closing reasoning tag (`</think>`, any case) that no opening
/// tag comes before: reasoning models whose chat template writes `<think>`
/// into the prompt answer with their reasoning, `</think>`, then the
/// answer. The tag must start or end its line (not one quoted in a sentence
/// or a JSON string), and no opening tag may start a line before it.
pub(crate) fn orphan_close(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    // The line around the candidate, kept as the search moves on so each
    // byte is looked at a bounded number of times: where it starts, and
    // where its content (what is not blank) starts and ends.
    let mut line = 0..0;
    let mut content = 0..0;
    let mut at = 0;
    while let Some(i) = memchr::memmem::find(bytes.get(at..)?, b"</") {
        let open = at + i;
        at = open + 2;
        let rest = text.get(open + 2..).unwrap_or_default();
        let Some(tag) = REASONING_TAGS.iter().map(|(tag, _)| tag).find(|t| {
            rest.get(..t.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(t))
                && rest.get(t.len()..).is_some_and(|r| r.starts_with('>'))
        }) else {
            continue;
        };
        if open >= line.end {
            // A new line (`line.end` is the previous line's break).
            let start = bytes
                .get(line.end..open)
                .and_then(|b| memchr::memrchr(b'\n', b))
                .map_or(line.end, |i| line.end + i + 1);
            let end = bytes
                .get(open..)
                .and_then(|b| memchr::memchr(b'\n', b))
                .map_or(bytes.len(), |i| open + i);
            let blank = |b: &u8| b.is_ascii_whitespace();
            let lead = bytes
                .get(start..end)
                .and_then(|b| b.iter().position(|b| !blank(b)))
                .map_or(end, |i| start + i);
            let tail = bytes
                .get(start..end)
                .and_then(|b| b.iter().rposition(|b| !blank(b)))
                .map_or(start, |i| start + i + 1);
            line = start..end;
            content = lead..tail;
        }
        let end = open + tag.len() + 3;
        if !(content.start == open || content.end == end) {
            continue;
        }
        // An opening tag at the start of a line before it makes it an
        // ordinary block's end.
        let opened = text.get(..open).is_some_and(|before| {
            before.split('\n').any(|line| {
                let line = line.trim_start();
                REASONING_TAGS.iter().map(|(tag, _)| tag).any(|t| {
                    line.strip_prefix('<').is_some_and(|r| {
                        r.get(..t.len()).is_some_and(|w| w.eq_ignore_ascii_case(t))
                            && r.get(t.len()..).is_some_and(|r| r.starts_with('>'))
                    })
                })
            })
        });
        return (!opened).then_some(end);
    }
    None
}

/// `text` with the bytes of `blocks` replaced by spaces (line breaks kept),
/// so every offset still points at the same place.
pub(crate) fn blank_out(text: &str, blocks: &[std::ops::Range<usize>]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for block in blocks {
        if let Some(span) = bytes.get_mut(block.clone()) {
            span.iter_mut()
                .filter(|b| **b != b'\n')
                .for_each(|b| *b = b' ');
        }
    }
    // Whole characters were replaced by ASCII bytes.
    String::from_utf8(bytes).unwrap_or_default()
}
