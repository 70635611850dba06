//! Diagnostics: what a lenient parser noticed, with the place it noticed it.

use serde::Serialize;

use crate::error::LineIndex;
use crate::model::Span;

/// How serious a [`Diagnostic`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The input breaks a rule; the value holds a documented lenient reading.
    Error,
    /// The input is unusual but was read as intended.
    Warning,
}

/// One thing a parser noticed, pointing into its input.
///
/// `code` is a stable machine-readable id such as `frames::duplicate_attribute`;
/// `line` and `column` are 1-based (columns count characters).
///
/// ```
/// use flexmd_core::{Diagnostic, LineIndex, Severity};
/// let text = "a\nbad";
/// let d = Diagnostic::new("demo::bad", Severity::Error, "bad line", 2..5, &LineIndex::new(text));
/// assert_eq!(d.to_string(), "2:1: bad line");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[error("{line}:{column}: {message}")]
pub struct Diagnostic {
    /// A stable id, `<layer>::<rule>`.
    pub code: String,
    /// Error or warning.
    pub severity: Severity,
    /// What was noticed and why it matters, in one sentence.
    pub message: String,
    /// The byte range it points at.
    pub span: Span,
    /// 1-based line of the span's start.
    pub line: usize,
    /// 1-based column (in characters) of the span's start.
    pub column: usize,
}

impl Diagnostic {
    /// Moves the span and column into `offsets`' unit (a binding's string
    /// indices: code points for Python, UTF-16 units for JavaScript).
    ///
    /// ```
    /// use flexmd_core::{Diagnostic, LineIndex, Severity, TextOffsets};
    /// let text = "é\n😀 x";
    /// let mut d = Diagnostic::new("demo::x", Severity::Warning, "x", 8..9, &LineIndex::new(text));
    /// d.reindex(&TextOffsets::utf16(text));
    /// assert_eq!((d.span, d.column), (5..6, 4)); // é is 1 unit, 😀 2
    /// ```
    pub fn reindex(&mut self, offsets: &crate::TextOffsets<'_>) {
        self.column = offsets.column(self.span.start);
        self.span = offsets.range(self.span.clone());
    }

    /// A diagnostic at `span`, with its line and column looked up in `index`.
    pub fn new(
        code: impl Into<String>,
        severity: Severity,
        message: impl Into<String>,
        span: Span,
        index: &LineIndex<'_>,
    ) -> Self {
        let (line, column) = index.line_col(span.start);
        Self {
            code: code.into(),
            severity,
            message: message.into(),
            span,
            line,
            column,
        }
    }
}

impl miette::Diagnostic for Diagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(&self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let len = self.span.end.saturating_sub(self.span.start);
        Some(Box::new(std::iter::once(
            miette::LabeledSpan::new_with_span(None, (self.span.start, len)),
        )))
    }
}

/// A value read leniently, with everything noticed on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed<T> {
    /// The value: always present, whatever the diagnostics say.
    pub value: T,
    /// What the parser noticed, in input order.
    pub diagnostics: Vec<Diagnostic>,
}

impl<T> Parsed<T> {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}
