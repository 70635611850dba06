//! Any answer, checked against a fixed spec and counted into a fuzzed group:
//! never a panic, and the counts add up.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (&str, u8, usize)| {
    let (answer, group, tokens) = input;
    let spec = flexmd_ofs::parse_spec(
        "- Short answer — prose\n- Steps — ordered list\n- Risks — list\nTables:\n- | Name | Score |\n",
    )
    .value;
    let report = flexmd_ofs::validate(answer, &spec);
    let judged = flexmd_report::Judged::from_report(&report, tokens);
    let mut tally = flexmd_report::Tally::new(vec!["g".to_owned()]);
    tally.add(vec![(group % 3).to_string()], &judged);
    tally.add(vec!["x".to_owned()], &judged);
    let summary = tally.summary();
    assert_eq!(summary.answers, 2);
    for g in &summary.groups {
        assert!(g.valid <= g.answers && g.lenient <= g.valid);
        assert_eq!(g.tokens.iter().map(|b| b.answers).sum::<u64>(), g.answers);
        let interval = g.valid_interval.unwrap_or(flexmd_report::Interval { low: 0.0, high: 1.0 });
        assert!(0.0 <= interval.low && interval.low <= interval.high && interval.high <= 1.0);
    }
    let _ = serde_json::to_string(&summary);
});
