//! `--stream`: events as JSON Lines while the answer arrives, ending with
//! what the batch command prints for the whole answer.

use super::*;
use pretty_assertions::assert_eq;
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

fn stdout_json(args: &[&str]) -> Value {
    let out = flexmd().args(args).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn extract_stream_ends_with_what_extract_prints() {
    let spec = example("specs/answer.md");
    for answer in [
        "responses/clean.md",
        "responses/quirks.md",
        "responses/nested.md",
    ] {
        let answer = example(answer);
        let out = flexmd()
            .args(["extract", "--stream", "--spec", &spec, &answer])
            .output()
            .unwrap();
        let batch = flexmd()
            .args(["extract", "--spec", &spec, &answer])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), batch.status.code(), "{answer}");
        let events = lines(&out.stdout);
        let last = events.last().unwrap();
        assert_eq!(last["event"], "finished");
        let whole: Value = serde_json::from_slice(&batch.stdout).unwrap();
        assert_eq!(last["result"], whole, "{answer}");
        // The last completion of each section is the section in the result.
        for event in events.iter().filter(|e| e["event"] == "section_completed") {
            let name = event["name"].as_str().unwrap();
            let last_of_name = events
                .iter()
                .rev()
                .find(|e| e["event"] == "section_completed" && e["name"] == name)
                .unwrap();
            assert_eq!(
                last_of_name["value"], whole["sectionsByName"][name],
                "{name}"
            );
        }
        let report = stdout_json(&["validate", "--json", "--spec", &spec, &answer]);
        assert_eq!(last["report"], report, "{answer}");
    }
}

#[test]
fn extract_stream_as_json_and_a_violation() {
    let spec = example("specs/answer.md");
    let out = flexmd()
        .args(["extract", "--stream", "--as-json", "--spec", &spec])
        .write_stdin(
            "## Short answer\nYes.\n\n## Assumptions\nNone at all, really.\n## Reasoning\n1. a\n",
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let events = lines(&out.stdout);
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "section_started",
            "section_delta",
            "section_completed",
            "section_started",
            "section_delta",
            "section_completed",
            "violation",
            "section_started",
            "section_delta",
            "list_item",
            "section_completed",
            "violation",
            "violation",
            "finished"
        ]
    );
    assert_eq!(events[6]["code"], "section_not_bullets");
    assert_eq!(events[6]["section"], "Assumptions");
    assert_eq!(events[6]["line"], 5);
    let whole = flexmd()
        .args(["extract", "--as-json", "--spec", &spec])
        .write_stdin(
            "## Short answer\nYes.\n\n## Assumptions\nNone at all, really.\n## Reasoning\n1. a\n",
        )
        .output()
        .unwrap();
    let whole: Value = serde_json::from_slice(&whole.stdout).unwrap();
    assert_eq!(events[13]["result"], whole);
    assert_eq!(events[13]["result"]["Reasoning"], json!(["a"]));
    assert_eq!(events[13]["result"]["Assumptions"], json!([]));
    assert_eq!(events[13]["report"]["ok"], false);
    // The diagnostics go to stderr, as for extract.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("section_not_bullets"), "{stderr}");
}

/// Each event is flushed as soon as it is known: the first section's
/// completion is read while the rest of the answer has not been written.
#[test]
fn extract_stream_prints_events_before_the_answer_ends() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("flexmd"))
        .args(["extract", "--stream", "--spec", &example("specs/answer.md")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // Ends the child if the stream never answers (the test then fails
    // instead of hanging).
    let id = child.id();
    let watchdog = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(120));
        let _ = std::process::Command::new("kill")
            .arg(id.to_string())
            .status();
    });
    stdin
        .write_all(b"## Short answer\nUse PostgreSQL.\n\n## Long answer\n")
        .unwrap();
    stdin.flush().unwrap();
    let mut seen = Vec::new();
    loop {
        let mut line = String::new();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "the stream ended early: {seen:?}"
        );
        let event: Value = serde_json::from_str(&line).unwrap();
        seen.push(event["event"].as_str().unwrap().to_owned());
        if event["event"] == "section_completed" {
            assert_eq!(event["name"], "Short answer");
            assert_eq!(event["value"]["md"], "Use PostgreSQL.\n\n");
            break;
        }
    }
    stdin.write_all(b"Because.\n").unwrap();
    drop(stdin);
    let rest: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    assert_eq!(rest.last().unwrap()["event"], "finished");
    assert_eq!(
        child.wait().unwrap().code(),
        Some(1),
        "sections are missing"
    );
    drop(watchdog);
}

/// Applies the add and replace operations of `json --stream`.
fn apply(doc: &mut Value, patches: &Value) {
    for op in patches.as_array().unwrap() {
        let path = op["path"].as_str().unwrap();
        let value = op["value"].clone();
        if path.is_empty() {
            *doc = value;
            continue;
        }
        let (parent, key) = path.rsplit_once('/').unwrap();
        match doc.pointer_mut(parent).unwrap() {
            Value::Object(map) => {
                map.insert(key.replace("~1", "/").replace("~0", "~"), value);
            }
            Value::Array(items) => {
                let i: usize = key.parse().unwrap();
                if i == items.len() {
                    items.push(value);
                } else {
                    items[i] = value;
                }
            }
            other => panic!("{path} in {other}"),
        }
    }
}

#[test]
fn json_stream_patches_build_the_value_json_prints() {
    let file = example("agent/messy_review.md");
    let out = flexmd().args(["json", "--stream", &file]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let events = lines(&out.stdout);
    let mut doc = Value::Null;
    for event in &events {
        apply(&mut doc, &event["patches"]);
    }
    let whole = stdout_json(&["json", &file]);
    assert_eq!(doc, whole);
    let last = events.last().unwrap();
    assert_eq!(
        (&last["event"], &last["value"]),
        (&json!("finished"), &whole)
    );
    assert!(
        events[..events.len() - 1]
            .iter()
            .all(|e| e["event"] == "update")
    );
}

#[test]
fn json_stream_reports_paths_and_repairs() {
    let out = flexmd()
        .args(["json", "--stream", "--repairs", "--compact"])
        .write_stdin("Sure:\n```json\n{\"a\": \"hel")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let events = lines(&out.stdout);
    assert_eq!(
        events[0],
        json!({"event": "update", "patches": [{"op": "add", "path": "", "value": {"a": "hel"}}],
               "done": [], "cursor": {"path": "/a", "state": "partial"}})
    );
    assert_eq!(events[1]["value"], json!({"a": "hel"}));
    assert_eq!(events[1]["found"]["repairs"][0]["kind"], "unclosed_string");
}

#[test]
fn json_stream_without_json_is_exit_1() {
    let out = flexmd()
        .args(["json", "--stream"])
        .write_stdin("no JSON here")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        lines(&out.stdout),
        [json!({"event": "finished", "patches": [], "value": null})]
    );
}

#[test]
fn stream_refuses_two_inputs_and_invalid_utf8() {
    let spec = example("specs/answer.md");
    let a = example("responses/clean.md");
    let out = flexmd()
        .args(["extract", "--stream", "--spec", &spec, &a, &a])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--stream reads one answer"));
    let out = flexmd()
        .args(["json", "--stream"])
        .write_stdin(b"{\"a\": \"x\ny\xff".to_vec())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 2, column 2"), "{stderr}");
    let out = flexmd()
        .args(["json", "--stream", "--all"])
        .write_stdin("{}")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
