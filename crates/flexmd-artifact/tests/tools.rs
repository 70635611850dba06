//! Forged tools: definitions, argument checks, serialisation, caps.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_artifact::{
    Artifact, Caps, JsonFormat, MemoryReader, SpooledArtifact, SpooledJsonArtifact,
    SpooledMarkdownArtifact, forge_tools,
};
use serde_json::{Value, json};

fn artifacts() -> Vec<(String, Artifact)> {
    vec![
        (
            "log".to_owned(),
            Artifact::Text(SpooledArtifact::new(MemoryReader::new(
                "start\nERROR disk\nok\nERROR net\n",
            ))),
        ),
        (
            "users".to_owned(),
            Artifact::Json(
                SpooledJsonArtifact::new(
                    MemoryReader::new(
                        "{\"id\": 1, \"name\": \"ada\"}\n{\"id\": 2, \"name\": \"bob\"}\n",
                    ),
                    Some(JsonFormat::Jsonl),
                )
                .unwrap(),
            ),
        ),
        (
            "doc".to_owned(),
            Artifact::Markdown(SpooledMarkdownArtifact::new(MemoryReader::new(
                "# A\ntext\n## B\n",
            ))),
        ),
    ]
}

#[test]
fn tools_per_kind_with_narrowed_call_ids() {
    let a = artifacts();
    let tools = forge_tools(&a);
    let defs = tools.definitions();
    let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names.len(), 7 + 7 + 8);
    assert_eq!(names[0], "artifact_head");
    assert_eq!(names[21], "artifact_md_ast");
    let head = &defs[0].parameters;
    assert_eq!(
        head["properties"]["callId"]["enum"],
        json!(["log", "users", "doc"])
    );
    assert_eq!(
        head["properties"]["n"],
        json!({"type": "integer", "minimum": 1, "maximum": 2000, "default": 10, "description": "number of lines"})
    );
    assert_eq!(head["additionalProperties"], json!(false));
    assert_eq!(head["required"], json!(["callId"]));
    let get = defs.iter().find(|d| d.name == "artifact_json_get").unwrap();
    assert_eq!(
        get.parameters["properties"]["callId"]["enum"],
        json!(["users"])
    );
    assert_eq!(get.parameters["required"], json!(["callId", "path"]));
    // Only text: no JSON or Markdown tools.
    let text_only = vec![(
        "t".to_owned(),
        Artifact::Text(SpooledArtifact::new(MemoryReader::new("x"))),
    )];
    assert_eq!(forge_tools(&text_only).definitions().len(), 7);
    assert!(
        forge_tools::<String, Artifact>(&[])
            .definitions()
            .is_empty()
    );
}

#[test]
fn exported_formats() {
    let a = artifacts();
    let tools = forge_tools(&a);
    let openai = tools.to_openai();
    assert_eq!(openai[0]["type"], "function");
    assert_eq!(openai[0]["function"]["name"], "artifact_head");
    let anthropic = tools.to_anthropic();
    assert_eq!(anthropic[0]["name"], "artifact_head");
    assert_eq!(anthropic[0]["input_schema"]["type"], "object");
}

#[test]
fn results_are_serialised_as_the_seed_does() {
    let a = artifacts();
    let t = forge_tools(&a);
    assert_eq!(
        t.call(
            "artifact_grep",
            r#"{"callId": "log", "pattern": "^error", "flags": "i"}"#
        )
        .unwrap(),
        "ERROR disk\nERROR net"
    );
    assert_eq!(
        t.call(
            "artifact_grep",
            r#"{"callId": "log", "pattern": "nothing", "flags": ""}"#
        )
        .unwrap(),
        "(empty list)"
    );
    assert_eq!(
        t.call("artifact_line_count", r#"{"callId": "log"}"#)
            .unwrap(),
        "5"
    );
    assert_eq!(
        t.call("artifact_cat", r#"{"callId": "log", "start": 4}"#)
            .unwrap(),
        "(1 empty line)"
    );
    assert_eq!(
        t.call(
            "artifact_json_pluck",
            r#"{"callId": "users", "path": "$.name"}"#
        )
        .unwrap(),
        "ada\nbob"
    );
    assert_eq!(
        t.call(
            "artifact_json_get",
            r#"{"callId": "users", "path": "$.id"}"#
        )
        .unwrap(),
        "[\n  1,\n  2\n]"
    );
    assert_eq!(
        t.call("artifact_json_type", r#"{"callId": "users"}"#)
            .unwrap(),
        "jsonl"
    );
    assert_eq!(
        t.call("artifact_md_frontmatter", r#"{"callId": "doc"}"#)
            .unwrap(),
        "(undefined)"
    );
    let sections: Value = serde_json::from_str(
        &t.call("artifact_md_sections", r#"{"callId": "doc", "depth": 2}"#)
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        sections,
        json!([{"depth": 2, "heading": "B", "headingLine": 2, "bodyStartLine": 3, "bodyEndLine": 3}])
    );
    assert_eq!(
        t.call(
            "artifact_estimate_tokens",
            r#"{"callId": "log", "encoding": ""}"#
        )
        .unwrap(),
        "10"
    );
}

#[test]
fn argument_errors_a_model_can_act_on() {
    let a = artifacts();
    let t = forge_tools(&a);
    let err = |name: &str, args: &str| t.call(name, args).unwrap_err().to_string();
    assert_eq!(
        err("artifact_head", r#"{"n": 2}"#),
        "artifact_head: `callId` is required: one of \"log\", \"users\", \"doc\""
    );
    assert_eq!(
        err("artifact_json_get", r#"{"callId": "log", "path": "$"}"#),
        "artifact_json_get: `callId` must be one of \"users\" (got \"log\")"
    );
    assert_eq!(
        err("artifact_head", r#"{"callId": "log", "n": 0}"#),
        "artifact_head: `n` must be between 1 and 2000 (got 0)"
    );
    assert_eq!(
        err("artifact_head", r#"{"callId": "log", "n": "5"}"#),
        "artifact_head: `n` must be an integer (got \"5\")"
    );
    assert_eq!(
        err("artifact_head", r#"{"callId": "log", "lines": 5}"#),
        "artifact_head: unknown argument `lines`; the arguments are `callId`, `n`"
    );
    assert_eq!(
        err("artifact_md_text", r#"{"callId": "doc", "startLine": -1}"#),
        "artifact_md_text: `startLine` must be at least 0 (got -1)"
    );
    assert_eq!(
        err(
            "artifact_grep",
            r#"{"callId": "log", "pattern": "a", "flags": "g"}"#
        ),
        "invalid pattern: flag `g` is not allowed (grep tests each line once); use a subset of `imsu`"
    );
    assert_eq!(
        err("artifact_grep", r#"{"callId": "log"}"#),
        "artifact_grep: `pattern` is required"
    );
    assert!(
        err("artifact_nope", "{}")
            .starts_with("unknown tool `artifact_nope`; the tools are artifact_head, ")
    );
    assert!(
        err("artifact_head", "{not json").starts_with("artifact_head: the arguments are not JSON")
    );
    assert_eq!(
        err(
            "artifact_estimate_tokens",
            r#"{"callId": "log", "encoding": "gemini"}"#
        ),
        "artifact_estimate_tokens: `encoding` must be one of \"gpt2\", \"r50k_base\", \"p50k_base\", \"p50k_edit\", \"cl100k_base\", \"o200k_base\", \"claude\" (got \"gemini\")"
    );
}

#[test]
fn caps_truncate_with_a_marker() {
    let big: String = (0..5000).map(|i| format!("line {i}\n")).collect();
    let a = vec![(
        "big".to_owned(),
        Artifact::Text(SpooledArtifact::new(MemoryReader::new(big))),
    )];
    let t = forge_tools(&a).with_caps(Caps {
        lines: 100,
        bytes: 64 * 1024,
    });
    let out = t.call("artifact_cat", r#"{"callId": "big"}"#).unwrap();
    assert!(
        out.ends_with(
            "line 99\n[truncated: 100 of 5001 lines shown; read the rest with artifact_cat]"
        ),
        "{}",
        &out[out.len() - 120..]
    );
    let out = t
        .call("artifact_grep", r#"{"callId": "big", "pattern": "line"}"#)
        .unwrap();
    assert!(out.ends_with(
        "line 99\n[truncated: more than 100 matching lines; make the pattern more specific]"
    ));
    let t = forge_tools(&a).with_caps(Caps {
        lines: 10_000,
        bytes: 1000,
    });
    let out = t
        .call("artifact_head", r#"{"callId": "big", "n": 2000}"#)
        .unwrap();
    assert!(out.contains("\n[truncated: "), "{out}");
    assert!(out.len() < 1200);
}

#[test]
fn long_lists_are_cut_before_serialisation() {
    let records: String = (0..500).map(|i| format!("{{\"id\": {i}}}\n")).collect();
    let doc: String = (0..300).map(|i| format!("## S{i}\ntext\n")).collect();
    let a = vec![
        (
            "j".to_owned(),
            Artifact::Json(SpooledJsonArtifact::new(MemoryReader::new(records), None).unwrap()),
        ),
        (
            "m".to_owned(),
            Artifact::Markdown(SpooledMarkdownArtifact::new(MemoryReader::new(doc))),
        ),
    ];
    let t = forge_tools(&a).with_caps(Caps {
        lines: 50,
        bytes: 64 * 1024,
    });
    let out = t
        .call("artifact_json_pluck", r#"{"callId": "j", "path": "$.id"}"#)
        .unwrap();
    assert!(
        out.ends_with("\n]\n[truncated: more than 50 items; narrow the query]"),
        "{out}"
    );
    assert!(out.contains("  49\n]"));
    let out = t
        .call(
            "artifact_json_filter",
            r#"{"callId": "j", "path": "$[?@.id >= 0]"}"#,
        )
        .unwrap();
    assert!(out.ends_with("[truncated: more than 50 items; narrow the query]"));
    let out = t
        .call("artifact_md_sections", r#"{"callId": "m"}"#)
        .unwrap();
    assert!(
        out.ends_with("[truncated: 50 of 300 items shown; narrow the query]"),
        "{}",
        &out[out.len() - 80..]
    );
    let out = t
        .call(
            "artifact_json_slice",
            r#"{"callId": "j", "start": 10, "end": 12}"#,
        )
        .unwrap();
    assert_eq!(
        out,
        "[\n  {\n    \"id\": 10\n  },\n  {\n    \"id\": 11\n  }\n]"
    );
}

#[test]
fn grep_numbers_lines_from_one_as_grep_n_does() {
    let artifacts = artifacts();
    let tools = forge_tools(&artifacts);
    let call = |args: &str| tools.call("artifact_grep", args);
    assert_eq!(
        call(r#"{"callId": "log", "pattern": "ERROR", "lineNumbers": true}"#).unwrap(),
        "2:ERROR disk\n4:ERROR net"
    );
    assert_eq!(
        call(r#"{"callId": "log", "pattern": "ERROR", "lineNumbers": false}"#).unwrap(),
        "ERROR disk\nERROR net"
    );
    assert_eq!(
        call(r#"{"callId": "log", "pattern": "x", "lineNumbers": "yes"}"#)
            .unwrap_err()
            .to_string(),
        "artifact_grep: `lineNumbers` must be true or false (got \"yes\")"
    );
}

#[test]
fn the_catalogue_documents_every_tool_and_its_examples_pass_the_checks() {
    let catalogue = flexmd_artifact::tool_catalogue();
    assert_eq!(catalogue.len(), 22);
    for tool in &catalogue {
        let name = &tool.definition.name;
        assert!(!tool.definition.description.is_empty(), "{name}");
        flexmd_artifact::check_arguments(name, &tool.example.to_string())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let err = flexmd_artifact::check_arguments("artifact_cat", r#"{"start": "x"}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "artifact_cat: `start` must be an integer (got \"x\")"
    );
}

#[test]
fn tool_calls_come_in_every_provider_shape() {
    use flexmd_artifact::tool_calls;
    use serde_json::json;
    let ids_and_names = |v: serde_json::Value| -> Vec<(Option<String>, String, String)> {
        tool_calls(&v)
            .unwrap()
            .into_iter()
            .map(|c| (c.id, c.name, c.arguments))
            .collect()
    };
    let some = |s: &str| Some(s.to_owned());
    // OpenAI Responses API output: reasoning and message items around the call.
    let responses = json!([
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "id": "fc_1", "call_id": "call_9", "name": "artifact_head",
         "arguments": "{\"callId\": \"log\"}"},
        {"type": "message", "id": "msg_1", "content": []}
    ]);
    assert_eq!(
        ids_and_names(responses),
        [(
            some("call_9"),
            "artifact_head".to_owned(),
            "{\"callId\": \"log\"}".to_owned()
        )]
    );
    // Plain, with arguments as an object, and with none.
    assert_eq!(
        ids_and_names(json!([{"name": "a", "arguments": {"n": 1}}, {"name": "b"}])),
        [
            (None, "a".to_owned(), "{\"n\":1}".to_owned()),
            (None, "b".to_owned(), "{}".to_owned())
        ]
    );
    let err = tool_calls(&json!({"content": [{"type": "text", "text": "hi"}]})).unwrap_err();
    assert!(
        err.to_string()
            .contains("the message has no tool_use block"),
        "{err}"
    );
    assert!(tool_calls(&json!([])).unwrap().is_empty());
}
