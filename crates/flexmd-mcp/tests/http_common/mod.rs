//! A raw HTTP/1.1 client for the HTTP tests, and a server to point it at.

#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::net::SocketAddr;
use std::time::Duration;

use flexmd_mcp::{HttpOptions, Options, Server};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

pub(crate) const TOKEN: &str = "t0ken-for-tests";

pub(crate) const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

/// A server on a free loopback port with `options` adjusted by `adjust`;
/// returns its address, the sender that shuts it down, and its task.
pub(crate) async fn start(
    adjust: impl FnOnce(&mut HttpOptions),
) -> (
    SocketAddr,
    oneshot::Sender<()>,
    tokio::task::JoinHandle<Result<(), flexmd_mcp::ServeError>>,
) {
    start_with(Options::default(), adjust).await
}

/// [`start`] with these server options.
pub(crate) async fn start_with(
    server: Options,
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
    let server = Server::new(server).unwrap();
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
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Reply {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub(crate) fn error_message(&self) -> String {
        let value: serde_json::Value = serde_json::from_str(&self.body).unwrap();
        value["error"]["message"].as_str().unwrap().to_owned()
    }
}

/// Sends one request (`Connection: close`) and reads the whole response.
pub(crate) async fn request(
    addr: SocketAddr,
    method: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Reply {
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

pub(crate) fn parse(raw: &[u8]) -> Reply {
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

pub(crate) const AUTH: (&str, &str) = ("Authorization", "Bearer t0ken-for-tests");

/// A session made with `initialize` and `notifications/initialized`; its id.
pub(crate) async fn session(addr: SocketAddr) -> String {
    let opened = request(addr, "POST", &[AUTH], INITIALIZE).await;
    assert_eq!(opened.status, 200);
    let id = opened.header("mcp-session-id").unwrap().to_owned();
    let initialized = request(
        addr,
        "POST",
        &[
            AUTH,
            ("Mcp-Session-Id", &id),
            ("MCP-Protocol-Version", "2025-06-18"),
        ],
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    )
    .await;
    assert_eq!(initialized.status, 202, "{initialized:?}");
    id
}

/// Ends session `id` with DELETE; the response.
pub(crate) async fn end_session(addr: SocketAddr, id: &str) -> Reply {
    request(
        addr,
        "DELETE",
        &[
            AUTH,
            ("Mcp-Session-Id", id),
            ("MCP-Protocol-Version", "2025-06-18"),
        ],
        "",
    )
    .await
}
