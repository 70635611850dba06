//! FlexMD text → [`FlexDocument`]: one line scan, with code blocks found by
//! the Markdown parser so that nothing inside a fence is read as structure.

use flexmd_core::{
    CodeBlock, Diagnostic, FlexDocument, FlexFrame, FlexMetaValue, FlexPayload, LineIndex,
    MetaTypeMode, Parsed, Severity, build_outline, code_blocks, line_spans, split_meta_list,
};
use indexmap::IndexMap;

use crate::header::{Header, identifier, parse_header};
use crate::payload::payload;

/// How [`parse`](crate::parse) reads meta values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseOptions {
    /// How meta values are typed: strings (default), inferred, or by schema.
    pub meta_type_mode: MetaTypeMode,
    /// Read `@key: value` lines anywhere in a frame, not only in the meta
    /// block right after its header (flex-md's `metaAnywhere`).
    pub meta_anywhere: bool,
    /// Keys whose values are comma-separated lists (default `tags`, `refs`),
    /// unless a schema types them otherwise.
    pub array_keys: Vec<String>,
}

impl Default for ParseOptions {
    fn default() -> Self {
        Self {
            meta_type_mode: MetaTypeMode::Strings,
            meta_anywhere: false,
            array_keys: vec!["tags".to_owned(), "refs".to_owned()],
        }
    }
}

/// One line of the input, without its line ending.
#[derive(Debug, Clone, Copy)]
struct Line<'a> {
    start: usize,
    text: &'a str,
    /// Start of the next line.
    next: usize,
}

impl Line<'_> {
    fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }
}

fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    line_spans(text).map(|l| Line {
        start: l.start,
        text: text.get(l.start..l.end).unwrap_or_default(),
        next: l.next,
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Before anything but blank lines, the title and document meta.
    DocStart,
    /// Text before the first frame.
    Preamble,
    Frame,
}

struct OpenFrame<'a> {
    frame: FlexFrame,
    meta: IndexMap<String, FlexMetaValue>,
    payloads: IndexMap<String, FlexPayload>,
    body: Vec<&'a str>,
    in_meta_block: bool,
}

/// A `@payload:...` line waiting for its fence.
struct Binding<'a> {
    name: String,
    line: Line<'a>,
    blanks: Vec<Line<'a>>,
}

struct Parser<'a> {
    text: &'a str,
    options: &'a ParseOptions,
    /// Built on the first diagnostic: most inputs need none.
    index: Option<LineIndex<'a>>,
    diagnostics: Vec<Diagnostic>,
    title: Option<String>,
    doc_meta: IndexMap<String, FlexMetaValue>,
    preamble: Vec<&'a str>,
    frames: Vec<FlexFrame>,
    open: Option<OpenFrame<'a>>,
    phase: Phase,
}

/// Parses FlexMD text into a [`FlexDocument`] plus diagnostics; never fails.
pub(crate) fn parse(text: &str, options: &ParseOptions) -> Parsed<FlexDocument> {
    let mut parser = Parser {
        text,
        options,
        index: None,
        diagnostics: Vec::new(),
        title: None,
        doc_meta: IndexMap::new(),
        preamble: Vec::new(),
        frames: Vec::new(),
        open: None,
        phase: Phase::DocStart,
    };
    // FlexMD has no front matter: a leading `---` block is text, and a
    // fence inside it is a fence.
    let blocks = code_blocks(&without_html_blocks(text));
    let mut block_at = 0usize;
    let mut pending: Option<Binding<'_>> = None;
    let mut skip_until = 0usize;

    for line in lines(text) {
        if line.start < skip_until {
            continue;
        }
        while blocks
            .get(block_at)
            .is_some_and(|b| b.span.end <= line.start)
        {
            block_at += 1;
        }
        let block = blocks
            .get(block_at)
            .filter(|b| b.span.start < line.next.max(line.start + 1) && b.span.end > line.start);
        let opens = block.filter(|b| b.info.is_some() && b.span.start >= line.start);

        if let Some(mut binding) = pending.take() {
            if line.is_blank() && block.is_none() {
                binding.blanks.push(line);
                pending = Some(binding);
                continue;
            }
            if let Some(fence) = opens {
                skip_until = fence.span.end;
                parser.bind(binding, fence);
                continue;
            }
            parser.unbound(binding, "no fenced block follows it");
        }

        if block.is_some() {
            parser.text_line(line);
            continue;
        }
        match parse_header(line.text) {
            Ok(Some(header)) => {
                parser.start_frame(header, line);
                continue;
            }
            Ok(None) => {}
            Err(e) => {
                let (code, severity) = if e.unterminated {
                    ("frames::unterminated_header", Severity::Error)
                } else {
                    ("frames::invalid_header", Severity::Warning)
                };
                let at = line.start + e.offset;
                parser.diagnose(
                    code,
                    severity,
                    format!("{}; the line is kept as text", e.message),
                    at..line.start + line.text.len(),
                );
            }
        }
        match payload_binding(line.text) {
            Some(Ok(name)) if parser.in_head() => {
                pending = Some(Binding {
                    name,
                    line,
                    blanks: Vec::new(),
                });
                continue;
            }
            Some(Ok(_)) if parser.phase != Phase::Frame => parser.diagnose(
                "frames::payload_outside_frame",
                Severity::Warning,
                "a payload binding before the first frame belongs to no frame; kept as text",
                line.start..line.start + line.text.len(),
            ),
            // In the body (without `meta_anywhere`) a binding is text, like meta.
            Some(Ok(name)) => parser.diagnose(
                "frames::binding_in_body",
                Severity::Warning,
                format!(
                    "`@payload` for `{name}` is in the frame's body, where it is text; \
                     move it up to the header's meta lines or parse with meta_anywhere"
                ),
                line.start..line.start + line.text.len(),
            ),
            Some(Err(message)) => parser.diagnose(
                "frames::invalid_payload_binding",
                Severity::Warning,
                format!("{message}; the line is kept as text"),
                line.start..line.start + line.text.len(),
            ),
            None => {}
        }
        if let Some((key, value)) = meta_line(line.text)
            && parser.meta_line(key, value, line)
        {
            continue;
        }
        if parser.phase == Phase::DocStart {
            if line.is_blank() {
                continue;
            }
            if parser.title.is_none()
                && let Some(title) = document_title(line.text)
            {
                parser.title = Some(title);
                continue;
            }
        }
        parser.text_line(line);
    }
    if let Some(binding) = pending.take() {
        parser.unbound(binding, "the input ends before a fenced block");
    }
    parser.finish()
}

impl<'a> Parser<'a> {
    fn diagnose(
        &mut self,
        code: &str,
        severity: Severity,
        message: impl Into<String>,
        span: std::ops::Range<usize>,
    ) {
        let text = self.text;
        let index = self.index.get_or_insert_with(|| LineIndex::new(text));
        self.diagnostics
            .push(Diagnostic::new(code, severity, message, span, index));
    }

    /// Whether the current line is in a frame's head (header, then meta lines
    /// and payload bindings up to the first other line), or anywhere in a
    /// frame with `meta_anywhere`.
    fn in_head(&self) -> bool {
        self.open
            .as_ref()
            .is_some_and(|open| open.in_meta_block || self.options.meta_anywhere)
    }

    /// A line of body text (or of the preamble before the first frame).
    fn text_line(&mut self, line: Line<'a>) {
        match self.open.as_mut() {
            Some(open) => {
                open.in_meta_block = false;
                open.body.push(line.text);
            }
            None => {
                self.phase = Phase::Preamble;
                self.preamble.push(line.text);
            }
        }
    }

    fn start_frame(&mut self, header: Header, line: Line<'a>) {
        self.close_frame();
        self.phase = Phase::Frame;
        let mut open = OpenFrame {
            frame: FlexFrame {
                frame_type: header.frame_type,
                title: header.title,
                ..FlexFrame::default()
            },
            meta: IndexMap::new(),
            payloads: IndexMap::new(),
            body: Vec::new(),
            in_meta_block: true,
        };
        let mut seen: Vec<String> = Vec::new();
        for (key, value, offset) in header.attributes {
            let span = line.start + offset..line.start + offset + key.len();
            if seen.contains(&key) {
                self.diagnose(
                    "frames::duplicate_attribute",
                    Severity::Warning,
                    format!("attribute `{key}` is given twice; the first value is kept, {value:?} is dropped"),
                    span,
                );
                continue;
            }
            seen.push(key.clone());
            match key.as_str() {
                "role" => open.frame.role = Some(value),
                "id" => open.frame.id = Some(value),
                "ts" => open.frame.ts = Some(value),
                _ => {
                    let typed = self.typed(&key, &value, span);
                    open.meta.insert(key, typed);
                }
            }
        }
        self.open = Some(open);
    }

    /// Handles an `@key: value` line; `false` when it is body text here.
    fn meta_line(&mut self, key: &str, value: &str, line: Line<'a>) -> bool {
        let key_start = line.start + line.text.find('@').unwrap_or(0) + 1;
        let span = key_start..key_start + key.len();
        let anywhere = self.options.meta_anywhere;
        let to_doc = match self.phase {
            Phase::DocStart => true,
            Phase::Preamble if anywhere => true,
            Phase::Frame if self.in_head() => false,
            _ => return false,
        };
        let typed = self.typed(key, value, span.clone());
        let map = match self.open.as_mut() {
            Some(open) if !to_doc => &mut open.meta,
            _ => &mut self.doc_meta,
        };
        if map.contains_key(key) {
            let message = format!(
                "meta `{key}` is given twice; the first value is kept, {value:?} is dropped"
            );
            self.diagnose("frames::duplicate_meta", Severity::Warning, message, span);
        } else {
            map.insert(key.to_owned(), typed);
        }
        true
    }

    /// Types a meta value: array keys split on commas unless a schema says
    /// otherwise; a value that does not fit its schema type stays a string.
    fn typed(&mut self, key: &str, raw: &str, span: std::ops::Range<usize>) -> FlexMetaValue {
        let mode = &self.options.meta_type_mode;
        if mode.schema_type(key).is_none() && self.options.array_keys.iter().any(|k| k == key) {
            return FlexMetaValue::Strings(split_meta_list(raw));
        }
        match mode.type_value(key, raw) {
            Ok(value) => value,
            Err(mismatch) => {
                self.diagnose(
                    "frames::meta_type_mismatch",
                    Severity::Error,
                    mismatch.to_string(),
                    span,
                );
                FlexMetaValue::String(raw.to_owned())
            }
        }
    }

    fn bind(&mut self, binding: Binding<'a>, fence: &CodeBlock) {
        let line_span = binding.line.start..binding.line.start + binding.line.text.len();
        if !fence.closed {
            self.diagnose(
                "frames::unclosed_payload_fence",
                Severity::Warning,
                format!(
                    "the fence of payload `{}` is not closed; it runs to the end of the input",
                    binding.name
                ),
                fence.span.start..fence.span.start + 3,
            );
        }
        let value = payload(fence.lang(), &fence.content);
        if let Some(error) = &value.parse_error {
            self.diagnose(
                "frames::payload_parse_error",
                Severity::Warning,
                format!("payload `{}`: {error}; raw text kept", binding.name),
                fence.span.clone(),
            );
        }
        let Some(open) = self.open.as_mut() else {
            return;
        };
        if open.payloads.contains_key(&binding.name) {
            let message = format!(
                "payload `{}` is bound twice; the second binding and its fence are kept as text",
                binding.name
            );
            self.diagnose(
                "frames::duplicate_payload",
                Severity::Error,
                message,
                line_span,
            );
            let text = self.text;
            if let Some(open) = self.open.as_mut() {
                open.body.push(binding.line.text);
                open.body.extend(binding.blanks.iter().map(|l| l.text));
                let fence_start = crate::parse::line_start_of(text, fence.span.start);
                // Lines as the parser cuts them (a lone CR ends one too), so
                // the body keeps `\n` endings only.
                let fence_text = text.get(fence_start..fence.span.end).unwrap_or_default();
                open.body.extend(
                    line_spans(fence_text)
                        .map(|l| fence_text.get(l.start..l.end).unwrap_or_default()),
                );
            }
            return;
        }
        open.payloads.insert(binding.name, value);
    }

    /// A binding that found no fence: diagnosed, and its lines stay in the body.
    fn unbound(&mut self, binding: Binding<'a>, why: &str) {
        let message = format!(
            "`@payload` for `{}` binds the next fenced block, but {why}; the line is kept as text",
            binding.name
        );
        self.diagnose(
            "frames::payload_without_fence",
            Severity::Error,
            message,
            binding.line.start..binding.line.start + binding.line.text.len(),
        );
        self.text_line(binding.line);
        for blank in binding.blanks {
            self.text_line(blank);
        }
    }

    fn close_frame(&mut self) {
        if let Some(open) = self.open.take() {
            let mut frame = open.frame;
            frame.meta = (!open.meta.is_empty()).then_some(open.meta);
            frame.payloads = (!open.payloads.is_empty()).then_some(open.payloads);
            let body = join_trimmed(&open.body);
            frame.body_md = (!body.is_empty()).then_some(body);
            self.frames.push(frame);
        }
    }

    fn finish(mut self) -> Parsed<FlexDocument> {
        self.close_frame();
        Parsed {
            value: FlexDocument {
                title: self.title,
                meta: (!self.doc_meta.is_empty()).then_some(self.doc_meta),
                preamble_md: join_trimmed(&self.preamble),
                frames: self.frames,
            },
            diagnostics: self.diagnostics,
        }
    }
}

/// Start of the line holding `offset`.
/// `text` with the `<` that would open an HTML block (at the start of a
/// line, after at most three spaces) replaced by `x`: fences are found the
/// same way whatever precedes them. In CommonMark an HTML block runs to the
/// next blank line and hides the fences in it, so a frame's fences would
/// depend on the blank lines around it — which stringify changes (a `<t>`
/// line before a frame made one frame two after a round trip). Offsets
/// hold: one byte for one byte.
fn without_html_blocks(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let opens = |start: usize| {
        let indent = bytes
            .get(start..)
            .unwrap_or_default()
            .iter()
            .take(4)
            .take_while(|&&b| b == b' ')
            .count();
        (indent <= 3 && bytes.get(start + indent) == Some(&b'<')).then_some(start + indent)
    };
    let lts: Vec<usize> = line_spans(text).filter_map(|l| opens(l.start)).collect();
    if lts.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut shown = bytes.to_vec();
    for at in lts {
        if let Some(b) = shown.get_mut(at) {
            *b = b'x';
        }
    }
    // Only an ASCII byte was swapped for an ASCII byte.
    std::borrow::Cow::Owned(String::from_utf8(shown).unwrap_or_else(|_| text.to_owned()))
}

pub(crate) fn line_start_of(text: &str, offset: usize) -> usize {
    text.as_bytes()
        .get(..offset)
        .and_then(|head| head.iter().rposition(|&b| b == b'\n' || b == b'\r'))
        .map_or(0, |i| i + 1)
}

/// Lines joined with `\n`, without leading and trailing blank lines.
fn join_trimmed(lines: &[&str]) -> String {
    let first = lines.iter().position(|l| !l.trim().is_empty());
    let last = lines.iter().rposition(|l| !l.trim().is_empty());
    match (first, last) {
        (Some(first), Some(last)) => lines.get(first..=last).unwrap_or_default().join("\n"),
        _ => String::new(),
    }
}

/// The FlexMD anchor a line is, as [`line_marker`] reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineMarker {
    /// A frame header: `[[type key=value]] title` or `## [[type ...]]`.
    FrameHeader,
    /// A meta line `@key: value`.
    Meta,
    /// A payload binding `@payload:name: X` or `@payload:X:`.
    PayloadBinding,
}

/// Which FlexMD anchor `line` (without its line ending) is, if it is a
/// well-formed one. For finding raw FlexMD in other text; [`parse`](crate::parse)
/// reads lines by the same rules.
///
/// ```
/// use flexmd_frames::{LineMarker, line_marker};
/// assert_eq!(line_marker("[[message role=user]] Hi"), Some(LineMarker::FrameHeader));
/// assert_eq!(line_marker("@tags: a, b"), Some(LineMarker::Meta));
/// assert_eq!(line_marker("@payload:name: data"), Some(LineMarker::PayloadBinding));
/// assert_eq!(line_marker("[[message role=user"), None, "unterminated");
/// assert_eq!(line_marker("email me @ home: thanks"), None);
/// ```
pub fn line_marker(line: &str) -> Option<LineMarker> {
    if matches!(parse_header(line), Ok(Some(_))) {
        Some(LineMarker::FrameHeader)
    } else if matches!(payload_binding(line), Some(Ok(_))) {
        Some(LineMarker::PayloadBinding)
    } else if meta_line(line).is_some() {
        Some(LineMarker::Meta)
    } else {
        None
    }
}

/// `@key: value` (or `@key:` at the end of the line): key and trimmed value.
fn meta_line(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix('@')?;
    let (after, key) = identifier(rest).ok()?;
    let value = after.strip_prefix(':')?;
    if !(value.is_empty() || value.starts_with([' ', '\t'])) {
        return None;
    }
    Some((key, value.trim()))
}

/// `@payload:name: X` or `@payload:X:`: the payload's name, or why the line
/// is not a valid binding. `None` when the line is no binding at all.
pub(crate) fn payload_binding(line: &str) -> Option<Result<String, String>> {
    let rest = line.trim_end().strip_prefix("@payload:")?;
    let Ok((after, field)) = identifier(rest) else {
        return Some(Err(
            "`@payload:` must be followed by `name: X` or a payload name and `:`".to_owned(),
        ));
    };
    let Some(value) = after.strip_prefix(':') else {
        return Some(Err(format!(
            "`@payload:{field}` needs a `:` after the name"
        )));
    };
    let value = value.trim();
    match (field, value.is_empty()) {
        ("name", true) => Some(Err(
            "`@payload:name:` needs a payload name after it".to_owned()
        )),
        ("name", false) => Some(Ok(value.to_owned())),
        (name, true) => Some(Ok(name.to_owned())),
        (other, false) => Some(Err(format!(
            "unknown payload field `{other}` (write `@payload:name: {value}`)"
        ))),
    }
}

/// The title of a `# Title` line (ATX level 1), markup removed.
fn document_title(line: &str) -> Option<String> {
    let outline = build_outline(line);
    let node = outline.nodes.first()?;
    (node.level == 1 && outline.preamble_md.trim().is_empty()).then(|| node.title.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_lines() {
        assert_eq!(meta_line("@tags: a, b"), Some(("tags", "a, b")));
        assert_eq!(meta_line("@empty:"), Some(("empty", "")));
        assert_eq!(meta_line("@user:pass"), None, "no space after the colon");
        assert_eq!(meta_line("email @x: y"), None);
        assert_eq!(meta_line("@1x: y"), None);
    }

    #[test]
    fn payload_bindings() {
        assert_eq!(
            payload_binding("@payload:name: input"),
            Some(Ok("input".into()))
        );
        assert_eq!(payload_binding("@payload:data:"), Some(Ok("data".into())));
        assert!(payload_binding("@payload:name:").unwrap().is_err());
        assert!(payload_binding("@payload:lang: json").unwrap().is_err());
        assert!(payload_binding("@payload:").unwrap().is_err());
        assert_eq!(payload_binding("@tags: a"), None);
    }

    #[test]
    fn line_splitting_handles_every_ending() {
        let l: Vec<Line<'_>> = lines("a\r\nb\rc\nd").collect();
        let texts: Vec<&str> = l.iter().map(|l| l.text).collect();
        assert_eq!(texts, ["a", "b", "c", "d"]);
        assert_eq!(l[1].start, 3);
        assert_eq!(lines("").count(), 0);
    }
}
