//! Source snippets for diagnostics that cost the same on any input: the
//! text is shared (never copied per diagnostic), lines are found through an
//! index built once, and a snippet shows at most a window of bytes around
//! its span (a 100 MB line is not printed whole).

use std::sync::Arc;

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Bytes shown on each side of a span within its line.
const WINDOW: usize = 120;

/// The input as miette reads it for snippets.
#[derive(Debug, Clone)]
pub(crate) struct Snippets {
    name: String,
    text: Arc<str>,
    /// The byte offset where each line starts.
    line_starts: Arc<Vec<usize>>,
}

impl Snippets {
    pub(crate) fn new(name: &str, text: &str) -> Self {
        // Lines end at LF, CRLF or a lone CR (as flexmd_core::LineIndex).
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
                line_starts.push(i + 1);
            }
        }
        Self {
            name: name.to_owned(),
            text: Arc::from(text),
            line_starts: Arc::new(line_starts),
        }
    }

    fn line_of(&self, offset: usize) -> usize {
        self.line_starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    /// Where line `line` ends (before its line break).
    fn line_end(&self, line: usize) -> usize {
        let next = self
            .line_starts
            .get(line + 1)
            .copied()
            .unwrap_or(self.text.len());
        let body = self.text.get(..next).unwrap_or_default();
        body.trim_end_matches(['\n', '\r'])
            .len()
            .max(self.line_start(line))
    }

    fn line_start(&self, line: usize) -> usize {
        self.line_starts.get(line).copied().unwrap_or(0)
    }
}

impl SourceCode for Snippets {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let text: &str = &self.text;
        let start = span.offset().min(text.len());
        // A long span (a whole 100 MB line) is shown by its beginning.
        let end = (start + span.len()).min(text.len()).min(start + 2 * WINDOW);
        let (first, last) = (self.line_of(start), self.line_of(end));
        let top = first.saturating_sub(context_lines_before);
        let bottom = (last + context_lines_after).min(self.line_starts.len().saturating_sub(1));
        // Whole context lines, unless the span's own line is long on that
        // side: then at most WINDOW bytes of it (and no context line there).
        // Context lines are cut too: at most 2 * WINDOW bytes of them on
        // each side (a 1 MB line after a heading was printed whole, once
        // per diagnostic).
        let mut from = self
            .line_start(top)
            .max(self.line_start(first).saturating_sub(2 * WINDOW));
        if start - self.line_start(first) > WINDOW {
            from = start - WINDOW;
        }
        let mut to = self
            .line_end(bottom)
            .max(end)
            .min(self.line_end(last).max(end) + 2 * WINDOW);
        if self.line_end(last).saturating_sub(end) > WINDOW {
            to = end + WINDOW;
        }
        while !text.is_char_boundary(from) {
            from -= 1;
        }
        while !text.is_char_boundary(to) {
            to += 1;
        }
        let window = text.get(from..to).unwrap_or_default();
        let inner = SourceSpan::new((start - from).into(), end - start);
        let contents = window.read_span(&inner, context_lines_before, context_lines_after)?;
        // Back to places in the whole text.
        let offset = from + contents.span().offset();
        let line = self.line_of(offset);
        let column = text
            .get(self.line_start(line)..offset)
            .map_or(0, |s| s.chars().count());
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            contents.data(),
            SourceSpan::new(offset.into(), contents.span().len()),
            line,
            column,
            contents.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_context_line_is_cut_too() {
        let text = format!("{}\n# T\n{}\n", "b".repeat(100_000), "a".repeat(100_000));
        let source = Snippets::new("t", &text);
        let at = 100_001;
        let contents = source
            .read_span(&SourceSpan::new(at.into(), 1), 1, 1)
            .unwrap();
        let shown = std::str::from_utf8(contents.data()).unwrap();
        assert!(shown.contains("# T"), "{shown}");
        assert!(
            shown.len() <= 5 * WINDOW,
            "the lines around the span are windows too: {} bytes",
            shown.len()
        );
        assert_eq!(contents.line(), 0, "the window starts in line 0");
    }

    #[test]
    fn a_long_span_shows_its_beginning() {
        let text = format!("[[m k=\"v {}\n", "x".repeat(100_000));
        let snippets = Snippets::new("t", &text);
        let contents = snippets
            .read_span(&SourceSpan::new(0.into(), text.len() - 1), 1, 1)
            .unwrap();
        assert!(
            contents.data().len() < 4 * WINDOW,
            "{}",
            contents.data().len()
        );
        assert!(contents.data().starts_with(b"[[m"));
    }

    #[test]
    fn a_snippet_of_a_long_line_is_a_window() {
        let text = format!("first\n{}X{}\nlast", "a".repeat(10_000), "b".repeat(10_000));
        let snippets = Snippets::new("t", &text);
        let at = text.find('X').unwrap();
        let contents = snippets
            .read_span(&SourceSpan::new(at.into(), 1), 1, 1)
            .unwrap();
        let data = std::str::from_utf8(contents.data()).unwrap();
        assert!(data.len() < 2 * WINDOW + 20, "{}", data.len());
        assert!(data.contains('X'));
        assert_eq!(contents.line(), 1);
        // Short lines come whole, with their context.
        let contents = snippets
            .read_span(&SourceSpan::new(0.into(), 5), 0, 1)
            .unwrap();
        assert_eq!(contents.line(), 0);
        assert!(
            std::str::from_utf8(contents.data())
                .unwrap()
                .starts_with("first\n")
        );
    }
}
