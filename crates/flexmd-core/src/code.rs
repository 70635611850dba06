//! Code blocks, found by the Markdown parser (not by matching lines).

use pulldown_cmark::{CodeBlockKind, Event, Tag, TagEnd};

use crate::markdown::{front_matter_end, offset_events, parser_text};
use crate::model::Span;
use crate::text::slice;

/// A fenced or indented code block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeBlock {
    /// From the opening fence (or first indented line) to the end of the
    /// closing fence, without the final line ending.
    pub span: Span,
    /// The info string of a fenced block (`json title=a`); `None` for an
    /// indented block.
    pub info: Option<String>,
    /// The block's text as Markdown defines it (fence indentation removed).
    pub content: String,
    /// Whether a fenced block has its closing fence; `false` means it runs to
    /// the end of its container, as in a truncated answer. Indented blocks
    /// are always closed.
    pub closed: bool,
}

impl CodeBlock {
    /// The first word of the info string, e.g. `json` for ```` ```json title=a ````.
    pub fn lang(&self) -> Option<&str> {
        self.info.as_deref()?.split_whitespace().next()
    }
}

/// Every code block of a Markdown text, at any depth, in document order.
///
/// Front matter is not split off here: a fence inside a leading `---` block
/// still counts, so the answer does not depend on where the text starts
/// (callers that care use [`front_matter`]).
///
/// ```
/// use flexmd_core::code_blocks;
/// let blocks = code_blocks("text\n~~~~json x\n{}\n~~~~\n\n```\ncut off");
/// assert_eq!(blocks[0].lang(), Some("json"));
/// assert_eq!(blocks[0].content, "{}\n");
/// assert!(blocks[0].closed);
/// assert_eq!(blocks[1].content, "cut off");
/// assert!(!blocks[1].closed);
/// ```
pub fn code_blocks(md: &str) -> Vec<CodeBlock> {
    let mut blocks = Vec::new();
    let mut current: Option<CodeBlock> = None;
    let parsed = parser_text(md);
    let body = crate::text::bom_len(md.as_bytes());
    for (event, range) in offset_events(&parsed, body) {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                current = Some(CodeBlock {
                    span: range,
                    info: match kind {
                        CodeBlockKind::Fenced(info) => Some(info.into_string()),
                        CodeBlockKind::Indented => None,
                    },
                    content: String::new(),
                    closed: true,
                });
            }
            Event::Text(text) => {
                if let Some(block) = current.as_mut() {
                    block.content.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some(mut block) = current.take() {
                    if block.info.is_some() {
                        block.closed = has_closing_fence(slice(md, block.span.clone()));
                    }
                    blocks.push(block);
                }
            }
            _ => {}
        }
    }
    blocks
}

/// The span of the YAML front matter, if any: a first line `---`, through
/// the next line that is `---` or `...` (and its line ending).
///
/// ```
/// use flexmd_core::front_matter;
/// assert_eq!(front_matter("---\ntitle: x\n---\n# Doc\n"), Some(0..17));
/// assert_eq!(front_matter("# Doc\n---\nx\n---\n"), None, "only at the start");
/// assert_eq!(front_matter("---\nnever closed\n"), None);
/// assert_eq!(front_matter("\u{feff}---\nx: 1\n---\n"), Some(3..16), "after a byte order mark");
/// ```
pub fn front_matter(md: &str) -> Option<Span> {
    let start = crate::text::bom_len(md.as_bytes());
    let end = front_matter_end(md);
    (end > start).then_some(start..end)
}

/// Whether a fenced block's source ends with a closing fence: a last line
/// (not the first) of the opening fence's character, at least as long. The
/// line may start with the block quote markers of the fence's container
/// (`> ```` `), which the parser's span includes.
fn has_closing_fence(source: &str) -> bool {
    let Some(fence_char) = source.chars().next() else {
        return false;
    };
    let open_len = source.chars().take_while(|&c| c == fence_char).count();
    let body = source.trim_end_matches(['\n', '\r']);
    let Some(last_break) = body.rfind(['\n', '\r']) else {
        return false;
    };
    let last = body
        .get(last_break + 1..)
        .unwrap_or_default()
        .trim_start_matches([' ', '\t', '>'])
        .trim_end();
    last.len() >= open_len && last.chars().all(|c| c == fence_char)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closing_fences_in_containers() {
        let quoted = code_blocks("> ```json\n> {}\n> ```\n");
        assert_eq!(quoted[0].content, "{}\n");
        assert!(quoted[0].closed, "a closing fence behind `>` closes");
        let listed = code_blocks("- item\n\n  ~~~~\n  a\n  ~~~~~\n");
        assert!(listed[0].closed);
        let cut = code_blocks("> ```json\n> {\"a\"\n");
        assert!(!cut[0].closed);
        let short = code_blocks("````\n```\n");
        assert!(!short[0].closed, "a shorter fence is content");
        assert_eq!(short[0].content, "```\n");
    }
}

/// The opening line of a fenced code block, read alone: its fence character
/// (`` ` `` or `~`), how many, and the info string after them.
///
/// A line alone cannot tell whether it opens a fence at the top level (it
/// may sit in a list item or an HTML block); streams use this to find the
/// lines worth asking the parser about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FenceOpening<'a> {
    /// `` b'`' `` or `b'~'`.
    pub marker: u8,
    /// Three or more.
    pub len: usize,
    /// The info string, trimmed (its first word is the language).
    pub info: &'a str,
}

impl FenceOpening<'_> {
    /// Whether `line` (without its line ending) closes this fence: up to
    /// three spaces, at least as many of the same character, then only
    /// spaces. A tab after the run leaves the fence open, as the Markdown
    /// parser flexmd uses reads it (the line stays code).
    ///
    /// ```
    /// let open = flexmd_core::fence_opening("```json").unwrap();
    /// assert!(open.closed_by("````"));
    /// assert!(open.closed_by("```  "));
    /// assert!(!open.closed_by("``"));
    /// assert!(!open.closed_by("~~~"));
    /// assert!(!open.closed_by("```\t"));
    /// ```
    pub fn closed_by(&self, line: &str) -> bool {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let rest = line.get(indent..).unwrap_or_default();
        let run = rest.bytes().take_while(|&b| b == self.marker).count();
        indent <= 3
            && run >= self.len
            && rest
                .get(run..)
                .unwrap_or_default()
                .bytes()
                .all(|b| b == b' ')
    }
}

/// `line` (without its line ending) read as a fence opening: up to three
/// spaces, three or more backticks or tildes, an info string (a backtick
/// fence's has no backtick).
///
/// ```
/// let open = flexmd_core::fence_opening("  ```json title").unwrap();
/// assert_eq!((open.marker, open.len, open.info), (b'`', 3, "json title"));
/// assert!(flexmd_core::fence_opening("    ```").is_none(), "indented code");
/// assert!(flexmd_core::fence_opening("``` a`b").is_none());
/// ```
pub fn fence_opening(line: &str) -> Option<FenceOpening<'_>> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = line.get(indent..)?;
    let marker = *rest.as_bytes().first()?;
    if indent > 3 || (marker != b'`' && marker != b'~') {
        return None;
    }
    let len = rest.bytes().take_while(|&b| b == marker).count();
    let info = rest.get(len..).unwrap_or_default();
    if len < 3 || (marker == b'`' && info.contains('`')) {
        return None;
    }
    Some(FenceOpening {
        marker,
        len,
        info: info.trim(),
    })
}
