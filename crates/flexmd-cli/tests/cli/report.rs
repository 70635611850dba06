//! `flexmd report`: the aggregates of a JSON Lines file of answers (or of
//! the result lines a batch check printed), as JSON, Markdown and HTML.

use super::*;
use pretty_assertions::assert_eq;

fn answers() -> String {
    example("report/answers.jsonl")
}

/// `flexmd report ARGS --json`, parsed.
fn report_json(args: &[&str]) -> Value {
    let out = flexmd()
        .arg("report")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn group<'v>(report: &'v Value, model: &str) -> &'v Value {
    report["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["group"]["model"] == model)
        .unwrap()
}

#[test]
fn the_four_models_habits_as_json() {
    let spec = example("specs/answer.md");
    let report = report_json(&["--spec", &spec, "--group-by", "model", &answers()]);
    assert_eq!(report["answers"], 16);
    assert_eq!(report["group_by"], json!(["model"]));
    assert_eq!(report["invalid_lines"], json!({"count": 0, "listed": []}));
    let drops = group(&report, "drops");
    assert_eq!(drops["errors"], json!({"missing_section": 4}));
    assert_eq!(
        drops["sections"],
        json!({"Unknowns": {"missing": 4, "empty": 0, "wrong_kind": 0, "other": 0}})
    );
    assert_eq!(
        drops["valid_interval"],
        json!({"low": 0.0, "high": 0.4898908364545973})
    );
    assert_eq!(
        group(&report, "bullets")["warnings"],
        json!({"lenient_bullets": 4, "lenient_heading": 4})
    );
    assert_eq!(
        group(&report, "json")["repairs"],
        json!({"json5": 1, "missing_comma": 2, "python_literal": 1, "unescaped_newline": 1})
    );
    assert_eq!(group(&report, "json")["lenient_share"], 1.0);
    assert_eq!(group(&report, "tidy")["worst"], json!([]));
}

#[test]
fn the_markdown_summary() {
    let spec = example("specs/answer.md");
    let out = flexmd()
        .args([
            "report",
            "--spec",
            &spec,
            "--group-by",
            "model",
            &answers(),
            "--markdown",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "**16 answers**, grouped by model\n\n\
         | group | answers | valid | 95% interval | lenient | most frequent |\n\
         |---|---:|---:|---|---:|---|\n\
         | bullets | 4 | 100.0% | 51.0% – 100.0% | 100.0% | `lenient_bullets` ×4, `lenient_heading` ×4 |\n\
         | drops | 4 | 0.0% | 0.0% – 49.0% | 0.0% | `missing_section` ×4 |\n\
         | json | 4 | 100.0% | 51.0% – 100.0% | 100.0% | `missing_comma` ×2, `json5` ×1, `python_literal` ×1 |\n\
         | tidy | 4 | 100.0% | 51.0% – 100.0% | 0.0% | – |\n"
    );
}

/// The lines `validate --jsonl` printed, read back with the answers beside
/// them, give the figures checking the answers gives.
#[test]
fn validate_jsonl_results_read_back_with_their_answers() {
    let spec = example("specs/answer.md");
    let dir = scratch("report-results");
    let results = dir.join("results.jsonl");
    let out = flexmd()
        .args(["validate", "--spec", &spec, "--jsonl", &answers()])
        .output()
        .unwrap();
    std::fs::write(&results, &out.stdout).unwrap();
    let read = report_json(&[
        results.to_str().unwrap(),
        "--answers",
        &answers(),
        "--group-by",
        "model",
    ]);
    let checked = report_json(&["--spec", &spec, "--group-by", "model", &answers()]);
    for model in ["bullets", "drops", "tidy"] {
        assert_eq!(group(&read, model), group(&checked, model), "{model}");
    }
    // `json --jsonl --repairs`: the repairs are counted.
    let out = flexmd()
        .args(["json", "--jsonl", "--repairs", &answers()])
        .output()
        .unwrap();
    std::fs::write(&results, &out.stdout).unwrap();
    let read = report_json(&[
        results.to_str().unwrap(),
        "--answers",
        &answers(),
        "--group-by",
        "model",
    ]);
    assert_eq!(
        group(&read, "json")["repairs"],
        json!({"missing_comma": 2, "python_literal": 1, "unescaped_newline": 1})
    );
    assert_eq!(group(&read, "drops")["errors"], json!({"no_json": 4}));
}

#[test]
fn the_html_page_is_written_and_bad_lines_are_counted() {
    let spec = example("specs/answer.md");
    let dir = scratch("report-html");
    let input = dir.join("answers.jsonl");
    std::fs::write(
        &input,
        "{\"model\": \"a\", \"response\": \"## Short answer\\n<script>alert(1)</script>\"}\n{broken\n\"## Short answer\\nYes.\"\n",
    )
    .unwrap();
    let page = dir.join("report.html");
    let out = flexmd()
        .args(["report", "--spec", &spec, "--group-by", "model"])
        .arg(&input)
        .arg("-o")
        .arg(&page)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["answers"], 2);
    assert_eq!(
        report["invalid_lines"]["listed"],
        json!([{"line": 2, "code": "invalid_json", "message": "line 2: not JSON: key must be a string at line 1 column 2"}])
    );
    // A bare string is an answer with no group fields.
    assert_eq!(report["groups"][0]["group"], json!({"model": "(none)"}));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!doctype html>"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!html.contains("<script>alert"));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(": 2 answers in 2 groups, 1 lines hold no answer; "),
        "{stderr}"
    );
}

#[test]
fn usage_errors() {
    let out = flexmd().args(["report", &answers()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("say what to make: -o report.html"));
    let out = flexmd()
        .args(["report", "--schema", "no-such-schema", &answers(), "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = flexmd()
        .args(["report", "--json", "--markdown", &answers()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// A group's answers, valid and lenient counts.
fn verdicts(group: &Value) -> (u64, u64, u64) {
    let n = |k: &str| group[k].as_u64().unwrap();
    (n("answers"), n("valid"), n("lenient"))
}

/// `--schema NAME`: the JSON in each answer fitted to a registered schema;
/// repairs and coercions make a valid answer lenient, violations count by
/// top-level key.
#[test]
fn a_registered_schema() {
    let dir = scratch("report-schema");
    let input = dir.join("answers.jsonl");
    let review = std::fs::read_to_string(example("agent/review_answer.md")).unwrap();
    let messy = std::fs::read_to_string(example("agent/messy_review.md")).unwrap();
    let lines = [
        json!({"agent": "a", "response": review}),
        json!({"agent": "b", "response": "{\"approved\": true}"}),
        json!({"agent": "b", "response": messy}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&input, text).unwrap();
    let report = report_json(&[
        "--schema",
        "review",
        "--group-by",
        "agent",
        input.to_str().unwrap(),
    ]);
    let a = &report["groups"][0];
    assert_eq!(verdicts(a), (1, 1, 1));
    // The trailing comma: JSON5; the strings where numbers and booleans go: coerced.
    assert_eq!(a["repairs"], json!({"json5": 1}));
    assert!(
        a["warnings"].as_object().unwrap().len() >= 2,
        "{}",
        a["warnings"]
    );
    // `{"approved": true}` lacks two required keys (`issues` has a default);
    // the messy review is valid once repaired and coerced.
    let b = &report["groups"][1];
    assert_eq!(verdicts(b), (2, 1, 1));
    assert_eq!(b["errors"], json!({"missing_required": 2}));
    assert_eq!(b["repairs"], json!({"ellipsis": 1, "unquoted_string": 1}));
    assert_eq!(
        b["sections"]["summary"],
        json!({"missing": 1, "empty": 0, "wrong_kind": 0, "other": 0})
    );
    assert_eq!(b["sections"]["recommendation"]["missing"], 1);
    assert_eq!(b["worst"][0]["line"], 2);
}
