//! The streaming tally: each judged answer is counted into its group and
//! dropped, so memory grows with the groups, the codes and the sections
//! met, never with the number of answers.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::interval::{Interval, wilson_interval};

/// A problem found in an answer, as the report counts it: its code and,
/// for a section's problem, the section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The code (`missing_section`, `lenient_bullets`, …).
    pub code: String,
    /// The section it is about, if any.
    pub section: Option<String>,
}

/// One answer as the report counts it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Judged {
    /// Whether it follows the format (warnings allowed).
    pub valid: bool,
    /// What makes it invalid.
    pub errors: Vec<Finding>,
    /// The lenient readings it needed (`lenient_heading`, …): a valid
    /// answer with any is valid only because of them.
    pub warnings: Vec<Finding>,
    /// Its length in tokens.
    pub tokens: usize,
}

impl Judged {
    /// An answer as a spec's validation report judged it.
    ///
    /// ```
    /// let spec = flexmd_ofs::parse_spec("- Short answer — prose\n- Steps — ordered list\n").value;
    /// let report = flexmd_ofs::validate("## Short answer\nYes.\n\n## Steps\n- first\n", &spec);
    /// let judged = flexmd_report::Judged::from_report(&report, 9);
    /// assert!(!judged.valid);
    /// assert_eq!(judged.errors[0].code, "section_not_numbered");
    /// assert_eq!(judged.errors[0].section.as_deref(), Some("Steps"));
    /// ```
    #[must_use]
    pub fn from_report(report: &flexmd_ofs::Report, tokens: usize) -> Self {
        let findings = |issues: &[flexmd_ofs::Issue]| {
            issues
                .iter()
                .map(|i| Finding {
                    code: i.code.clone(),
                    section: i.section.clone(),
                })
                .collect()
        };
        Self {
            valid: report.ok,
            errors: findings(&report.errors),
            warnings: findings(&report.warnings),
            tokens,
        }
    }

    /// Valid only because a lenient reading was used.
    #[must_use]
    pub fn lenient(&self) -> bool {
        self.valid && !self.warnings.is_empty()
    }
}

/// The upper ends of the token-length buckets; the last bucket is open.
pub const TOKEN_BUCKETS: [usize; 8] = [50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000];

/// How a section went wrong, by the code of its problem.
fn section_problem(code: &str) -> SectionProblem {
    match code {
        "missing_section" => SectionProblem::Missing,
        "empty_section_without_none" => SectionProblem::Empty,
        "section_not_numbered" | "section_not_bullets" | "missing_table" => {
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
    sections: BTreeMap<String, SectionCounts>,
    tokens: [u64; TOKEN_BUCKETS.len() + 1],
}

/// Judged answers counted by group in one pass.
///
/// ```
/// use flexmd_report::{Judged, Tally};
/// let mut tally = Tally::new(vec!["model".to_owned()]);
/// tally.add(vec!["a".to_owned()], &Judged { valid: true, tokens: 40, ..Judged::default() });
/// tally.add(vec!["a".to_owned()], &Judged { valid: false, tokens: 70, ..Judged::default() });
/// let summary = tally.summary();
/// assert_eq!((summary.answers, summary.groups[0].valid), (2, 1));
/// assert_eq!(summary.groups[0].group["model"], "a");
/// ```
#[derive(Debug, Clone, Default)]
pub struct Tally {
    group_by: Vec<String>,
    groups: BTreeMap<Vec<String>, GroupTally>,
}

impl Tally {
    /// A tally whose groups are named by the fields `group_by` (none: one
    /// group of every answer).
    #[must_use]
    pub fn new(group_by: Vec<String>) -> Self {
        Self {
            group_by,
            groups: BTreeMap::new(),
        }
    }

    /// Counts `judged` into the group of the values `group` (one per field
    /// of `group_by`, in order).
    pub fn add(&mut self, group: Vec<String>, judged: &Judged) {
        let tally = self.groups.entry(group).or_default();
        tally.answers += 1;
        tally.valid += u64::from(judged.valid);
        tally.lenient += u64::from(judged.lenient());
        for (findings, counts) in [
            (&judged.errors, &mut tally.errors),
            (&judged.warnings, &mut tally.warnings),
        ] {
            for f in findings {
                *counts.entry(f.code.clone()).or_default() += 1;
            }
        }
        for f in &judged.errors {
            let Some(section) = &f.section else { continue };
            let cell = tally.sections.entry(section.clone()).or_default();
            match section_problem(&f.code) {
                SectionProblem::Missing => cell.missing += 1,
                SectionProblem::Empty => cell.empty += 1,
                SectionProblem::WrongKind => cell.wrong_kind += 1,
                SectionProblem::Other => cell.other += 1,
            }
        }
        let bucket = TOKEN_BUCKETS
            .iter()
            .position(|&upper| judged.tokens < upper)
            .unwrap_or(TOKEN_BUCKETS.len());
        if let Some(count) = tally.tokens.get_mut(bucket) {
            *count += 1;
        }
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
            })
            .collect();
        Summary {
            answers: groups.iter().map(|g| g.answers).sum(),
            groups,
        }
    }
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

/// What the tally found, for `--json` and the HTML.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Answers counted, in every group.
    pub answers: u64,
    /// Each group's counts, in the order of their values.
    pub groups: Vec<GroupSummary>,
}

/// One group's counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
    /// How many are valid only because of a lenient reading.
    pub lenient: u64,
    /// `lenient` ÷ `answers`.
    pub lenient_share: f64,
    /// Answers with each error, by code (an answer with two is counted twice).
    pub errors: BTreeMap<String, u64>,
    /// Each lenient reading, by code.
    pub warnings: BTreeMap<String, u64>,
    /// Each section's problems.
    pub sections: BTreeMap<String, SectionCounts>,
    /// Answers by length in tokens.
    pub tokens: Vec<TokenBucket>,
}

/// Answers of a length from `from` tokens up to (not including) `to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
    use proptest::prelude::*;

    fn finding(code: &str, section: Option<&str>) -> Finding {
        Finding {
            code: code.to_owned(),
            section: section.map(str::to_owned),
        }
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
                &Judged::from_report(&report, answer.len() / 4),
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
    fn token_buckets_cover_every_length() {
        let mut tally = Tally::new(Vec::new());
        for tokens in [0, 49, 50, 9_999, 10_000, 1 << 40] {
            tally.add(
                Vec::new(),
                &Judged {
                    tokens,
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
                    tokens: *tokens,
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
