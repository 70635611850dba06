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
    /// For a `flexmd` fence read past a payload fence that closed it early
    /// (see [`fences`]): where that early closing line is.
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

/// At most this many `flexmd` fences are read past an early close (each
/// re-parses the rest of the text).
const MAX_REOPENED: usize = 64;

/// Every fenced block of `text` (indented code blocks are not fences), in
/// document order.
///
/// One leniency: models often write a payload fence inside a `flexmd` fence
/// with the same fence (```` ``` ````), so Markdown ends the `flexmd` fence at
/// the payload's closing line. When a top-level `flexmd` fence ends inside a
/// fence opened right after a `@payload` binding, and a bare fence line
/// later closes it, the `flexmd` fence is read up to that line instead.
pub(crate) fn fences(text: &str) -> Vec<Fence> {
    let mut out = Vec::new();
    let mut base = 0;
    let mut reopened = 0;
    'parse: loop {
        let rest = text.get(base..).unwrap_or_default();
        for mut block in code_blocks(rest).into_iter().filter(|b| b.info.is_some()) {
            block.span = base + block.span.start..base + block.span.end;
            let fence = fence(text, block);
            if reopened < MAX_REOPENED
                && let Some(longer) = reopen(text, &fence)
            {
                base = longer.end;
                reopened += 1;
                out.push(longer);
                continue 'parse;
            }
            out.push(fence);
        }
        return out;
    }
}

/// The `flexmd` fence read past an early close, as [`fences`] describes.
fn reopen(text: &str, fence: &Fence) -> Option<Fence> {
    if fence.lang_lower() != "flexmd" || !fence.closed {
        return None;
    }
    let inner = code_blocks(&fence.content);
    let last = inner.last().filter(|b| !b.closed && b.lang().is_some())?;
    let before = fence.content.get(..last.span.start)?.trim_end();
    let binding = before.rsplit('\n').next()?;
    if !binding.trim_start().starts_with("@payload:") {
        return None;
    }
    // Only top-level fences: indentation is all that precedes the fence.
    let opening = text.get(fence.start..)?.split('\n').next()?;
    let indent = opening.len() - opening.trim_start_matches(' ').len();
    let marker = opening.trim_start_matches(' ').chars().next()?;
    if indent > 3 || !matches!(marker, '`' | '~') {
        return None;
    }
    // Lines after the early close: payload fences open and close; the first
    // bare fence line outside them closes the `flexmd` fence.
    let mut open_inner = false;
    let mut close = None;
    let after = text.get(fence.end..)?;
    let mut pieces = after.split_inclusive('\n');
    // The rest of the early closing line: its line ending.
    let mut start = fence.end + pieces.next().map_or(0, str::len);
    for line in pieces {
        let bare = line.trim_end_matches(['\n', '\r']);
        let trimmed = bare.trim_start_matches(' ');
        let run = trimmed.chars().take_while(|&c| c == marker).count();
        if run >= 3 {
            let info = trimmed.get(run..).unwrap_or_default().trim();
            match (info.is_empty(), open_inner) {
                (true, true) => open_inner = false,
                (true, false) => {
                    close = Some((start, start + bare.len()));
                    break;
                }
                (false, false) => open_inner = true,
                (false, true) => {}
            }
        }
        start += line.len();
    }
    let (close_start, close_end) = close?;
    let body_start = fence.start + opening.len() + 1;
    let body = text.get(body_start..close_start)?;
    let mut content = String::new();
    let mut lines = Vec::new();
    let mut line_at = body_start;
    for line in body.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        let strip = bare.len() - bare.trim_start_matches(' ').len();
        let strip = strip.min(indent);
        lines.push((content.len(), line_at + strip));
        content.push_str(bare.get(strip..).unwrap_or_default());
        content.push('\n');
        line_at += line.len();
    }
    Some(Fence {
        start: fence.start,
        end: close_end,
        lang: fence.lang.clone(),
        content,
        closed: true,
        lines,
        nested_close: Some(fence.end - last_line_len(text, fence.end)),
    })
}

/// The length of the line that ends at `end`.
fn last_line_len(text: &str, end: usize) -> usize {
    text.get(..end).map_or(0, |before| {
        before.len() - before.rfind('\n').map_or(0, |i| i + 1)
    })
}

fn fence(text: &str, block: CodeBlock) -> Fence {
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
    let mut source_lines = Vec::new();
    let mut at = span.start;
    for line in source.split('\n') {
        source_lines.push((at, line.strip_suffix('\r').unwrap_or(line)));
        at += line.len() + 1;
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
        nested_close: None,
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
