//! The one place that configures pulldown-cmark, so every builder reads
//! Markdown the same way.

use std::ops::Range;

use pulldown_cmark::{Event, Options, Parser};

/// The Markdown dialect flexmd reads: CommonMark plus GFM tables,
/// strikethrough and task lists, and YAML front matter.
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
}

/// Events of `md` with their byte ranges.
pub(crate) fn offset_events(md: &str) -> impl Iterator<Item = (Event<'_>, Range<usize>)> {
    Parser::new_ext(md, options()).into_offset_iter()
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
