//! Any bytes as a JSON Lines file of answers, reported against a fixed spec
//! and rendered as HTML and Markdown: never a panic, counts that add up,
//! an interval inside 0..1, and no answer text unescaped in the page.

#![no_main]

use libfuzzer_sys::fuzz_target;

/// The registry, built once (its schemas compile at first use).
static REGISTRY: std::sync::LazyLock<std::sync::Arc<flexmd_schema::Registry>> =
    std::sync::LazyLock::new(|| std::sync::Arc::new(flexmd_schema::Registry::new()));

fuzz_target!(|input: &[u8]| {
    let spec = flexmd_ofs::parse_spec(
        "- Short answer — prose\n- Steps — ordered list\n- Risks — list\nTables:\n- | Name | Score |\n",
    )
    .value;
    let check = flexmd_report::Check::Spec { spec, strict: false };
    let Ok(checker) = flexmd_report::Checker::new(check, std::sync::Arc::clone(&REGISTRY)) else {
        return;
    };
    let options = flexmd_report::Options {
        group_by: vec!["g".to_owned()],
        worst: 3,
        jobs: 1,
        ..flexmd_report::Options::default()
    };
    let Ok(summary) = flexmd_report::report_lines(input, None::<&[u8]>, checker, &options, &mut |_| {}) else {
        return;
    };
    let lines = input.split(|&b| b == b'\n').filter(|l| !l.iter().all(u8::is_ascii_whitespace)).count() as u64;
    assert!(summary.answers + summary.invalid_lines.count <= lines);
    for g in &summary.groups {
        assert!(g.valid <= g.answers && g.lenient <= g.valid);
        assert_eq!(g.tokens.iter().map(|b| b.answers).sum::<u64>(), g.answers);
        assert!(g.worst.len() <= 3);
        let interval = g.valid_interval.unwrap_or(flexmd_report::Interval { low: 0.0, high: 1.0 });
        assert!(0.0 <= interval.low && interval.low <= interval.high && interval.high <= 1.0);
    }
    let page = flexmd_report::render_html(&summary, &flexmd_report::About::default());
    // The page's one script is its own: every `<script` in it is the filters'.
    assert_eq!(page.matches("<script").count(), 1);
    let _ = flexmd_report::render_markdown(&summary);
    let _ = serde_json::to_string(&summary);
});
