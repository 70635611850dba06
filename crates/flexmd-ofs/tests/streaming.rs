//! The streaming extractor against the whole-answer check: for generated
//! answers cut into pieces in every way, the end equals `check`, and what
//! was sent on the way agrees with it.

// Test helpers may panic: a panic here is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::BTreeMap;

use flexmd_ofs::{
    ExtractOptions, Issue, OutputFormatSpec, StreamEvent, StreamFinish, StreamingExtractor, check,
    parse_spec,
};
use pretty_assertions::assert_eq;
use proptest::prelude::*;

fn spec() -> OutputFormatSpec {
    parse_spec(
        "- Short answer — prose\n- Risks — list\n- Steps — ordered list\n- Notes — prose\n\
         Tables:\n- (Option, Cost — table)\n",
    )
    .value
}

/// Pushes `text` cut at `cuts` (moved to character boundaries).
fn run(text: &str, cuts: &[usize], spec: &OutputFormatSpec) -> (Vec<StreamEvent>, StreamFinish) {
    let mut stream = StreamingExtractor::new(spec);
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (text.len() + 1)).collect();
    points.push(text.len());
    points.sort_unstable();
    let mut events = Vec::new();
    let mut at = 0;
    for mut end in points {
        while !text.is_char_boundary(end) {
            end += 1;
        }
        if end > at {
            events.extend(stream.push(&text[at..end]));
            at = end;
        }
    }
    (events, stream.finish())
}

/// What must hold for any answer and any cuts.
fn assert_agrees(text: &str, cuts: &[usize]) -> Result<(), TestCaseError> {
    let spec = spec();
    let (pushed, end) = run(text, cuts, &spec);
    let (report, extracted) = check(text, &spec, &ExtractOptions::default());
    prop_assert_eq!(&end.report, &report);
    prop_assert_eq!(&end.extracted, &extracted);
    let all: Vec<&StreamEvent> = pushed.iter().chain(&end.events).collect();
    // The last completion of each section is its final value.
    let mut last = BTreeMap::new();
    for event in &all {
        if let StreamEvent::SectionCompleted { name, value } = event {
            last.insert(name.to_string(), value.clone());
        }
    }
    let want: BTreeMap<_, _> = extracted
        .sections_by_name
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    prop_assert_eq!(last, want);
    // Every error is sent as a violation, once.
    let sent: Vec<&Issue> = all
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Violation(issue) => Some(issue),
            _ => None,
        })
        .collect();
    for error in &report.errors {
        prop_assert_eq!(
            sent.iter().filter(|s| **s == error).count(),
            1,
            "{:?}",
            error
        );
    }
    // Rows come once each, in order.
    let mut rows: BTreeMap<usize, Vec<Vec<String>>> = BTreeMap::new();
    for event in &all {
        if let StreamEvent::TableRow {
            table, index, row, ..
        } = event
        {
            let table_rows = rows.entry(*table).or_default();
            prop_assert_eq!(*index, table_rows.len());
            table_rows.push(row.clone());
        }
    }
    for (i, table) in extracted.tables.iter().enumerate() {
        if !table.rows.is_empty() {
            prop_assert_eq!(rows.get(&i), Some(&table.rows));
        }
    }
    // Without repeated section headings or setext headings, what was sent
    // on the way is final: one completion per section, the violations are
    // the report's, the deltas are the section's text and the items its list.
    let outline_titles = titles(&extracted.outline.nodes);
    let repeats = spec.sections.iter().any(|s| {
        outline_titles
            .iter()
            .filter(|t| names_section(t, &s.name))
            .count()
            > 1
    });
    if repeats || has_setext(text) {
        return Ok(());
    }
    let mut completions = BTreeMap::new();
    for event in &pushed {
        if let StreamEvent::SectionCompleted { name, value } = event {
            prop_assert!(
                completions
                    .insert(name.to_string(), value.clone())
                    .is_none(),
                "{} completed twice",
                name
            );
            prop_assert_eq!(Some(value), extracted.sections_by_name.get(&**name));
        }
    }
    for issue in &sent {
        prop_assert!(
            report.errors.contains(issue),
            "{:?} is not in the report",
            issue
        );
    }
    let mut deltas: BTreeMap<String, String> = BTreeMap::new();
    let mut items: BTreeMap<String, Vec<flexmd_ofs::ListItem>> = BTreeMap::new();
    for event in &all {
        match event {
            StreamEvent::SectionDelta { name, text } => {
                deltas.entry(name.to_string()).or_default().push_str(text);
            }
            StreamEvent::ListItem {
                section,
                item,
                path,
            } => {
                let list = items.entry(section.to_string()).or_default();
                prop_assert_eq!(path, &format!("/{section}/{}", list.len()));
                list.push(item.clone());
            }
            _ => {}
        }
    }
    for (name, section) in &extracted.sections_by_name {
        if section.node_level > 0 {
            prop_assert_eq!(
                deltas.get(name).map(String::as_str).unwrap_or(""),
                section.md.as_str()
            );
        }
        if let Some(list) = &section.list {
            let sent = items.get(name).cloned().unwrap_or_default();
            prop_assert_eq!(&sent, &list.items, "items of {}", name);
        }
    }
    Ok(())
}

fn titles(nodes: &[flexmd_ofs::MdNode]) -> Vec<String> {
    let mut out = Vec::new();
    for node in nodes {
        out.push(node.title.clone());
        out.extend(titles(&node.children));
    }
    out
}

/// Whether a heading title names `section` (exactly or numbered), roughly
/// as the extractor matches: enough to tell repeats apart.
fn names_section(title: &str, section: &str) -> bool {
    let norm = |s: &str| {
        s.to_lowercase()
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_owned()
    };
    let title = norm(title);
    let section = norm(section);
    title == section || title.ends_with(&format!(" {section}")) || title.ends_with(&section)
}

fn has_setext(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim();
        !t.is_empty() && (t.bytes().all(|b| b == b'-') || t.bytes().all(|b| b == b'='))
    })
}

/// Lines of model answers: headings for the spec's sections and others,
/// prose, lists of each kind, `None`, tables, code with `#` lines, labels.
fn answer_line() -> impl Strategy<Value = String> {
    let names = prop::sample::select(vec![
        "Short answer",
        "Risks",
        "Steps",
        "Notes",
        "1. Risks",
        "Step 2 — Steps",
        "Details",
        "Other",
        "**Risks:**",
    ]);
    prop_oneof![
        4 => (1usize..=4, names).prop_map(|(n, t)| format!("{} {t}", "#".repeat(n))),
        3 => "[a-z ]{1,12}".prop_map(String::from),
        3 => Just(String::new()),
        2 => "[a-z]{1,6}".prop_map(|w| format!("- {w}")),
        1 => "[a-z]{1,6}".prop_map(|w| format!("* {w}")),
        2 => (1u8..4, "[a-z]{1,6}").prop_map(|(n, w)| format!("{n}. {w}")),
        1 => Just("1) step".to_owned()),
        1 => Just("  - nested".to_owned()),
        1 => Just("None".to_owned()),
        1 => Just("| Option | Cost |".to_owned()),
        1 => Just("|---|---|".to_owned()),
        1 => Just("| a | 1 |".to_owned()),
        1 => Just("```".to_owned()),
        1 => Just("# comment".to_owned()),
        1 => Just("Risks: some".to_owned()),
        1 => Just("**Notes:** x".to_owned()),
        1 => Just("---".to_owned()),
        1 => Just("> quoted".to_owned()),
        1 => Just("héllo wörld ✓".to_owned()),
        1 => Just("7. later".to_owned()),
        1 => Just("   - three".to_owned()),
        1 => Just("\t- tab".to_owned()),
        1 => Just("-".to_owned()),
        1 => Just("* * *".to_owned()),
        1 => Just("  continued".to_owned()),
        1 => Just("    indented code".to_owned()),
        1 => Just("<div>".to_owned()),
        1 => Just("[x]: /url".to_owned()),
        1 => Just("- [x] done".to_owned()),
        1 => Just("  ```".to_owned()),
    ]
}

fn answer() -> impl Strategy<Value = String> {
    (
        proptest::collection::vec(answer_line(), 0..30),
        prop_oneof![Just("\n"), Just("\r\n")],
    )
        .prop_map(|(lines, end)| lines.iter().map(|l| format!("{l}{end}")).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_stream_cut_anywhere_agrees_with_the_whole_check(
        text in answer(),
        cuts in proptest::collection::vec(any::<usize>(), 0..16),
    ) {
        assert_agrees(&text, &cuts)?;
    }

    #[test]
    fn a_stream_one_character_at_a_time_agrees_with_the_whole_check(text in answer()) {
        let cuts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        assert_agrees(&text, &cuts)?;
    }
}

#[test]
fn every_split_of_small_answers_agrees() {
    let answers = [
        "## Short answer\nYes.\n\n## Risks\n- a\n- b\n\n## Steps\n1. x\n2. y\n\n## Notes\nNone\n",
        "# Risks\nprose first\n## Steps\n- not numbered\n",
        "## Short answer\n```\n# not a heading\n```\n## Notes\n| Option | Cost |\n|---|---|\n| a | 1 |\n",
        "**Short answer:** yes\n\nRisks: none\n",
        "## Risks\n- a\n## Risks\n- b\n# Risks\n- c\n",
        // A byte order mark: the first piece starts inside the first line.
        "\u{feff}## Risks\n- a\n- b\n\n## Steps\n1. x\r\n2. y\r",
        "\u{feff}- a\n- b\n## Risks\n- c\n",
        // A section's own content ends at its first sub-heading; content
        // only under sub-headings is read from them.
        "## Risks\n### Technical\n- slow disk\n### Business\n- no budget\n## Notes\nok\n",
        "## Notes\nIntro.\n### Detail\nMore.\n## Risks\n- a\n### Later\n- b\n",
        "## Steps\n\n### One\n1. x\n### Two\n2. y\n",
    ];
    for text in answers {
        for cut in 0..=text.len() {
            assert_agrees(text, &[cut]).unwrap();
        }
        let each: Vec<usize> = (0..text.len()).collect();
        assert_agrees(text, &each).unwrap();
    }
}

#[test]
fn a_section_completes_when_the_next_heading_line_is_complete() {
    let spec = spec();
    let mut stream = StreamingExtractor::new(&spec);
    let events: Vec<StreamEvent> = stream
        .push("## Short answer\nYes, ship it.\n\n## Ri")
        .collect();
    assert_eq!(
        events,
        [
            StreamEvent::SectionStarted {
                name: "Short answer".into(),
                level: 2
            },
            StreamEvent::SectionDelta {
                name: "Short answer".into(),
                text: "Yes, ship it.\n\n".into()
            },
        ]
    );
    let events: Vec<StreamEvent> = stream
        .push("sks\nProse, not bullets.\n## Steps\n")
        .collect();
    let kinds: Vec<String> = events
        .iter()
        .map(|e| {
            serde_json::to_value(e).unwrap()["event"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "section_completed",
            "section_started",
            "section_delta",
            "section_completed",
            "violation",
            "section_started"
        ]
    );
    let json = serde_json::to_value(&events[4]).unwrap();
    assert_eq!(json["code"], "section_not_bullets");
    assert_eq!(json["section"], "Risks");
    assert_eq!(
        (json["line"].as_u64(), json["column"].as_u64()),
        (Some(5), Some(1))
    );
    let end = stream.finish();
    assert_eq!(
        end.report.errors.iter().map(Issue::id).collect::<Vec<_>>(),
        [
            "section_not_bullets:Risks",
            "empty_section_without_none:Steps",
            "missing_section:Notes",
            "missing_table"
        ]
    );
}

#[test]
fn items_and_rows_are_sent_as_they_are_read() {
    let spec = spec();
    let mut stream = StreamingExtractor::new(&spec);
    let mut events: Vec<StreamEvent> = stream
        .push("## Risks\n- load\n- cost\n  - hidden\n\n")
        .collect();
    events.extend(stream.push("| Option | Cost |\n|---|---|\n| a | 1 |\n## Notes\n"));
    let json: Vec<serde_json::Value> = events
        .iter()
        .filter(|e| {
            matches!(
                e,
                StreamEvent::ListItem { .. } | StreamEvent::TableRow { .. }
            )
        })
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    assert_eq!(
        json,
        [
            serde_json::json!({"event": "list_item", "section": "Risks", "path": "/Risks/0",
                "item": {"text": "load", "children": []}}),
            serde_json::json!({"event": "list_item", "section": "Risks", "path": "/Risks/1",
                "item": {"text": "cost", "children": [{"text": "hidden", "children": []}]}}),
            serde_json::json!({"event": "table_row", "table": 0, "index": 0,
                "columns": ["Option", "Cost"], "row": ["a", "1"]}),
        ]
    );
}

#[test]
fn an_item_is_sent_once_the_next_one_starts() {
    let spec = spec();
    let mut stream = StreamingExtractor::new(&spec);
    stream.push("## Risks\n- load\n  - at peak\n");
    let events: Vec<StreamEvent> = stream.push("- cost\n").collect();
    let items: Vec<serde_json::Value> = events
        .iter()
        .filter(|e| matches!(e, StreamEvent::ListItem { .. }))
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    assert_eq!(
        items,
        [
            serde_json::json!({"event": "list_item", "section": "Risks", "path": "/Risks/0",
            "item": {"text": "load", "children": [{"text": "at peak", "children": []}]}})
        ]
    );
    // The last item comes when the section ends, once.
    let events: Vec<StreamEvent> = stream.push("\n## Steps\n1. go\n").collect();
    let paths: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::ListItem { path, .. } => Some(path.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(paths, ["/Risks/1"]);
    // A lazy continuation line is the parser's call: that item waits.
    let mut stream = StreamingExtractor::new(&spec);
    stream.push("## Risks\n- load\nmore about load\n");
    let events: Vec<StreamEvent> = stream.push("- cost\n").collect();
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, StreamEvent::ListItem { .. }))
    );
}

#[test]
fn a_bound_payload_fence_is_sent_when_it_closes() {
    let spec = spec();
    let mut stream = StreamingExtractor::new(&spec);
    let mut events: Vec<StreamEvent> = stream
        .push("## Notes\n@payload:name: plan\n```json\n{\"steps\": [1, 2]}\n")
        .collect();
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, StreamEvent::PayloadCompleted { .. }))
    );
    events = stream.push("```\n\n```python\n@payload:name: no\n```\n```flexmd\n@payload:name: t\n```table\n| a |\n|---|\n| 1 |\n```\n```\n@payload:name: cut\n```\nabc").collect();
    let payloads: Vec<serde_json::Value> = events
        .iter()
        .chain(&stream.finish().events)
        .filter(|e| matches!(e, StreamEvent::PayloadCompleted { .. }))
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    assert_eq!(
        payloads,
        [
            serde_json::json!({"event": "payload_completed", "name": "plan", "payload":
                {"lang": "json", "raw": "{\"steps\": [1, 2]}\n", "value": {"steps": [1, 2]}}}),
            serde_json::json!({"event": "payload_completed", "name": "t", "payload":
                {"lang": "table", "raw": "| a |\n|---|\n| 1 |\n",
                 "value": {"kind": "table", "columns": ["a"], "rows": [["1"]]}}}),
            serde_json::json!({"event": "payload_completed", "name": "cut", "payload":
                {"raw": "abc", "value": "abc"}}),
        ]
    );
}
