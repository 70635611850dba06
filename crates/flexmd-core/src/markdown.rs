//! The one place that configures pulldown-cmark, so every builder reads
//! Markdown the same way.

use std::borrow::Cow;
use std::ops::Range;

use pulldown_cmark::{Event, Options, Parser};

use crate::text::{bom_len, line_spans, slice};

/// The Markdown dialect flexmd reads: CommonMark plus GFM tables,
/// strikethrough and task lists. YAML front matter is split off first (see
/// [`front_matter_end`]) rather than left to pulldown-cmark's metadata-block
/// option, which also takes a `---` … `---` pair in mid-document (after a
/// heading, say) and would swallow the headings between them.
pub(crate) fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

/// Events of `md` from byte `start` on (past the front matter, or 0), with
/// byte ranges into all of `md`.
///
/// `md` must come from [`parser_text`]; ranges index the original text too.
pub(crate) fn offset_events(
    md: &str,
    start: usize,
) -> impl Iterator<Item = (Event<'_>, Range<usize>)> {
    let body = md.get(start..).unwrap_or_default();
    Parser::new_ext(body, options())
        .into_offset_iter()
        .map(move |(event, range)| (event, range.start + start..range.end + start))
}

/// Where the Markdown body starts: after a leading byte order mark and the
/// YAML front matter, if any (0 without either).
///
/// Front matter is the Jekyll/Hugo convention: the first line is `---`, and a
/// later line `---` or `...` closes it. Without a closing line there is none.
pub(crate) fn front_matter_end(md: &str) -> usize {
    let bom = bom_len(md.as_bytes());
    let mut lines = line_spans(md).map(|l| (slice(md, l.start..l.end), l.next));
    let Some((first, _)) = lines.next() else {
        return bom;
    };
    if first.trim_end() != "---" {
        return bom;
    }
    for (line, next) in lines {
        if matches!(line.trim_end(), "---" | "...") {
            return next;
        }
    }
    bom
}

/// The text to hand the parser: `md` with every lone CR turned into LF.
///
/// CommonMark reads a lone CR as a line ending, but pulldown-cmark 0.13 does
/// not always (a fence's info string or closing fence can run on past it), so
/// the same text would parse differently with LF endings. Swapping one byte
/// for another keeps every offset, so ranges still index the original, whose
/// exact bytes (CR included) are what builders copy out.
pub(crate) fn parser_text(md: &str) -> Cow<'_, str> {
    let bytes = md.as_bytes();
    // Most text has no CR at all: one fast scan decides.
    if !bytes.contains(&b'\r') {
        return Cow::Borrowed(md);
    }
    let lone_cr = |i: usize| bytes.get(i + 1) != Some(&b'\n');
    if !cr_positions(bytes).any(lone_cr) {
        return Cow::Borrowed(md);
    }
    let mut fixed = bytes.to_vec();
    for i in cr_positions(bytes) {
        if lone_cr(i)
            && let Some(b) = fixed.get_mut(i)
        {
            *b = b'\n';
        }
    }
    // Only ASCII bytes were swapped, so the text is still UTF-8.
    Cow::Owned(
        String::from_utf8(fixed)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
    )
}

/// Positions of every `\r`.
fn cr_positions(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    bytes
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\r')
        .map(|(i, _)| i)
}

/// Appends the plain text an inline event contributes to a title: text and
/// code spans as they read, line breaks as spaces, markup and raw HTML nothing.
pub(crate) fn title_text_event(event: &Event<'_>, out: &mut String) {
    match event {
        Event::Text(text) | Event::Code(text) => out.push_str(text),
        Event::SoftBreak | Event::HardBreak => out.push(' '),
        _ => {}
    }
}
