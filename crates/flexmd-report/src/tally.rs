//! The streaming tally: each judged answer is counted into its group and
//! dropped (unless it is among its group's worst), so memory grows with
//! the groups, the codes, the sections and the kept examples, never with
//! the number of answers.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::interval::{Interval, wilson_interval};
use crate::judged::Judged;
use crate::worst::{Example, Worst};

/// The upper ends of the token-length buckets; the last bucket is open.
pub const TOKEN_BUCKETS: [usize; 8] = [50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000];

/// How a section went wrong, by the code of its problem (an Output Format
/// Spec's codes, and a JSON Schema's for JSON answers).
fn section_problem(code: &str) -> SectionProblem {
    match code {
        "missing_section" | "missing_required" => SectionProblem::Missing,
        "empty_section_without_none" | "too_short" => SectionProblem::Empty,
        "section_not_numbered" | "section_not_bullets" | "missing_table" | "invalid_type" => {
            SectionProblem::WrongKind
        }
        _ => SectionProblem::Other,
    }
}

enum SectionProblem {
    Missing,
    Empty,
    WrongKind,
    Other,
}

/// Answers whose sections went wrong, by how: the cells of the heat map.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct SectionCounts {
    /// The section is not there.
    pub missing: u64,
    /// It is there with nothing in it (and no "None").
    pub empty: u64,
    /// It is there in the wrong kind (bullets for a numbered list, no table).
    pub wrong_kind: u64,
    /// Any other error about it (a duplicate, a table's columns, …).
    pub other: u64,
}

/// One group's counts, as the tally keeps them.
#[derive(Debug, Clone, Default)]
struct GroupTally {
    answers: u64,
    valid: u64,
    lenient: u64,
    errors: BTreeMap<String, u64>,
    warnings: BTreeMap<String, u64>,
    repairs: BTreeMap<String, u64>,
    sections: BTreeMap<String, SectionCounts>,
    tokens: [u64; TOKEN_BUCKETS.len() + 1],
    worst: Worst,
}

/// A line of the input that holds no answer to count, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct InvalidLine {
    /// Its 1-based line number in the input.
    pub line: usize,
    /// Why, as a code (`invalid_json`, `missing_field`, `not_text`, …).
    pub code: String,
    /// Why, in one sentence.
    pub message: String,
}

/// The input's lines that hold no answer: all counted, the first listed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct InvalidLines {
    /// How many there were.
    pub count: u64,
    /// The first [`MAX_INVALID_LISTED`] of them.
    pub listed: Vec<InvalidLine>,
}

/// How many invalid lines a report lists (all are counted).
pub const MAX_INVALID_LISTED: usize = 100;

/// How many of each group's worst answers a tally keeps by default.
pub const DEFAULT_WORST: usize = 20;

/// Judged answers counted by group in one pass.
///
/// ```
/// use flexmd_report::{Judged, Tally};
/// let mut tally = Tally::new(vec!["model".to_owned()]);
/// tally.add(vec!["a".to_owned()], &Judged { valid: true, tokens: Some(40), ..Judged::default() });
/// tally.add(vec!["a".to_owned()], &Judged { valid: false, tokens: Some(70), ..Judged::default() });
/// let summary = tally.summary();
/// assert_eq!((summary.answers, summary.groups[0].valid), (2, 1));
/// assert_eq!(summary.groups[0].group["model"], "a");
/// ```
#[derive(Debug, Clone)]
pub struct Tally {
    group_by: Vec<String>,
    keep_worst: usize,
    unit: Option<flexmd_core::OffsetUnit>,
    groups: BTreeMap<Vec<String>, GroupTally>,
    invalid: InvalidLines,
}

impl Tally {
    /// A tally whose groups are named by the fields `group_by` (none: one
    /// group of every answer), keeping each group's [`DEFAULT_WORST`]
    /// worst answers.
    #[must_use]
    pub fn new(group_by: Vec<String>) -> Self {
        Self {
            group_by,
            keep_worst: DEFAULT_WORST,
            unit: None,
            groups: BTreeMap::new(),
            invalid: InvalidLines::default(),
        }
    }

    /// The same tally keeping `n` worst answers per group (0: none).
    #[must_use]
    pub fn keeping_worst(mut self, n: usize) -> Self {
        self.keep_worst = n;
        self
    }

    /// The same tally giving its examples' offsets in `unit` (a binding's
    /// string indices) rather than bytes.
    #[must_use]
    pub fn with_offsets(mut self, unit: Option<flexmd_core::OffsetUnit>) -> Self {
        self.unit = unit;
        self
    }

    /// Counts `judged` into the group of the values `group` (one per field
    /// of `group_by`, in order).
    pub fn add(&mut self, group: Vec<String>, judged: &Judged) {
        self.count(group, judged);
    }

    /// Counts `judged` like [`Tally::add`], and keeps it as one of its
    /// group's worst answers if it is: `line` is where it is in the input,
    /// `text` the answer (an excerpt around its first problem is kept).
    pub fn add_answer(
        &mut self,
        group: Vec<String>,
        judged: Judged,
        line: usize,
        text: Option<&str>,
    ) {
        let (keep, unit) = (self.keep_worst, self.unit);
        let tally = self.count(group, &judged);
        tally.worst.offer(keep, judged, line, text, unit);
    }

    /// Counts a line of the input that holds no answer.
    pub fn add_invalid(&mut self, line: InvalidLine) {
        self.invalid.count += 1;
        if self.invalid.listed.len() < MAX_INVALID_LISTED {
            self.invalid.listed.push(line);
        }
    }

    fn count(&mut self, group: Vec<String>, judged: &Judged) -> &mut GroupTally {
        let tally = self.groups.entry(group).or_default();
        tally.answers += 1;
        tally.valid += u64::from(judged.valid);
        tally.lenient += u64::from(judged.lenient());
        for (findings, counts) in [
            (&judged.errors, &mut tally.errors),
            (&judged.warnings, &mut tally.warnings),
            (&judged.repairs, &mut tally.repairs),
        ] {
            for f in findings {
                *bounded_entry(counts, &f.code) += 1;
            }
        }
        for f in &judged.errors {
            let Some(section) = &f.section else { continue };
            let cell = bounded_entry(&mut tally.sections, section);
            match section_problem(&f.code) {
                SectionProblem::Missing => cell.missing += 1,
                SectionProblem::Empty => cell.empty += 1,
                SectionProblem::WrongKind => cell.wrong_kind += 1,
                SectionProblem::Other => cell.other += 1,
            }
        }
        if let Some(tokens) = judged.tokens {
            let bucket = TOKEN_BUCKETS
                .iter()
                .position(|&upper| tokens < upper)
                .unwrap_or(TOKEN_BUCKETS.len());
            if let Some(count) = tally.tokens.get_mut(bucket) {
                *count += 1;
            }
        }
        tally
    }

    /// The counts so far, group by group (in the order of their values).
    #[must_use]
    pub fn summary(&self) -> Summary {
        let groups: Vec<GroupSummary> = self
            .groups
            .iter()
            .map(|(values, t)| GroupSummary {
                group: self
                    .group_by
                    .iter()
                    .cloned()
                    .zip(values.iter().cloned())
                    .collect(),
                answers: t.answers,
                valid: t.valid,
                valid_share: share(t.valid, t.answers),
                valid_interval: wilson_interval(t.valid, t.answers),
                lenient: t.lenient,
                lenient_share: share(t.lenient, t.answers),
                errors: t.errors.clone(),
                warnings: t.warnings.clone(),
                repairs: t.repairs.clone(),
                sections: t.sections.clone(),
                tokens: t
                    .tokens
                    .iter()
                    .enumerate()
                    .map(|(i, &answers)| TokenBucket {
                        from: i
                            .checked_sub(1)
                            .and_then(|j| TOKEN_BUCKETS.get(j))
                            .copied()
                            .unwrap_or(0),
                        to: TOKEN_BUCKETS.get(i).copied(),
                        answers,
                    })
                    .collect(),
                worst: t.worst.examples(),
            })
            .collect();
        Summary {
            answers: groups.iter().map(|g| g.answers).sum(),
            group_by: self.group_by.clone(),
            groups,
            invalid_lines: self.invalid.clone(),
        }
    }
}

/// The most codes (of each kind) and sections a group counts apart; more
/// are counted together under [`OTHER`], so a stream of made-up codes or
/// JSON keys cannot grow the tally without bound.
pub const MAX_KEYS: usize = 256;

/// The code or section that counts those past [`MAX_KEYS`].
pub const OTHER: &str = "(other)";

/// `map`'s entry for `key`, or for [`OTHER`] once `map` is full.
fn bounded_entry<'m, V: Default>(map: &'m mut BTreeMap<String, V>, key: &str) -> &'m mut V {
    let key = if map.len() < MAX_KEYS || map.contains_key(key) {
        key
    } else {
        OTHER
    };
    map.entry(key.to_owned()).or_default()
}

/// `part` of `whole` as a share (0 when there is no whole).
#[expect(clippy::cast_precision_loss, reason = "a share of counts")]
fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// What the tally found: what `flexmd report --json` prints and the HTML
/// page shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Summary {
    /// Answers counted, in every group.
    pub answers: u64,
    /// The fields the answers are grouped by.
    pub group_by: Vec<String>,
    /// Each group's counts, in the order of their values.
    pub groups: Vec<GroupSummary>,
    /// The input's lines that hold no answer.
    pub invalid_lines: InvalidLines,
}

/// One group's counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct GroupSummary {
    /// The group's value of each field it is grouped by.
    pub group: BTreeMap<String, String>,
    /// Its answers.
    pub answers: u64,
    /// How many follow the format.
    pub valid: u64,
    /// `valid` ÷ `answers`.
    pub valid_share: f64,
    /// The valid share's 95% Wilson interval.
    pub valid_interval: Option<Interval>,
    /// How many are valid only because of a lenient reading or a repair.
    pub lenient: u64,
    /// `lenient` ÷ `answers`.
    pub lenient_share: f64,
    /// Answers with each error, by code (an answer with two is counted twice).
    pub errors: BTreeMap<String, u64>,
    /// Each lenient reading, by code.
    pub warnings: BTreeMap<String, u64>,
    /// Each JSON repair, by kind.
    pub repairs: BTreeMap<String, u64>,
    /// Each section's problems.
    pub sections: BTreeMap<String, SectionCounts>,
    /// Answers by length in tokens (those whose text is known).
    pub tokens: Vec<TokenBucket>,
    /// Its worst answers, worst first.
    pub worst: Vec<Example>,
}

/// Answers of a length from `from` tokens up to (not including) `to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct TokenBucket {
    /// The shortest length counted.
    pub from: usize,
    /// The length where the next bucket starts (`None`: the last, open).
    pub to: Option<usize>,
    /// The answers counted.
    pub answers: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::Finding;
    use proptest::prelude::*;

    fn finding(code: &str, section: Option<&str>) -> Finding {
        Finding::new(code, section)
    }

    /// Three models with known defects: one drops a section, one uses `*`
    /// bullets (valid, leniently), one is fine.
    #[test]
    fn counts_each_groups_defects() {
        let spec = flexmd_ofs::parse_spec("- Short answer — prose\n- Steps — ordered list\n").value;
        let answers = [
            ("drops", "## Short answer\nYes.\n"),
            ("drops", "## Short answer\nNo.\n"),
            ("bullets", "**Short answer:**\nYes.\n\n## Steps\n1) a\n"),
            ("fine", "## Short answer\nYes.\n\n## Steps\n1. a\n2. b\n"),
        ];
        let mut tally = Tally::new(vec!["model".to_owned()]);
        for (model, answer) in answers {
            let report = flexmd_ofs::validate(answer, &spec);
            tally.add(
                vec![model.to_owned()],
                &Judged::from_report(&report, Some(answer.len() / 4)),
            );
        }
        let summary = tally.summary();
        let by_model: BTreeMap<&str, &GroupSummary> = summary
            .groups
            .iter()
            .map(|g| (g.group["model"].as_str(), g))
            .collect();
        let drops = by_model["drops"];
        assert_eq!((drops.answers, drops.valid, drops.lenient), (2, 0, 0));
        assert_eq!(
            drops.errors,
            BTreeMap::from([("missing_section".to_owned(), 2)])
        );
        assert_eq!(
            drops.sections["Steps"],
            SectionCounts {
                missing: 2,
                ..SectionCounts::default()
            }
        );
        let bullets = by_model["bullets"];
        assert_eq!(
            (bullets.valid, bullets.lenient, bullets.lenient_share),
            (1, 1, 1.0)
        );
        assert_eq!(
            bullets.warnings,
            BTreeMap::from([
                ("lenient_heading".to_owned(), 1),
                ("lenient_numbering".to_owned(), 1)
            ])
        );
        let fine = by_model["fine"];
        assert_eq!((fine.valid, fine.lenient, fine.valid_share), (1, 0, 1.0));
        assert_eq!(summary.answers, 4);
        let json = serde_json::to_value(&summary).unwrap_or_default();
        assert_eq!(
            json["groups"][0]["group"],
            serde_json::json!({"model": "bullets"})
        );
        assert_eq!(
            json["groups"][1]["valid_interval"],
            serde_json::json!({"low": 0.0, "high": 0.6576197724933469})
        );
    }

    #[test]
    fn made_up_codes_past_the_bound_are_counted_together() {
        let mut tally = Tally::new(Vec::new());
        for i in 0..MAX_KEYS + 10 {
            let code = format!("code_{i}");
            let errors = vec![finding(&code, Some(&code))];
            tally.add(
                Vec::new(),
                &Judged {
                    errors,
                    ..Judged::default()
                },
            );
        }
        let group = &tally.summary().groups[0];
        assert_eq!(group.errors.len(), MAX_KEYS + 1);
        assert_eq!(group.errors[OTHER], 10);
        assert_eq!(group.sections[OTHER].other, 10);
    }

    #[test]
    fn token_buckets_cover_every_length() {
        let mut tally = Tally::new(Vec::new());
        for tokens in [0, 49, 50, 9_999, 10_000, 1 << 40] {
            tally.add(
                Vec::new(),
                &Judged {
                    tokens: Some(tokens),
                    ..Judged::default()
                },
            );
        }
        let buckets = &tally.summary().groups[0].tokens;
        let counts: Vec<(usize, Option<usize>, u64)> =
            buckets.iter().map(|b| (b.from, b.to, b.answers)).collect();
        assert_eq!(counts[0], (0, Some(50), 2));
        assert_eq!(counts[1], (50, Some(100), 1));
        assert_eq!(counts[7], (5_000, Some(10_000), 1));
        assert_eq!(counts[8], (10_000, None, 2));
        assert_eq!(buckets.len(), TOKEN_BUCKETS.len() + 1);
    }

    #[test]
    fn a_section_problem_is_counted_by_kind() {
        let mut tally = Tally::new(Vec::new());
        let errors = vec![
            finding("missing_section", Some("A")),
            finding("empty_section_without_none", Some("B")),
            finding("section_not_bullets", Some("B")),
            finding("duplicate_section", Some("C")),
            finding("content_in_subsections", None),
        ];
        tally.add(
            Vec::new(),
            &Judged {
                errors,
                ..Judged::default()
            },
        );
        let sections = &tally.summary().groups[0].sections;
        assert_eq!(sections["A"].missing, 1);
        assert_eq!((sections["B"].empty, sections["B"].wrong_kind), (1, 1));
        assert_eq!(sections["C"].other, 1);
        assert_eq!(sections.len(), 3);
    }

    proptest! {
        /// Whatever is added, the groups' answers add up to the whole, and
        /// no group counts more valid or lenient answers than it has.
        #[test]
        fn counts_add_up(answers in proptest::collection::vec((0u8..4, any::<bool>(), 0usize..3, 0usize..20_000), 0..200)) {
            let mut tally = Tally::new(vec!["g".to_owned()]);
            for (group, valid, warnings, tokens) in &answers {
                let judged = Judged {
                    valid: *valid,
                    warnings: vec![finding("lenient_bullets", Some("S")); *warnings],
                    tokens: Some(*tokens),
                    ..Judged::default()
                };
                tally.add(vec![group.to_string()], &judged);
            }
            let summary = tally.summary();
            prop_assert_eq!(summary.answers, answers.len() as u64);
            for g in &summary.groups {
                prop_assert!(g.valid <= g.answers && g.lenient <= g.valid);
                prop_assert_eq!(g.tokens.iter().map(|b| b.answers).sum::<u64>(), g.answers);
            }
        }
    }
}
