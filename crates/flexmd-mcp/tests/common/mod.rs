//! A raw JSON-RPC client over an in-memory pipe to a [`flexmd_mcp::Server`]:
//! what an MCP client sends, line by line, and the answers by id.

#![allow(
    dead_code,
    unreachable_pub,
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};

pub struct Client {
    writer: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    next_id: u64,
    /// Notifications seen while waiting for answers.
    pub notifications: Vec<Value>,
    /// The ids of every answer read.
    pub answered: Vec<Value>,
    pub server: tokio::task::JoinHandle<Result<(), flexmd_mcp::ServeError>>,
}

/// How long an answer may take before the test fails (a hang, not a
/// speed target).
const PATIENCE: Duration = Duration::from_secs(60);

impl Client {
    /// A server over `options`, connected, not yet initialized.
    pub fn connect(options: flexmd_mcp::Options) -> Self {
        let server = flexmd_mcp::Server::new(options).expect("the server starts");
        let (client_side, server_side) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_side);
        let server = tokio::spawn(server.serve(server_read, server_write));
        let (read, writer) = tokio::io::split(client_side);
        Self {
            writer,
            lines: BufReader::new(read).lines(),
            next_id: 1,
            notifications: Vec::new(),
            answered: Vec::new(),
            server,
        }
    }

    /// A server over `options`, connected and initialized.
    pub async fn start(options: flexmd_mcp::Options) -> Self {
        let mut client = Self::connect(options);
        let init = client
            .request(
                "initialize",
                json!({
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "flexmd-tests", "version": "0"},
                }),
            )
            .await;
        assert_eq!(
            init["result"]["serverInfo"]["name"],
            json!("flexmd"),
            "{init}"
        );
        client
            .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        client
    }

    pub async fn send(&mut self, message: &Value) {
        self.send_raw(message.to_string().as_bytes()).await;
    }

    pub async fn send_raw(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).await.unwrap();
        self.writer.write_all(b"\n").await.unwrap();
        self.writer.flush().await.unwrap();
    }

    /// Sends a request; its id.
    pub async fn send_request(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        id
    }

    /// The answer to request `id` (notifications kept aside).
    pub async fn answer(&mut self, id: u64) -> Value {
        loop {
            let line = tokio::time::timeout(PATIENCE, self.lines.next_line())
                .await
                .expect("an answer in time")
                .expect("the pipe reads")
                .expect("the server is still there");
            let message: Value = serde_json::from_str(&line).expect("the server writes JSON");
            if let Some(answered) = message.get("id") {
                self.answered.push(answered.clone());
            }
            if message.get("id") == Some(&json!(id)) {
                return message;
            }
            if message.get("id").is_none() {
                self.notifications.push(message);
            }
        }
    }

    /// Reads until the answers so far (the ids of messages with an `id`,
    /// `null` for an error without one) satisfy `done`.
    pub async fn await_answers(&mut self, done: impl Fn(&[Value]) -> bool) {
        while !done(&self.answered) {
            let line = tokio::time::timeout(PATIENCE, self.lines.next_line())
                .await
                .unwrap_or_else(|_| {
                    panic!(
                        "not every answer came in time; answered: {:?}",
                        self.answered
                    )
                })
                .expect("the pipe reads")
                .expect("the server is still there");
            let message: Value = serde_json::from_str(&line).expect("the server writes JSON");
            // An error without an id answers a line whose id could not
            // be read.
            match message.get("id") {
                Some(id) => self.answered.push(id.clone()),
                None if message.get("error").is_some() => self.answered.push(Value::Null),
                None => self.notifications.push(message),
            }
        }
    }

    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params).await;
        self.answer(id).await
    }

    /// A tool call's result (`result` of the answer).
    pub async fn call(&mut self, name: &str, arguments: Value) -> Value {
        let answer = self
            .request("tools/call", json!({"name": name, "arguments": arguments}))
            .await;
        answer
            .get("result")
            .cloned()
            .unwrap_or_else(|| panic!("{name}: no result: {answer}"))
    }

    /// Every page of a call, following the cursors: each page's text, and
    /// each page's full content (text and note) in tokens; the error text
    /// of a page that cannot be made.
    pub async fn pages(
        &mut self,
        name: &str,
        arguments: Value,
    ) -> Result<Vec<(String, usize)>, String> {
        let mut out = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let mut args = arguments.clone();
            if let Some(c) = &cursor {
                args["cursor"] = json!(c);
            }
            let result = self.call(name, args).await;
            if result["isError"] == json!(true) {
                return Err(result["content"][0]["text"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned());
            }
            let content = result["content"].as_array().unwrap();
            let texts: Vec<&str> = content
                .iter()
                .map(|c| c["text"].as_str().unwrap())
                .collect();
            let tokens: usize = texts
                .iter()
                .map(|t| {
                    flexmd_artifact::count_tokens(
                        t.as_bytes(),
                        flexmd_artifact::Encoding::O200kBase,
                    )
                })
                .sum();
            out.push((texts[0].to_owned(), tokens));
            cursor = texts
                .get(1)
                .and_then(|note| serde_json::from_str::<Value>(note).ok())
                .filter(|note| note["truncated"] == json!(true))
                .map(|note| note["cursor"].as_str().unwrap().to_owned());
            if cursor.is_none() {
                return Ok(out);
            }
            assert!(out.len() < 5_000, "pages never end");
        }
    }

    /// Closes the pipe; the server ends cleanly.
    pub async fn close(self) {
        drop(self.writer);
        drop(self.lines);
        let ended = tokio::time::timeout(PATIENCE, self.server)
            .await
            .expect("the server ends when the client goes");
        ended
            .expect("the server task did not panic")
            .expect("it ends without error");
    }
}
