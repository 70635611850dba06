//! The line scanner's vocabulary: front matter, an open fence, the tail
//! of a line still arriving, and the lines that may be headings (ATX,
//! setext underlines). A leaf of `stream/`: the scanner in `mod.rs` and
//! the confirmation in `confirm.rs` use it.

use pulldown_cmark::HeadingLevel;

use crate::code::FenceOpening;

/// Whether the text opens with YAML front matter, which holds every heading
/// back until its closing line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FrontMatter {
    /// The first line is not complete yet.
    Undecided,
    /// The first line is `---`; no closing line yet.
    Open,
    /// Decided: the body starts at `body_start`.
    Done,
}

/// An open fenced code block, as the line scanner tracks it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fence {
    pub(crate) marker: u8,
    pub(crate) len: usize,
}

impl Fence {
    #[inline]
    pub(crate) fn closed_by(self, line: &str) -> bool {
        FenceOpening {
            marker: self.marker,
            len: self.len,
            info: "",
        }
        .closed_by(line)
    }
}

/// What a line may complete or open at the top level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Candidate {
    /// `## Title`.
    Atx,
    /// The `---` or `===` under a title line.
    Setext,
    /// A fenced code block's opening line.
    Fence,
}

/// Whether the unfinished last line may still turn out to be a heading
/// line: an ATX heading (`#` to `######`, then a blank or nothing yet) or a
/// setext underline (only `=` or only `-`, then blanks). Read a byte at a
/// time as the line grows, so a long line costs its length once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tail {
    /// Where the line starts, and how far it has been read.
    pub(crate) start: usize,
    pub(crate) read: usize,
    pub(crate) phase: TailPhase,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TailPhase {
    /// Blanks so far.
    Indent,
    /// This many `#`.
    Hashes(u8),
    /// A run of `=` or `-`; `true` once blanks follow it.
    Run(u8, bool),
    /// Decided: it may be a heading (an ATX opening is complete).
    Maybe,
    /// Decided: it is not one.
    No,
}

impl Tail {
    #[inline]
    pub(crate) fn at(start: usize) -> Self {
        Self {
            start,
            read: start,
            phase: TailPhase::Indent,
        }
    }

    /// Reads the line's bytes after those read before.
    #[inline]
    pub(crate) fn read(&mut self, bytes: &[u8]) {
        use TailPhase::{Hashes, Indent, Maybe, No, Run};
        for &b in bytes.get(self.read..).unwrap_or_default() {
            if matches!(self.phase, Maybe | No) {
                break;
            }
            self.read += 1;
            let blank = matches!(b, b' ' | b'\t' | b'\r');
            self.phase = match (self.phase, b) {
                (Indent, _) if blank => Indent,
                (Indent, b'#') => Hashes(1),
                (Indent, b'=' | b'-') => Run(b, false),
                (Hashes(n), b'#') if n < 6 => Hashes(n + 1),
                (Hashes(_), _) if blank => Maybe,
                (Run(c, false), _) if b == c => Run(c, false),
                (Run(c, _), _) if blank => Run(c, true),
                _ => No,
            };
        }
    }

    #[inline]
    pub(crate) fn may_become_heading(&self) -> bool {
        self.phase != TailPhase::No
    }
}

/// `#` to `######` followed by a space, a tab or the end of the line (the
/// line's indentation already removed).
#[inline]
pub(crate) fn is_atx_heading(rest: &str) -> bool {
    let hashes = rest.bytes().take_while(|&b| b == b'#').count();
    (1..=6).contains(&hashes)
        && rest
            .as_bytes()
            .get(hashes)
            .is_none_or(|b| matches!(b, b' ' | b'\t'))
}

/// An ATX heading line at the margin (`## Title`, without its line ending)
/// whose title is plain text, the same to the parser as to the eye: its
/// level and title. `None` when the title holds anything inline markup may
/// read (`*`, `` ` ``, `[`, `&`, `\\`, …), a tab or a `#` past the closing
/// sequence: the parser reads those.
#[inline]
pub(crate) fn plain_atx_heading(line: &str) -> Option<(HeadingLevel, &str)> {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    let level = HeadingLevel::try_from(hashes).ok()?;
    let rest = line.get(hashes..)?;
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    let mut title = rest.trim_matches(' ');
    // A closing run of `#` (alone, or after a space) is not part of it.
    let unclosed = title.trim_end_matches('#');
    if unclosed.len() != title.len() && (unclosed.is_empty() || unclosed.ends_with(' ')) {
        title = unclosed.trim_end_matches(' ');
    }
    let plain = title.bytes().all(|b| {
        b.is_ascii_alphanumeric()
            || b >= 0x80
            || matches!(
                b,
                b' ' | b'-'
                    | b'.'
                    | b','
                    | b':'
                    | b';'
                    | b'?'
                    | b'/'
                    | b'('
                    | b')'
                    | b'\''
                    | b'"'
                    | b'%'
                    | b'+'
                    | b'='
                    | b'@'
            )
    });
    plain.then_some((level, title))
}

/// A run of `=` or of `-`, then only spaces or tabs.
#[inline]
pub(crate) fn is_setext_underline(rest: &str) -> bool {
    let trimmed = rest.trim_end_matches([' ', '\t']);
    !trimmed.is_empty()
        && (trimmed.bytes().all(|b| b == b'=') || trimmed.bytes().all(|b| b == b'-'))
}

/// What the parser said of a candidate line.
#[derive(Debug, PartialEq)]
pub(crate) enum Checked {
    /// It is one (a heading's piece is then read).
    Yes,
    /// It is not.
    No,
    /// Not checked: the budget of failed checks is spent.
    Skipped,
}
