//! The heading outline: Markdown → [`MdOutline`] and back.

use pulldown_cmark::{Event, Tag, TagEnd};

use crate::markdown::{front_matter_end, offset_events, parser_text, title_text_event};
use crate::model::{MdNode, MdOutline, NodeSource, OutlineType, Span};
use crate::text::{KeyAllocator, line_start, slice};

/// A top-level heading of a [`MarkdownStream`](crate::MarkdownStream), in document order: the
/// headings that become the outline's nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamHeading {
    /// 1 to 6.
    pub level: u8,
    /// The heading text with inline markup removed, as in the outline.
    pub title: String,
    /// The node's key in the outline (unique, in document order).
    pub key: String,
    /// From the start of the heading's (first) line to the end of its last.
    pub heading: Span,
}

/// Builds the heading tree of a Markdown text.
///
/// One pulldown-cmark pass (CommonMark, GFM tables, YAML front matter):
///
/// - every ATX or setext heading **at the top level of the document** becomes
///   an [`MdNode`]; a heading at level `L` becomes a child of the nearest
///   earlier heading with a level below `L`, or a root;
/// - headings inside code blocks, HTML blocks and front matter are text, and so
///   are headings inside block quotes and list items: a quoted or listed heading
///   belongs to its container and cannot own the blocks after it;
/// - `title` is the heading's text with inline markup removed (code spans keep
///   their text, images their alt text, line breaks become spaces, closing `#`s
///   are dropped); `key` is its slug, made unique (`notes`, `notes-2`);
/// - `content_md` is the exact source between the end of the heading and the
///   start of the next heading line; text before the first heading (front
///   matter included) is kept as `preamble_md`.
///
/// It never fails and runs in linear time, however deep the nesting.
///
/// ```
/// use flexmd_core::build_outline;
/// let outline = build_outline("# Answer\nYes.\n## Why\nBecause.\n# Notes\n");
/// assert_eq!(outline.nodes.len(), 2);
/// assert_eq!(outline.nodes[0].title, "Answer");
/// assert_eq!(outline.nodes[0].content_md, "Yes.\n");
/// assert_eq!(outline.nodes[0].children[0].key, "why");
/// ```
pub fn build_outline(md: &str) -> MdOutline {
    let mut reader = OutlineReader::default();
    let parsed = parser_text(md);
    for (event, range) in offset_events(&parsed, front_matter_end(&parsed)) {
        reader.on_event(md, &event, range);
    }
    reader.finish(md)
}

/// Builds the outline from parser events (one of the readers that
/// [`crate::read_markdown`] feeds from a single pass).
#[derive(Default)]
pub(crate) struct OutlineReader {
    tree: TreeBuilder,
    depth: usize,
    /// The heading being read: (level, start of its line, title so far).
    current: Option<(u8, usize, String)>,
}

impl OutlineReader {
    pub(crate) fn on_event(&mut self, md: &str, event: &Event<'_>, range: Span) {
        match event {
            Event::Start(tag) => {
                if self.depth == 0
                    && let Tag::Heading { level, .. } = tag
                {
                    self.current = Some((*level as u8, line_start(md, range.start), String::new()));
                }
                self.depth += 1;
            }
            Event::End(tag) => {
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 0
                    && matches!(tag, TagEnd::Heading(_))
                    && let Some((level, start, title)) = self.current.take()
                {
                    self.tree.push_heading(md, level, title, start..range.end);
                }
            }
            other => {
                if let Some((_, _, title)) = self.current.as_mut() {
                    title_text_event(other, title);
                }
            }
        }
    }

    pub(crate) fn finish(self, md: &str) -> MdOutline {
        self.tree.finish(md)
    }

    /// A reader that also keeps each heading in a flat list, for streams.
    pub(crate) fn recording() -> Self {
        Self {
            tree: TreeBuilder {
                recorded: Some(Vec::new()),
                ..TreeBuilder::default()
            },
            ..Self::default()
        }
    }

    /// The headings read so far, when [`recording`](Self::recording).
    pub(crate) fn recorded(&self) -> &[StreamHeading] {
        self.tree.recorded.as_deref().unwrap_or_default()
    }
}

/// Assembles nodes into the tree as headings arrive in document order. Each
/// node goes straight to its final place (its parent's `children`), found by
/// the path of indices to the open chain: moving nodes through a stack of
/// open nodes cost a tenth of the time on large documents. A node's content
/// ends where the next heading starts, so it is filled in then.
#[derive(Default)]
struct TreeBuilder {
    keys: KeyAllocator,
    roots: Vec<MdNode>,
    /// Indices from `roots` down to the most recent node: the open chain.
    /// Levels strictly increase along it, so it is at most six long.
    path: Vec<(usize, u8)>,
    preamble_end: Option<usize>,
    /// Every heading in order, kept only for [`crate::MarkdownStream`],
    /// whose tree is built from them at the end.
    recorded: Option<Vec<StreamHeading>>,
}

impl TreeBuilder {
    fn push_heading(&mut self, md: &str, level: u8, title: String, heading: Span) {
        self.preamble_end.get_or_insert(heading.start);
        let title = match title.trim() {
            trimmed if trimmed.len() == title.len() => title,
            trimmed => trimmed.to_owned(),
        };
        let key = self.keys.allocate(&title);
        match self.recorded.as_mut() {
            // A stream's headings become nodes at the end: one copy of
            // each title and key, not one in the list and one in the tree.
            Some(recorded) => recorded.push(StreamHeading {
                level,
                title,
                key,
                heading,
            }),
            None => self.push_node(md, level, title, key, heading),
        }
    }

    fn push_node(&mut self, md: &str, level: u8, title: String, key: String, heading: Span) {
        self.end_content(md, heading.start);
        // The parent is the nearest open node with a lower level.
        while self.path.last().is_some_and(|&(_, open)| open >= level) {
            self.path.pop();
        }
        let node = MdNode {
            key,
            title,
            level,
            id: None,
            content_md: String::new(),
            children: Vec::new(),
            source: Some(NodeSource {
                content: heading.end..heading.end,
                heading,
            }),
        };
        let siblings = match self.open_node() {
            Some(parent) => &mut parent.children,
            None => &mut self.roots,
        };
        siblings.push(node);
        let index = siblings.len() - 1;
        self.path.push((index, level));
    }

    /// The last node of the open chain.
    fn open_node(&mut self) -> Option<&mut MdNode> {
        let ((first, _), rest) = self.path.split_first()?;
        let mut node = self.roots.get_mut(*first)?;
        for (index, _) in rest {
            node = node.children.get_mut(*index)?;
        }
        Some(node)
    }

    /// Sets the content of the most recent node to end at `end`.
    fn end_content(&mut self, md: &str, end: usize) {
        if let Some(node) = self.open_node()
            && let Some(source) = node.source.as_mut()
        {
            source.content.end = end;
            node.content_md = slice(md, source.content.clone()).to_owned();
        }
    }

    fn finish(mut self, md: &str) -> MdOutline {
        for h in self.recorded.take().unwrap_or_default() {
            self.push_node(md, h.level, h.title, h.key, h.heading);
        }
        self.end_content(md, md.len());
        MdOutline {
            outline_type: OutlineType::Value,
            preamble_md: slice(
                md,
                crate::text::bom_len(md.as_bytes())..self.preamble_end.unwrap_or(md.len()),
            )
            .to_owned(),
            nodes: self.roots,
        }
    }
}

/// Renders an outline back to Markdown.
///
/// Writes `preamble_md`, then each node depth-first as an ATX heading of its
/// `level` (clamped to 1–6) and `title`, followed by its `content_md` as is.
/// `key` and `id` are never rendered. Title characters that Markdown would
/// read as markup are backslash-escaped, so the title survives a re-parse;
/// a line break is added before a heading when the text before it lacks one.
///
/// For Markdown whose headings are ATX headings,
/// `build_outline(&render_outline(&build_outline(md))) == build_outline(md)`.
///
/// ```
/// use flexmd_core::{build_outline, render_outline};
/// let md = "Intro\n\nSetext title\n============\nBody *text*\n";
/// assert_eq!(
///     render_outline(&build_outline(md)),
///     "Intro\n\n# Setext title\nBody *text*\n"
/// );
/// ```
pub fn render_outline(outline: &MdOutline) -> String {
    let mut out = String::with_capacity(outline.preamble_md.len() + 256);
    out.push_str(&outline.preamble_md);
    // Explicit stack: a deserialised outline may nest deeper than six levels.
    let mut stack: Vec<std::slice::Iter<'_, MdNode>> = vec![outline.nodes.iter()];
    while let Some(iter) = stack.last_mut() {
        let Some(node) = iter.next() else {
            stack.pop();
            continue;
        };
        if !out.is_empty() && !out.ends_with(['\n', '\r']) {
            out.push('\n');
        }
        let level = usize::from(node.level.clamp(1, 6));
        out.extend(std::iter::repeat_n('#', level));
        if !node.title.is_empty() {
            out.push(' ');
            push_escaped_title(&mut out, &node.title);
        }
        out.push('\n');
        out.push_str(&node.content_md);
        stack.push(node.children.iter());
    }
    out
}

/// Appends `title` so that an ATX heading reads it back unchanged.
fn push_escaped_title(out: &mut String, title: &str) {
    // A heading is one line: line breaks in a title (possible only in
    // hand-made outlines) become spaces.
    let title = title.trim();
    let trailing_hashes = title.len() - title.trim_end_matches('#').len();
    let closing_run_start = title.len() - trailing_hashes;
    for (i, c) in title.char_indices() {
        let escape = match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '~' | '!' => true,
            '&' => starts_entity(title.get(i + 1..).unwrap_or_default()),
            // Only the first `#` of a trailing run: `\##` is not a closing sequence.
            '#' => trailing_hashes > 0 && i == closing_run_start,
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        match c {
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
}

/// Whether the text after a `&` would make it an entity or numeric character reference.
fn starts_entity(rest: &str) -> bool {
    let (body, digits_only): (&str, fn(&u8) -> bool) =
        if let Some(hex) = rest.strip_prefix("#x").or_else(|| rest.strip_prefix("#X")) {
            (hex, u8::is_ascii_hexdigit)
        } else if let Some(dec) = rest.strip_prefix('#') {
            (dec, u8::is_ascii_digit)
        } else {
            (rest, u8::is_ascii_alphanumeric)
        };
    let len = body.bytes().take_while(digits_only).count();
    len > 0 && body.as_bytes().get(len) == Some(&b';')
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn titles(outline: &MdOutline) -> Vec<(u8, String, usize)> {
        let mut out = Vec::new();
        let mut stack: Vec<&MdNode> = outline.nodes.iter().rev().collect();
        while let Some(n) = stack.pop() {
            out.push((n.level, n.title.clone(), n.children.len()));
            stack.extend(n.children.iter().rev());
        }
        out
    }

    #[test]
    fn skipped_levels_nest_under_nearest_shallower_heading() {
        let o = build_outline("# A\n### C\n## B\n# D\n");
        assert_eq!(
            titles(&o),
            [
                (1, "A".into(), 2),
                (3, "C".into(), 0),
                (2, "B".into(), 0),
                (1, "D".into(), 0)
            ],
            "### and ## should both be children of #"
        );
    }

    #[test]
    fn deeper_first_heading_is_a_root() {
        let o = build_outline("### Deep\n# Top\n## Sub\n");
        assert_eq!(o.nodes.len(), 2);
        assert_eq!(o.nodes[1].children[0].title, "Sub");
    }

    #[test]
    fn heading_line_start_includes_indentation() {
        let o = build_outline("x\n\n   # T\nbody");
        assert_eq!(o.preamble_md, "x\n\n");
        let src = o.nodes[0].source.clone().unwrap();
        assert_eq!(src.heading, 3..10);
        assert_eq!(src.content, 10..14);
    }

    #[test]
    fn entity_detection() {
        assert!(starts_entity("amp;"));
        assert!(starts_entity("#35;"));
        assert!(starts_entity("#x1F;"));
        assert!(!starts_entity("T"));
        assert!(!starts_entity("#;"));
        assert!(!starts_entity(" amp;"));
    }

    #[test]
    fn render_escapes_markup_in_titles() {
        let outline = MdOutline {
            nodes: vec![MdNode {
                title: "a*b* [x] AT&T &amp; #1 ##".into(),
                level: 9,
                key: "k".into(),
                id: Some("never-rendered".into()),
                content_md: String::new(),
                children: vec![],
                source: None,
            }],
            ..MdOutline::default()
        };
        let md = render_outline(&outline);
        assert_eq!(md, "###### a\\*b\\* \\[x\\] AT&T \\&amp; #1 \\##\n");
        assert_eq!(
            build_outline(&md).nodes[0].title,
            "a*b* [x] AT&T &amp; #1 ##"
        );
    }
}
