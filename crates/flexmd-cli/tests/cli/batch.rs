//! `--jsonl`: one result line per record, in input order, on all cores;
//! each record's result is what the one-answer command prints for it.

use super::*;
use pretty_assertions::assert_eq;

/// What `flexmd ARGS FILE --compact` prints for one answer, as JSON.
fn single(args: &[&str], answer: &str) -> Value {
    // One file per call: tests run side by side.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = scratch(&format!("batch-single-{n}"));
    let file = dir.join("answer.md");
    std::fs::write(&file, answer).unwrap();
    let out = flexmd()
        .args(args)
        .arg(&file)
        .arg("--compact")
        .output()
        .unwrap();
    if out.stdout.is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The bundled batch: answers as objects with `id` and `response`.
fn answers() -> (String, Vec<Value>) {
    let path = example("batch/answers.jsonl");
    let records = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (path, records)
}

#[test]
fn extract_jsonl_gives_per_record_what_extract_gives_for_the_answer() {
    let spec = example("specs/answer.md");
    let (path, records) = answers();
    for as_json in [false, true] {
        let mut args = vec!["extract", "--spec", &spec];
        if as_json {
            args.push("--as-json");
        }
        let out = flexmd()
            .args(&args)
            .args(["--jsonl", &path])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "one answer breaks the spec");
        let got = lines(&out.stdout);
        assert_eq!(got.len(), 5);
        for (n, (line, record)) in got.iter().zip(&records).enumerate() {
            assert_eq!(line["line"], json!(n + 1));
            let Some(answer) = record["response"].as_str() else {
                assert_eq!(line["error"]["code"], "missing_field");
                assert_eq!(line["ok"], false);
                continue;
            };
            assert_eq!(line["result"], single(&args, answer), "line {}", n + 1);
            let report = single(&["validate", "--spec", &spec, "--json"], answer);
            assert_eq!(line["ok"], report["ok"]);
            assert_eq!(line["errors"], report["errors"]);
            assert_eq!(line["details"], report["details"]);
        }
    }
    let err = String::from_utf8(
        flexmd()
            .args(["extract", "--spec", &spec, "--jsonl", &path])
            .output()
            .unwrap()
            .stderr,
    )
    .unwrap();
    assert!(
        err.contains("answers.jsonl: 5 records, 1 invalid, 1 unreadable"),
        "{err}"
    );
}

#[test]
fn validate_jsonl_lines_are_the_report_after_the_line_number() {
    let spec = example("specs/answer.md");
    let (path, records) = answers();
    let out = flexmd()
        .args(["validate", "--spec", &spec, "--jsonl", &path, "--strict"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let got = lines(&out.stdout);
    for (n, record) in records.iter().enumerate().take(4) {
        let answer = record["response"].as_str().unwrap();
        let mut expected = json!({"line": n + 1});
        let report = single(&["validate", "--spec", &spec, "--json", "--strict"], answer);
        expected
            .as_object_mut()
            .unwrap()
            .extend(report.as_object().unwrap().clone());
        assert_eq!(got[n], expected);
    }
    // Quirks are warnings: under --strict they fail the record.
    assert_eq!(got[1]["ok"], false);
}

#[test]
fn json_jsonl_finds_the_json_in_each_answer() {
    let answers = [
        "Sure:\n```json\n{\"a\": 1,}\n```",
        "no json here",
        "first {\"x\": [1, 2} then [3]",
    ];
    let input: String = answers
        .iter()
        .map(|a| format!("{}\n", json!({"text": a})))
        .collect();
    for flags in [&[][..], &["--all"], &["--repairs"], &["--all", "--repairs"]] {
        let out = flexmd()
            .args(["json", "--jsonl", "--field", "text", "-"])
            .args(flags)
            .write_stdin(input.clone())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "one answer has no JSON");
        let got = lines(&out.stdout);
        for (n, answer) in answers.iter().enumerate() {
            let mut args = vec!["json"];
            args.extend_from_slice(flags);
            let expected = single(&args, answer);
            let found = expected != Value::Null;
            let expected = if !found && flags.contains(&"--all") {
                json!([])
            } else {
                expected
            };
            assert_eq!(
                got[n],
                json!({"line": n + 1, "ok": found, "result": expected}),
                "{flags:?} line {}",
                n + 1
            );
        }
    }
}

#[test]
fn records_keep_their_order_on_many_threads() {
    // Long answers first, so early records finish last.
    let input: String = (0..400)
        .map(|i| {
            let body = "word ".repeat((400 - i) * 40);
            format!("{}\n", json!(format!("## Short answer\n{i} {body}\n")))
        })
        .collect();
    let spec = example("specs/answer.md");
    let mut outputs = Vec::new();
    for jobs in ["1", "4"] {
        let out = flexmd()
            .args([
                "extract",
                "--spec",
                &spec,
                "--as-json",
                "--jsonl",
                "--jobs",
                jobs,
            ])
            .write_stdin(input.clone())
            .output()
            .unwrap();
        let got = lines(&out.stdout);
        let firsts: Vec<String> = got
            .iter()
            .map(|l| {
                let text = l["result"]["Short answer"].as_str().unwrap();
                text.split(' ').next().unwrap().to_owned()
            })
            .collect();
        assert_eq!(firsts, (0..400).map(|i| i.to_string()).collect::<Vec<_>>());
        outputs.push(out.stdout);
    }
    assert_eq!(
        outputs[0], outputs[1],
        "the same lines, whatever the threads"
    );
}

#[test]
fn unreadable_lines_become_error_lines_and_the_batch_goes_on() {
    let spec = example("specs/answer.md");
    let mut input = b"\"## Short answer\\nYes.\"\n".to_vec();
    input.extend_from_slice(b"\"caf\xe9\"\n"); // Latin-1, not UTF-8
    input.extend_from_slice(b"{\"response\": 3}\n");
    input.extend_from_slice(b"[1, 2\n");
    input.extend_from_slice(b"\n\"## Short answer\\nNo.\"");
    let out = flexmd()
        .args(["validate", "--spec", &spec, "--jsonl"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let got = lines(&out.stdout);
    let summary: Vec<(Value, Value)> = got
        .iter()
        .map(|l| (l["line"].clone(), l["error"]["code"].clone()))
        .collect();
    assert_eq!(
        summary,
        [
            (json!(1), Value::Null),
            (json!(2), json!("invalid_utf8")),
            (json!(3), json!("not_text")),
            (json!(4), json!("invalid_json")),
            (json!(6), Value::Null),
        ]
    );
    assert_eq!(
        got[2]["error"]["message"],
        "line 3: expected the answer as a JSON string, found number"
    );
}

#[test]
fn several_files_label_their_lines() {
    let dir = scratch("batch-files");
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    std::fs::write(&a, "\"## Short answer\\nYes.\"\n").unwrap();
    std::fs::write(&b, "\n\"{\\\"k\\\": 1}\"\n").unwrap();
    let out = flexmd()
        .args(["json", "--jsonl"])
        .args([&a, &b])
        .output()
        .unwrap();
    let got = lines(&out.stdout);
    assert_eq!(
        got,
        [
            json!({"file": a.display().to_string(), "line": 1, "ok": false, "result": null}),
            json!({"file": b.display().to_string(), "line": 2, "ok": true, "result": {"k": 1}}),
        ]
    );
    // A file that is not there stops the batch before it starts: exit 2.
    let out = flexmd()
        .args(["json", "--jsonl"])
        .arg(&a)
        .arg(dir.join("missing.jsonl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn schema_validate_jsonl_reads_a_field_holding_a_models_answer() {
    let answer = "Here is the review:\n```json\n{\"approved\": \"yes\", \"issues\": []}\n```";
    let input = format!(
        "{}\n{}\n",
        json!({"id": 1, "output": answer}),
        json!({"id": 2, "output": {"approved": true}})
    );
    let out = flexmd()
        .args([
            "schema", "validate", "--schema", "review", "--jsonl", "--field", "output", "--json",
            "--jobs", "2",
        ])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let got = lines(&out.stdout);
    let mut expected = json!({"line": 1});
    let report = single(
        &["schema", "validate", "--schema", "review", "--json"],
        answer,
    );
    expected
        .as_object_mut()
        .unwrap()
        .extend(report.as_object().unwrap().clone());
    assert_eq!(got[0], expected, "a string field: the JSON in the answer");
    assert_eq!(got[1]["line"], 2);
    assert_eq!(got[1]["valid"], false, "a value field: the data itself");
    assert_eq!(got[1]["errors"][0]["code"], "missing_required");
}

#[test]
fn batch_flags_need_jsonl() {
    let spec = example("specs/answer.md");
    for args in [
        vec!["extract", "--spec", &spec, "--jobs", "2"],
        vec!["json", "--field", "text"],
        vec!["extract", "--spec", &spec, "--jsonl", "--stream"],
        vec!["json", "--jsonl", "--schema", "review"],
    ] {
        let out = flexmd().args(&args).write_stdin("").output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    let out = flexmd()
        .args(["schema", "validate", "--schema", "review", "--jobs", "2"])
        .write_stdin("{}")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
