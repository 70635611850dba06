//! `Server::serve_http` at the HTTP level, with a raw HTTP/1.1 client, so
//! that each refusal is seen as a client sees it: its status, its JSON-RPC
//! error, and the connection still answered. (The MCP conversation itself
//! is tested with the official Python client in tests/python.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

mod http_common;

use std::time::{Duration, Instant};

use flexmd_mcp::{HttpOptions, Options, Server};
use http_common::{
    AUTH, INITIALIZE, TOKEN, end_session, parse, request, session, start, start_with,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[tokio::test]
async fn each_refusal_has_its_status_and_says_why() {
    let (addr, stop, task) = start(|o| o.max_body_bytes = 10_000).await;

    let no_token = request(addr, "POST", &[], INITIALIZE).await;
    assert_eq!(no_token.status, 401);
    assert_eq!(no_token.header("www-authenticate"), Some("Bearer"));
    assert!(
        no_token
            .error_message()
            .contains("Authorization: Bearer TOKEN")
    );
    let wrong = request(
        addr,
        "POST",
        &[("Authorization", "Bearer t0ken-for-test")],
        INITIALIZE,
    )
    .await;
    assert_eq!(wrong.status, 401);

    let foreign = request(
        addr,
        "POST",
        &[AUTH, ("Origin", "https://evil.example")],
        INITIALIZE,
    )
    .await;
    assert_eq!(foreign.status, 403);
    let own_origin = format!("http://localhost:{}", addr.port());
    let own = request(addr, "POST", &[AUTH, ("Origin", &own_origin)], INITIALIZE).await;
    assert_eq!(own.status, 200, "{own:?}");

    let big = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"ping","params":{{"pad":"{}"}}}}"#,
        "x".repeat(20_000)
    );
    let too_large = request(addr, "POST", &[AUTH], &big).await;
    assert_eq!(too_large.status, 413);
    assert!(
        too_large.error_message().contains("10000 bytes"),
        "{too_large:?}"
    );

    let unknown = request(
        addr,
        "POST",
        &[
            AUTH,
            ("Mcp-Session-Id", "no-such-session"),
            ("MCP-Protocol-Version", "2025-06-18"),
        ],
        r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
    )
    .await;
    assert_eq!(unknown.status, 404);

    // The checks of a stdio line, answered the same way.
    let malformed = request(addr, "POST", &[AUTH], "{not json").await;
    assert_eq!(malformed.status, 400, "{malformed:?}");
    let error: serde_json::Value = serde_json::from_str(&malformed.body).unwrap();
    assert_eq!(error["error"]["code"], -32700);
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"ping","params":{{"x":{}1{}}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let too_deep = request(addr, "POST", &[AUTH], &deep).await;
    assert_eq!(too_deep.status, 400);
    let error: serde_json::Value = serde_json::from_str(&too_deep.body).unwrap();
    assert_eq!(
        (error["id"].as_i64(), error["error"]["code"].as_i64()),
        (Some(7), Some(-32600))
    );

    // Still serving after all of them.
    let fine = request(addr, "POST", &[AUTH], INITIALIZE).await;
    assert_eq!(fine.status, 200);
    assert!(fine.header("mcp-session-id").is_some());
    assert!(fine.body.contains(r#""name":"flexmd""#), "{fine:?}");
    // Ending the session: 204, as the SDKs expect (rmcp says 202).
    let session = fine.header("mcp-session-id").unwrap().to_owned();
    let ended = end_session(addr, &session).await;
    assert_eq!(ended.status, 204, "{ended:?}");

    stop.send(()).unwrap();
    task.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_session_past_the_limit_is_refused_with_503() {
    let (addr, stop, task) = start(|o| o.max_sessions = 2).await;
    for _ in 0..2 {
        assert_eq!(request(addr, "POST", &[AUTH], INITIALIZE).await.status, 200);
    }
    let third = request(addr, "POST", &[AUTH], INITIALIZE).await;
    assert_eq!(third.status, 503);
    assert!(
        third.error_message().contains("--max-sessions"),
        "{third:?}"
    );
    stop.send(()).unwrap();
    task.await.unwrap().unwrap();
}

#[tokio::test]
async fn headers_sent_too_slowly_end_the_connection() {
    let (addr, stop, task) = start(|o| o.header_timeout = Duration::from_millis(500)).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let started = Instant::now();
    stream.write_all(b"POST / HTTP/1.1\r\nHo").await.unwrap();
    let mut rest = Vec::new();
    // The server closes the connection (with or without a 408) well
    // before the client would have finished.
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut rest))
        .await
        .expect("the server closes a connection whose headers stall")
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    // Others are still served.
    assert_eq!(request(addr, "POST", &[AUTH], INITIALIZE).await.status, 200);
    stop.send(()).unwrap();
    task.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_body_that_never_arrives_is_answered_408() {
    let (addr, stop, task) = start(|o| o.body_timeout = Duration::from_millis(500)).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{",
        addr.port()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut raw = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut raw))
        .await
        .expect("an answer, not a wait")
        .unwrap();
    assert_eq!(parse(&raw[..n]).status, 408);
    stop.send(()).unwrap();
    task.await.unwrap().unwrap();
}

/// A slow call: a grep of a 24 MB file for a pattern without a literal
/// to skip by, which matches nothing.
fn slow_call(id: usize, file: &str) -> String {
    serde_json::json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "artifact_grep", "arguments": {
            "callId": file, "pattern": "[a-z]+9{3}Q[0-9]", "max_tokens": 200}},
    })
    .to_string()
}

#[tokio::test]
async fn calls_past_a_session_s_limit_are_refused_and_a_hang_up_frees_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.log");
    let line = "2026-12-02T10:00:00 GET /item/12345 200 served from the cache in 3 ms\n";
    std::fs::write(&file, line.repeat(24_000_000 / line.len())).unwrap();
    let name = file.display().to_string();
    let options = Options {
        files: vec![file.clone()],
        ..Options::default()
    };
    let (addr, stop, task) = start_with(options, |o| o.max_calls_per_session = 1).await;
    let id = session(addr).await;
    let headers = [
        AUTH,
        ("Mcp-Session-Id", id.as_str()),
        ("MCP-Protocol-Version", "2025-06-18"),
    ];
    let mut calls = tokio::task::JoinSet::new();
    for n in 0..8 {
        let (body, id) = (slow_call(10 + n, &name), id.clone());
        calls.spawn(async move {
            let headers = [
                AUTH,
                ("Mcp-Session-Id", id.as_str()),
                ("MCP-Protocol-Version", "2025-06-18"),
            ];
            request(addr, "POST", &headers, &body).await
        });
    }
    let replies = calls.join_all().await;
    let refused = replies
        .iter()
        .filter(|r| {
            r.body
                .contains("runs 1 calls at once, its limit (flexmd mcp --max-calls-per-session)")
        })
        .count();
    let answered = replies
        .iter()
        .filter(|r| r.body.contains(r#""result""#))
        .count();
    assert!(refused >= 1, "{replies:?}");
    assert!(answered >= 1, "{replies:?}");
    assert_eq!(refused + answered, 8, "{replies:?}");

    // A client that hangs up mid-call: its place is given back, and the
    // session goes on.
    let mut hung_up = TcpStream::connect(addr).await.unwrap();
    let body = slow_call(30, &name);
    let head = format!(
        "POST / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAuthorization: Bearer {TOKEN}\r\n\
         Mcp-Session-Id: {id}\r\nMCP-Protocol-Version: 2025-06-18\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Content-Length: {}\r\n\r\n{body}",
        addr.port(),
        body.len()
    );
    hung_up.write_all(head.as_bytes()).await.unwrap();
    drop(hung_up);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let next = request(addr, "POST", &headers, &slow_call(31, &name)).await;
        if next.body.contains(r#""result""#) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the hung-up call kept its place: {next:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    stop.send(()).unwrap();
    task.await.unwrap().unwrap();
}

#[test]
fn a_network_address_without_a_token_is_refused_before_listening() {
    let server = Server::new(Options::default()).unwrap();
    let options = HttpOptions::new("0.0.0.0:0".parse().unwrap());
    let error = server.run_http(options).unwrap_err();
    assert_eq!(
        error.to_string(),
        "refusing to serve 0.0.0.0:0 without authentication"
    );
}
