//! Fenced blocks as the Markdown parser finds them, with a map from offsets
//! in a block's content back to the text (the parser removes indentation,
//! block-quote markers and carriage returns from the content).

use flexmd_core::{CodeBlock, code_blocks};

/// A fenced code block of the searched text.
#[derive(Debug, Clone)]
pub(crate) struct Fence {
    /// From the start of the opening fence's line when only indentation
    /// precedes the fence there, else from the fence itself; to the end of
    /// the closing fence (or of the block, when unclosed).
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// The first word of the info string, as written; `None` when empty.
    pub(crate) lang: Option<String>,
    /// The content as Markdown defines it.
    pub(crate) content: String,
    pub(crate) closed: bool,
    /// For each content line: its offset in `content` and in the text.
    lines: Vec<(usize, usize)>,
    /// For a `flexmd` fence read past a payload fence that would have closed
    /// it early (see [`fences`]): where that payload fence's closing line is.
    pub(crate) nested_close: Option<usize>,
}

impl Fence {
    /// The lower-cased language, `""` for none.
    pub(crate) fn lang_lower(&self) -> String {
        self.lang
            .as_deref()
            .unwrap_or_default()
            .to_ascii_lowercase()
    }

    /// The offset in the text of offset `at` in the content.
    pub(crate) fn text_offset(&self, at: usize) -> usize {
        let line = self.lines.partition_point(|&(c, _)| c <= at);
        match line.checked_sub(1).and_then(|l| self.lines.get(l)) {
            Some(&(content_start, text_start)) => (text_start + (at - content_start)).min(self.end),
            None => self.end,
        }
    }
}

/// Every fenced block of `text` (indented code blocks are not fences), in
/// document order.
///
/// One leniency: models often write a payload fence inside a `flexmd` fence
/// with the same fence (```` ``` ````), so Markdown ends the `flexmd` fence at
/// the payload's closing line. When a top-level `flexmd` fence holds a fence
/// opened right after a `@payload` binding whose closing line would close
/// the `flexmd` fence too, and a later bare fence line closes the `flexmd`
/// fence, the parser is shown the `flexmd` fence's own two fence runs in the
/// other fence character (same length, so every offset still holds), which
/// makes it read the payload fence as nested.
pub(crate) fn fences(text: &str) -> Vec<Fence> {
    // No fence marker, no fence: no Markdown parse (most JSON answers).
    // memmem, not `str::contains`: the latter has no vector search in
    // WebAssembly, where it was a sixth of a small `findJson` call.
    let has = |marker: &[u8]| memchr::memmem::find(text.as_bytes(), marker).is_some();
    if !has(b"```") && !has(b"~~~") {
        return Vec::new();
    }
    let nested = nested_flexmd_fences(text);
    if nested.is_empty() {
        return code_blocks(text)
            .into_iter()
            .filter(|b| b.info.is_some())
            .map(|b| fence(text, b, None))
            .collect();
    }
    let mut shown = text.as_bytes().to_vec();
    for n in &nested {
        for run in [n.open.clone(), n.close.clone()] {
            if let Some(bytes) = shown.get_mut(run) {
                bytes.fill(if n.marker == b'`' { b'~' } else { b'`' });
            }
        }
    }
    // Only ASCII fence bytes were swapped for ASCII bytes.
    let shown = String::from_utf8(shown).unwrap_or_else(|_| text.to_owned());
    code_blocks(&shown)
        .into_iter()
        .filter(|b| b.info.is_some())
        .map(|b| {
            let early = nested
                .iter()
                .find(|n| n.open.start == b.span.start)
                .map(|n| n.early_close);
            fence(text, b, early)
        })
        .collect()
}

/// A top-level `flexmd` fence with a payload fence that would close it early.
struct NestedFence {
    marker: u8,
    /// The fence runs of its opening and closing lines.
    open: std::ops::Range<usize>,
    close: std::ops::Range<usize>,
    /// The start of the payload fence's closing line.
    early_close: usize,
}

/// One line scan for [`NestedFence`]s, following CommonMark's fence rules
/// for top-level fences (indented at most three spaces).
fn nested_flexmd_fences(text: &str) -> Vec<NestedFence> {
    struct Open {
        marker: u8,
        len: usize,
        run: std::ops::Range<usize>,
        flexmd: bool,
        after_binding: bool,
        /// An open payload fence: its marker and length.
        inner: Option<(u8, usize)>,
        early_close: Option<usize>,
    }
    let mut found = Vec::new();
    let mut open: Option<Open> = None;
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let line_start = start;
        start += line.len();
        let bare = line.trim_end_matches(['\n', '\r']);
        let indent = bare.len() - bare.trim_start_matches(' ').len();
        let rest = bare.get(indent..).unwrap_or_default();
        let marker = rest
            .bytes()
            .next()
            .filter(|&b| indent <= 3 && (b == b'`' || b == b'~'));
        let run = marker.map_or(0, |m| rest.bytes().take_while(|&b| b == m).count());
        let info = rest.get(run..).unwrap_or_default().trim();
        let fence_line = marker.filter(|&m| run >= 3 && !(m == b'`' && info.contains('`')));
        let Some(current) = open.as_mut() else {
            if let Some(m) = fence_line {
                let word = info.split_whitespace().next().unwrap_or_default();
                open = Some(Open {
                    marker: m,
                    len: run,
                    run: line_start + indent..line_start + indent + run,
                    flexmd: word.eq_ignore_ascii_case("flexmd"),
                    after_binding: false,
                    inner: None,
                    early_close: None,
                });
            }
            continue;
        };
        let closes = |m: u8, len: usize| fence_line == Some(m) && run >= len && info.is_empty();
        if let Some((m, len)) = current.inner {
            if closes(m, len) {
                current.inner = None;
                if closes(current.marker, current.len) {
                    current.early_close.get_or_insert(line_start);
                }
            }
            continue;
        }
        if closes(current.marker, current.len) {
            if let (true, Some(early_close)) = (current.flexmd, current.early_close) {
                found.push(NestedFence {
                    marker: current.marker,
                    open: current.run.clone(),
                    close: line_start + indent..line_start + indent + run,
                    early_close,
                });
            }
            open = None;
            continue;
        }
        if current.flexmd {
            if let Some(m) = fence_line.filter(|_| current.after_binding && !info.is_empty()) {
                current.inner = Some((m, run));
            }
            if !bare.trim().is_empty() {
                current.after_binding = bare.trim_start().starts_with("@payload:");
            }
        }
    }
    found
}

fn fence(text: &str, block: CodeBlock, nested_close: Option<usize>) -> Fence {
    let span = block.span.clone();
    let line_start = text
        .get(..span.start)
        .and_then(|before| before.rfind('\n').map(|i| i + 1))
        .unwrap_or(0);
    let start = match text.get(line_start..span.start) {
        Some(indent) if indent.bytes().all(|b| b == b' ' || b == b'\t') => line_start,
        _ => span.start,
    };
    let source = text.get(span.clone()).unwrap_or_default();
    // Source lines after the opening fence line, each with its text offset.
    // A line ends at LF, CRLF or a lone CR, as the Markdown parser reads it.
    let mut source_lines = Vec::new();
    let mut at = span.start;
    let mut rest = source;
    loop {
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        source_lines.push((at, rest.get(..end).unwrap_or_default()));
        let after = rest.get(end..).unwrap_or_default();
        let brk = if after.starts_with("\r\n") {
            2
        } else {
            usize::from(!after.is_empty())
        };
        if brk == 0 {
            break;
        }
        at += end + brk;
        rest = after.get(brk..).unwrap_or_default();
    }
    let mut lines = Vec::new();
    let mut content_at = 0;
    for (i, content_line) in block.content.split('\n').enumerate() {
        let text_at = match source_lines.get(i + 1) {
            // The content line is what remains of the source line once the
            // container's prefix is removed.
            Some(&(line_at, line)) if line.ends_with(content_line) => {
                line_at + line.len() - content_line.len()
            }
            Some(&(line_at, _)) => line_at,
            None => span.end,
        };
        lines.push((content_at, text_at));
        content_at += content_line.len() + 1;
    }
    Fence {
        start,
        end: span.end,
        lang: block.lang().map(str::to_owned),
        closed: block.closed,
        content: block.content,
        lines,
        nested_close,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_offsets_map_back_to_the_text() {
        let text = "- item\r\n\r\n  ```json\r\n  {\"a\":\r\n  1}\r\n  ```\r\n";
        let f = fences(text);
        let f = f.first().unwrap();
        assert_eq!(f.content, "{\"a\":\n1}\n");
        assert_eq!(
            &text[f.start..f.end],
            "  ```json\r\n  {\"a\":\r\n  1}\r\n  ```"
        );
        let one = f.content.find('1').unwrap();
        assert_eq!(f.text_offset(one), text.find('1').unwrap());
        assert_eq!(f.text_offset(0), text.find('{').unwrap());
        // A lone CR ends a line too.
        let text = "```json\r[1,\r2]\r```";
        let f = fences(text);
        let f = f.first().unwrap();
        assert_eq!(
            f.text_offset(f.content.find('2').unwrap()),
            text.find('2').unwrap()
        );
    }

    #[test]
    fn a_payload_fence_that_closes_flexmd_early_is_read_as_nested() {
        let text = "x\n```flexmd\n[[m]]\n@payload:name: p\n```json\n{}\n```\n\nbody\n```\ntail\n```js\n1\n```\n";
        let f = fences(text);
        assert_eq!(f.len(), 2);
        assert_eq!(
            &text[f[0].start..f[0].end],
            "```flexmd\n[[m]]\n@payload:name: p\n```json\n{}\n```\n\nbody\n```"
        );
        assert_eq!(
            f[0].content,
            "[[m]]\n@payload:name: p\n```json\n{}\n```\n\nbody\n"
        );
        assert_eq!(f[0].nested_close, Some(text.find("```\n\nbody").unwrap()));
        assert_eq!(
            f[0].text_offset(f[0].content.find("body").unwrap()),
            text.find("body").unwrap()
        );
        assert_eq!(f[1].lang.as_deref(), Some("js"));
        // Without a binding, or without a later bare fence, Markdown's reading stands.
        let plain = "```flexmd\n[[m]]\n```json\n{}\n```\ntext\n```\n";
        assert_eq!(fences(plain)[0].content, "[[m]]\n```json\n{}\n");
        let unclosed = "```flexmd\n@payload:name: p\n```json\n{}\n```\ntext\n";
        assert_eq!(fences(unclosed)[0].nested_close, None);
    }

    #[test]
    fn indented_and_quoted_fences() {
        let text = "  ~~~~JSON x=1\n  [2]\n  ~~~~\n> ```\n> [3]\n";
        let f = fences(text);
        assert_eq!(f.len(), 2);
        assert_eq!((f[0].start, f[0].lang.as_deref()), (0, Some("JSON")));
        assert_eq!(f[0].lang_lower(), "json");
        assert_eq!(f[0].text_offset(1), text.find('2').unwrap());
        assert_eq!(f[1].text_offset(1), text.find('3').unwrap());
        assert!(!f[1].closed);
        assert_eq!(f[1].lang, None);
    }
}
