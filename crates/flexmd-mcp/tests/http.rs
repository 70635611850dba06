//! `Server::serve_http` at the HTTP level, with a raw HTTP/1.1 client, so
//! that each refusal is seen as a client sees it: its status, its JSON-RPC
//! error, and the connection still answered. (The MCP conversation itself
//! is tested with the official Python client in tests/python.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use flexmd_mcp::{HttpOptions, Options, Server};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

const TOKEN: &str = "t0ken-for-tests";

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

/// A server on a free loopback port with `options` adjusted by `adjust`;
/// returns its address, the sender that shuts it down, and its task.
async fn start(
    adjust: impl FnOnce(&mut HttpOptions),
) -> (
    SocketAddr,
    oneshot::Sender<()>,
    tokio::task::JoinHandle<Result<(), flexmd_mcp::ServeError>>,
) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut options = HttpOptions::new(addr);
    options.token = Some(TOKEN.to_owned());
    adjust(&mut options);
    let (stop, stopped) = oneshot::channel::<()>();
    let server = Server::new(Options::default()).unwrap();
    let task = tokio::spawn(async move {
        server
            .serve_http(listener, options, async {
                let _ = stopped.await;
            })
            .await
    });
    (addr, stop, task)
}

/// A response: status, headers (lower-case names), body (de-chunked).
#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn error_message(&self) -> String {
        let value: serde_json::Value = serde_json::from_str(&self.body).unwrap();
        value["error"]["message"].as_str().unwrap().to_owned()
    }
}

/// Sends one request (`Connection: close`) and reads the whole response.
async fn request(addr: SocketAddr, method: &str, headers: &[(&str, &str)], body: &str) -> Reply {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut head = format!(
        "{method} / HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Content-Length: {}\r\n",
        addr.port(),
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut raw))
        .await
        .expect("the server answers within 30 s")
        .unwrap();
    parse(&raw)
}

fn parse(raw: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(raw);
    let (head, rest) = text.split_once("\r\n\r\n").expect("a whole response");
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        let mut body = String::new();
        let mut rest = rest;
        while let Some((size, after)) = rest.split_once("\r\n") {
            let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if size == 0 {
                break;
            }
            body.push_str(&after[..size]);
            rest = &after[size + 2..];
        }
        body
    } else {
        rest.to_owned()
    };
    Reply {
        status,
        headers,
        body,
    }
}

const AUTH: (&str, &str) = ("Authorization", "Bearer t0ken-for-tests");

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
    let ended = request(
        addr,
        "DELETE",
        &[
            AUTH,
            ("Mcp-Session-Id", &session),
            ("MCP-Protocol-Version", "2025-06-18"),
        ],
        "",
    )
    .await;
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
