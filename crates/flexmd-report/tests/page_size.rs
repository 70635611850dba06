//! The page's size is bounded whatever the input: many groups, long
//! answers full of characters that escaping makes longer, many problems.

#![allow(clippy::unwrap_used)]

use flexmd_report::{About, Check, Checker, Options, render_html, report_lines};

#[test]
fn the_page_stays_small_whatever_the_input() {
    let spec = flexmd_ofs::parse_spec(
        "- Short answer — prose\n- Steps — ordered list\n- Risks — list\n- Notes — prose\n",
    )
    .value;
    // 60 groups × 8 answers (more than the page shows of each); each answer 200 lines of `<&"` and bold
    // labels (leniencies), every section missing or wrong.
    let line = format!("**{}:**\n", "<&\"".repeat(30));
    let answer = format!("## Steps\n- a\n{}", line.repeat(200));
    let mut input = String::new();
    for i in 0..480 {
        let record = serde_json::json!({"g": format!("group <{}>", i % 60), "response": answer});
        input.push_str(&record.to_string());
        input.push('\n');
    }
    let checker = Checker::new(
        Check::Spec {
            spec,
            strict: false,
        },
        flexmd_schema::Registry::new(),
    )
    .unwrap();
    let options = Options {
        group_by: vec!["g".to_owned()],
        ..Options::default()
    };
    let summary = report_lines(
        input.as_bytes(),
        None::<&[u8]>,
        checker,
        &options,
        &mut |_| {},
    )
    .unwrap();
    assert_eq!((summary.answers, summary.groups.len()), (480, 60));
    assert_eq!(summary.groups[0].worst.len(), 8);
    let page = render_html(&summary, &About::default());
    // 40 groups shown, 5 worst answers each: 6 MB at the very most, for
    // answers made only of characters escaping lengthens.
    assert_eq!(page.matches("<article ").count(), 200);
    assert!(page.len() < 6 << 20, "{} bytes", page.len());
    assert!(input.len() > 10 << 20, "the input is {} bytes", input.len());
}
