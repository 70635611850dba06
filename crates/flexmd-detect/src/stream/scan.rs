//! Where the value is: the scanner outside JSON. It skips what `find_json`
//! skips (leading prose, reasoning blocks, fences of other languages) and
//! says where a value may start and which tier it is in, line by line as
//! the text arrives.

use flexmd_core::{FenceOpening, fence_opening};

use crate::answer::{FenceLang, REASONING_TAGS, fence_lang, find_ascii_ci};

/// Where a value was found, in the order [`find_json`] prefers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Tier {
    /// The whole text, or the prose around fences.
    Prose,
    /// An unlabeled or JavaScript fence.
    CodeFence,
    /// A fence labeled as JSON.
    JsonFence,
}

impl Tier {
    /// Whether a value from `self` replaces one from `current`: a later
    /// value of the same kind (the last complete fence, or value in the
    /// prose, wins; a value in the prose is looked for only once the one
    /// shown has closed), or a better kind.
    pub(crate) fn replaces(self, current: Tier) -> bool {
        self >= current
    }
}

/// A value may start at `at`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Start {
    pub(crate) at: usize,
    pub(crate) tier: Tier,
    /// Whether it is inside a fence.
    pub(crate) in_fence: bool,
}

/// What text of a value is ready for the parser.
pub(crate) enum Ready {
    /// Nothing yet.
    Wait,
    /// `from..to`.
    Text(usize, usize),
    /// The fence the value is in has closed.
    FenceClosed,
}

/// An open fence.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OpenFence {
    pub(crate) marker: u8,
    pub(crate) len: usize,
    /// The fence's kind, when JSON may be read in it.
    pub(crate) tier: Option<Tier>,
    /// Whether a value may still start in it (only at its first content).
    pub(crate) may_start: bool,
}

/// The scanner's place in the text, kept between pushes.
#[derive(Debug)]
pub(crate) struct Scanner {
    /// Next byte to look at.
    pub(crate) at: usize,
    /// Whether `at` is at the start of a line.
    pub(crate) line_start: bool,
    /// Only a byte order mark, blanks and reasoning blocks so far: a bracket
    /// here starts the whole text as one value.
    pub(crate) lead: bool,
    /// Inside a reasoning block: its closing tag.
    pub(crate) reasoning: Option<&'static str>,
    /// A reasoning block has opened, or a closing tag with none open has
    /// ended the reasoning the chat template opened: a later closing tag
    /// is no such end.
    pub(crate) reasoning_seen: bool,
    pub(crate) fence: Option<OpenFence>,
    /// Inside a value the parser is reading; `Some(true)` in a fence.
    pub(crate) value: Option<bool>,
    /// Up to where the line at `at` is known to hold no line break (a line
    /// waited on is searched once, not once a push).
    pub(crate) searched: usize,
}

impl Default for Scanner {
    fn default() -> Self {
        Self {
            at: 0,
            line_start: true,
            lead: true,
            reasoning: None,
            reasoning_seen: false,
            fence: None,
            value: None,
            searched: 0,
        }
    }
}

/// What to do at the start of a line.
pub(crate) enum LineStart {
    Wait,
    Go,
    Start(Start),
    /// A closing reasoning tag with no block open: what came before was
    /// reasoning, and what was shown of it is dropped.
    Restart,
}

/// What [`Scanner::seek`] found.
pub(crate) enum Seek {
    /// A value may start here.
    Start(Start),
    /// Everything before was reasoning: start over after it.
    Restart,
}

impl Scanner {
    /// The next place a value may start, or `None` when more text is
    /// needed. `prose`: whether a value in prose is still wanted.
    pub(crate) fn seek(&mut self, text: &str, prose: bool) -> Option<Seek> {
        let bytes = text.as_bytes();
        loop {
            if let Some(close) = self.reasoning {
                let Some(i) = find_ascii_ci(bytes, self.at, close) else {
                    // The closing tag may be cut: look again from its length
                    // minus one before the end.
                    self.at = self.at.max(bytes.len().saturating_sub(close.len() - 1));
                    return None;
                };
                self.at = i + close.len();
                self.reasoning = None;
                self.line_start = false;
                continue;
            }
            let &byte = bytes.get(self.at)?;
            if byte == b'\n' || byte == b'\r' {
                self.at += 1;
                self.line_start = true;
                continue;
            }
            if self.line_start {
                match self.line_opening(text) {
                    LineStart::Wait => return None,
                    LineStart::Start(start) => return Some(Seek::Start(start)),
                    LineStart::Restart => return Some(Seek::Restart),
                    LineStart::Go => continue,
                }
            }
            if self.fence.is_some() {
                // In a fence with no value to read: on to its next line.
                let rest = bytes.get(self.at..)?;
                match memchr::memchr2(b'\n', b'\r', rest) {
                    Some(i) => self.at += i,
                    None => self.at = bytes.len(),
                }
                continue;
            }
            if self.lead {
                if self.at == 0 && bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
                    self.at = 3;
                    continue;
                }
                match byte {
                    b' ' | b'\t' => {
                        self.at += 1;
                        continue;
                    }
                    b'{' | b'[' => {
                        return Some(Seek::Start(Start {
                            at: self.at,
                            tier: Tier::Prose,
                            in_fence: false,
                        }));
                    }
                    _ => self.lead = false,
                }
            }
            if matches!(byte, b'{' | b'[') && prose {
                match opens_data(bytes, self.at) {
                    None => return None,
                    Some(true) => {
                        return Some(Seek::Start(Start {
                            at: self.at,
                            tier: Tier::Prose,
                            in_fence: false,
                        }));
                    }
                    Some(false) => {}
                }
            }
            // On to the next bracket or line end.
            let rest = bytes.get(self.at + 1..).unwrap_or_default();
            let next = if prose {
                memchr::memchr3(b'{', b'[', b'\n', rest)
            } else {
                memchr::memchr(b'\n', rest)
            };
            let next = next.unwrap_or(rest.len());
            let next = memchr::memchr(b'\r', rest.get(..next).unwrap_or_default()).unwrap_or(next);
            self.at += 1 + next;
        }
    }

    /// At the start of a line: a fence opening or closing, a reasoning tag,
    /// or a fence's first content.
    pub(crate) fn line_opening(&mut self, text: &str) -> LineStart {
        let bytes = text.as_bytes();
        let line = bytes.get(self.at..).unwrap_or_default();
        let line_end = self.line_end(bytes);
        // Four spaces are indented code: no need to count further.
        let indent = line.iter().take(4).take_while(|&&b| b == b' ').count();
        let Some(&first) = line.get(indent) else {
            return LineStart::Wait;
        };
        if first == b'\n' || first == b'\r' {
            // A blank line.
            self.at += indent;
            return LineStart::Go;
        }
        self.line_start = false;
        if indent > 3 {
            return LineStart::Go;
        }
        if first == b'`' || first == b'~' {
            // A fence line is decided once it is complete.
            let Some(end) = line_end else {
                self.line_start = true;
                return LineStart::Wait;
            };
            let content = text.get(self.at..self.at + end).unwrap_or_default();
            if let Some(open) = self.fence {
                if closes_fence(content, open.marker, open.len) {
                    self.fence = None;
                    self.at += end;
                    return LineStart::Go;
                }
            } else if let Some(open) = opens_fence(content) {
                self.fence = Some(open);
                self.lead = false;
                self.at += end;
                return LineStart::Go;
            }
        } else if first == b'<' && self.fence.is_none() {
            let after = line.get(indent + 1..).unwrap_or_default();
            if !self.reasoning_seen && after.first() == Some(&b'/') {
                // `</think>` with no block open: the chat template wrote the
                // opening tag, and everything so far was reasoning.
                for (_, close) in REASONING_TAGS {
                    let word = line.get(indent..indent + close.len());
                    match word {
                        Some(word) if word.eq_ignore_ascii_case(close.as_bytes()) => {
                            self.reasoning_seen = true;
                            self.lead = true;
                            self.at += indent + close.len();
                            return LineStart::Restart;
                        }
                        None if line_end.is_none() => {
                            let known = line.len() - indent;
                            let same = line.get(indent..).zip(close.as_bytes().get(..known));
                            if same.is_some_and(|(a, b)| a.eq_ignore_ascii_case(b)) {
                                self.line_start = true;
                                return LineStart::Wait;
                            }
                        }
                        _ => {}
                    }
                }
            }
            for (tag, close) in REASONING_TAGS {
                let word = after.get(..tag.len() + 1);
                match word {
                    Some(word) => {
                        let (name, bracket) = word.split_at(tag.len());
                        if name.eq_ignore_ascii_case(tag.as_bytes()) && bracket == b">" {
                            self.reasoning = Some(close);
                            self.reasoning_seen = true;
                            self.at += indent + 1 + word.len();
                            return LineStart::Go;
                        }
                    }
                    None if line_end.is_none() => {
                        // Too short to tell yet.
                        let known = after.len().min(tag.len());
                        let same = after.get(..known).zip(tag.as_bytes().get(..known));
                        if same.is_some_and(|(a, b)| a.eq_ignore_ascii_case(b)) {
                            self.line_start = true;
                            return LineStart::Wait;
                        }
                    }
                    None => {}
                }
            }
        }
        if let Some(fence) = self.fence.as_mut()
            && std::mem::take(&mut fence.may_start)
            && let (Some(tier), b'{' | b'[') = (fence.tier, first)
        {
            return LineStart::Start(Start {
                at: self.at + indent,
                tier,
                in_fence: true,
            });
        }
        LineStart::Go
    }

    /// The length of the line at `at` when it has ended, searching only
    /// the bytes not searched before.
    pub(crate) fn line_end(&mut self, bytes: &[u8]) -> Option<usize> {
        let from = self.searched.max(self.at);
        match bytes
            .get(from..)
            .and_then(|rest| memchr::memchr2(b'\n', b'\r', rest))
        {
            Some(i) => Some(from + i - self.at),
            None => {
                self.searched = bytes.len();
                None
            }
        }
    }

    /// Inside a value: the text ready for the parser, up to a line that may
    /// close the fence the value is in.
    pub(crate) fn ready(&mut self, text: &str) -> Ready {
        let bytes = text.as_bytes();
        if self.at >= bytes.len() {
            return Ready::Wait;
        }
        let (Some(true), Some(fence)) = (self.value, self.fence) else {
            return Ready::Text(self.at, bytes.len());
        };
        let line = bytes.get(self.at..).unwrap_or_default();
        if self.line_start {
            let indent = line.iter().take(4).take_while(|&&b| b == b' ').count();
            let Some(&first) = line.get(indent) else {
                return Ready::Wait;
            };
            if indent <= 3 && first == fence.marker {
                let Some(end) = self.line_end(bytes) else {
                    return Ready::Wait;
                };
                let content = text.get(self.at..self.at + end).unwrap_or_default();
                if closes_fence(content, fence.marker, fence.len) {
                    self.fence = None;
                    self.value = None;
                    self.at += end;
                    self.line_start = false;
                    return Ready::FenceClosed;
                }
            }
            self.line_start = false;
        }
        let to = memchr::memchr2(b'\n', b'\r', line).map_or(bytes.len(), |i| self.at + i + 1);
        Ready::Text(self.at, to)
    }

    /// The parser took the value's text up to `to`.
    pub(crate) fn fed(&mut self, text: &str, to: usize) {
        self.at = to;
        let last = to.checked_sub(1).and_then(|i| text.as_bytes().get(i));
        self.line_start = matches!(last, Some(b'\n' | b'\r'));
    }

    /// A value starts here.
    pub(crate) fn enter(&mut self, start: Start) {
        self.at = start.at;
        self.line_start = false;
        self.lead = false;
        self.value = Some(start.in_fence);
    }

    /// A value that may start here is not wanted.
    pub(crate) fn pass(&mut self, start: Start) {
        if !start.in_fence {
            self.at = start.at + 1;
            self.lead = false;
        }
    }

    /// The value ended at `at`: its root closed, or the parser met something
    /// it does not read. The rest is prose, or the rest of its fence.
    pub(crate) fn left_value(&mut self, at: usize) {
        self.value = None;
        self.at = at;
        self.line_start = false;
    }
}

/// Whether the bracket at `at` in prose opens data (`{"`, `{'`, `[{`, `["`,
/// `[[`), as opposed to `{braces}` or `[1]`; `None` until the next
/// non-blank byte has arrived.
pub(crate) fn opens_data(bytes: &[u8], at: usize) -> Option<bool> {
    let open = *bytes.get(at)?;
    let next = bytes
        .get(at + 1..)?
        .iter()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))?;
    Some(match open {
        b'{' => matches!(next, b'"' | b'\''),
        _ => matches!(next, b'"' | b'{' | b'['),
    })
}

/// A fence opening, with the tier of JSON in it (by its language).
pub(crate) fn opens_fence(line: &str) -> Option<OpenFence> {
    let open = fence_opening(line)?;
    let lang = open.info.split_whitespace().next().unwrap_or_default();
    let tier = match fence_lang(&lang.to_ascii_lowercase()) {
        FenceLang::Json => Some(Tier::JsonFence),
        FenceLang::Code => Some(Tier::CodeFence),
        FenceLang::Prose | FenceLang::Other => None,
    };
    Some(OpenFence {
        marker: open.marker,
        len: open.len,
        tier,
        may_start: true,
    })
}

/// Whether `line` closes a fence of `len` `marker`s.
pub(crate) fn closes_fence(line: &str, marker: u8, len: usize) -> bool {
    FenceOpening {
        marker,
        len,
        info: "",
    }
    .closed_by(line)
}
