//! [`FlexDocument`] → FlexMD text, in the canonical layout [`parse`](crate::parse) reads back.

use flexmd_core::{FlexDocument, FlexFrame, FlexMetaValue, MdNode, MdOutline, render_outline};

use crate::header::{identifier, write_value};

/// How [`stringify`](crate::stringify) writes frame headers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum HeaderStyle {
    /// `[[message role=user]] Title` (the default).
    #[default]
    Bracket,
    /// `## [[message role=user]] Title`, at the given heading level (1–6).
    Heading(u8),
}

/// Options for [`stringify`](crate::stringify).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StringifyOptions {
    /// The form of frame headers.
    pub header_style: HeaderStyle,
}

pub(crate) fn stringify(doc: &FlexDocument, options: &StringifyOptions) -> String {
    let mut out = String::new();
    if let Some(title) = &doc.title {
        out.push_str(&render_outline(&MdOutline {
            nodes: vec![MdNode {
                title: title.clone(),
                level: 1,
                key: String::new(),
                id: None,
                content_md: String::new(),
                children: Vec::new(),
                source: None,
            }],
            ..MdOutline::default()
        }));
    }
    for (key, value) in doc.meta.iter().flatten() {
        push_meta(&mut out, key, &value.to_string());
    }
    if !out.is_empty() {
        out.push('\n');
    }
    if !doc.preamble_md.is_empty() {
        out.push_str(&doc.preamble_md);
        out.push_str("\n\n");
    }
    for (i, frame) in doc.frames.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        push_frame(&mut out, frame, options);
    }
    // A leading byte order mark is skipped when FlexMD is read: text that
    // starts with one (a preamble that kept a second mark) needs another
    // in front to read back the same.
    if out.starts_with('\u{feff}') {
        out.insert(0, '\u{feff}');
    }
    out
}

fn push_meta(out: &mut String, key: &str, value: &str) {
    out.push('@');
    out.push_str(key);
    out.push(':');
    if !value.is_empty() {
        out.push(' ');
        // A meta value is one line.
        out.push_str(&value.replace(['\n', '\r'], " "));
    }
    out.push('\n');
}

fn push_frame(out: &mut String, frame: &FlexFrame, options: &StringifyOptions) {
    if let HeaderStyle::Heading(level) = options.header_style {
        out.extend(std::iter::repeat_n('#', usize::from(level.clamp(1, 6))));
        out.push(' ');
    }
    out.push_str("[[");
    out.push_str(&frame.frame_type);
    for (key, value) in [("role", &frame.role), ("id", &frame.id), ("ts", &frame.ts)] {
        if let Some(value) = value {
            out.push(' ');
            out.push_str(key);
            out.push('=');
            write_value(out, value);
        }
    }
    // A string a `@key: value` line would change (space at either end, a
    // line break) goes in the header, quoted, where it reads back as is.
    let in_header = |key: &str, value: &FlexMetaValue| {
        matches!(value, FlexMetaValue::String(s) if s.trim() != s || s.contains(['\n', '\r']))
            && identifier(key).is_ok_and(|(rest, _)| rest.is_empty())
            && !matches!(key, "role" | "id" | "ts")
    };
    for (key, value) in frame.meta.iter().flatten() {
        if let (true, FlexMetaValue::String(s)) = (in_header(key, value), value) {
            out.push(' ');
            out.push_str(key);
            out.push('=');
            write_value(out, s);
        }
    }
    out.push_str("]]");
    if let Some(title) = &frame.title {
        out.push(' ');
        out.push_str(&title.replace(['\n', '\r'], " "));
    }
    out.push('\n');
    for (key, value) in frame.meta.iter().flatten() {
        if !in_header(key, value) {
            push_meta(out, key, &value.to_string());
        }
    }
    for (name, payload) in frame.payloads.iter().flatten() {
        out.push_str("@payload:name: ");
        out.push_str(name);
        out.push('\n');
        let lang = payload.lang.as_deref().unwrap_or_default();
        // A backtick fence's info string cannot hold a backtick: then a
        // tilde fence (longer than any tilde run in the content).
        let marker = if lang.contains('`') { '~' } else { '`' };
        let fence = marker
            .to_string()
            .repeat(longest_run(&payload.raw, marker).max(2) + 1);
        out.push_str(&fence);
        // The parser reads the info string with CommonMark's backslash
        // escapes and entities: write `\` and `&` escaped so it reads back.
        out.push_str(&lang.replace('\\', "\\\\").replace('&', "\\&"));
        out.push('\n');
        out.push_str(&payload.raw);
        if !payload.raw.is_empty() && !payload.raw.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&fence);
        out.push('\n');
    }
    if let Some(body) = &frame.body_md {
        out.push('\n');
        out.push_str(body);
        out.push('\n');
    }
}

/// The longest run of `marker` in `text`, so the fence around it is longer.
fn longest_run(text: &str, marker: char) -> usize {
    text.split(|c| c != marker).map(str::len).max().unwrap_or(0)
}
