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
