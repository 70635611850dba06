//! Whole MCP sessions against the server, message by message: opening files
//! under a root, paging results within budget, the checks, errors as tool
//! results, cancellation, resources.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use std::path::Path;

use common::Client;
use serde_json::{Value, json};

/// A root with a log, a JSON Lines file, a Markdown file; and a secret
/// next to the root.
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("logs")).unwrap();
    let log: String = (0..3000)
        .map(|i| {
            let status = if i % 7 == 0 { 500 } else { 200 };
            format!(
                "2026-12-02T10:{:02}:{:02} GET /item/{i} {status}\n",
                i / 60 % 60,
                i % 60
            )
        })
        .collect();
    std::fs::write(root.join("logs/app.log"), log).unwrap();
    let rows: String = (0..400)
        .map(|i| {
            format!(
                "{}\n",
                json!({"id": i, "name": format!("user {i}"), "active": i % 3 == 0})
            )
        })
        .collect();
    std::fs::write(root.join("users.jsonl"), rows).unwrap();
    std::fs::write(
        root.join("guide.md"),
        "# Guide\n\nIntro.\n\n## Install\n\nRun it.\n\n## Use\n\nCall it.\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("secret.txt"), "password\n").unwrap();
    dir
}

fn options(dir: &Path) -> flexmd_mcp::Options {
    flexmd_mcp::Options {
        roots: vec![dir.join("root")],
        ..flexmd_mcp::Options::default()
    }
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_grep_and_page_through_a_log() {
    let dir = fixture();
    let mut client = Client::start(options(dir.path())).await;

    let tools = client.request("tools/list", json!({})).await;
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "artifact_open",
            "ofs_prompt",
            "ofs_validate",
            "ofs_extract",
            "json_find",
            "schema_validate",
            "schema_list",
            "detect"
        ]
    );
    let schema = &tools["result"]["tools"][0]["inputSchema"];
    assert_eq!(schema["properties"]["max_tokens"]["type"], json!("integer"));
    assert_eq!(schema["properties"]["cursor"]["type"], json!("string"));

    let opened = client
        .call("artifact_open", json!({"path": "logs/app.log"}))
        .await;
    assert_eq!(opened["isError"], json!(false), "{opened}");
    let info: Value = serde_json::from_str(text(&opened)).unwrap();
    assert_eq!(info["callId"], json!("logs/app.log"));
    assert_eq!(info["kind"], json!("text"));
    assert_eq!(info["lines"], json!(3001));
    assert_eq!(info["tokensCounted"], json!("exact"));
    // The tool list changed: the artifact tools appear, naming the file.
    assert!(
        client
            .notifications
            .iter()
            .any(|n| n["method"] == json!("notifications/tools/list_changed"))
            || {
                let _ = client.request("ping", json!({})).await;
                client
                    .notifications
                    .iter()
                    .any(|n| n["method"] == json!("notifications/tools/list_changed"))
            }
    );
    let tools = client.request("tools/list", json!({})).await;
    let grep = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == json!("artifact_grep"))
        .expect("artifact_grep is offered once a file is open");
    assert_eq!(
        grep["inputSchema"]["properties"]["callId"]["enum"],
        json!(["logs/app.log"])
    );

    // Opening it again gives the same callId.
    let again = client
        .call("artifact_open", json!({"path": "logs/../logs/app.log"}))
        .await;
    assert_eq!(
        serde_json::from_str::<Value>(text(&again)).unwrap()["callId"],
        json!("logs/app.log")
    );

    let grep_args = json!({"callId": "logs/app.log", "pattern": " 500$", "lineNumbers": true});
    let whole = client.call("artifact_grep", grep_args.clone()).await;
    let whole_lines: Vec<&str> = text(&whole).lines().collect();
    assert_eq!(whole_lines.len(), 429);
    assert_eq!(whole_lines[1], "8:2026-12-02T10:00:07 GET /item/7 500");
    assert_eq!(
        whole["content"].as_array().unwrap().len(),
        1,
        "it fits: no note"
    );

    let mut small = grep_args.clone();
    small["max_tokens"] = json!(400);
    let pages = client.pages("artifact_grep", small).await.unwrap();
    assert!(pages.len() > 5, "{} pages", pages.len());
    for (_, tokens) in &pages {
        assert!(*tokens <= 400, "a page and its note take {tokens} tokens");
    }
    let joined: Vec<&str> = pages.iter().flat_map(|(t, _)| t.lines()).collect();
    assert_eq!(joined, whole_lines);

    // A page's note, machine-readable.
    let mut first = grep_args.clone();
    first["max_tokens"] = json!(400);
    let page = client.call("artifact_grep", first).await;
    let note: Value = serde_json::from_str(page["content"][1]["text"].as_str().unwrap()).unwrap();
    assert_eq!(note["truncated"], json!(true));
    assert_eq!(note["omitted"]["unit"], json!("lines"));
    assert!(note["cursor"].is_string());
    assert_eq!(
        note["next"],
        json!("call artifact_grep again with the same arguments and this cursor")
    );

    // A budget past the server's --max-result-tokens is lowered to it,
    // and the result says so.
    let mut huge = grep_args.clone();
    huge["max_tokens"] = json!(1_000_000_000_000_u64);
    let capped = client.call("artifact_grep", huge).await;
    assert_eq!(text(&capped).lines().count(), 429, "it fits the ceiling");
    let note: Value = serde_json::from_str(capped["content"][1]["text"].as_str().unwrap()).unwrap();
    assert_eq!(note["max_tokens_capped"], json!(1_000_000_000_000_u64));
    assert_eq!(
        note["max_tokens"],
        json!(flexmd_artifact::DEFAULT_MAX_TOKENS)
    );

    // An edited cursor is refused, not read as another place.
    let cursor = note_cursor(&page);
    let mut edited = grep_args.clone();
    edited["max_tokens"] = json!(400);
    edited["cursor"] = json!(format!("1{cursor}"));
    let refused = client.call("artifact_grep", edited).await;
    assert_eq!(refused["isError"], json!(true));
    assert!(
        text(&refused).contains("start again without a cursor"),
        "{}",
        text(&refused)
    );
    client.close().await;
}

/// The cursor in a page's note.
fn note_cursor(page: &Value) -> String {
    let note: Value = serde_json::from_str(page["content"][1]["text"].as_str().unwrap()).unwrap();
    note["cursor"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_results_page_as_valid_json() {
    let dir = fixture();
    let mut client = Client::start(options(dir.path())).await;
    client
        .call("artifact_open", json!({"path": "users.jsonl"}))
        .await;
    let args = json!({"callId": "users.jsonl", "path": "$[?@.active == true]"});
    let whole: Value = serde_json::from_str(text(
        &client.call("artifact_json_filter", args.clone()).await,
    ))
    .unwrap();
    assert_eq!(whole.as_array().unwrap().len(), 134);
    let mut paged = args.clone();
    paged["max_tokens"] = json!(300);
    let pages = client.pages("artifact_json_filter", paged).await.unwrap();
    assert!(pages.len() > 3);
    let mut all = Vec::new();
    for (page, tokens) in &pages {
        assert!(*tokens <= 300);
        let Value::Array(items) = serde_json::from_str::<Value>(page).expect("each page is JSON")
        else {
            panic!("each page is an array");
        };
        all.extend(items);
    }
    assert_eq!(Value::Array(all), whole);
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn escapes_and_bad_calls_are_tool_errors_that_say_what_to_do() {
    let dir = fixture();
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        dir.path().join("secret.txt"),
        dir.path().join("root/escape.txt"),
    )
    .unwrap();
    let mut client = Client::start(options(dir.path())).await;
    let root = std::fs::canonicalize(dir.path().join("root")).unwrap();

    let outside = client
        .call("artifact_open", json!({"path": "../secret.txt"}))
        .await;
    assert_eq!(outside["isError"], json!(true));
    assert_eq!(
        text(&outside),
        format!(
            "artifact_open: `../secret.txt` is outside the roots (through `..` or a symlink); the roots are `{}`",
            root.display()
        )
    );
    #[cfg(unix)]
    {
        let link = client
            .call("artifact_open", json!({"path": "escape.txt"}))
            .await;
        assert_eq!(link["isError"], json!(true));
        assert!(text(&link).contains("is outside the roots"), "{link}");
    }
    let dir_call = client.call("artifact_open", json!({"path": "logs"})).await;
    assert_eq!(
        text(&dir_call),
        "artifact_open: `logs` is a directory; open a regular file"
    );

    let no_file = client
        .call("artifact_grep", json!({"callId": "x", "pattern": "a"}))
        .await;
    assert_eq!(no_file["isError"], json!(true));
    assert!(text(&no_file).starts_with("unknown tool `artifact_grep` (no file is open yet: artifact_open one first); the tools are artifact_open, "));

    client
        .call("artifact_open", json!({"path": "logs/app.log"}))
        .await;
    let bad_regex = client
        .call(
            "artifact_grep",
            json!({"callId": "logs/app.log", "pattern": "(unclosed"}),
        )
        .await;
    assert_eq!(bad_regex["isError"], json!(true));
    assert!(
        text(&bad_regex).starts_with("invalid pattern: "),
        "{bad_regex}"
    );
    let bad_budget = client
        .call(
            "artifact_head",
            json!({"callId": "logs/app.log", "max_tokens": 5}),
        )
        .await;
    assert_eq!(
        text(&bad_budget),
        format!(
            "artifact_head: `max_tokens` must be a whole number of at least {} (got 5)",
            flexmd_mcp::MIN_RESULT_TOKENS
        )
    );
    let bad_cursor = client
        .call(
            "artifact_head",
            json!({"callId": "logs/app.log", "cursor": "9.9.0"}),
        )
        .await;
    assert!(
        text(&bad_cursor).contains("is not one this call returned"),
        "{bad_cursor}"
    );
    let wrong_type = client
        .call(
            "artifact_tail",
            json!({"callId": "logs/app.log", "n": "ten"}),
        )
        .await;
    assert_eq!(wrong_type["isError"], json!(true));
    let unknown = client.call("no_such_tool", json!({})).await;
    assert!(
        text(&unknown).starts_with("unknown tool `no_such_tool`; the tools are artifact_head, ")
    );

    // Still serving.
    let pong = client.request("ping", json!({})).await;
    assert_eq!(pong["result"], json!({}));
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn checks_answer_as_the_cli_does() {
    let dir = fixture();
    let mut client = Client::start(options(dir.path())).await;
    let spec = "## Output format\n- Summary — prose.\n- Steps — ordered list.\n";
    let failing = client
        .call(
            "ofs_validate",
            json!({"spec": spec, "response": "## Summary\nAll good."}),
        )
        .await;
    assert_eq!(failing["isError"], json!(false));
    let report: Value = serde_json::from_str(text(&failing)).unwrap();
    assert_eq!(report["ok"], json!(false));
    assert_eq!(report["errors"], json!(["missing_section:Steps"]));
    assert_eq!(report["details"]["errors"][0]["section"], json!("Steps"));

    let found = client
        .call(
            "json_find",
            json!({"text": "Here: ```json\n{\"a\": [1, 2,],}\n```"}),
        )
        .await;
    assert_eq!(
        serde_json::from_str::<Value>(text(&found)).unwrap(),
        json!({"a": [1, 2]})
    );

    let list = client.call("schema_list", json!({})).await;
    let names: Vec<Value> = serde_json::from_str::<Value>(text(&list))
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].clone())
        .collect();
    assert!(!names.is_empty());

    let resources = client.request("resources/list", json!({})).await;
    let uris: Vec<&str> = resources["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    let first = format!("schema://{}", names[0].as_str().unwrap());
    assert_eq!(uris[0], first);
    let read = client
        .request("resources/read", json!({"uri": first}))
        .await;
    let schema: Value =
        serde_json::from_str(read["result"]["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        &schema,
        flexmd_schema::Registry::new()
            .get(names[0].as_str().unwrap())
            .unwrap()
    );
    client
        .call("artifact_open", json!({"path": "guide.md"}))
        .await;
    let meta = client
        .request("resources/read", json!({"uri": "artifact://guide.md"}))
        .await;
    let info: Value =
        serde_json::from_str(meta["result"]["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(info["kind"], json!("markdown"));
    assert_eq!(
        info["outline"],
        json!([{"depth": 1, "text": "Guide", "startLine": 0}, {"depth": 2, "text": "Install", "startLine": 4}, {"depth": 2, "text": "Use", "startLine": 8}])
    );
    let missing = client
        .request("resources/read", json!({"uri": "artifact://nope"}))
        .await;
    assert!(
        missing["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("no resource `artifact://nope`")
    );
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_call_gets_no_answer_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.log");
    // 48 MiB without a match: the grep searches it all.
    let line = "x".repeat(1023) + "\n";
    std::fs::write(&big, line.repeat(48 << 10)).unwrap();
    let mut client = Client::start(flexmd_mcp::Options {
        files: vec![big.clone(), big.clone()],
        ..flexmd_mcp::Options::default()
    })
    .await;
    let call_id = big.display().to_string();
    // A slow call (counting 48 MiB of tokens takes a second or more) runs
    // off the protocol loop: a ping sent after it is answered first.
    let slow = client
        .send_request(
            "tools/call",
            json!({"name": "artifact_estimate_tokens", "arguments": {"callId": call_id}}),
        )
        .await;
    let ping = client.send_request("ping", json!({})).await;
    assert_eq!(client.answer(ping).await["result"], json!({}));
    assert!(
        !client.answered.contains(&json!(slow)),
        "the ping waited for the slow call"
    );
    let counted = client.answer(slow).await;
    assert_eq!(counted["result"]["isError"], json!(false), "{counted}");

    let id = client
        .send_request(
            "tools/call",
            json!({"name": "artifact_grep", "arguments": {"callId": call_id, "pattern": "y{3}z"}}),
        )
        .await;
    client
        .send(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id, "reason": "user"}}))
        .await;
    // The ping's answer comes; the cancelled call's never does (answer()
    // would skip it and fail on a mismatched id only if it came first).
    let ping = client.send_request("ping", json!({})).await;
    let answer = client.answer(ping).await;
    assert_eq!(answer["result"], json!({}));
    let head = client
        .call("artifact_head", json!({"callId": call_id, "n": 1}))
        .await;
    assert_eq!(text(&head).len(), 1023);
    assert!(
        !client.answered.contains(&json!(id)),
        "the cancelled call was answered"
    );
    client.close().await;
}

/// `resources/list` comes a page at a time: the schemas and 150 open
/// files are 100, then the rest with no `nextCursor`; a cursor the list
/// did not give is -32602, saying to list again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resources_come_a_page_at_a_time() {
    let dir = fixture();
    for i in 0..150 {
        std::fs::write(dir.path().join(format!("root/f{i:03}.txt")), "x\n").unwrap();
    }
    let mut client = Client::start(options(dir.path())).await;
    for i in 0..150 {
        let opened = client
            .call("artifact_open", json!({"path": format!("f{i:03}.txt")}))
            .await;
        assert_ne!(opened["isError"], json!(true), "{opened}");
    }
    let schemas = flexmd_schema::Registry::new().summaries().len();
    let first = client.request("resources/list", json!({})).await;
    let page = first["result"]["resources"].as_array().unwrap();
    assert_eq!(page.len(), flexmd_mcp::RESOURCES_PAGE);
    assert_eq!(first["result"]["nextCursor"], json!("100"));
    let second = client
        .request("resources/list", json!({"cursor": "100"}))
        .await;
    let rest = second["result"]["resources"].as_array().unwrap();
    assert_eq!(rest.len(), schemas + 150 - 100);
    assert_eq!(second["result"].get("nextCursor"), None);
    let uris: Vec<&str> = page
        .iter()
        .chain(rest)
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(uris.last(), Some(&"artifact://f149.txt"));
    assert_eq!(
        uris.iter().filter(|u| u.starts_with("artifact://")).count(),
        150
    );
    for cursor in ["99999", "abc", "0"] {
        let refused = client
            .request("resources/list", json!({"cursor": cursor}))
            .await;
        assert_eq!(refused["error"]["code"], json!(-32602), "{refused}");
        assert_eq!(
            refused["error"]["message"],
            json!(format!(
                "the cursor \"{cursor}\" is not one resources/list gave, or the list has shrunk below it since: list again without a cursor"
            ))
        );
    }
}
