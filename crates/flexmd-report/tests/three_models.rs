//! Three models with known habits (tests/fixtures/README.md): the tally
//! shows exactly those habits and nothing else.

#![allow(clippy::indexing_slicing, clippy::panic)]

use std::collections::BTreeMap;

use flexmd_report::{GroupSummary, Judged, SectionCounts, Tally};

fn tally(group_by: &[&str]) -> flexmd_report::Summary {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let spec_text =
        std::fs::read_to_string(root.join("../../examples/specs/answer.md")).unwrap_or_default();
    let spec = flexmd_ofs::parse_spec(&spec_text).value;
    let records =
        std::fs::read_to_string(root.join("tests/fixtures/answers.jsonl")).unwrap_or_default();
    let mut tally = Tally::new(group_by.iter().map(|g| (*g).to_owned()).collect());
    for line in records.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
        let answer = record["response"].as_str().unwrap_or_default();
        let group = group_by
            .iter()
            .map(|g| record[*g].as_str().unwrap_or_default().to_owned())
            .collect();
        let report = flexmd_ofs::validate(answer, &spec);
        tally.add(group, &Judged::from_report(&report, answer.len() / 4));
    }
    tally.summary()
}

fn by(summary: &flexmd_report::Summary, value: &str) -> GroupSummary {
    summary
        .groups
        .iter()
        .find(|g| g.group.values().next().map(String::as_str) == Some(value))
        .cloned()
        .unwrap_or_else(|| panic!("no group {value}"))
}

#[test]
fn each_models_habit_and_nothing_else() {
    let summary = tally(&["model"]);
    assert_eq!(summary.answers, 12);
    let names: Vec<&str> = summary
        .groups
        .iter()
        .map(|g| g.group["model"].as_str())
        .collect();
    assert_eq!(names, ["bullets", "drops", "tidy"]);

    let drops = by(&summary, "drops");
    assert_eq!((drops.answers, drops.valid, drops.lenient), (4, 0, 0));
    assert_eq!(
        drops.errors,
        BTreeMap::from([("missing_section".to_owned(), 4)])
    );
    assert!(drops.warnings.is_empty());
    assert_eq!(
        drops.sections,
        BTreeMap::from([(
            "Unknowns".to_owned(),
            SectionCounts {
                missing: 4,
                ..SectionCounts::default()
            }
        )])
    );

    let bullets = by(&summary, "bullets");
    assert_eq!(
        (bullets.valid, bullets.lenient, bullets.lenient_share),
        (4, 4, 1.0)
    );
    assert!(bullets.errors.is_empty() && bullets.sections.is_empty());
    assert_eq!(
        bullets.warnings,
        BTreeMap::from([
            ("lenient_bullets".to_owned(), 4),
            ("lenient_heading".to_owned(), 4)
        ])
    );

    let tidy = by(&summary, "tidy");
    assert_eq!((tidy.valid, tidy.lenient), (4, 0));
    assert!(tidy.errors.is_empty() && tidy.warnings.is_empty());
    // 4 of 4: the interval's top is 1, its bottom Wilson's 0.5101.
    let interval = tidy
        .valid_interval
        .map(|i| (format!("{:.4}", i.low), i.high));
    assert_eq!(interval, Some(("0.5101".to_owned(), 1.0)));
}

#[test]
fn grouped_by_two_fields() {
    let summary = tally(&["model", "prompt"]);
    assert_eq!(summary.groups.len(), 6);
    let first = &summary.groups[0];
    assert_eq!(
        first.group,
        BTreeMap::from([
            ("model".to_owned(), "bullets".to_owned()),
            ("prompt".to_owned(), "p0".to_owned())
        ])
    );
    assert_eq!(first.answers, 2);
    assert_eq!(summary.groups.iter().map(|g| g.answers).sum::<u64>(), 12);
}
