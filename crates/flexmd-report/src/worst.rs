//! Each group's worst answers, a bounded number kept while the tally runs:
//! the answers with the most errors (then the most leniencies and
//! repairs), each with an excerpt of its text around its first problem.

use serde::Serialize;

use crate::judged::{Finding, Judged};

/// The most bytes of an answer an example keeps…
pub const MAX_EXCERPT_BYTES: usize = 4_096;
/// …and the most lines.
pub const MAX_EXCERPT_LINES: usize = 60;
/// Lines kept before the first problem's line, for context.
const CONTEXT_LINES: usize = 6;

/// One of a group's worst answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Example {
    /// Its 1-based line in the input.
    pub line: usize,
    /// Whether it follows the format (leniently).
    pub valid: bool,
    /// What makes it invalid.
    pub errors: Vec<Finding>,
    /// The lenient readings it needed.
    pub warnings: Vec<Finding>,
    /// The repairs made to read its JSON.
    pub repairs: Vec<Finding>,
    /// Its text around its first problem, when the text is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<Excerpt>,
}

impl Example {
    /// Moves every offset (the findings' spans, the excerpt's start and
    /// length) into `offsets`' unit (a binding's string indices).
    pub fn reindex(&mut self, offsets: &flexmd_core::TextOffsets<'_>) {
        for f in self
            .errors
            .iter_mut()
            .chain(&mut self.warnings)
            .chain(&mut self.repairs)
        {
            if let Some(span) = &mut f.span {
                *span = offsets.range(span.clone());
            }
        }
        if let Some(excerpt) = &mut self.excerpt {
            excerpt.start = offsets.index(excerpt.start);
            excerpt.answer_length = offsets.index(excerpt.answer_length);
        }
    }
}

/// Part of an answer: whole lines, at most [`MAX_EXCERPT_LINES`] and
/// [`MAX_EXCERPT_BYTES`], from a few lines before its first problem.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Excerpt {
    /// The text.
    pub text: String,
    /// Where it starts in the answer, in bytes (the findings' spans are
    /// the answer's).
    pub start: usize,
    /// The 1-based line number of its first line in the answer.
    pub first_line: usize,
    /// The whole answer's length (in bytes, like `start` and the spans;
    /// from the bindings, in their strings' units).
    pub answer_length: usize,
}

impl Excerpt {
    /// The part of `text` around byte `anchor`.
    ///
    /// ```
    /// let text: String = (1..=200).map(|i| format!("line {i}\n")).collect();
    /// let at = text.find("line 50").unwrap();
    /// let excerpt = flexmd_report::Excerpt::around(&text, at);
    /// assert_eq!(excerpt.first_line, 44);
    /// assert!(excerpt.text.starts_with("line 44\n"));
    /// assert_eq!(excerpt.text.lines().count(), 60);
    /// ```
    #[must_use]
    pub fn around(text: &str, anchor: usize) -> Self {
        let anchor = floor_boundary(text, anchor.min(text.len()));
        let before = text.get(..anchor).unwrap_or_default();
        // The start of the line CONTEXT_LINES above the anchor's.
        let start = before
            .rmatch_indices('\n')
            .nth(CONTEXT_LINES)
            .map_or(0, |(i, _)| i + 1);
        let rest = text.get(start..).unwrap_or_default();
        let mut end = rest.len();
        if let Some((i, _)) = rest.match_indices('\n').nth(MAX_EXCERPT_LINES - 1) {
            end = i + 1;
        }
        if end > MAX_EXCERPT_BYTES {
            end = floor_boundary(rest, MAX_EXCERPT_BYTES);
        }
        let first_line = 1 + text
            .get(..start)
            .unwrap_or_default()
            .bytes()
            .filter(|&b| b == b'\n')
            .count();
        Self {
            text: rest.get(..end).unwrap_or_default().to_owned(),
            start,
            first_line,
            answer_length: text.len(),
        }
    }
}

/// The largest char boundary of `text` at or below `at`.
fn floor_boundary(text: &str, mut at: usize) -> usize {
    while at > 0 && !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// How bad an answer is: errors first, then leniencies and repairs.
type Rank = (usize, usize);

fn rank(judged: &Judged) -> Rank {
    (
        judged.errors.len(),
        judged.warnings.len() + judged.repairs.len(),
    )
}

/// A group's worst answers so far.
#[derive(Debug, Clone, Default)]
pub(crate) struct Worst {
    kept: Vec<(Rank, Example)>,
}

impl Worst {
    /// Keeps the answer if it is among the `keep` worst so far (an answer
    /// with no problem is never kept; of two as bad, the earlier stays).
    /// Offsets are bytes, or `unit`'s indices of the answer when given.
    pub(crate) fn offer(
        &mut self,
        keep: usize,
        judged: Judged,
        line: usize,
        text: Option<&str>,
        unit: Option<flexmd_core::OffsetUnit>,
    ) {
        let rank = rank(&judged);
        if keep == 0 || rank == (0, 0) {
            return;
        }
        let slot = if self.kept.len() < keep {
            None
        } else {
            let least = self
                .kept
                .iter()
                .enumerate()
                .min_by_key(|(i, (r, e))| (*r, std::cmp::Reverse((e.line, *i))))
                .map(|(i, (r, _))| (i, *r));
            match least {
                Some((i, least)) if rank > least => Some(i),
                _ => return,
            }
        };
        let anchor = judged
            .errors
            .iter()
            .chain(&judged.warnings)
            .chain(&judged.repairs)
            .find_map(|f| f.span.as_ref().map(|s| s.start))
            .unwrap_or(0);
        let mut example = Example {
            line,
            valid: judged.valid,
            excerpt: text.map(|t| Excerpt::around(t, anchor)),
            errors: judged.errors,
            warnings: judged.warnings,
            repairs: judged.repairs,
        };
        if let (Some(text), Some(unit)) = (text, unit) {
            example.reindex(&flexmd_core::TextOffsets::new(text, unit));
        }
        match slot.and_then(|i| self.kept.get_mut(i)) {
            Some(place) => *place = (rank, example),
            None => self.kept.push((rank, example)),
        }
    }

    /// The kept answers, worst first (then in input order).
    pub(crate) fn examples(&self) -> Vec<Example> {
        let mut kept: Vec<&(Rank, Example)> = self.kept.iter().collect();
        kept.sort_by_key(|(r, e)| (std::cmp::Reverse(*r), e.line));
        kept.into_iter().map(|(_, e)| e.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn judged(errors: usize, warnings: usize) -> Judged {
        Judged {
            valid: errors == 0,
            errors: vec![Finding::new("missing_section", Some("A")); errors],
            warnings: vec![Finding::new("lenient_bullets", Some("B")); warnings],
            ..Judged::default()
        }
    }

    #[test]
    fn keeps_the_worst_and_the_earliest_of_equals() {
        let mut worst = Worst::default();
        for (line, (e, w)) in [(0, 1), (2, 0), (0, 0), (1, 0), (2, 0), (3, 0), (0, 2)]
            .into_iter()
            .enumerate()
        {
            worst.offer(3, judged(e, w), line + 1, None, None);
        }
        let kept: Vec<(usize, usize)> = worst
            .examples()
            .iter()
            .map(|e| (e.line, e.errors.len()))
            .collect();
        assert_eq!(kept, [(6, 3), (2, 2), (5, 2)]);
    }

    #[test]
    fn an_answer_without_problems_is_never_kept() {
        let mut worst = Worst::default();
        worst.offer(5, judged(0, 0), 1, Some("fine"), None);
        assert!(worst.examples().is_empty());
    }

    #[test]
    fn the_excerpt_is_bounded_and_cut_on_a_char_boundary() {
        let text = "é".repeat(10_000);
        let excerpt = Excerpt::around(&text, 7_001);
        assert_eq!((excerpt.start, excerpt.first_line), (0, 1));
        assert_eq!(excerpt.text.len(), 4_096);
        assert_eq!(excerpt.answer_length, 20_000);
        let short = Excerpt::around("a\nb\nc", 99);
        assert_eq!((short.text.as_str(), short.start), ("a\nb\nc", 0));
    }

    proptest! {
        #[test]
        fn excerpts_never_panic_and_stay_bounded(text in "[a\\né\n]{0,300}", anchor in 0usize..400) {
            let excerpt = Excerpt::around(&text, anchor);
            prop_assert!(excerpt.text.len() <= MAX_EXCERPT_BYTES);
            prop_assert!(excerpt.text.lines().count() <= MAX_EXCERPT_LINES);
            prop_assert_eq!(text.get(excerpt.start..excerpt.start + excerpt.text.len()), Some(excerpt.text.as_str()));
        }
    }
}
