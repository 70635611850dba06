//! One answer as the report counts it (`Judged`) and the problems found in
//! it (`Finding`). A leaf: it knows how a check's report reads, not how
//! answers are counted, kept or shown.

use std::ops::Range;

use serde::Serialize;

/// A problem found in an answer, as the report counts it: its code and,
/// for a section's problem, the section; where it is, when known.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Finding {
    /// The code (`missing_section`, `lenient_bullets`, `trailing_comma`, …).
    pub code: String,
    /// The section it is about, if any (for a JSON answer: the top-level
    /// key).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// What is wrong, in one sentence (empty when unknown).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Byte range in the answer, when it points at a place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Range<usize>>,
}

impl Finding {
    /// A finding with only a code and a section.
    ///
    /// ```
    /// let f = flexmd_report::Finding::new("missing_section", Some("Steps"));
    /// assert_eq!((f.code.as_str(), f.section.as_deref()), ("missing_section", Some("Steps")));
    /// ```
    #[must_use]
    pub fn new(code: &str, section: Option<&str>) -> Self {
        Self {
            code: code.to_owned(),
            section: section.map(str::to_owned),
            ..Self::default()
        }
    }
}

/// Where a spec's issue is, by its code and span: a missing section has no
/// place in the answer (its span is an empty one at the start).
pub(crate) fn place(code: &str, span: Range<usize>) -> Option<Range<usize>> {
    (code != "missing_section").then_some(span)
}

/// One answer as the report counts it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Judged {
    /// Whether it follows the format (warnings and repairs allowed).
    pub valid: bool,
    /// What makes it invalid.
    pub errors: Vec<Finding>,
    /// The lenient readings it needed (`lenient_heading`, a coercion, …):
    /// a valid answer with any is valid only because of them.
    pub warnings: Vec<Finding>,
    /// The repairs made to read its JSON (`trailing_comma`, …), if it is a
    /// JSON answer; like warnings, they make a valid answer lenient.
    pub repairs: Vec<Finding>,
    /// Its length in tokens, when its text is known.
    pub tokens: Option<usize>,
}

impl Judged {
    /// An answer as a spec's validation report judged it.
    ///
    /// ```
    /// let spec = flexmd_ofs::parse_spec("- Short answer — prose\n- Steps — ordered list\n").value;
    /// let report = flexmd_ofs::validate("## Short answer\nYes.\n\n## Steps\n- first\n", &spec);
    /// let judged = flexmd_report::Judged::from_report(&report, Some(9));
    /// assert!(!judged.valid);
    /// assert_eq!(judged.errors[0].code, "section_not_numbered");
    /// assert_eq!(judged.errors[0].section.as_deref(), Some("Steps"));
    /// assert_eq!(judged.errors[0].span, Some(31..39));
    /// ```
    #[must_use]
    pub fn from_report(report: &flexmd_ofs::Report, tokens: Option<usize>) -> Self {
        let findings = |issues: &[flexmd_ofs::Issue]| {
            issues
                .iter()
                .map(|i| Finding {
                    code: i.code.clone(),
                    section: i.section.clone(),
                    message: i.message.clone(),
                    span: place(&i.code, i.span.clone()),
                })
                .collect()
        };
        Self {
            valid: report.ok,
            errors: findings(&report.errors),
            warnings: findings(&report.warnings),
            repairs: Vec::new(),
            tokens,
        }
    }

    /// Valid only because a lenient reading or a repair was used.
    #[must_use]
    pub fn lenient(&self) -> bool {
        self.valid && !(self.warnings.is_empty() && self.repairs.is_empty())
    }
}
