//! The agent turn: spooling, the forged tools' `callId` enum, artifact-tool
//! results, merging with the host's tools, custom tools, ending the turn.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_artifact::{
    Artifact, ArtifactKind, CustomTool, MemoryReader, ResultKind, SpooledArtifact, ToolDefinition,
    ToolOutput, Turn, TurnOptions,
};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

fn options() -> TurnOptions {
    TurnOptions {
        max_inline_bytes: 200,
        max_inline_tokens: 1000,
        preview_lines: 2,
        ..TurnOptions::default()
    }
}

fn log(lines: usize) -> String {
    (0..lines).map(|i| format!("GET /item/{i} 200\n")).collect()
}

fn records(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "{{\"id\": {i}, \"status\": \"{}\"}}\n",
                if i % 3 == 0 { "failed" } else { "ok" }
            )
        })
        .collect()
}

/// The `callId` enum of the tool `name`, if it is offered.
fn call_ids(turn: &Turn, name: &str) -> Option<Vec<String>> {
    turn.definitions()
        .into_iter()
        .find(|d| d.name == name)
        .map(|d| {
            d.parameters["properties"]["callId"]["enum"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_owned())
                .collect()
        })
}

fn host_tool(name: &str, description: &str) -> ToolDefinition {
    ToolDefinition {
        name: name.to_owned(),
        description: description.to_owned(),
        parameters: json!({"type": "object", "properties": {}}),
    }
}

#[test]
fn a_result_under_the_threshold_passes_through_unspooled() {
    let mut turn = Turn::new(options());
    let out = turn
        .add_result("c1", "weather", "{\"temp\": 21}", ResultKind::Auto)
        .unwrap();
    assert_eq!(out, ToolOutput::Inline("{\"temp\": 21}".to_owned()));
    assert_eq!(turn.call_ids().count(), 0);
    assert!(turn.definitions().is_empty(), "no artifact, no tools");
}

#[test]
fn a_large_result_is_spooled_behind_a_notice() {
    let mut turn = Turn::new(options());
    let out = turn
        .add_result("c1", "read_log", log(40), ResultKind::Auto)
        .unwrap();
    assert!(out.is_spooled());
    assert_eq!(
        out.text(),
        "The result of `read_log` is too large to show here (670 bytes, 41 lines, 320 tokens). \
         It is kept as a text artifact for this turn, callId \"c1\".\n\
         First 2 lines:\n  GET /item/0 200\n  GET /item/1 200\n\
         Last 2 lines:\n  GET /item/39 200\n  \n\
         Read it with these tools and callId \"c1\": artifact_head, artifact_tail, artifact_grep, \
         artifact_cat, artifact_byte_length, artifact_line_count, artifact_estimate_tokens."
    );
}

#[test]
fn the_token_threshold_spools_too() {
    let mut turn = Turn::new(TurnOptions {
        max_inline_bytes: 1 << 20,
        max_inline_tokens: 50,
        ..options()
    });
    assert!(
        turn.add_result("c1", "t", log(20), ResultKind::Text)
            .unwrap()
            .is_spooled()
    );
    assert!(
        !turn
            .add_result("c2", "t", log(2), ResultKind::Text)
            .unwrap()
            .is_spooled()
    );
}

#[test]
fn the_call_id_enum_follows_the_calls_added() {
    let mut turn = Turn::new(options());
    turn.add_result("log_1", "read_log", log(40), ResultKind::Auto)
        .unwrap();
    assert_eq!(call_ids(&turn, "artifact_grep").unwrap(), ["log_1"]);
    assert_eq!(
        call_ids(&turn, "artifact_json_get"),
        None,
        "no JSON artifact yet"
    );
    turn.add_result("rows_2", "query", records(40), ResultKind::Auto)
        .unwrap();
    assert_eq!(
        call_ids(&turn, "artifact_grep").unwrap(),
        ["log_1", "rows_2"]
    );
    assert_eq!(call_ids(&turn, "artifact_json_get").unwrap(), ["rows_2"]);
    turn.add_result(
        "doc_3",
        "fetch",
        format!("# Notes\n{}", log(40)),
        ResultKind::Auto,
    )
    .unwrap();
    assert_eq!(call_ids(&turn, "artifact_md_sections").unwrap(), ["doc_3"]);
    assert_eq!(
        turn.call_ids().collect::<Vec<_>>(),
        ["log_1", "rows_2", "doc_3"]
    );
    // A callId is used once per turn.
    let err = turn
        .add_result("log_1", "read_log", log(40), ResultKind::Auto)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the callId `log_1` is already used in this turn"
    );
}

#[test]
fn artifact_tool_results_are_never_spooled() {
    let mut turn = Turn::new(options());
    turn.add_result("c1", "read_log", log(400), ResultKind::Auto)
        .unwrap();
    // The model asks for many lines; the result is larger than the
    // threshold, and the host adds it to the turn as it adds every result.
    let lines = turn
        .dispatch(
            "artifact_cat",
            r#"{"callId": "c1", "start": 0, "end": 100}"#,
        )
        .unwrap();
    assert!(lines.len() > 200);
    let out = turn
        .add_result("c2", "artifact_cat", lines.clone(), ResultKind::Auto)
        .unwrap();
    assert_eq!(out, ToolOutput::Inline(lines));
    assert_eq!(
        turn.call_ids().collect::<Vec<_>>(),
        ["c1"],
        "no grep on a grep"
    );
    assert_eq!(call_ids(&turn, "artifact_grep").unwrap(), ["c1"]);
}

#[test]
fn merging_replaces_same_named_tools() {
    let mut turn = Turn::new(options());
    let host = [
        host_tool("search", "Search the web."),
        host_tool("artifact_grep", "The host's own grep."),
        host_tool("read_log", "Read a log."),
    ];
    // No artifacts: the host's tools as they are.
    assert_eq!(turn.merged_definitions(&host), host);
    turn.add_result("c1", "read_log", log(40), ResultKind::Auto)
        .unwrap();
    let merged = turn.merged_definitions(&host);
    let names: Vec<&str> = merged.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "search",
            "artifact_grep",
            "read_log",
            "artifact_head",
            "artifact_tail",
            "artifact_cat",
            "artifact_byte_length",
            "artifact_line_count",
            "artifact_estimate_tokens"
        ]
    );
    // The forged grep replaced the host's, in its place.
    assert!(
        merged[1]
            .description
            .starts_with("Return the lines of a tool result")
    );
    assert_eq!(
        merged[1].parameters["properties"]["callId"]["enum"],
        json!(["c1"])
    );
    // In the providers' formats.
    assert_eq!(merged[0].to_openai()["function"]["name"], "search");
    assert_eq!(
        merged[1].to_anthropic()["input_schema"]["required"],
        json!(["callId", "pattern"])
    );
}

#[test]
fn ending_the_turn_drops_the_artifacts_and_their_tools() {
    let mut turn = Turn::new(options());
    turn.add_result("c1", "read_log", log(40), ResultKind::Auto)
        .unwrap();
    turn.add_result("c2", "query", records(40), ResultKind::Auto)
        .unwrap();
    assert_eq!(turn.end(), 2);
    assert!(turn.definitions().is_empty());
    let host = [host_tool("search", "Search.")];
    assert_eq!(turn.merged_definitions(&host), host);
    let err = turn
        .dispatch("artifact_head", r#"{"callId": "c1"}"#)
        .unwrap_err();
    assert!(
        err.to_string().starts_with("unknown tool `artifact_head`"),
        "{err}"
    );
    // The next turn starts afresh; the same callId may come again.
    turn.add_result("c1", "read_log", log(40), ResultKind::Auto)
        .unwrap();
    assert_eq!(call_ids(&turn, "artifact_head").unwrap(), ["c1"]);
}

#[test]
fn auto_reads_json_markdown_and_text() {
    let mut turn = Turn::new(options());
    turn.add_result("j", "q", records(40), ResultKind::Auto)
        .unwrap();
    turn.add_result(
        "m",
        "f",
        format!("intro\n\n## Section\n{}", log(40)),
        ResultKind::Auto,
    )
    .unwrap();
    turn.add_result("t", "r", log(40), ResultKind::Auto)
        .unwrap();
    turn.add_result(
        "forced",
        "r",
        format!("# Title\n{}", log(40)),
        ResultKind::Text,
    )
    .unwrap();
    let kinds: Vec<ArtifactKind> = ["j", "m", "t", "forced"]
        .iter()
        .map(|id| turn.artifact(id).unwrap().kind())
        .collect();
    assert_eq!(
        kinds,
        [
            ArtifactKind::Json,
            ArtifactKind::Markdown,
            ArtifactKind::Text,
            ArtifactKind::Text
        ]
    );
    let failed = turn
        .dispatch(
            "artifact_json_filter",
            r#"{"callId": "j", "path": "$[?(@.status === 'failed')]"}"#,
        )
        .unwrap();
    let failed: Value = serde_json::from_str(&failed).unwrap();
    assert_eq!(failed.as_array().unwrap().len(), 14);
}

#[test]
fn custom_tools_are_offered_checked_dispatched_and_serialised() {
    let mut turn = Turn::new(options());
    turn.register(
        CustomTool::new(
            "count_status",
            "Count the records of a JSON tool result from this turn with a given status.",
            json!({"type": "object", "properties": {"status": {"type": "string"}},
                   "required": ["status"], "additionalProperties": false}),
            |artifact, args| {
                let Artifact::Json(json) = artifact else {
                    unreachable!("offered for JSON only");
                };
                let status = args["status"].as_str().unwrap_or_default();
                let hits = json.json_filter(&format!("$[?@.status == '{status}']"))?;
                Ok(json!({"status": status, "count": hits.len()}))
            },
        )
        .for_kind(ArtifactKind::Json),
    );
    turn.register(
        CustomTool::new(
            "artifact_line_count",
            "Count lines, in words.",
            json!({"type": "object", "properties": {}}),
            |artifact, _| Ok(json!(artifact.base().line_count())),
        )
        .with_serialiser(|v| format!("{v} lines")),
    );
    turn.add_result("log", "read_log", log(40), ResultKind::Auto)
        .unwrap();
    assert_eq!(
        call_ids(&turn, "count_status"),
        None,
        "no JSON artifact yet"
    );
    let notice = turn
        .add_result("rows", "query", records(40), ResultKind::Auto)
        .unwrap();
    assert!(
        notice
            .text()
            .ends_with("artifact_json_pluck, count_status, artifact_line_count."),
        "{}",
        notice.text()
    );
    let definition = turn
        .definitions()
        .into_iter()
        .find(|d| d.name == "count_status")
        .unwrap();
    assert_eq!(
        definition.parameters,
        json!({"type": "object",
               "properties": {"status": {"type": "string"},
                              "callId": {"type": "string", "enum": ["rows"], "description": "the id of the tool call whose result to read"}},
               "required": ["callId", "status"], "additionalProperties": false})
    );
    assert_eq!(
        turn.dispatch("count_status", r#"{"callId": "rows", "status": "failed"}"#)
            .unwrap(),
        "{\n  \"status\": \"failed\",\n  \"count\": 14\n}"
    );
    let err = |args: &str| turn.dispatch("count_status", args).unwrap_err().to_string();
    assert_eq!(
        err(r#"{"callId": "log", "status": "x"}"#),
        "count_status: `callId` must be one of \"rows\" (got \"log\")"
    );
    assert_eq!(
        err(r#"{"callId": "rows"}"#),
        "count_status: `status` is required"
    );
    assert_eq!(
        err(r#"{"callId": "rows", "status": 3}"#),
        "count_status: `status` must be string (got 3)"
    );
    assert_eq!(
        err(r#"{"callId": "rows", "status": "x", "n": 1}"#),
        "count_status: unknown argument `n`"
    );
    // The custom tool replaced the forged one of its name, serialiser and all.
    assert_eq!(
        turn.dispatch("artifact_line_count", r#"{"callId": "log"}"#)
            .unwrap(),
        "41 lines"
    );
    assert_eq!(
        turn.definitions()
            .iter()
            .filter(|d| d.name == "artifact_line_count")
            .count(),
        1
    );
    // Its results are artifact-tool results: never spooled.
    assert!(turn.is_artifact_tool("count_status"));
    let big = "x".repeat(10_000);
    assert!(
        !turn
            .add_result("c9", "count_status", big, ResultKind::Auto)
            .unwrap()
            .is_spooled()
    );
}

#[test]
fn a_host_spooled_artifact_joins_the_turn() {
    let mut turn = Turn::new(options());
    let artifact = Artifact::Text(SpooledArtifact::new(MemoryReader::new("a\nb\nc")));
    let out = turn.add_artifact("file_1", "download", artifact).unwrap();
    assert!(
        out.text().contains("Its lines:\n  a\n  b\n  c\n"),
        "{}",
        out.text()
    );
    assert_eq!(
        turn.dispatch("artifact_tail", r#"{"callId": "file_1", "n": 1}"#)
            .unwrap(),
        "c"
    );
}

#[test]
fn preview_lines_are_cut() {
    let mut turn = Turn::new(options());
    let out = turn
        .add_result("c1", "dump", "é".repeat(1000), ResultKind::Text)
        .unwrap();
    assert!(
        out.text()
            .contains(&format!("  {}… (1600 more bytes)\n", "é".repeat(200))),
        "{}",
        out.text()
    );
}

/// The bundled example (`cargo run -p flexmd-artifact --example agent_turn`).
#[allow(dead_code)]
#[path = "../../../examples/agent_turn.rs"]
mod agent_turn;

#[test]
fn the_example_turn_runs_as_its_readme_says() {
    let messages = agent_turn::conversation();
    let roles: Vec<&str> = messages.iter().map(|m| m.role).collect();
    assert_eq!(
        roles,
        [
            "user",
            "assistant",
            "tool",
            "assistant",
            "tool",
            "assistant",
            "tool",
            "assistant"
        ]
    );
    assert!(messages[2].text.starts_with(
        "The result of `query_orders` is too large to show here (104672 bytes, 2001 lines, 40992 tokens). \
         It is kept as a JSON (jsonl) artifact for this turn, callId \"call_1\"."
    ));
    assert_eq!(messages[4].text, "2000");
    let failed: Value = serde_json::from_str(&messages[6].text).unwrap();
    let ids: Vec<i64> = failed
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [7, 257, 507, 757, 1007, 1257, 1507, 1757]);
}

#[test]
fn hosted_tools_are_prepared_and_finished_by_the_host() {
    let mut turn = Turn::new(TurnOptions {
        max_inline_bytes: 16,
        ..TurnOptions::default()
    });
    turn.register(
        CustomTool::hosted(
            "first_words",
            "The first word of each line.",
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}),
        )
        .for_kind(ArtifactKind::Text),
    );
    let log: String = (0..50).map(|i| format!("word{i} rest\n")).collect();
    turn.add_result("call_1", "read_log", log, ResultKind::Text)
        .unwrap();
    assert!(turn.is_hosted_tool("first_words"));
    assert!(!turn.is_hosted_tool("artifact_head"));
    let refused = turn
        .dispatch("first_words", r#"{"callId": "call_1", "n": 1}"#)
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "first_words is run by the host: use Turn::prepare and Turn::finish"
    );
    let wrong = turn
        .prepare("first_words", r#"{"callId": "call_1", "n": "two"}"#)
        .unwrap_err();
    assert_eq!(
        wrong.to_string(),
        "first_words: `n` must be integer (got \"two\")"
    );
    let call = turn
        .prepare("first_words", r#"{"callId": "call_1", "n": 2}"#)
        .unwrap();
    assert_eq!(call.call_id, "call_1");
    assert_eq!(call.arguments, json!({"n": 2}).as_object().unwrap().clone());
    let value = json!(call.artifact.base().head(2));
    // The default serialiser gives a list of strings as lines, as the ADK does.
    assert_eq!(turn.finish(&call.tool, &value), "word0 rest\nword1 rest");
    assert!(
        turn.prepare("artifact_head", r#"{"callId": "call_1"}"#)
            .is_err(),
        "a forged tool is dispatched, not prepared"
    );
}
