//! Inputs shared by flexmd's benchmarks: realistic Markdown made from the
//! bundled example answers, at the sizes the benchmarks name.

/// The floor every comparison is measured against: pulldown-cmark's bare
/// event iteration over `md`, in the dialect flexmd-core reads
/// (crates/flexmd-core/src/markdown.rs). Returns the event count.
pub fn pulldown_floor(md: &str) -> usize {
    use pulldown_cmark::{Options, Parser};
    let dialect =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    Parser::new_ext(md, dialect).into_offset_iter().count()
}

/// The bundled example answers, concatenated.
const ANSWERS: [&str; 3] = [
    include_str!("../../examples/responses/clean.md"),
    include_str!("../../examples/responses/quirks.md"),
    include_str!("../../examples/responses/nested.md"),
];

/// A Markdown document of at least `target_bytes`: the example answers
/// repeated under numbered chapter headings, so headings, lists, tables, code
/// fences and prose all occur at their natural density.
pub fn document(target_bytes: usize) -> String {
    let mut doc = String::with_capacity(target_bytes + 4096);
    let mut chapter = 0usize;
    while doc.len() < target_bytes {
        chapter += 1;
        for answer in ANSWERS {
            // Front matter is only valid at the very start: keep the rest.
            let body = answer
                .split_once("---\n# ")
                .map_or(answer, |(_, rest)| rest);
            doc.push_str(&format!(
                "# Chapter {chapter}\n\nSome prose before the answer.\n\n"
            ));
            doc.push_str(body);
            doc.push('\n');
        }
    }
    doc
}

/// An answer of at least `target_bytes` that is almost all one section: a
/// list of short one-line items (`- item 1 of the list`) under
/// `## Assumptions`, after two short sections. The case where a tree per
/// item, not the text, is what costs memory.
pub fn one_list_answer(target_bytes: usize) -> String {
    let mut doc = String::with_capacity(target_bytes + 64);
    doc.push_str("## Short answer\nYes.\n\n## Long answer\nBecause.\n\n## Assumptions\n");
    let mut n = 0usize;
    while doc.len() < target_bytes {
        n += 1;
        doc.push_str(&format!("- item {n} of the list\n"));
    }
    doc
}

/// An answer of at least `target_bytes` whose sections are long, as in a
/// real answer (a heading every 1–2 KB): the clean example answer with each
/// section's body written eight times, repeated under chapter headings.
/// [`document`] has a heading every 180 bytes or so; the two tell the cost
/// of a section from the cost of the text in it.
pub fn long_sections_document(target_bytes: usize) -> String {
    let mut answer = String::new();
    for section in ANSWERS[0].split("## ").filter(|s| !s.is_empty()) {
        let (title, body) = section.split_once('\n').unwrap_or((section, ""));
        answer.push_str("## ");
        answer.push_str(title);
        answer.push('\n');
        for _ in 0..8 {
            answer.push_str(body.trim_end());
            answer.push_str("\n\n");
        }
    }
    let mut doc = String::with_capacity(target_bytes + answer.len() + 64);
    let mut chapter = 0usize;
    while doc.len() < target_bytes {
        chapter += 1;
        doc.push_str(&format!("# Chapter {chapter}\n\nSome prose.\n\n"));
        doc.push_str(&answer);
    }
    doc
}

/// A FlexMD chat transcript of at least `target_bytes`: user and assistant
/// messages with meta, titles, JSON and table payloads and Markdown bodies.
pub fn frames_document(target_bytes: usize) -> String {
    let mut doc = String::with_capacity(target_bytes + 4096);
    doc.push_str("# Support transcript\n@channel: web\n@tags: billing, refunds\n\n");
    let mut n = 0usize;
    while doc.len() < target_bytes {
        n += 1;
        doc.push_str(&format!(
            "[[message role=user id=u{n} ts=2024-05-01T10:{:02}:00Z]] Question {n}\n@tags: order, refund\n@priority: high\n\n",
            n % 60
        ));
        doc.push_str("Hi, I ordered **two** items last week and one arrived broken.\nCan I get a refund for it?\n\n");
        doc.push_str(&format!(
            "## [[message role=assistant id=a{n} model=\"example llm\"]] Answer {n}\n@refs: policy-7, order-{n}\n@payload:name: order\n```json\n{{\"id\": {n}, \"items\": [{{\"sku\": \"A-1\", \"qty\": 2}}], \"status\": \"delivered\"}}\n```\n@payload:name: options\n```table\n| option | days |\n|---|---|\n| refund | 30 |\n| replace | 14 |\n```\n\n"
        ));
        doc.push_str("Yes. Our policy allows:\n\n1. A refund within 30 days.\n2. A replacement within 14 days.\n\n```text\n[[not a header]] inside a fence\n```\n\n");
    }
    doc
}

/// A JSON array of records, at least `target_bytes` long when serialised
/// compactly: the shape of a typical tool or model result.
pub fn json_records(target_bytes: usize) -> String {
    let mut out = String::with_capacity(target_bytes + 256);
    out.push('[');
    let mut n = 0usize;
    while out.len() < target_bytes {
        if n > 0 {
            out.push(',');
        }
        n += 1;
        out.push_str(&format!(
            "{{\"id\":{n},\"name\":\"item {n}\",\"price\":{}.{:02},\"tags\":[\"a\",\"b\"],\"in_stock\":{},\"note\":null}}",
            n % 997,
            n % 100,
            n.is_multiple_of(3)
        ));
    }
    out.push(']');
    out
}

/// Free-form model output of at least `target_bytes`: Markdown answers,
/// FlexMD fences with payloads, raw FlexMD, JSON fences (some broken, as
/// models write them) and prose, in turn.
pub fn mixed_document(target_bytes: usize) -> String {
    const MIXED: [&str; 2] = [
        include_str!("../../examples/mixed/session.md"),
        include_str!("../../examples/mixed/tool_call.md"),
    ];
    let mut doc = String::with_capacity(target_bytes + 8192);
    let turns = ANSWERS.iter().cycle().zip(MIXED.iter().cycle());
    for (n, (answer, mixed)) in turns.enumerate() {
        if doc.len() >= target_bytes {
            break;
        }
        doc.push_str(&format!("## Turn {n}\n\n"));
        doc.push_str(
            answer
                .split_once("---\n# ")
                .map_or(answer, |(_, rest)| rest),
        );
        doc.push('\n');
        doc.push_str(mixed);
        doc.push_str(&format!(
            "\nThe status is {{\"turn\": {n}, \"ok\": true}} for now.\n\n"
        ));
    }
    doc
}

/// `count` small `review` answers (the predefined schema): one in ten breaks
/// it (a bad enum, a missing key, a string count), the rest are valid.
pub fn review_instances(count: usize) -> Vec<serde_json::Value> {
    (0..count)
        .map(|i| {
            let mut v = serde_json::json!({
                "approved": i % 2 == 0,
                "issues": [{"severity": "low", "type": "style", "file": format!("src/f{i}.rs"),
                            "line": i % 400, "message": "long line", "autoFixable": true}],
                "summary": {"critical": 0, "high": 0, "medium": 0, "low": 1, "info": i % 3},
                "recommendation": "approve"
            });
            let set = |v: &mut serde_json::Value, pointer: &str, to: serde_json::Value| {
                if let Some(slot) = v.pointer_mut(pointer) {
                    *slot = to;
                }
            };
            match i % 30 {
                0 => set(&mut v, "/recommendation", serde_json::json!("ship it")),
                10 => set(&mut v, "/summary/low", serde_json::json!("1")),
                20 => {
                    if let Some(map) = v.as_object_mut() {
                        map.remove("summary");
                    }
                }
                _ => {}
            }
            v
        })
        .collect()
}

/// Hostile shapes for the JSON finder, each a unit to repeat: truncated
/// openings, unmatched quotes, and the patterns the repair parser looks
/// ahead on (commas before members, quotes before words, comments). The
/// same list the hostile-input test of flexmd-detect reads.
pub fn hostile_json() -> Vec<(String, String)> {
    let shapes: serde_json::Value = serde_json::from_str(include_str!(
        "../../crates/flexmd-detect/tests/fixtures/hostile_json.json"
    ))
    .unwrap_or_default();
    shapes
        .as_array()
        .map(|list| {
            list.iter()
                .map(|s| {
                    let field = |k: &str| s[k].as_str().unwrap_or_default().to_owned();
                    (field("name"), field("unit"))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A structured model answer as JSON, at least `target_bytes` long: a
/// title, a prose summary with quotes, escapes and non-ASCII text, and
/// findings with numbers, booleans, nulls and nested tags — the shape of a
/// structured output, with strings longer than `json_records`' ones.
pub fn json_structured(target_bytes: usize) -> String {
    let mut out = String::with_capacity(target_bytes + 512);
    out.push_str("{\"title\": \"Review of the rate cache\", \"approved\": false, ");
    out.push_str("\"summary\": \"The cache cuts provider calls by about 98%; the \\\"stale rate\\\" path has no test, and the TTL is hard-coded \\u2014 read it from config.\\nSee the findings below.\", ");
    out.push_str("\"findings\": [");
    let mut n = 0usize;
    while out.len() < target_bytes {
        if n > 0 {
            out.push_str(", ");
        }
        n += 1;
        out.push_str(&format!(
            "{{\"id\": {n}, \"file\": \"src/rates/mod{}.rs\", \"line\": {}, \"severity\": \"{}\", \"message\": \"Finding {n}: the fallback to \\u201clast known\\u201d is not covered; add a test that freezes the clock at 23:59 and checks the quote (≤ 60 s old).\", \"fixed\": {}, \"owner\": null, \"score\": {}.5, \"tags\": [\"cache\", \"tests\"]}}",
            n % 7,
            (n * 37) % 900,
            match n % 3 {
                0 => "minor",
                1 => "major",
                _ => "critical",
            },
            n.is_multiple_of(2),
            n % 10
        ));
    }
    out.push_str("]}");
    out
}
