//! Properties of the server over whole sessions: no message bytes break it,
//! and the pages of any paged tool make up its whole result, each within
//! budget (note included) and well formed.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::Client;
use proptest::prelude::*;
use serde_json::{Value, json};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// Message lines a confused or hostile client might send.
fn message() -> impl Strategy<Value = Vec<u8>> {
    let method = prop_oneof![
        Just("tools/call".to_owned()),
        Just("tools/list".to_owned()),
        Just("resources/read".to_owned()),
        Just("resources/list".to_owned()),
        Just("initialize".to_owned()),
        Just("ping".to_owned()),
        Just("notifications/cancelled".to_owned()),
        "[a-z/]{0,12}",
    ];
    let name = prop_oneof![
        Just("artifact_grep"),
        Just("artifact_open"),
        Just("artifact_json_get"),
        Just("ofs_validate"),
        Just("schema_validate"),
        Just("json_find"),
        Just("nope"),
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "[a-z(\\[*.$?{]{0,8}".prop_map(Value::String),
    ];
    let value = leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[a-z_]{1,10}", inner), 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    });
    let id = prop_oneof![
        (0u64..1000).prop_map(|n| json!(n)),
        Just(Value::Null),
        "[a-z]{0,4}".prop_map(Value::String),
    ];
    prop_oneof![
        // Bytes at all: broken UTF-8, stray braces, nothing.
        prop::collection::vec(any::<u8>().prop_filter("one line", |b| *b != b'\n'), 0..64),
        (id.clone(), method, value.clone()).prop_map(|(id, m, p)| {
            json!({"jsonrpc": "2.0", "id": id, "method": m, "params": p}).to_string().into_bytes()
        }),
        (id, name, value.clone()).prop_map(|(id, n, a)| {
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": n, "arguments": a}})
                .to_string()
                .into_bytes()
        }),
        value.prop_map(|v| v.to_string().into_bytes()),
        // Too deep for a JSON parser, or a lone surrogate.
        (1usize..200).prop_map(|n| format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{n},\"method\":\"ping\",\"params\":{{\"a\":{}{}}}}}",
            "[".repeat(n), "]".repeat(n)
        ).into_bytes()),
        "[a-z]{0,3}".prop_map(|s| format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":\"{s}\",\"method\":\"tools/call\",\"params\":{{\"name\":\"detect\",\"arguments\":{{\"text\":\"\\ud800{s}\"}}}}}}"
        ).into_bytes()),
        // A cut-off message.
        "\\{\"jsonrpc\": \"2.0\", \"id\": [0-9]{1,3}, \"method\": \"tools/c".prop_map(String::into_bytes),
    ]
}

/// A line as the server reads it (a lone surrogate escape, which the
/// generator writes only as `\ud800`, is U+FFFD).
fn parse(line: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(line)
        .ok()?
        .replace("\\ud800", "\\ufffd");
    serde_json::from_str(&text).ok()
}

/// How many different ids.
fn distinct(ids: &[Value]) -> usize {
    ids.iter()
        .map(Value::to_string)
        .collect::<std::collections::HashSet<_>>()
        .len()
}

/// Whether a line sent to the server asks for an answer: everything but
/// blank lines, notifications and responses.
fn wants_answer(line: &[u8]) -> bool {
    if line.iter().all(u8::is_ascii_whitespace) {
        return false;
    }
    let Some(Value::Object(message)) = parse(line) else {
        return true;
    };
    let is_rpc = message.get("jsonrpc") == Some(&json!("2.0"));
    let notification =
        message.get("method").is_some_and(Value::is_string) && !message.contains_key("id");
    let response = !message.contains_key("method")
        && (message.contains_key("result") || message.contains_key("error"))
        && matches!(message.get("id"), Some(Value::String(_) | Value::Number(_)));
    !(is_rpc && (notification || response))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn no_message_bytes_break_the_server(messages in prop::collection::vec(message(), 0..12)) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.log"), "one\ntwo\n").unwrap();
        runtime().block_on(async {
            let mut client = Client::start(flexmd_mcp::Options {
                roots: vec![dir.path().to_owned()],
                ..flexmd_mcp::Options::default()
            })
            .await;
            for m in &messages {
                client.send_raw(m).await;
            }
            // Every line that asks for an answer gets one: an answer with
            // its id, or an error with a null id when none can be read
            // (requests sharing an id count once: a client must not reuse
            // an id while a request is in flight). The server still
            // answers a ping after them.
            let mut ids: Vec<Value> = vec![json!(10_000_000u64)];
            let mut unnamed = 0;
            for m in messages.iter().filter(|m| wants_answer(m)) {
                match parse(m).and_then(|v| v.get("id").cloned()) {
                    Some(id @ (Value::String(_) | Value::Number(_))) => ids.push(id),
                    _ => unnamed += 1,
                }
            }
            client.send(&json!({"jsonrpc": "2.0", "id": 10_000_000u64, "method": "ping"})).await;
            client
                .await_answers(|answered| {
                    // A broken line's answer has its id when the server
                    // could read it, else null: any answer counts for it.
                    ids.iter().all(|id| answered.contains(id))
                        && answered.len() > distinct(&ids) + unnamed
                })
                .await;
            client.close().await;
        });
    }
}

fn file() -> impl Strategy<Value = String> {
    let word = prop_oneof!["[a-z]{1,8}", "ERROR", "é", "🙂", "\\{\"k\": [0-9]\\}", ""];
    let line = prop::collection::vec(word, 0..10).prop_map(|w| w.join(" "));
    let heading = "[a-z ]{1,16}".prop_map(|t| format!("## {t}"));
    prop::collection::vec(prop_oneof![4 => line, 1 => heading], 1..80)
        .prop_map(|lines| lines.join("\n"))
}

/// The pages, checked: each within `budget` with its note.
async fn paged(
    client: &mut Client,
    name: &str,
    mut args: Value,
    budget: usize,
) -> Option<Vec<String>> {
    args["max_tokens"] = json!(budget);
    // A piece larger than the budget is an error saying so, not a cut.
    let pages = match client.pages(name, args).await {
        Ok(pages) => pages,
        Err(message) => {
            assert!(
                message.contains("more than `max_tokens`"),
                "{name}: {message}"
            );
            return None;
        }
    };
    for (_, tokens) in &pages {
        assert!(*tokens <= budget, "{name}: {tokens} tokens over {budget}");
    }
    Some(pages.into_iter().map(|(t, _)| t).collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn the_pages_of_any_tool_make_up_its_whole_result(
        text in file(),
        budget in flexmd_mcp::MIN_RESULT_TOKENS..400,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.md");
        std::fs::write(&path, &text).unwrap();
        runtime().block_on(async {
            let mut client = Client::start(flexmd_mcp::Options {
                files: vec![path.clone()],
                ..flexmd_mcp::Options::default()
            })
            .await;
            let id = path.display().to_string();
            let whole_text = |result: &Value| result["content"][0]["text"].as_str().unwrap().to_owned();

            for (name, args) in [
                ("artifact_cat", json!({"callId": id})),
                ("artifact_grep", json!({"callId": id, "pattern": "ERROR|é|^$", "lineNumbers": true})),
                ("artifact_md_text", json!({"callId": id})),
            ] {
                let whole = whole_text(&client.call(name, args.clone()).await);
                if let Some(pages) = paged(&mut client, name, args, budget).await {
                    assert_eq!(pages.join("\n"), whole, "{name}");
                }
            }
            for (name, args) in [
                ("artifact_md_sections", json!({"callId": id})),
                ("json_find", json!({"text": text, "all": true})),
            ] {
                let whole = client.call(name, args.clone()).await;
                // No JSON in this text; no section in this file.
                if whole["isError"] == json!(true) || whole_text(&whole) == "(empty list)" {
                    continue;
                }
                let whole: Value = serde_json::from_str(&whole_text(&whole)).unwrap();
                if let Some(pages) = paged(&mut client, name, args, budget).await {
                    let mut all = Vec::new();
                    for page in pages {
                        let Value::Array(items) = serde_json::from_str::<Value>(&page).expect("a page of JSON is JSON") else {
                            panic!("{name}: a page of an array is an array");
                        };
                        all.extend(items);
                    }
                    assert_eq!(Value::Array(all), whole, "{name}");
                }
            }
            // An object: ExtractedResult, paged by members.
            let spec = "## Output format\n- Summary — prose.\n";
            let args = json!({"spec": spec, "response": text});
            let whole: Value = serde_json::from_str(&whole_text(&client.call("ofs_extract", args.clone()).await)).unwrap();
            if let Some(pages) = paged(&mut client, "ofs_extract", args, budget).await {
                let mut all = serde_json::Map::new();
                for page in pages {
                    let Value::Object(members) = serde_json::from_str::<Value>(&page).expect("a page of JSON is JSON") else {
                        panic!("ofs_extract: a page of an object is an object");
                    };
                    all.extend(members);
                }
                assert_eq!(Value::Object(all), whole);
            }
            client.close().await;
        });
    }
}

/// Found by the property above: a page that fit its budget went over once
/// `ofs_extract`'s note (the answer breaks the spec) was added. Every
/// budget, page by page, with every note counted.
#[test]
fn every_budget_holds_with_every_note() {
    runtime().block_on(async {
        let mut client = Client::start(flexmd_mcp::Options::default()).await;
        // Thirty sections, one left out: the answer breaks the spec.
        let spec: String = std::iter::once("## Output format\n".to_owned())
            .chain((0..30).map(|i| format!("- Part {i} — prose.\n")))
            .collect();
        let response: String = (0..29)
            .map(|i| format!("## Part {i}\nSome prose about part {i}, with détails 🙂.\n\n"))
            .collect();
        let args = json!({"spec": spec, "response": response, "as_json": true});
        let mut paged_at = 0;
        for budget in flexmd_mcp::MIN_RESULT_TOKENS..700 {
            if paged(&mut client, "ofs_extract", args.clone(), budget)
                .await
                .is_some_and(|p| p.len() > 1)
            {
                paged_at += 1;
            }
        }
        assert!(
            paged_at > 100,
            "only {paged_at} budgets gave more than one page"
        );
        client.close().await;
    });
}
