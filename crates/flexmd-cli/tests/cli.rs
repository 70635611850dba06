//! The real `flexmd` binary, run on the bundled examples and on bad input.

// Test helpers may panic: a panic here is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use assert_cmd::Command;

use serde_json::{Value, json};

fn flexmd() -> Command {
    Command::cargo_bin("flexmd").unwrap()
}

/// A scratch directory for commands that read or write files.
fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("flexmd-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A scratch directory, removed when dropped: a test run must not leave
/// files behind (some tests write 70 MB, and CI disks are small).
struct Scratch(std::path::PathBuf);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Each line of `out` read as JSON (JSON Lines output).
fn lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8(out.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn example(path: &str) -> String {
    format!("{}/../../examples/{path}", env!("CARGO_MANIFEST_DIR"))
}

fn titles(nodes: &Value) -> Vec<String> {
    nodes
        .as_array()
        .unwrap()
        .iter()
        .map(|n| format!("{}:{}", n["level"], n["title"].as_str().unwrap()))
        .collect()
}

mod outline {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn file_gives_outline_json() {
        let out = flexmd()
            .args(["outline", &example("responses/clean.md")])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let outline: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(outline["type"], "md_outline");
        assert_eq!(
            titles(&outline["nodes"]),
            [
                "2:Short answer",
                "2:Long answer",
                "2:Reasoning",
                "2:Assumptions",
                "2:Unknowns"
            ]
        );
        assert_eq!(
            outline["nodes"][0]["content_md"],
            "Use PostgreSQL for the order service.\n\n"
        );
    }

    #[test]
    fn stdin_and_dash_read_standard_input() {
        let expected = json!({
            "type": "md_outline",
            "preamble_md": "intro\n",
            "nodes": [{"title": "A", "level": 1, "key": "a", "content_md": "x\n", "children": []}]
        });
        for args in [vec!["outline"], vec!["outline", "-"]] {
            let out = flexmd()
                .args(&args)
                .write_stdin("intro\n# A\nx\n")
                .assert()
                .success()
                .get_output()
                .stdout
                .clone();
            assert_eq!(
                serde_json::from_slice::<Value>(&out).unwrap(),
                expected,
                "{args:?}"
            );
        }
    }

    #[test]
    fn render_reproduces_atx_markdown() {
        let path = example("responses/nested.md");
        let source = std::fs::read_to_string(&path).unwrap();
        flexmd()
            .args(["outline", "--render", &path])
            .assert()
            .success()
            .stdout(source);
    }

    #[test]
    fn render_turns_setext_into_atx() {
        flexmd()
            .args(["outline", "--render"])
            .write_stdin("Title\n=====\nbody\n")
            .assert()
            .success()
            .stdout("# Title\nbody\n");
    }

    #[test]
    fn invalid_utf8_is_exit_2_with_position() {
        let assert = flexmd()
            .arg("outline")
            .write_stdin(&b"# ok\n\xff"[..])
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(
            stderr.contains("cannot read <stdin> as text")
                && stderr.contains("line 2, column 1 (byte 5)"),
            "stderr should name the place: {stderr}"
        );
    }

    #[test]
    fn missing_file_is_exit_2() {
        let assert = flexmd()
            .args(["outline", "/no/such/file.md"])
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains("cannot read /no/such/file.md"), "{stderr}");
    }

    #[test]
    fn unknown_flag_is_a_usage_error() {
        flexmd().args(["outline", "--bogus"]).assert().code(2);
        flexmd().assert().code(2);
    }
}

mod frames {
    use super::*;
    use pretty_assertions::assert_eq;

    const CHAT: &str = "# Support chat\n@channel: web\n\n[[message role=user id=m1]] Question\n@tags: billing, refund\n@priority: 2\n\nCan I get a refund?\n\n## [[message role=assistant id=m2]]\n@payload:name: policy\n```json\n{\"days\": 30}\n```\n\nYes, within 30 days.\n";

    #[test]
    fn parse_prints_flex_document_json() {
        let out = flexmd()
            .args(["frames", "parse", "--meta", "infer"])
            .write_stdin(CHAT)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let doc: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            doc,
            json!({
                "title": "Support chat",
                "meta": {"channel": "web"},
                "frames": [
                    {"type": "message", "role": "user", "id": "m1", "title": "Question",
                     "meta": {"tags": ["billing", "refund"], "priority": 2},
                     "body_md": "Can I get a refund?"},
                    {"type": "message", "role": "assistant", "id": "m2",
                     "body_md": "Yes, within 30 days.",
                     "payloads": {"policy": {"lang": "json", "raw": "{\"days\": 30}\n", "value": {"days": 30}}}}
                ]
            })
        );
    }

    #[test]
    fn stringify_of_parse_gives_canonical_flexmd() {
        let json = flexmd()
            .args(["frames", "parse"])
            .write_stdin(CHAT)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        flexmd()
            .args(["frames", "stringify"])
            .write_stdin(json)
            .assert()
            .success()
            .stdout(
                "# Support chat\n@channel: web\n\n[[message role=user id=m1]] Question\n@tags: billing, refund\n@priority: 2\n\nCan I get a refund?\n\n[[message role=assistant id=m2]]\n@payload:name: policy\n```json\n{\"days\": 30}\n```\n\nYes, within 30 days.\n",
            );
    }

    #[test]
    fn meta_anywhere_reads_late_meta() {
        let text = "[[note]]\n\n@late: yes\n";
        let run = |args: &[&str]| -> Value {
            let out = flexmd()
                .args(args)
                .write_stdin(text)
                .assert()
                .success()
                .get_output()
                .stdout
                .clone();
            serde_json::from_slice(&out).unwrap()
        };
        assert_eq!(
            run(&["frames", "parse"])["frames"][0]["body_md"],
            "@late: yes"
        );
        assert_eq!(
            run(&["frames", "parse", "--meta-anywhere"])["frames"][0]["meta"],
            json!({"late": "yes"})
        );
    }

    #[test]
    fn payload_binding_at_end_of_input_is_exit_1_with_line_and_column() {
        let assert = flexmd()
            .args(["frames", "parse"])
            .write_stdin("hi\n[[message role=user]]\n@payload:x:")
            .assert()
            .code(1);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains("frames::payload_without_fence"), "{stderr}");
        assert!(stderr.contains("3:1:"), "{stderr}");
        let stdout: Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
        assert_eq!(
            stdout["frames"][0]["body_md"], "@payload:x:",
            "the document is still printed"
        );
    }

    #[test]
    fn stringify_rejects_bad_json_with_its_place() {
        let assert = flexmd()
            .args(["frames", "stringify"])
            .write_stdin("{\"frames\": [\n  {\"type\": 1}\n]}")
            .assert()
            .code(1);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains("flexmd::invalid_json"), "{stderr}");
        assert!(
            stderr.contains("<stdin>:2:12"),
            "should point at line 2, column 12: {stderr}"
        );
    }

    #[test]
    fn stringify_heading_level() {
        flexmd()
            .args(["frames", "stringify", "--heading-level", "3"])
            .write_stdin(r#"{"frames": [{"type": "section", "id": "s1", "title": "Intro"}]}"#)
            .assert()
            .success()
            .stdout("### [[section id=s1]] Intro\n");
        flexmd()
            .args(["frames", "stringify", "--heading-level", "7"])
            .write_stdin("{}")
            .assert()
            .code(2);
    }
}

mod ofs {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn parse_render_enrich_the_bundled_spec() {
        let spec_path = example("specs/answer.md");
        let json = flexmd()
            .args(["ofs", "parse", &spec_path])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let spec: Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(
            spec["sections"][2],
            json!({"name": "Reasoning", "kind": "ordered_list"})
        );
        assert_eq!(
            spec["tables"][1],
            json!({"columns": ["property1", "property2", "property3"], "kind": "ordered_table", "by": "property2"})
        );
        let source = std::fs::read_to_string(&spec_path).unwrap();
        flexmd()
            .args(["ofs", "render"])
            .write_stdin(json)
            .assert()
            .success()
            .stdout(source.clone());
        let prompt = flexmd()
            .args(["ofs", "enrich", &spec_path])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let prompt = String::from_utf8(prompt).unwrap();
        assert!(prompt.starts_with(&source));
        assert!(prompt.ends_with(
            "- Ordered tables must add a first column named '#' with rows numbered 1..N.\n"
        ));
    }

    #[test]
    fn unknown_lines_are_reported_with_their_place() {
        let assert = flexmd()
            .args(["ofs", "parse"])
            .write_stdin("- Verdict — prose\nPlease be brief.\n")
            .assert()
            .success();
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(
            stderr.contains("ofs::unknown_line") && stderr.contains("2:1:"),
            "{stderr}"
        );
    }
}

mod validate_extract {
    use super::*;
    use pretty_assertions::assert_eq;

    fn spec() -> String {
        example("specs/answer.md")
    }

    #[test]
    fn clean_answer_is_valid() {
        let assert = flexmd()
            .args([
                "validate",
                "--spec",
                &spec(),
                &example("responses/clean.md"),
            ])
            .assert()
            .success();
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains("valid (0 errors, 0 warnings)"), "{stderr}");
    }

    #[test]
    fn quirky_answer_is_valid_with_a_warning_per_leniency() {
        let out = flexmd()
            .args([
                "validate",
                "--json",
                "--spec",
                &spec(),
                &example("responses/quirks.md"),
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let report: Value = serde_json::from_slice(&out).unwrap();
        // The seed's shape: `errors` and `warnings` as `code:Section` strings.
        assert_eq!(
            report["warnings"],
            serde_json::json!([
                "lenient_heading:Short answer",
                "lenient_numbering:Reasoning",
                "lenient_bullets:Assumptions"
            ])
        );
        assert_eq!(report["errors"], serde_json::json!([]));
        // The full issues under `details`.
        let codes: Vec<String> = report["details"]["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| {
                format!(
                    "{}:{}@{}",
                    w["code"].as_str().unwrap(),
                    w["section"].as_str().unwrap(),
                    w["line"]
                )
            })
            .collect();
        assert_eq!(
            codes,
            [
                "lenient_heading:Short answer@3",
                "lenient_numbering:Reasoning@12",
                "lenient_bullets:Assumptions@18"
            ]
        );
        assert_eq!(report["ok"], true);
    }

    #[test]
    fn invalid_answer_is_exit_1_with_snippets() {
        let assert = flexmd()
            .args(["validate", "--spec", &spec()])
            .write_stdin("## Short answer\nYes.\n\n## Reasoning\n- not numbered\n")
            .assert()
            .code(1);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(
            stderr.contains("section_not_numbered:Reasoning"),
            "{stderr}"
        );
        assert!(stderr.contains("missing_section:Long answer"), "{stderr}");
        assert!(
            stderr.contains("<stdin>:5:1"),
            "snippet at the list: {stderr}"
        );
        assert!(
            stderr.contains("invalid (4 errors, 0 warnings)"),
            "{stderr}"
        );
    }

    #[test]
    fn extract_as_json_gives_the_plain_object() {
        let out = flexmd()
            .args([
                "extract",
                "--as-json",
                "--spec",
                &spec(),
                &example("responses/clean.md"),
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let value: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            value["Short answer"],
            "Use PostgreSQL for the order service."
        );
        assert_eq!(
            value["Unknowns"],
            json!(["Whether the EU region needs its own database."])
        );
        assert_eq!(value["Reasoning"].as_array().unwrap().len(), 3);
    }

    #[test]
    fn extract_gives_extracted_result_and_accepts_a_json_spec() {
        let spec_json = flexmd()
            .args(["ofs", "parse", &spec()])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let dir = std::env::temp_dir().join(format!("flexmd-cli-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let spec_path = dir.join("spec.json");
        std::fs::write(&spec_path, spec_json).unwrap();
        let out = flexmd()
            .args([
                "extract",
                "--spec",
                spec_path.to_str().unwrap(),
                &example("responses/nested.md"),
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let result: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            result["sectionsByName"]["Reasoning"]["nodeKey"],
            "reasoning"
        );
        assert_eq!(result["sectionsByName"]["Reasoning"]["nodeLevel"], 2);
        assert_eq!(
            result["sectionsByName"]["Reasoning"]["list"]["ordered"],
            true
        );
        assert_eq!(result["outline"]["type"], "md_outline");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

mod detect {
    use super::*;
    use pretty_assertions::assert_eq;

    fn stdout_json(out: &std::process::Output) -> Value {
        serde_json::from_slice(&out.stdout).unwrap()
    }

    #[test]
    fn json_prints_the_repaired_value_and_the_repairs_on_stderr() {
        let out = flexmd()
            .args(["json", &example("mixed/tool_call.md")])
            .assert()
            .success()
            .get_output()
            .clone();
        assert_eq!(
            stdout_json(&out),
            json!({"sku": "A-1042", "in_stock": true,
                   "warehouses": [{"id": "ams-1", "count": 12}, {"id": "ber-2", "count": 0}],
                   "note": "restock expected next week", "eta_days": null})
        );
        let stderr = String::from_utf8(out.stderr).unwrap();
        for code in [
            "detect::python_literal",
            "detect::missing_comma",
            "detect::smart_quotes",
        ] {
            assert!(stderr.contains(code), "{code} in {stderr}");
        }
        assert!(stderr.contains("9:5: inserted a missing comma"), "{stderr}");
    }

    #[test]
    fn json_repairs_and_all() {
        let text = "a {'x': None} b\n```json\n[1, 2,]\n```\n";
        let out = flexmd()
            .args(["json", "--all", "--repairs"])
            .write_stdin(text)
            .assert()
            .success()
            .get_output()
            .clone();
        assert_eq!(
            stdout_json(&out),
            json!([
                {"value": {"x": null}, "start": 2, "end": 13, "source": "prose",
                 "method": "repaired", "repairs": [{"kind": "python_literal", "offset": 8}]},
                {"value": [1, 2], "start": 24, "end": 31, "source": "json_fence", "lang": "json",
                 "method": "json5", "repairs": []}
            ])
        );
        assert!(out.stderr.is_empty(), "with --repairs, nothing on stderr");
        let out = flexmd()
            .args(["json", "--all"])
            .write_stdin(text)
            .assert()
            .success()
            .get_output()
            .clone();
        assert_eq!(stdout_json(&out), json!([{"x": null}, [1, 2]]));
        // Without --all, the best one: the fence.
        let out = flexmd()
            .arg("json")
            .write_stdin(text)
            .assert()
            .success()
            .get_output()
            .clone();
        assert_eq!(stdout_json(&out), json!([1, 2]));
    }

    #[test]
    fn no_json_is_exit_1() {
        let out = flexmd()
            .arg("json")
            .write_stdin("Use {braces} in templates, see [1].")
            .assert()
            .code(1)
            .get_output()
            .clone();
        assert!(out.stdout.is_empty());
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "no JSON value found in <stdin>\n"
        );
        let out = flexmd()
            .arg("json")
            .write_stdin("{\"a\": 1 \"b\" }")
            .assert()
            .code(1)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(
                "1:13: no JSON value found: the input is not JSON (expected `:` after a key"
            ),
            "{stderr}"
        );
    }

    #[test]
    fn json_with_a_schema_coerces_the_bundled_messy_review() {
        let out = flexmd()
            .args([
                "json",
                "--schema",
                "review",
                &example("agent/messy_review.md"),
            ])
            .assert()
            .success()
            .get_output()
            .clone();
        let value = stdout_json(&out);
        assert_eq!(value["approved"], json!(false));
        assert_eq!(value["issues"][0]["severity"], json!("high"));
        assert_eq!(value["issues"][0]["line"], json!(212));
        assert_eq!(value["recommendation"], json!("request_changes"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(
                "note: /recommendation: \"request changes\" -> \"request_changes\" (enum_case)"
            ),
            "{stderr}"
        );
        // The report: the candidate, its repairs, every coercion, the preset.
        let out = flexmd()
            .args([
                "json",
                "--schema",
                "review",
                "--repairs",
                "--preset",
                "strict",
            ])
            .arg(example("agent/messy_review.md"))
            .assert()
            .code(1)
            .get_output()
            .clone();
        let report = stdout_json(&out);
        assert_eq!(report["preset"], json!("strict"));
        assert_eq!(report["valid"], json!(false));
        assert_eq!(report["candidate"], json!("json"));
        assert_eq!(report["coercions"], json!([]));
        assert!(report["errors"].as_array().unwrap().len() >= 3);
    }

    #[test]
    fn json_with_a_schema_file_or_a_spec_file() {
        let dir = scratch("json-schema");
        let schema = dir.join("schema.json");
        std::fs::write(
            &schema,
            r#"{"type": "object", "properties": {"level": {"enum": ["high", "higher"]}}}"#,
        )
        .unwrap();
        let out = flexmd()
            .args(["json", "--schema", schema.to_str().unwrap()])
            .write_stdin("{\"level\": \"hi\"}")
            .assert()
            .code(1)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("`hi` at `/level` could be any of high, higher"),
            "{stderr}"
        );
        let out = flexmd()
            .args([
                "json",
                "--schema",
                &example("specs/answer.md"),
                &example("responses/clean.md"),
            ])
            .assert()
            .success()
            .get_output()
            .clone();
        assert!(stdout_json(&out).is_object());
        flexmd()
            .args(["json", "--schema", "no-such-schema"])
            .write_stdin("{}")
            .assert()
            .code(2);
    }

    #[test]
    fn json_in_reasoning_only_is_flagged() {
        let out = flexmd()
            .arg("json")
            .write_stdin("<think>\nMaybe {\"a\": 1}\n</think>\nI am not sure.")
            .assert()
            .success()
            .get_output()
            .clone();
        assert_eq!(stdout_json(&out), json!({"a": 1}));
        assert!(String::from_utf8_lossy(&out.stderr).contains("inside a reasoning block"));
    }

    #[test]
    fn detect_and_parse_any_on_the_bundled_session() {
        let out = flexmd()
            .args(["detect", &example("mixed/session.md")])
            .assert()
            .success()
            .get_output()
            .clone();
        let kinds: Vec<Value> = stdout_json(&out)
            .as_array()
            .unwrap()
            .iter()
            .map(|o| json!([o["kind"], o["start"], o["end"]]))
            .collect();
        assert_eq!(
            kinds,
            [
                json!(["flexmd_fence", 46, 290]),
                json!(["markdown_snippet", 327, 384]),
                json!(["raw_flexmd", 386, 443])
            ]
        );
        let out = flexmd()
            .args(["parse-any", &example("mixed/session.md")])
            .assert()
            .success()
            .get_output()
            .clone();
        let parsed = stdout_json(&out);
        assert_eq!(
            parsed["flexDocs"][0]["frames"][1]["payloads"]["order"]["value"],
            json!({"order": "B-77", "status": "shipped"})
        );
        assert_eq!(
            parsed["flexDocs"][1]["frames"][0]["meta"],
            json!({"due": "2026-12-02"})
        );
        assert_eq!(
            parsed["markdownSnippets"],
            json!(["## Reply\nYour order **B-77** has shipped.\n"])
        );
        assert_eq!(
            parsed["remainder"],
            json!(
                "Below is the conversation so far, as FlexMD:\n\n\n\nAnd a draft template in Markdown:\n\n\n\n\n"
            )
        );
        assert!(String::from_utf8_lossy(&out.stderr).contains("detect::nested_fence"));
    }

    #[test]
    fn detect_finds_nothing_in_plain_prose() {
        flexmd()
            .arg("detect")
            .write_stdin("just words")
            .assert()
            .code(1)
            .stdout("[]\n");
    }
}

mod schema {
    use super::*;
    use pretty_assertions::assert_eq;

    fn stdout_json(out: &std::process::Output) -> Value {
        serde_json::from_slice(&out.stdout).unwrap()
    }

    #[test]
    fn list_and_show() {
        let dir = scratch("list");
        let out = flexmd()
            .current_dir(&dir)
            .args(["schema", "list"])
            .assert()
            .success()
            .get_output()
            .clone();
        let names: Vec<Value> = stdout_json(&out)
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].clone())
            .collect();
        assert_eq!(
            names,
            [
                json!("analysis"),
                json!("implementation"),
                json!("review"),
                json!("verification"),
                json!("plan")
            ]
        );
        let out = flexmd()
            .current_dir(&dir)
            .args(["schema", "show", "plan"])
            .assert()
            .success()
            .get_output()
            .clone();
        assert_eq!(stdout_json(&out)["title"], json!("PlanResult"));
        flexmd()
            .current_dir(&dir)
            .args(["schema", "show", "nope"])
            .assert()
            .code(2);
    }

    #[test]
    fn numbers_in_text_are_read_as_parse_float_and_parse_int() {
        let answer = example("agent/verification_answer.md");
        let out = flexmd()
            .args([
                "schema",
                "validate",
                "--schema",
                "verification",
                &answer,
                "--json",
            ])
            .assert()
            .success()
            .get_output()
            .clone();
        let outcome = stdout_json(&out);
        assert_eq!(
            outcome["data"]["tests"],
            json!({"total": 142, "passed": 141, "failed": 0, "skipped": 1})
        );
        assert_eq!(
            outcome["data"]["coverage"],
            json!({"statements": 87.5, "branches": 74.25, "functions": 91, "lines": 88})
        );
        let rules: Vec<(&str, &str)> = outcome["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["path"].as_str().unwrap(), c["rule"].as_str().unwrap()))
            .collect();
        assert_eq!(
            rules,
            [
                ("passed", "boolean_from_string"),
                ("tests.total", "leading_number"),
                ("tests.passed", "number_from_string"),
                ("tests.failed", "number_from_string"),
                ("tests.skipped", "leading_number"),
                ("lint.warnings", "leading_number"),
                ("coverage.statements", "leading_number"),
                ("coverage.branches", "leading_number"),
                ("coverage.functions", "leading_number"),
                ("coverage.lines", "number_from_string"),
            ]
        );
        assert_eq!(
            (
                &outcome["warnings"][1]["message"],
                &outcome["warnings"][1]["line"]
            ),
            (
                &json!(
                    "Coerced \"142 tests\" to 142 (rule leading_number: the number the text starts with, the rest dropped)"
                ),
                &json!(8)
            )
        );
        // Under --strict each coercion is an error, and the answer fails.
        let out = flexmd()
            .args([
                "schema",
                "validate",
                "--schema",
                "verification",
                &answer,
                "--json",
                "--strict",
            ])
            .assert()
            .code(1)
            .get_output()
            .clone();
        let strict = stdout_json(&out);
        assert_eq!(strict["valid"], json!(false));
        assert_eq!(strict["errors"].as_array().map(Vec::len), Some(10));
        assert_eq!(strict["errors"][1]["code"], json!("coerced"));
    }

    #[test]
    fn validate_a_model_answer_with_coercion_and_defaults() {
        let answer = example("agent/review_answer.md");
        let out = flexmd()
            .args([
                "schema",
                "validate",
                "--schema",
                "review",
                &answer,
                "--no-coerce",
                "--no-defaults",
            ])
            .assert()
            .code(1)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("schema::invalid_type")
                && stderr.contains("approved: Expected boolean, got string"),
            "{stderr}"
        );
        assert!(out.stdout.is_empty());
        // The config's defaults (no config: the seed's example values)
        // coerce and fill defaults.
        let out = flexmd()
            .args(["schema", "validate", "--schema", "review", &answer])
            .assert()
            .success()
            .get_output()
            .clone();
        let data = stdout_json(&out);
        assert_eq!(data["approved"], json!(false));
        assert_eq!(data["issues"][0]["line"], json!(212));
        assert_eq!(data["issues"][0]["autoFixable"], json!(false));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("schema::coerced")
                && stderr.contains("summary.high: Coerced \"1\" to 1"),
            "{stderr}"
        );
        assert!(
            stderr.contains("note: default for issues.[0].autoFixable: false"),
            "{stderr}"
        );
    }

    #[test]
    fn validate_json_report_with_hints() {
        let out = flexmd()
            .args(["schema", "validate", "--schema", "plan", "--hints", "--json"])
            .write_stdin("{\"phases\": [{\"id\": \"p\", \"name\": \"n\", \"tasks\": [], \"estimatedComplexity\": \"huge\"}]}")
            .assert()
            .code(1)
            .get_output()
            .clone();
        let report = stdout_json(&out);
        assert_eq!(report["valid"], json!(false));
        assert_eq!(
            report["errors"][0]["path"],
            json!("phases.[0].estimatedComplexity")
        );
        assert_eq!(
            report["hints"][0]["hint"],
            json!(
                "Fix phases.[0].estimatedComplexity: Value must be one of: low, medium, high. Use one of \"low\", \"medium\", \"high\"."
            )
        );
    }

    #[test]
    fn create_from_an_example_then_validate_with_it() {
        let dir = scratch("create");
        std::fs::write(
            dir.join("example.json"),
            r#"{"id": "T-1", "points": 3, "tags": ["ui"]}"#,
        )
        .unwrap();
        flexmd()
            .current_dir(&dir)
            .args([
                "schema",
                "create",
                "ticket",
                "--from-example",
                "example.json",
            ])
            .assert()
            .success()
            .stdout(".planning/schemas/ticket.json\n");
        let schema: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(".planning/schemas/ticket.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(schema["required"], json!(["id", "points", "tags"]));
        flexmd()
            .current_dir(&dir)
            .args([
                "schema",
                "create",
                "ticket",
                "--from-example",
                "example.json",
            ])
            .assert()
            .code(2);
        flexmd()
            .current_dir(&dir)
            .args(["schema", "validate", "--schema", "ticket"])
            .write_stdin("{\"id\": \"T-2\", \"points\": \"many\", \"tags\": []}")
            .assert()
            .code(1);
    }

    #[test]
    fn a_bad_config_names_the_field() {
        let dir = scratch("config");
        std::fs::write(
            dir.join("c.json"),
            r#"{"schemas": {"validation": {"strict": "no"}}}"#,
        )
        .unwrap();
        let out = flexmd()
            .current_dir(&dir)
            .args(["--config", "c.json", "schema", "list"])
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("c.json: `schemas.validation.strict`: invalid type: string \"no\""),
            "{stderr}"
        );
    }

    pub(super) fn scripted(dir: &std::path::Path, answers: &[&str]) -> String {
        for (i, answer) in answers.iter().enumerate() {
            std::fs::write(dir.join(format!("answer_{}", i + 1)), answer).unwrap();
        }
        let script = format!(
            "{}/../flexmd-schema/tests/fixtures/scripted_model.sh",
            env!("CARGO_MANIFEST_DIR")
        );
        format!("sh '{script}' '{}'", dir.display())
    }

    #[test]
    fn run_retries_with_hints_until_valid() {
        let dir = scratch("run");
        let cmd = scripted(
            &dir,
            &[
                "{\"phases\": [{\"id\": 1, \"tasks\": []}], \"prerequisites\": 3}",
                "```json\n{\"phases\": []}\n```",
            ],
        );
        let out = flexmd()
            .args([
                "run",
                "--schema",
                "plan",
                "--llm-cmd",
                &cmd,
                "--prompt",
                "Plan the launch.",
            ])
            .assert()
            .success()
            .get_output()
            .clone();
        assert_eq!(stdout_json(&out), json!({"phases": []}));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr
                == "valid on attempt 2 (tokens per attempt, prompt + answer: 347 + 23, 417 + 10)\n",
            "{stderr}"
        );
        let second = std::fs::read_to_string(dir.join("prompt_2")).unwrap();
        // The last answer is quoted, with a hint for what still fails after
        // coercion (the id 1 became "1", the 3 became ["3"]; the name is
        // still missing).
        assert!(
            second.contains("Your previous answer:\n\n````\n{\"phases\": [{\"id\": 1, \"tasks\": []}], \"prerequisites\": 3}\n````"),
            "{second}"
        );
        assert!(
            second.contains(
                "- Fix phases.[0].name: Missing required field: name. Add `name` (string)."
            ),
            "{second}"
        );
    }

    #[test]
    fn run_stops_at_the_token_budget_and_prints_the_best_attempt() {
        let dir = scratch("run-budget");
        let cmd = scripted(
            &dir,
            &["{\"phases\": [{\"id\": \"p\"}]}", "{\"phases\": 5}", "{}"],
        );
        // Each prompt holds the plan schema (about 350 o200k tokens, a
        // retry about 440): room for two, not three.
        let out = flexmd()
            .args([
                "run",
                "--schema",
                "plan",
                "--llm-cmd",
                &cmd,
                "--max-retries",
                "5",
                "--max-tokens-total",
                "900",
                "--prompt",
                "Plan.",
            ])
            .assert()
            .code(1)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("no valid answer after 2 attempts (the token budget would be passed)"),
            "{stderr}"
        );
        assert!(stderr.contains("attempt 1 (345 + 11 tokens):"), "{stderr}");
        // The second answer has one violation (its 5 became [5], not a
        // phase), the first two: the second is the best.
        assert!(stderr.contains("printing the best attempt (2)"), "{stderr}");
        assert_eq!(stdout_json(&out), json!({"phases": [5]}));
        assert!(!dir.join("prompt_3").exists());
    }

    #[test]
    fn run_with_a_spec_and_exhausted_retries() {
        let dir = scratch("run-spec");
        let cmd = scripted(&dir, &["just prose", "still prose"]);
        let out = flexmd()
            .args([
                "run",
                "--spec",
                &example("specs/answer.md"),
                "--llm-cmd",
                &cmd,
                "--max-retries",
                "1",
                "--prompt",
                "Why?",
            ])
            .assert()
            .code(1)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("no valid answer after 2 attempts"),
            "{stderr}"
        );
        assert!(stderr.contains("[missing_section]"), "{stderr}");
        let first = std::fs::read_to_string(dir.join("prompt_1")).unwrap();
        assert!(
            first.starts_with("Why?\n\nAnswer in this format:\n\n"),
            "{first}"
        );
    }

    #[test]
    fn run_with_a_failing_model_is_exit_2() {
        let out = flexmd()
            .args([
                "run",
                "--schema",
                "plan",
                "--llm-cmd",
                "echo down >&2; exit 7",
                "--prompt",
                "x",
            ])
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("failed (exit status: 7): down"), "{stderr}");
    }
}

mod artifact {
    use super::*;
    use pretty_assertions::assert_eq;

    fn stdout(out: &std::process::Output) -> String {
        String::from_utf8(out.stdout.clone()).unwrap()
    }

    #[test]
    fn operations_print_what_the_tool_returns() {
        let md = example("responses/clean.md");
        let out = flexmd()
            .args(["artifact", "head", &md, "n=2"])
            .assert()
            .success()
            .get_output()
            .clone();
        assert_eq!(
            stdout(&out),
            "## Short answer\nUse PostgreSQL for the order service.\n"
        );
        let out = flexmd()
            .args(["artifact", "grep", &md, "^## ", "i"])
            .assert()
            .success()
            .get_output()
            .clone();
        assert!(
            stdout(&out).starts_with("## Short answer\n## Long answer\n"),
            "{}",
            stdout(&out)
        );
        let out = flexmd()
            .args(["artifact", "md-sections", &md, "depth=2"])
            .assert()
            .success()
            .get_output()
            .clone();
        let sections: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(sections[0]["heading"], json!("Short answer"));
        flexmd()
            .args(["artifact", "line-count", &md])
            .assert()
            .success()
            .stdout("23\n");
        flexmd()
            .args(["artifact", "cat", &md, "start=0", "end=1"])
            .assert()
            .success()
            .stdout("## Short answer\n");
    }

    #[test]
    fn json_operations_on_a_jsonl_file() {
        let dir = std::env::temp_dir().join(format!("flexmd-cli-artifact-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("events.jsonl");
        std::fs::write(
            &path,
            "{\"id\": 1, \"ok\": true}\n{\"id\": 2, \"ok\": false}\n",
        )
        .unwrap();
        let file = path.display().to_string();
        flexmd()
            .args(["artifact", "json-type", &file])
            .assert()
            .success()
            .stdout("jsonl\n");
        flexmd()
            .args(["artifact", "json-length", &file])
            .assert()
            .success()
            .stdout("2\n");
        let out = flexmd()
            .args(["artifact", "json-filter", &file, "$[?@.ok == false]"])
            .assert()
            .success()
            .get_output()
            .clone();
        assert_eq!(
            serde_json::from_str::<Value>(&stdout(&out)).unwrap(),
            json!([{"id": 2, "ok": false}])
        );
        // The same file as text has no JSON tools.
        flexmd()
            .args(["artifact", "json-type", &file, "--as", "text"])
            .assert()
            .code(2);
        let out = flexmd()
            .args(["artifact", "json-get", &file, "$.id["])
            .assert()
            .code(2)
            .get_output()
            .clone();
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("invalid JSONPath: "));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn tools_and_call() {
        let md = example("responses/clean.md");
        let log = example("frames/chat.md");
        let out = flexmd()
            .args(["tools", &md, &log, "--format", "anthropic"])
            .assert()
            .success()
            .get_output()
            .clone();
        let tools: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(tools.as_array().unwrap().len(), 15);
        assert_eq!(
            tools[0]["input_schema"]["properties"]["callId"]["enum"],
            json!([md, log])
        );
        // The Responses API's flat shape, strict mode off.
        let out = flexmd()
            .args(["tools", &md, "--format", "openai-responses"])
            .assert()
            .success()
            .get_output()
            .clone();
        let flat: Value = serde_json::from_str(&stdout(&out)).unwrap();
        let head = &flat[0];
        assert_eq!(
            (&head["type"], &head["name"], &head["strict"]),
            (&json!("function"), &json!("artifact_head"), &json!(false))
        );
        assert_eq!(
            head["parameters"]["properties"]["callId"]["enum"],
            json!([md])
        );
        assert!(head.get("function").is_none());
        let call = json!({"name": "artifact_line_count", "arguments": {"callId": log}}).to_string();
        flexmd()
            .args(["call", &md, &log, "--call", &call])
            .assert()
            .success()
            .stdout("33\n");
        let bad =
            json!({"name": "artifact_head", "arguments": "{\"callId\": \"nope\"}"}).to_string();
        let out = flexmd()
            .args(["call", &md, "--call", &bad])
            .assert()
            .code(1)
            .get_output()
            .clone();
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .starts_with("artifact_head: `callId` must be one of")
        );
    }

    #[test]
    fn call_pages_a_result_by_tokens_with_cursors() {
        let dir = scratch("pages");
        let log = dir.join("access.log");
        let text: String = (0..400)
            .map(|i| format!("{i} GET /item/{i} 200\n"))
            .collect();
        std::fs::write(&log, &text).unwrap();
        let log = log.to_string_lossy().into_owned();
        let call =
            json!({"name": "artifact_grep", "arguments": {"callId": log, "pattern": "GET /item/1"}})
                .to_string();
        let whole = flexmd()
            .args(["call", &log, "--call", &call])
            .assert()
            .success()
            .get_output()
            .clone();
        let mut lines = Vec::new();
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        loop {
            let mut args = vec!["call", &log, "--call", &call, "--max-tokens", "120"];
            if let Some(c) = &cursor {
                args.extend(["--cursor", c.as_str()]);
            }
            let out = flexmd().args(&args).assert().success().get_output().clone();
            let page: Value = serde_json::from_str(&stdout(&out)).unwrap();
            assert!(page["tokens"].as_u64().unwrap() <= 120);
            lines.extend(page["text"].as_str().unwrap().lines().map(str::to_owned));
            pages += 1;
            match page["cursor"].as_str() {
                Some(c) => {
                    assert_eq!(page["truncated"], true);
                    assert_eq!(page["omitted"]["unit"], "lines");
                    cursor = Some(c.to_owned());
                }
                None => break,
            }
        }
        assert!(pages > 3, "{pages} pages");
        assert_eq!(format!("{}\n", lines.join("\n")), stdout(&whole));
        let stale = flexmd()
            .args([
                "call",
                &log,
                "--call",
                &call,
                "--max-tokens",
                "120",
                "--cursor",
                "1.2.3",
            ])
            .assert()
            .code(1)
            .get_output()
            .clone();
        assert!(String::from_utf8_lossy(&stale.stderr).contains("is not one this call returned"));
        let two = flexmd()
            .args([
                "call",
                &log,
                "--call",
                &format!("[{call}, {call}]"),
                "--max-tokens",
                "99",
            ])
            .assert()
            .code(2)
            .get_output()
            .clone();
        assert!(
            String::from_utf8_lossy(&two.stderr).contains("--max-tokens pages one call at a time")
        );
    }
}

#[path = "cli/hostile.rs"]
mod hostile;

#[path = "cli/stream.rs"]
mod stream;

#[path = "cli/batch.rs"]
mod batch;

#[path = "cli/constrain.rs"]
mod constrain;

mod regression {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};

    /// `flexmd outline big.md | head` must stop quietly, not report a write error.
    #[test]
    fn closed_stdout_is_a_quiet_exit() {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("flexmd"))
            .arg("outline")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let input = "# heading\n".repeat(200_000);
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
        let mut first = [0u8; 16];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap(); // then dropped: the pipe closes
        writer.join().unwrap().unwrap();
        let output = child.wait_with_output().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            "",
            "no report on a closed pipe"
        );
        assert!(output.status.success());
    }

    /// Issue 20: each diagnostic copied the whole input and printed its whole
    /// line, so thousands of diagnostics on a big input took minutes and
    /// wrote hundreds of MB to stderr. At most 50 are printed now, each with
    /// a window around its span.
    #[test]
    fn many_diagnostics_print_fifty_and_a_count() {
        let out = super::flexmd()
            .args(["frames", "parse"])
            .write_stdin("[[m k=\"v\n".repeat(20_000))
            .assert()
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("… and 19950 more diagnostics (19950 of them errors), not shown"),
            "{}",
            stderr.lines().last().unwrap_or_default()
        );
        assert!(stderr.len() < 40_000, "{} bytes of stderr", stderr.len());
        // One long line with many repairs: snippets are windows, not the line.
        let line = format!("{{\"a\": [{}]}}", vec!["True"; 20_000].join(", "));
        let out = super::flexmd()
            .arg("json")
            .write_stdin(line)
            .assert()
            .success()
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("… and 19950 more diagnostics"), "{stderr}");
        assert!(stderr.len() < 40_000, "{} bytes of stderr", stderr.len());
    }

    /// Issue 20: a diagnostic whose span is a whole long line printed the
    /// line (a 100 MB one: 37 s and 400 MB of stderr). A snippet shows the
    /// span's beginning.
    #[test]
    fn a_diagnostic_on_a_long_line_prints_a_window() {
        let line = format!("[[m k=\"v {}\n", "x".repeat(2_000_000));
        let out = super::flexmd()
            .args(["frames", "parse"])
            .write_stdin(line)
            .assert()
            .code(1)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("frame header is not closed"), "{stderr}");
        assert!(stderr.len() < 2_000, "{} bytes of stderr", stderr.len());
    }
}

/// What the seeds define, reachable from the command line (one test per
/// contract).
mod seed {
    use super::*;
    use pretty_assertions::assert_eq;

    /// Stdout of a command that reads its input (exit 0 valid, 1 invalid:
    /// both print their result).
    fn stdout(args: &[&str], stdin: &str) -> String {
        let out = flexmd()
            .args(args)
            .write_stdin(stdin.to_owned())
            .output()
            .unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    #[test]
    fn a_byte_order_mark_hides_no_heading() {
        let json = stdout(
            &[
                "extract",
                "--spec",
                &example("specs/answer.md"),
                "--as-json",
            ],
            "\u{feff}## Short answer\n\nHi\n",
        );
        let value: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["Short answer"], "Hi");
    }

    #[test]
    fn ofs_default_is_the_five_section_spec_in_both_forms() {
        let md = stdout(&["ofs", "default"], "");
        assert_eq!(
            md,
            "## Output format (Markdown)\nInclude these sections somewhere (order does not matter):\n\n\
             - Short answer — prose\n- Long answer — prose\n- Reasoning — ordered list\n\
             - Assumptions — list\n- Unknowns — list\n\nEmpty sections:\n- If a section is empty, write `None`.\n"
        );
        let json: Value = serde_json::from_str(&stdout(&["ofs", "default", "--json"], "")).unwrap();
        assert_eq!(
            json["sections"][2],
            json!({"name": "Reasoning", "kind": "ordered_list"})
        );
        assert_eq!(json["emptySectionValue"], "None");
    }

    #[test]
    fn every_spec_command_reads_either_form_and_refuses_neither() {
        let json = stdout(&["ofs", "default", "--json"], "");
        let md = stdout(&["ofs", "default"], "");
        // enrich, render and parse read the JSON form too.
        assert_eq!(
            stdout(&["ofs", "enrich"], &json),
            stdout(&["ofs", "enrich"], &md)
        );
        assert_eq!(stdout(&["ofs", "render"], &json), md);
        assert_eq!(stdout(&["ofs", "render"], &md), md);
        assert_eq!(
            stdout(&["ofs", "parse"], &json),
            stdout(&["ofs", "parse"], &md)
        );
        for command in ["parse", "render", "enrich"] {
            let out = flexmd()
                .args(["ofs", command])
                .write_stdin("Please answer briefly.\n")
                .assert()
                .code(2)
                .get_output()
                .clone();
            assert!(out.stdout.is_empty());
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("no output format spec here"), "{stderr}");
        }
        let out = flexmd()
            .args(["ofs", "enrich"])
            .write_stdin(r#"{"sections": [{"name": "A", "kind": "essay"}]}"#)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("unknown variant `essay`") && stderr.contains("line 1, column 43"),
            "{stderr}"
        );
    }

    #[test]
    fn validate_json_is_the_seeds_shape_with_details() {
        let out = flexmd()
            .args(["validate", "--json", "--spec", &example("specs/answer.md")])
            .write_stdin("## Short answer\nYes.\n\n## Reasoning\n- not numbered\n")
            .assert()
            .code(1)
            .get_output()
            .stdout
            .clone();
        let report: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(report["ok"], false);
        assert_eq!(
            report["errors"],
            json!([
                "missing_section:Long answer",
                "section_not_numbered:Reasoning",
                "missing_section:Assumptions",
                "missing_section:Unknowns"
            ])
        );
        assert_eq!(report["details"]["errors"][1]["line"], 5);
    }

    #[test]
    fn outline_render_turns_outline_json_back_into_markdown() {
        let text = "Intro\n\n# A\ntext\n\n## B\nmore\n";
        let json = stdout(&["outline"], text);
        assert_eq!(stdout(&["outline", "render"], &json), text);
        // A file path works too, and `outline FILE` still reads Markdown.
        let md = stdout(&["outline", "render", "-"], &json);
        assert_eq!(md, text);
        flexmd()
            .args(["outline", "render"])
            .write_stdin("# not json\n")
            .assert()
            .code(1);
    }

    #[test]
    fn frames_parse_takes_every_option_of_parse_flex_md() {
        let dir = scratch("meta-schema");
        let schema = dir.join("meta.json");
        std::fs::write(
            &schema,
            r#"{"priority": "integer", "done": "boolean", "owners": "strings"}"#,
        )
        .unwrap();
        let text = "[[task id=t1]]\n@priority: 2\n@done: true\n@owners: a, b\n@tags: x, y\nbody\n";
        let doc: Value = serde_json::from_str(&stdout(
            &["frames", "parse", "--meta-schema", schema.to_str().unwrap()],
            text,
        ))
        .unwrap();
        assert_eq!(
            doc["frames"][0]["meta"],
            json!({"priority": 2, "done": true, "owners": ["a", "b"], "tags": ["x", "y"]})
        );
        let doc: Value = serde_json::from_str(&stdout(
            &["frames", "parse", "--array-keys", "owners"],
            text,
        ))
        .unwrap();
        assert_eq!(
            doc["frames"][0]["meta"],
            json!({"priority": "2", "done": "true", "owners": ["a", "b"], "tags": "x, y"})
        );
        // A value the schema does not allow is an error (exit 1), kept as text.
        let out = flexmd()
            .args([
                "frames",
                "parse",
                "--meta",
                "schema",
                "--meta-schema",
                schema.to_str().unwrap(),
            ])
            .write_stdin("[[task]]\n@done: yes\n")
            .assert()
            .code(1)
            .get_output()
            .clone();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["frames"][0]["meta"]["done"], "yes");
        flexmd()
            .args(["frames", "parse", "--meta", "schema"])
            .write_stdin("[[task]]\n")
            .assert()
            .code(2);
    }

    #[test]
    fn extract_lists_in_prose() {
        let answer = "## Short answer\n- one\n- two\n";
        let spec = example("specs/answer.md");
        let plain: Value =
            serde_json::from_str(&stdout(&["extract", "--spec", &spec], answer)).unwrap();
        assert_eq!(plain["sectionsByName"]["Short answer"].get("list"), None);
        let with: Value = serde_json::from_str(&stdout(
            &["extract", "--spec", &spec, "--lists-in-prose"],
            answer,
        ))
        .unwrap();
        assert_eq!(
            with["sectionsByName"]["Short answer"]["list"]["items"][1]["text"],
            "two"
        );
    }

    /// A project with a `.planning/` config, and a directory deep inside it.
    fn project(name: &str, config: &str) -> (Scratch, std::path::PathBuf) {
        let root = scratch(name);
        std::fs::create_dir_all(root.join(".planning/schemas")).unwrap();
        std::fs::create_dir_all(root.join("src/deep")).unwrap();
        std::fs::write(root.join(".planning/schemas-config.json"), config).unwrap();
        std::fs::write(
            root.join(".planning/schemas/ticket.json"),
            r#"{"type": "object", "required": ["points"], "properties": {"points": {"type": "integer"}}}"#,
        )
        .unwrap();
        let deep = root.join("src/deep");
        (root, deep)
    }

    const CONFIG: &str = r#"{"schemas": {
        "validation": {"strict": true, "coerceTypes": false, "applyDefaults": true},
        "agentDefaults": {"ticket-bot": "ticket", "elsabro-planner": "plan"}}}"#;

    #[test]
    fn the_config_is_found_walking_up_and_its_settings_apply() {
        let (_root, deep) = project("walk-up", CONFIG);
        // From a subdirectory: the agent's schema comes from the custom
        // directory, and `coerceTypes: false` keeps "3" a string.
        let out = flexmd()
            .current_dir(&deep)
            .env_remove("FLEXMD_CONFIG")
            .args(["schema", "validate", "--agent", "ticket-bot"])
            .write_stdin(r#"{"points": "3"}"#)
            .assert()
            .code(1)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("schema::invalid_type")
                && stderr.contains("points: Expected integer, got string"),
            "{stderr}"
        );
        // A flag overrides the file.
        let out = stdout_in(
            &deep,
            &["schema", "validate", "--agent", "ticket-bot", "--coerce"],
            r#"{"points": "3"}"#,
        );
        assert_eq!(out, json!({"points": 3}));
        // An agent the config does not name: a usage error listing those it does.
        let out = flexmd()
            .current_dir(&deep)
            .env_remove("FLEXMD_CONFIG")
            .args(["schema", "validate", "--agent", "nobody"])
            .write_stdin("{}")
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("schema::unknown_agent") && stderr.contains("elsabro-planner"),
            "{stderr}"
        );
    }

    fn stdout_in(dir: &std::path::Path, args: &[&str], stdin: &str) -> Value {
        let out = flexmd()
            .current_dir(dir)
            .env_remove("FLEXMD_CONFIG")
            .args(args)
            .write_stdin(stdin.to_owned())
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn flexmd_config_names_the_file() {
        let (root, _) = project("env-config", CONFIG);
        let elsewhere = scratch("env-elsewhere");
        let out = flexmd()
            .current_dir(&elsewhere)
            .env("FLEXMD_CONFIG", root.join(".planning/schemas-config.json"))
            .args(["schema", "validate", "--agent", "ticket-bot", "--coerce"])
            .write_stdin(r#"{"points": "3"}"#)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        assert_eq!(
            serde_json::from_slice::<Value>(&out).unwrap(),
            json!({"points": 3})
        );
    }

    #[test]
    fn an_unknown_schema_is_the_seeds_result_with_json() {
        let out = flexmd()
            .args(["schema", "validate", "--schema", "nope", "--json"])
            .write_stdin("{}")
            .assert()
            .code(1)
            .get_output()
            .stdout
            .clone();
        let report: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(report["valid"], false);
        assert_eq!(report["data"], Value::Null);
        assert_eq!(report["errors"][0]["code"], "schema_not_found");
        assert_eq!(report["errors"][0]["message"], "Schema not found: nope");
    }

    /// `flexmd run ARGS --llm-cmd MODEL Estimate.` from `dir`, where MODEL
    /// answers `answers` in turn: the exit code, stdout as JSON, stderr.
    fn run_in(
        dir: &std::path::Path,
        model: &std::path::Path,
        args: &[&str],
        answers: &[&str],
    ) -> (i32, Value, String) {
        std::fs::create_dir_all(model).unwrap();
        let cmd = super::schema::scripted(model, answers);
        let out = flexmd()
            .current_dir(dir)
            .env_remove("FLEXMD_CONFIG")
            .arg("run")
            .args(args)
            .args(["--llm-cmd", &cmd, "--prompt", "Estimate."])
            .output()
            .unwrap();
        let stdout = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code().unwrap_or(-1), stdout, stderr)
    }

    #[test]
    fn run_takes_the_agent_the_flow_step_and_the_config() {
        let (root, deep) = project("run-agent", CONFIG);
        let answers = ["{\"points\": \"3\"}", "{\"points\": 3}"];
        // --agent: the ticket schema; no coercion (config), so a retry.
        let (code, data, stderr) = run_in(
            &deep,
            &root.join("m1"),
            &["--agent", "ticket-bot"],
            &answers,
        );
        assert_eq!((code, data), (0, json!({"points": 3})));
        assert!(stderr.starts_with("valid on attempt 2"), "{stderr}");
        // A flow step: its agent's schema, and `retryOnSchemaError: false`
        // means one attempt only.
        let step = root.join("step.json");
        std::fs::write(
            &step,
            r#"{"id": "estimate", "type": "agent", "agent": "ticket-bot",
                "config": {"retryOnSchemaError": false, "maxSchemaRetries": 5}}"#,
        )
        .unwrap();
        let step = step.to_str().unwrap();
        let (code, _, stderr) = run_in(&deep, &root.join("m2"), &["--step", step], &answers);
        assert_eq!(code, 1);
        assert!(
            stderr.contains("no valid answer after 1 attempt"),
            "{stderr}"
        );
        // Not strict: the best attempt is printed and the exit is 0.
        let (code, data, _) = run_in(
            &deep,
            &root.join("m3"),
            &["--step", step, "--no-strict"],
            &answers,
        );
        assert_eq!((code, data), (0, json!({"points": "3"})));
        // `outputSchema` wins over the agent's default.
        let step2 = root.join("step2.json");
        std::fs::write(&step2, r#"{"agent": "ticket-bot", "outputSchema": "plan"}"#).unwrap();
        let (code, data, _) = run_in(
            &deep,
            &root.join("m4"),
            &["--step", step2.to_str().unwrap()],
            &["{\"phases\": []}"],
        );
        assert_eq!((code, data), (0, json!({"phases": []})));
    }

    #[test]
    fn artifact_takes_the_json_format_hint() {
        let dir = scratch("format-hint");
        let file = dir.join("records.txt");
        std::fs::write(&file, "{\"a\": 1}\n{\"b\": 2}\n").unwrap();
        let file = file.to_str().unwrap();
        for (kind, shown) in [
            ("json", "jsonl\n"),
            ("jsonl", "jsonl\n"),
            ("ndjson", "ndjson\n"),
        ] {
            flexmd()
                .args(["artifact", "json-type", file, "--as", kind])
                .assert()
                .success()
                .stdout(shown);
        }
        // The seed's slice: negative indexes count from the end.
        flexmd()
            .args(["artifact", "json-slice", file, "--as", "jsonl", "start=-1"])
            .assert()
            .success()
            .stdout("[\n  {\n    \"b\": 2\n  }\n]\n");
    }

    #[test]
    fn special_files_are_read_spooled_or_refused() {
        #[cfg(target_os = "linux")]
        {
            let out = flexmd()
                .args(["artifact", "head", "/proc/self/status", "n=1"])
                .output()
                .unwrap();
            assert!(out.status.success());
            assert!(String::from_utf8_lossy(&out.stdout).starts_with("Name:"));
        }
        let out = flexmd()
            .args(["artifact", "head", "/dev/zero"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("it is a device, not a regular file"),
            "should say why"
        );
        #[cfg(unix)]
        {
            let dir = scratch("fifo");
            let fifo = dir.join("pipe");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                let writer = {
                    let fifo = fifo.clone();
                    std::thread::spawn(move || std::fs::write(fifo, "from a pipe\nsecond\n"))
                };
                flexmd()
                    .args(["artifact", "tail", fifo.to_str().unwrap(), "n=2"])
                    .timeout(std::time::Duration::from_secs(30))
                    .assert()
                    .success()
                    .stdout("second\n\n");
                writer.join().unwrap().unwrap();
            }
        }
    }

    #[test]
    fn options_after_the_tool_arguments_are_options() {
        let dir = scratch("options-after");
        let file = dir.join("records.jsonl");
        std::fs::write(&file, "{\"a\": 1}\n{\"b\": 2}\n").unwrap();
        let file = file.to_str().unwrap();
        // `--as` and `--compact` after NAME=VALUE (the global `--compact`
        // leaves the tool's text as it is), and a negative plain value.
        flexmd()
            .args([
                "artifact",
                "json-slice",
                file,
                "start=-1",
                "--as",
                "jsonl",
                "--compact",
            ])
            .assert()
            .success()
            .stdout("[\n  {\n    \"b\": 2\n  }\n]\n");
        flexmd()
            .args(["artifact", "cat", file, "-2"])
            .assert()
            .success()
            .stdout("{\"b\": 2}\n\n");
        flexmd()
            .args(["artifact", "head", file, "n=1", "--as", "text"])
            .assert()
            .success()
            .stdout("{\"a\": 1}\n");
        // A plain value that looks like an option goes after `--`.
        flexmd()
            .args(["artifact", "grep", file, "--", "-x"])
            .assert()
            .code(1)
            .stdout("(empty list)\n");
    }

    #[test]
    fn json_schema_takes_a_spec_in_either_form_and_keeps_none_sections() {
        let dir = scratch("json-spec");
        let json_spec = dir.join("spec.json");
        let md_spec = dir.join("spec.md");
        std::fs::write(&json_spec, stdout(&["ofs", "default", "--json"], "")).unwrap();
        std::fs::write(&md_spec, stdout(&["ofs", "default"], "")).unwrap();
        let answer = "## Short answer\nYes\n## Long answer\nMore\n## Reasoning\n1. a\n## Assumptions\n- b\n## Unknowns\nNone\n";
        for spec in [&json_spec, &md_spec] {
            let value: Value = serde_json::from_str(&stdout(
                &["json", "--schema", spec.to_str().unwrap()],
                answer,
            ))
            .unwrap();
            assert_eq!(
                value,
                json!({"Short answer": "Yes", "Long answer": "More", "Reasoning": ["a"],
                       "Assumptions": ["b"], "Unknowns": null})
            );
        }
    }

    #[test]
    fn a_spec_with_a_misspelt_kind_is_refused() {
        let dir = scratch("misspelt");
        let spec = dir.join("spec.md");
        std::fs::write(&spec, "- Summary — prose\n- Steps — orderd list\n").unwrap();
        let out = flexmd()
            .args(["validate", "--spec", spec.to_str().unwrap()])
            .write_stdin("## Summary\nok\n")
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("did you mean") && stderr.contains("ordered list"),
            "{stderr}"
        );
    }

    #[test]
    fn schema_create_keeps_inside_the_directory_and_the_predefined_schemas() {
        let dir = scratch("create-names");
        std::fs::write(dir.join("ex.json"), r#"{"a": 1}"#).unwrap();
        let create = |name: &str, force: bool| {
            let mut cmd = flexmd();
            cmd.current_dir(&dir).env_remove("FLEXMD_CONFIG").args([
                "schema",
                "create",
                name,
                "--from-example",
                "ex.json",
            ]);
            if force {
                cmd.arg("--force");
            }
            cmd.output().unwrap()
        };
        let out = create("../evil", false);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("is not a schema name"));
        assert!(!dir.join(".planning/evil.json").exists() && !dir.join("evil.json").exists());
        let out = create("review", false);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("is a predefined schema"));
        assert_eq!(create("review", true).status.code(), Some(0));
        assert!(dir.join(".planning/schemas/review.json").exists());
    }

    #[test]
    fn extract_of_an_answer_that_breaks_the_spec_exits_1_with_the_json() {
        let out = flexmd()
            .args([
                "extract",
                "--as-json",
                "--spec",
                &example("specs/answer.md"),
            ])
            .write_stdin("hello\n")
            .assert()
            .code(1)
            .get_output()
            .clone();
        let value: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(value["Short answer"], Value::Null);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("<stdin>: invalid (5 errors, 0 warnings)"),
            "{stderr}"
        );
        // A valid answer read leniently: exit 0, its leniencies on stderr.
        let out = flexmd()
            .args([
                "extract",
                "--as-json",
                "--spec",
                &example("specs/answer.md"),
                &example("responses/quirks.md"),
            ])
            .assert()
            .success()
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.ends_with("quirks.md: valid (0 errors, 3 warnings)\n"),
            "{stderr}"
        );
    }
}

/// One input model, one output model, strictness and exit codes across
/// every command.
mod surface {
    use super::*;
    use pretty_assertions::assert_eq;

    /// Exit code, stdout, and stderr with miette's line wrapping undone
    /// (where it wraps depends on the length of the paths in a message).
    fn run(args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
        let out = flexmd()
            .args(args)
            .write_stdin(stdin.to_owned())
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let unwrapped = stderr
            .lines()
            .map(|l| {
                let t = l.trim_start();
                t.strip_prefix("| ").unwrap_or(t).to_owned()
            })
            .collect::<Vec<_>>()
            .join(" ");
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            unwrapped,
        )
    }

    fn spec() -> String {
        example("specs/answer.md")
    }

    #[test]
    fn a_file_that_is_not_a_spec_is_refused() {
        let readme = format!("{}/../../README.md", env!("CARGO_MANIFEST_DIR"));
        let (code, out, err) = run(
            &[
                "validate",
                "--spec",
                &readme,
                &example("responses/clean.md"),
            ],
            "",
        );
        assert_eq!(code, Some(2), "should refuse a README as a spec: {err}");
        assert_eq!(out, "");
        assert!(err.contains("no output format spec here"), "{err}");
    }

    #[test]
    fn extract_of_unrelated_text_is_exit_1_with_the_reasons() {
        let (code, out, err) = run(&["extract", "--as-json", "--spec", &spec()], "hello\n");
        assert_eq!(code, Some(1));
        let value: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(value["Short answer"], Value::Null);
        assert!(err.contains("no section `Short answer`"), "{err}");
    }

    #[test]
    fn strict_turns_warnings_into_errors() {
        let quirks = example("responses/quirks.md");
        let (code, ..) = run(&["validate", "--spec", &spec(), &quirks], "");
        assert_eq!(code, Some(0), "the quirks are leniencies, not errors");
        let (code, out, _) = run(
            &["validate", "--strict", "--json", "--spec", &spec(), &quirks],
            "",
        );
        assert_eq!(code, Some(1));
        let report: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(report["valid"], json!(false));
        assert_eq!(
            report["errors"],
            json!([
                "lenient_heading:Short answer",
                "lenient_numbering:Reasoning",
                "lenient_bullets:Assumptions"
            ])
        );
        assert_eq!(report["warnings"], json!([]));
        let (code, ..) = run(&["extract", "--strict", "--spec", &spec(), &quirks], "");
        assert_eq!(code, Some(1));
        // A repaired JSON answer: valid, unless repairs count.
        let answer = "{\"approved\": true, \"summary\": {\"critical\": 0, \"high\": 0, \"medium\": 0, \"low\": 0, \"info\": 0}, \
                      \"issues\": [], \"recommendation\": \"approve\",}";
        let (code, ..) = run(&["schema", "validate", "--schema", "review"], answer);
        assert_eq!(code, Some(0));
        let (code, out, _) = run(
            &[
                "schema", "validate", "--schema", "review", "--strict", "--json",
            ],
            answer,
        );
        assert_eq!(code, Some(1));
        let outcome: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(outcome["valid"], json!(false));
        assert_eq!(outcome["errors"][0]["code"], json!("json5"), "{outcome}");
    }

    #[test]
    fn several_inputs_give_one_result_each_labelled_by_path() {
        let clean = example("responses/clean.md");
        let quirks = example("responses/quirks.md");
        let (code, out, _) = run(
            &[
                "validate",
                "--json",
                "--spec",
                &spec(),
                &clean,
                &quirks,
                "/nonexistent.md",
            ],
            "",
        );
        assert_eq!(code, Some(2), "the worst exit code wins");
        let results: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            out,
            serde_json::to_string_pretty(&results).unwrap() + "\n",
            "the array is laid out as any pretty JSON"
        );
        assert_eq!(results[0]["file"], json!(clean));
        assert_eq!(results[0]["result"]["valid"], json!(true));
        assert_eq!(results[1]["file"], json!(quirks));
        assert_eq!(
            results[1]["result"]["warnings"].as_array().unwrap().len(),
            3
        );
        assert_eq!(results[2]["file"], json!("/nonexistent.md"));
        assert!(
            results[2]["error"]
                .as_str()
                .unwrap()
                .starts_with("cannot read /nonexistent.md")
        );

        let dir = scratch("several");
        let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
        std::fs::write(&a, "Here: {\"x\": 1}").unwrap();
        std::fs::write(&b, "nothing here").unwrap();
        let (code, out, _) = run(
            &[
                "json",
                "--compact",
                &a.display().to_string(),
                &b.display().to_string(),
            ],
            "",
        );
        assert_eq!(code, Some(1), "one file had no JSON");
        assert_eq!(
            out,
            format!(
                "[{{\"file\":\"{}\",\"result\":{{\"x\":1}}}},{{\"file\":\"{}\",\"result\":null}}]\n",
                a.display(),
                b.display()
            )
        );
    }

    #[test]
    fn a_directory_gives_the_same_message_everywhere() {
        let dir = scratch("directory");
        let d = dir.display().to_string();
        for args in [
            vec!["outline", d.as_str()],
            vec!["artifact", "head", d.as_str()],
            vec!["json", d.as_str()],
            vec!["tools", d.as_str()],
            vec!["schema", "validate", "--schema", "review", d.as_str()],
        ] {
            let (code, _, err) = run(&args, "");
            assert_eq!(code, Some(2), "{args:?}");
            assert!(
                err.contains(&format!("cannot read {d}: it is a directory")),
                "{args:?}: {err}"
            );
        }
    }

    #[test]
    fn artifact_tools_and_call_read_standard_input() {
        let (code, out, _) = run(&["artifact", "line-count", "-"], "a\nb\nc\n");
        assert_eq!((code, out.as_str()), (Some(0), "4\n"));
        let (code, out, _) = run(
            &["artifact", "json-keys", "-", "--as", "json"],
            "{\"b\": 1, \"a\": 2}",
        );
        assert_eq!(
            (code, out.as_str()),
            (Some(0), "b\na\n"),
            "a list prints one per line"
        );
        let (code, out, _) = run(&["tools", "-"], "text");
        assert_eq!(code, Some(0));
        let tools: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            tools[0]["function"]["parameters"]["properties"]["callId"]["enum"],
            json!(["-"])
        );
        let call = r#"{"name": "artifact_head", "arguments": {"callId": "-", "n": 1}}"#;
        let (code, out, _) = run(&["call", "-", "--call", call], "first\nsecond\n");
        assert_eq!((code, out.as_str()), (Some(0), "first\n"));
    }

    #[test]
    fn call_takes_openai_anthropic_and_plain_shapes_and_arrays() {
        let md = example("responses/clean.md");
        let openai = json!({"id": "call_1", "type": "function", "function": {
            "name": "artifact_line_count", "arguments": json!({"callId": md}).to_string()}});
        let (code, out, _) = run(&["call", &md, "--call", &openai.to_string()], "");
        assert_eq!((code, out.as_str()), (Some(0), "23\n"));
        let message = json!({"role": "assistant", "tool_calls": [openai]});
        let (code, out, _) = run(&["call", &md, "--call", &message.to_string()], "");
        assert_eq!((code, out.as_str()), (Some(0), "23\n"));
        let anthropic = json!({"role": "assistant", "content": [
            {"type": "text", "text": "Let me look."},
            {"type": "tool_use", "id": "toolu_1", "name": "artifact_head", "input": {"callId": md, "n": 1}},
            {"type": "tool_use", "id": "toolu_2", "name": "artifact_tail", "input": {"callId": md, "n": 0}}
        ]});
        let (code, out, _) = run(&["call", &md, "--call", &anthropic.to_string()], "");
        assert_eq!(code, Some(1), "the second call (n=0) is refused");
        let results: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            results[0],
            json!({"id": "toolu_1", "name": "artifact_head", "result": "## Short answer"})
        );
        assert_eq!(results[1]["id"], json!("toolu_2"));
        assert!(
            results[1]["error"]
                .as_str()
                .unwrap()
                .starts_with("artifact_tail: `n` must be"),
            "{results}"
        );
        let plain = json!([{"name": "artifact_line_count", "arguments": {"callId": md}},
                           {"name": "artifact_byte_length", "arguments": {"callId": md}}]);
        let (code, out, _) = run(
            &["call", &md, "--call", &plain.to_string(), "--compact"],
            "",
        );
        assert_eq!(code, Some(0));
        let bytes = std::fs::metadata(&md).unwrap().len();
        assert_eq!(
            out,
            format!(
                "[{{\"name\":\"artifact_line_count\",\"result\":\"23\"}},{{\"name\":\"artifact_byte_length\",\"result\":\"{bytes}\"}}]\n"
            )
        );
        let (code, _, err) = run(&["call", &md, "--call", "{\"nope\": 1}"], "");
        assert_eq!(code, Some(2));
        assert!(err.contains("the call is not a tool call"), "{err}");
        let (code, out, err) = run(&["call", &md, "--call", "[]"], "");
        assert_eq!((code, out.as_str()), (Some(2), ""));
        assert!(err.contains("the call list is empty"), "{err}");
    }

    #[test]
    fn artifact_arguments_are_checked_by_name_before_the_file() {
        let md = example("responses/clean.md");
        let (code, _, err) = run(&["artifact", "head", &md, "m=3"], "");
        assert_eq!(code, Some(2));
        assert!(
            err.contains("`head` has no argument `m`: its arguments are n"),
            "{err}"
        );
        let (code, _, err) = run(&["artifact", "head", &md, "n=3", "n=4"], "");
        assert_eq!(code, Some(2));
        assert!(err.contains("`n` is given twice to `head`"), "{err}");
        let (code, _, err) = run(&["artifact", "head", &md, "3", "4"], "");
        assert_eq!(code, Some(2));
        assert!(err.contains("too many arguments for `head`"), "{err}");
        // A bad value is refused before the (missing) file is opened.
        let (code, _, err) = run(&["artifact", "head", "/nonexistent", "n=0"], "");
        assert_eq!(code, Some(2));
        assert!(!err.contains("cannot read"), "arguments come first: {err}");
    }

    #[test]
    fn grep_exits_1_on_no_match_and_numbers_lines_with_n() {
        let md = example("responses/clean.md");
        let (code, out, _) = run(&["artifact", "grep", &md, "zzz-no-such-text"], "");
        assert_eq!((code, out.as_str()), (Some(1), "(empty list)\n"));
        let (code, out, _) = run(&["artifact", "grep", "-n", &md, "^## (Short|Long)"], "");
        assert_eq!(
            (code, out.as_str()),
            (Some(0), "1:## Short answer\n4:## Long answer\n")
        );
    }

    #[test]
    fn artifact_help_is_generated_from_the_tool_table() {
        let (code, out, _) = run(&["artifact", "head", "--help"], "");
        assert_eq!(code, Some(0));
        assert!(
            out.contains("n  (integer 1..2000, default 10): number of lines"),
            "{out}"
        );
        assert!(
            out.contains("Example:\n  flexmd artifact head FILE n=20"),
            "{out}"
        );
        let (_, out, _) = run(&["artifact", "--help"], "");
        for op in [
            "head",
            "tail",
            "grep",
            "json-get",
            "md-sections",
            "md-text",
            "as-string",
        ] {
            assert!(
                out.contains(&format!("  {op} ")),
                "{op} missing from:\n{out}"
            );
        }
    }

    #[test]
    fn run_takes_the_prompt_by_flag_or_file_never_as_a_path() {
        let dir = scratch("prompt");
        let prompt = dir.join("prompt.txt");
        std::fs::write(&prompt, "Say the prompt back.").unwrap();
        let cmd = "cat >/dev/null; echo '{\"answer\": \"ok\"}'";
        let schema = dir.join("s.json");
        std::fs::write(&schema, r#"{"type": "object", "required": ["answer"]}"#).unwrap();
        let s = schema.display().to_string();
        let (code, out, err) = run(
            &[
                "run",
                "--schema",
                &s,
                "--llm-cmd",
                cmd,
                "--prompt-file",
                &prompt.display().to_string(),
            ],
            "",
        );
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(
            serde_json::from_str::<Value>(&out).unwrap(),
            json!({"answer": "ok"})
        );
        let (code, _, err) = run(&["run", "--schema", &s, "--llm-cmd", cmd, "prompt.txt"], "");
        assert_eq!(code, Some(2), "a positional prompt is a usage error: {err}");
    }

    #[test]
    fn run_strict_asks_again_for_an_answer_that_needed_repairs() {
        let dir = scratch("run-strict");
        // The first answer is valid only after a repair (a trailing comma).
        let cmd = super::schema::scripted(&dir, &["{\"phases\": [],}", "{\"phases\": []}"]);
        let run = |strict: bool| {
            let mut args = vec![
                "run",
                "--schema",
                "plan",
                "--llm-cmd",
                &cmd,
                "--prompt",
                "Plan.",
            ];
            if strict {
                args.push("--strict");
            }
            let _ = std::fs::remove_file(dir.join("count"));
            let out = flexmd().args(&args).output().unwrap();
            let attempts = std::fs::read_dir(&dir)
                .unwrap()
                .filter(|e| {
                    e.as_ref()
                        .unwrap()
                        .file_name()
                        .to_string_lossy()
                        .starts_with("prompt_")
                })
                .count();
            (out.status.code(), attempts)
        };
        assert_eq!(run(false), (Some(0), 1), "the repaired answer is accepted");
        for i in 1..=2 {
            let _ = std::fs::remove_file(dir.join(format!("prompt_{i}")));
        }
        assert_eq!(run(true), (Some(0), 2), "--strict asks again");
    }

    #[test]
    fn as_string_prints_the_whole_file_in_windows_without_splitting_a_character() {
        let dir = scratch("as-string");
        let path = dir.join("big.txt");
        // "é" straddles the 16 MiB window; an invalid byte follows.
        let mut bytes = vec![b'a'; (16 << 20) - 1];
        bytes.extend_from_slice("é".as_bytes());
        bytes.extend_from_slice(b"\xffz\n");
        std::fs::write(&path, &bytes).unwrap();
        let out = flexmd()
            .args(["artifact", "as-string", &path.display().to_string()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let mut expected = "a".repeat((16 << 20) - 1);
        expected.push_str("é\u{fffd}z\n");
        assert!(
            out.stdout == expected.as_bytes(),
            "the text should come back whole"
        );
    }

    #[test]
    fn compact_and_colour_flags() {
        let (code, out, _) = run(&["outline", "--compact"], "# A\nx\n");
        assert_eq!(code, Some(0));
        assert_eq!(
            out,
            "{\"type\":\"md_outline\",\"nodes\":[{\"title\":\"A\",\"level\":1,\"key\":\"a\",\"content_md\":\"x\\n\",\"children\":[]}]}\n"
        );
        let validate = |extra: &[&str]| {
            let spec = spec();
            let mut args = vec!["validate", "--spec", spec.as_str()];
            args.extend_from_slice(extra);
            run(&args, "hello\n").2
        };
        let err = validate(&["--color", "always"]);
        assert!(err.contains("\u{1b}[31m"), "always colours: {err:?}");
        let err = validate(&["--color", "never"]);
        assert!(!err.contains('\u{1b}'), "never colours: {err:?}");
        assert!(err.contains("no section `Short answer`"), "{err}");
        let err = validate(&[]);
        assert!(
            !err.contains('\u{1b}'),
            "not a terminal: no colour: {err:?}"
        );
    }

    #[test]
    fn schema_validate_jsonl_checks_every_record() {
        let dir = scratch("jsonl");
        let file = dir.join("two.jsonl");
        std::fs::write(
            &file,
            "{\"approved\": true, \"summary\": {\"critical\": 0, \"high\": 0, \"medium\": 0, \"low\": 0, \"info\": 0}, \"issues\": [], \"recommendation\": \"approve\"}\n{\"approved\": \"maybe\"}\n",
        )
        .unwrap();
        let f = file.display().to_string();
        let (code, out, err) = run(
            &["schema", "validate", "--schema", "review", &f, "--json"],
            "",
        );
        assert_eq!(code, Some(1), "{err}");
        let lines: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            (lines[0]["line"].clone(), lines[0]["valid"].clone()),
            (json!(1), json!(true))
        );
        assert_eq!(
            (lines[1]["line"].clone(), lines[1]["valid"].clone()),
            (json!(2), json!(false))
        );
        assert_eq!(lines[1]["errors"][2]["line"], json!(2));
        assert_eq!(lines[1]["errors"][2]["column"], json!(14));
        let (_, _, err) = run(&["schema", "validate", "--schema", "review", &f], "");
        assert!(err.contains("2 records, 1 invalid"), "{err}");
        // The same records on standard input, by flag.
        let text = std::fs::read_to_string(&file).unwrap();
        let (code, out, _) = run(
            &[
                "schema", "validate", "--schema", "review", "--jsonl", "--json",
            ],
            &text,
        );
        assert_eq!(code, Some(1));
        assert_eq!(out.lines().count(), 2);
    }
}

/// The CLI's real output on every bundled example validates against the
/// JSON Schemas published in docs/schemas/ (checked with flexmd-schema).
mod published_schemas {
    use super::*;

    fn schema(name: &str) -> Value {
        let path = format!(
            "{}/../../docs/schemas/{name}.schema.json",
            env!("CARGO_MANIFEST_DIR")
        );
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
    }

    /// Runs `args`, expects exit 0 or 1, and checks its stdout against the
    /// schema `name`.
    fn check(name: &str, args: &[&str]) {
        let out = flexmd().args(args).output().unwrap();
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let value: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?} printed no JSON: {e}"));
        let outcome = flexmd_schema::Registry::new()
            .validate_schema(&schema(name), &value)
            .unwrap();
        assert!(
            outcome.valid,
            "{args:?} should print a {name}: {:#?}",
            outcome.errors
        );
    }

    /// Runs `args` and checks each line of its stdout but the last
    /// (`finished`) against the schema `name`.
    fn check_lines(name: &str, args: &[&str]) {
        let out = flexmd().args(args).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 1, "{args:?}: {text}");
        for line in &lines[..lines.len() - 1] {
            let value: Value = serde_json::from_str(line).unwrap();
            let outcome = flexmd_schema::Registry::new()
                .validate_schema(&schema(name), &value)
                .unwrap();
            assert!(
                outcome.valid,
                "{args:?}: {line} is not a {name}: {:#?}",
                outcome.errors
            );
        }
    }

    fn examples(dir: &str) -> Vec<String> {
        let mut files: Vec<String> = std::fs::read_dir(example(dir))
            .unwrap()
            .map(|e| e.unwrap().path().display().to_string())
            .filter(|p| p.ends_with(".md"))
            .collect();
        files.sort();
        files
    }

    #[test]
    fn every_bundled_example_prints_json_its_schema_accepts() {
        let spec = example("specs/answer.md");
        let all: Vec<String> = ["responses", "agent", "frames", "mixed", "specs"]
            .iter()
            .flat_map(|d| examples(d))
            .collect();
        assert!(all.len() >= 9, "{all:?}");
        for file in &all {
            check("md-outline", &["outline", file]);
            check("detected-objects", &["detect", file]);
            check("parse-any-result", &["parse-any", file]);
            check("tools-openai", &["tools", file]);
            check("tools-anthropic", &["tools", "--format", "anthropic", file]);
            let grep = json!({"name": "artifact_grep", "id": "c1",
                "arguments": {"callId": file, "pattern": "."}})
            .to_string();
            check(
                "tool-call-result",
                &["call", "--json", file, "--call", &grep],
            );
            check(
                "page",
                &["call", file, "--call", &grep, "--max-tokens", "50"],
            );
        }
        for response in examples("responses") {
            check("extracted-result", &["extract", "--spec", &spec, &response]);
            check_lines(
                "stream-event",
                &["extract", "--stream", "--spec", &spec, &response],
            );
            check(
                "validation-report",
                &["validate", "--json", "--spec", &spec, &response],
            );
        }
        check("output-format-spec", &["ofs", "parse", &spec]);
        check("output-format-spec", &["ofs", "default", "--json"]);
        check(
            "flex-document",
            &["frames", "parse", &example("frames/chat.md")],
        );
        for file in [
            "mixed/tool_call.md",
            "mixed/session.md",
            "agent/review_answer.md",
        ] {
            check("found-json", &["json", "--repairs", &example(file)]);
            check_lines("json-update", &["json", "--stream", &example(file)]);
        }
        for file in ["agent/messy_review.md", "agent/review_answer.md"] {
            check(
                "aligned",
                &["json", "--schema", "review", "--repairs", &example(file)],
            );
            check(
                "schema-outcome",
                &[
                    "schema",
                    "validate",
                    "--schema",
                    "review",
                    "--json",
                    &example(file),
                ],
            );
        }
        let invoice = example("constrain/invoice.schema.json");
        for format in ["lark", "gbnf", "ebnf", "regex"] {
            check(
                "grammar",
                &[
                    "grammar", "--schema", &invoice, "--format", format, "--json",
                ],
            );
        }
        for provider in [
            "openai",
            "openai-tool",
            "anthropic",
            "anthropic-tool",
            "gemini",
        ] {
            check(
                "schema-export",
                &["schema", "export", &invoice, "--for", provider, "--json"],
            );
            check(
                "schema-validated-from",
                &[
                    "schema",
                    "validate",
                    "--schema",
                    &invoice,
                    "--from",
                    provider,
                    "--json",
                    &example("constrain/invoice.openai.json"),
                ],
            );
        }
    }

    #[test]
    fn the_schemas_refuse_what_flexmd_never_prints() {
        let registry = flexmd_schema::Registry::new();
        let bad = [
            (
                "md-outline",
                json!({"type": "md_outline", "nodes": [{"title": 1}]}),
            ),
            (
                "output-format-spec",
                json!({"sections": [{"name": "A", "kind": "poem"}]}),
            ),
            (
                "validation-report",
                json!({"ok": true, "valid": true, "errors": [{}], "warnings": [], "details": {"errors": [], "warnings": []}}),
            ),
            (
                "detected-objects",
                json!([{"kind": "flexmd_fence", "confidence": "high", "start": 0, "end": 1, "raw": ""}]),
            ),
            (
                "tools-openai",
                json!([{"type": "tool", "function": {"name": "x", "description": "", "parameters": {}}}]),
            ),
        ];
        for (name, value) in bad {
            let outcome = registry.validate_schema(&schema(name), &value).unwrap();
            assert!(!outcome.valid, "{name} should refuse {value}");
        }
    }
}

/// Progress lines: on a terminal only, only for long work, erased when done.
mod progress {
    use super::*;

    /// A file whose token count takes well over half a second.
    fn big_file(name: &str) -> (Scratch, std::path::PathBuf) {
        let dir = scratch(name);
        let path = dir.join("big.txt");
        let line = "lorem ipsum dolor sit amet, consectetur adipiscing elit 12345\n";
        std::fs::write(&path, line.repeat(1_200_000)).unwrap();
        (dir, path)
    }

    #[test]
    fn a_pipe_gets_no_progress_line() {
        let (_dir, path) = big_file("progress-pipe");
        let out = flexmd()
            .args(["artifact", "estimate-tokens", &path.display().to_string()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "",
            "no progress off a terminal"
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), "16800000\n");
    }

    /// Under a pseudo-terminal (util-linux `script`, which CI installs).
    #[test]
    fn a_terminal_sees_progress_then_a_clean_line() {
        let (_dir, path) = big_file("progress-terminal");
        let bin = assert_cmd::cargo::cargo_bin("flexmd");
        let log = path.with_extension("typescript");
        let status = std::process::Command::new("script")
            .args(["-qec"])
            .arg(format!(
                "{} artifact estimate-tokens {}",
                bin.display(),
                path.display()
            ))
            .arg(&log)
            .stdout(std::process::Stdio::null())
            .status()
            .expect("the `script` command (util-linux) runs the CLI under a terminal");
        assert!(status.success());
        let screen = String::from_utf8_lossy(&std::fs::read(&log).unwrap()).into_owned();
        let shown = screen
            .rfind("running artifact_estimate_tokens")
            .unwrap_or_else(|| panic!("no progress shown: {screen:?}"));
        let after = &screen[shown..];
        let erased = after.find("\r\u{1b}[2K16800000").unwrap_or_else(|| {
            panic!("the progress line should be erased before the result: {after:?}")
        });
        assert!(
            !after[erased..].contains("running"),
            "no progress after the result: {after:?}"
        );
    }
}

/// `flexmd mcp`: the real binary over real pipes.
mod mcp {
    use super::*;
    use std::io::Write;
    use std::process::Stdio;

    /// Runs a session: sends `messages`, reads until every request among
    /// them is answered, closes standard input; the answers, the exit code
    /// and standard error.
    fn session(args: &[&str], messages: &[Value]) -> (Vec<Value>, Option<i32>, String) {
        use std::io::BufRead;
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("flexmd"))
            .arg("mcp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        for m in messages {
            // A server that refused to start has closed its end.
            if writeln!(stdin, "{m}").is_err() {
                break;
            }
        }
        let mut waiting: Vec<Value> = messages
            .iter()
            .filter_map(|m| m.get("id").cloned())
            .collect();
        let mut answers = Vec::new();
        let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
        while !waiting.is_empty() {
            let Some(line) = lines.next() else { break };
            let answer: Value = serde_json::from_str(&line.unwrap()).unwrap();
            waiting.retain(|id| Some(id) != answer.get("id"));
            answers.push(answer);
        }
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        (
            answers,
            out.status.code(),
            String::from_utf8(out.stderr).unwrap(),
        )
    }

    fn init() -> Vec<Value> {
        vec![
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "cli-test", "version": "0"}}}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        ]
    }

    fn by_id(answers: &[Value], id: u64) -> &Value {
        answers
            .iter()
            .find(|a| a["id"] == json!(id))
            .unwrap_or_else(|| panic!("no answer {id} in {answers:?}"))
    }

    #[test]
    fn answers_a_grep_as_flexmd_artifact_does_and_ends_with_its_input() {
        let file = example("responses/quirks.md");
        let mut messages = init();
        messages.push(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "artifact_grep", "arguments": {"callId": file, "pattern": "^#", "lineNumbers": true}}}));
        messages.push(json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}));
        let (answers, code, stderr) = session(&[&file], &messages);
        assert_eq!(code, Some(0), "{stderr}");
        assert_eq!(
            by_id(&answers, 1)["result"]["serverInfo"]["name"],
            json!("flexmd")
        );
        let result = &by_id(&answers, 2)["result"];
        assert_eq!(result["isError"], json!(false));
        let cli = flexmd()
            .args(["artifact", "grep", &file, "pattern=^#", "lineNumbers=true"])
            .output()
            .unwrap();
        let cli = String::from_utf8(cli.stdout).unwrap();
        assert_eq!(
            result["content"][0]["text"].as_str().unwrap(),
            cli.trim_end_matches('\n')
        );
        assert_eq!(by_id(&answers, 3)["result"], json!({}));
    }

    #[test]
    fn a_missing_root_or_file_stops_it_at_start() {
        let (answers, code, stderr) = session(&["--root", "/no/such/dir"], &init());
        assert!(answers.is_empty());
        assert_eq!(code, Some(2));
        assert!(
            stderr.contains("cannot use /no/such/dir as a root"),
            "{stderr}"
        );
        let (_, code, stderr) = session(&["/no/such/file.log"], &init());
        assert_eq!(code, Some(2));
        assert!(stderr.contains("cannot open /no/such/file.log"), "{stderr}");
        let (_, code, stderr) = session(&["--max-result-tokens", "10"], &init());
        assert_eq!(code, Some(2));
        assert!(
            stderr.contains("the result budget must be between 80 and 200000 tokens (got 10)"),
            "{stderr}"
        );
        let (_, code, stderr) = session(&["--max-result-tokens", "300000"], &init());
        assert_eq!(code, Some(2));
        assert!(
            stderr.contains("the result budget must be between 80 and 200000 tokens (got 300000)"),
            "{stderr}"
        );
    }

    /// `--http` does not start without a token or `--no-auth`, and
    /// `--no-auth` does not start on an address other machines can reach;
    /// each says what to give instead.
    #[test]
    fn http_needs_a_token_and_no_auth_is_for_loopback_only() {
        let refused = flexmd()
            .args(["mcp", "--http", "127.0.0.1:0"])
            .env_remove("FLEXMD_MCP_TOKEN")
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
        assert!(
            stderr.contains("--http needs a bearer token (--token-file FILE or FLEXMD_MCP_TOKEN)"),
            "{stderr}"
        );

        let refused = flexmd()
            .args(["mcp", "--http", "0.0.0.0:0", "--no-auth"])
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
        assert!(
            stderr.contains("--no-auth serves only a loopback address"),
            "{stderr}"
        );

        let empty = tempfile::NamedTempFile::new().unwrap();
        let refused = flexmd()
            .args(["mcp", "--http", "0.0.0.0:0", "--token-file"])
            .arg(empty.path())
            .assert()
            .failure();
        let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
        assert!(stderr.contains("the bearer token is empty"), "{stderr}");

        // The HTTP flags mean nothing without --http.
        flexmd()
            .args(["mcp", "--max-sessions", "3"])
            .assert()
            .code(2);
        // A port alone is the loopback address; nonsense says what fits.
        let refused = flexmd()
            .args(["mcp", "--http", "localhost"])
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
        assert!(
            stderr.contains("is neither a port (8931) nor an address with a port"),
            "{stderr}"
        );
    }
}

#[path = "cli/report.rs"]
mod report;
