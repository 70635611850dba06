//! The MCP server over a whole session of fuzzed lines: after `initialize`,
//! each line of the input is sent as one message (any bytes: broken UTF-8,
//! JSON that is not JSON-RPC, requests with wrong parameters, calls to any
//! tool), then a `ping`. Every line that asks for an answer must get one —
//! an answer with its id, or an error with a null id when none can be read
//! — within a few seconds, and the server must still be there. A hang or a
//! missing answer is a finding, as is a panic.

#![no_main]

use std::collections::HashSet;
use std::sync::OnceLock;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// How long the answers may take (a hang, not a speed target: libFuzzer's
/// own `-timeout` is longer).
const PATIENCE: Duration = Duration::from_secs(5);

/// At most this many lines per session (longer inputs are cut).
const MAX_LINES: usize = 64;

/// The id of the last ping; fuzzed ids are other values, or the same one
/// (then the ping is answered twice: the count still holds).
const LAST: u64 = 9_007_199_254_740_991;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap_or_else(|e| panic!("no runtime: {e}"))
    })
}

/// A root with two small files the artifact tools can open.
fn root() -> &'static std::path::Path {
    static ROOT: OnceLock<std::path::PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("flexmd-fuzz-mcp-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(dir.join("a.log"), "one\nERROR two\nthree\n");
        let _ = std::fs::write(dir.join("d.json"), "{\"a\": [1, {\"b\": \"c\"}]}");
        dir
    })
}

/// A line as the server reads it: lone surrogate escapes (which it reads
/// as U+FFFD) are replaced, pairs too (harmless for finding an id).
fn parse(line: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(line).ok()?;
    let mut fixed = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\\u") {
        let (before, after) = rest.split_at(at);
        fixed.push_str(before);
        let hex = after.get(2..6).unwrap_or_default();
        let surrogate = u16::from_str_radix(hex, 16).is_ok_and(|u| (0xD800..0xE000).contains(&u));
        // An escaped backslash before `u` is not an escape; the parse
        // decides then, and the count below tolerates it.
        if surrogate {
            fixed.push_str("\\ufffd");
            rest = after.get(6..).unwrap_or_default();
        } else {
            fixed.push_str("\\u");
            rest = after.get(2..).unwrap_or_default();
        }
    }
    fixed.push_str(rest);
    serde_json::from_str(&fixed).ok()
}

/// What a line asks of the server.
enum Asks {
    /// Nothing: a blank line, a notification, a response.
    Nothing,
    /// An answer carrying this id.
    Answer(Value),
    /// An answer whose id the server may not read (null then).
    Unnamed,
}

/// The top-level keys of an object, repeats kept (a `Value` keeps one).
struct Keys(Vec<String>);

impl<'de> serde::Deserialize<'de> for Keys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Keys;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some((k, _)) = map.next_entry::<String, serde::de::IgnoredAny>()? {
                    keys.push(k);
                }
                Ok(Keys(keys))
            }
        }
        d.deserialize_map(Visit)
    }
}

/// Whether an object line names a member twice (the server refuses it,
/// with a null id when the repeated member is `id`).
fn repeats_a_key(line: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(line) else {
        return false;
    };
    let Ok(Keys(keys)) = serde_json::from_str::<Keys>(text) else {
        return false;
    };
    keys.len() != keys.iter().collect::<HashSet<_>>().len()
}

fn asks(line: &[u8]) -> Asks {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Asks::Nothing;
    }
    let Some(Value::Object(message)) = parse(line) else {
        return Asks::Unnamed;
    };
    if repeats_a_key(line) {
        return Asks::Unnamed;
    }
    let is_rpc = message.get("jsonrpc") == Some(&json!("2.0"));
    let notification =
        message.get("method").is_some_and(Value::is_string) && !message.contains_key("id");
    let response = !message.contains_key("method")
        && (message.contains_key("result") || message.contains_key("error"))
        && matches!(message.get("id"), Some(Value::String(_) | Value::Number(_)));
    if is_rpc && (notification || response) {
        return Asks::Nothing;
    }
    match message.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => Asks::Answer(id.clone()),
        _ => Asks::Unnamed,
    }
}

/// The ids a line cancels (`notifications/cancelled`): a cancelled request
/// need not be answered.
fn cancels(line: &[u8]) -> Option<Value> {
    let message = parse(line)?;
    if message.get("method")? != "notifications/cancelled" {
        return None;
    }
    message.get("params")?.get("requestId").cloned()
}

async fn session(lines: &[&[u8]]) {
    let options = flexmd_mcp::Options {
        roots: vec![root().to_owned()],
        ..flexmd_mcp::Options::default()
    };
    let Ok(server) = flexmd_mcp::Server::new(options) else {
        panic!("the server does not start");
    };
    let (client, server_side) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server_side);
    let task = tokio::spawn(server.serve(server_read, server_write));
    let (read, mut write) = tokio::io::split(client);
    let mut answers = BufReader::new(read).lines();
    let init = json!({"jsonrpc": "2.0", "id": LAST, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "fuzz", "version": "0"}}});
    let mut out = Vec::new();
    for line in [
        init.to_string().as_bytes(),
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    ]
    .into_iter()
    .chain(lines.iter().copied())
    .chain([format!(r#"{{"jsonrpc":"2.0","id":{LAST},"method":"ping"}}"#).as_bytes()])
    {
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    // The writes go on while the answers are read: a session larger than
    // the pipe would otherwise stall both sides.
    let writer = tokio::spawn(async move {
        let _ = write.write_all(&out).await;
        let _ = write.flush().await;
        write
    });

    let mut ids: Vec<Value> = vec![json!(LAST)];
    let mut unnamed = 0usize;
    let mut excused: HashSet<String> = HashSet::new();
    for line in lines {
        match asks(line) {
            Asks::Nothing => {}
            Asks::Answer(id) => ids.push(id),
            Asks::Unnamed => unnamed += 1,
        }
        if let Some(id) = cancels(line) {
            excused.insert(id.to_string());
        }
    }
    ids.retain(|id| !excused.contains(&id.to_string()));
    let distinct: HashSet<String> = ids.iter().map(Value::to_string).collect();
    // initialize and the last ping share an id: both answered.
    let wanted = distinct.len() + 1 + unnamed;
    let mut answered: Vec<Value> = Vec::new();
    let done = |answered: &[Value]| {
        let seen: HashSet<String> = answered.iter().map(Value::to_string).collect();
        distinct.iter().all(|id| seen.contains(id)) && answered.len() >= wanted
    };
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !done(&answered) {
        let line = match tokio::time::timeout_at(deadline, answers.next_line()).await {
            Ok(Ok(Some(line))) => line,
            Ok(Ok(None)) | Ok(Err(_)) => {
                panic!("the server stopped; answered so far: {answered:?}")
            }
            Err(_) => panic!(
                "not every line was answered in {PATIENCE:?}: wanted {wanted} answers \
                 covering ids {distinct:?}, got {answered:?}"
            ),
        };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            panic!("the server wrote a line that is not JSON: {line:?}");
        };
        match message.get("id") {
            Some(id) => answered.push(id.clone()),
            None if message.get("error").is_some() => answered.push(Value::Null),
            None => {}
        }
    }
    if let Ok(mut write) = writer.await {
        let _ = write.shutdown().await;
    }
    drop(answers);
    let _ = tokio::time::timeout(PATIENCE, task).await;
}

fuzz_target!(|data: &[u8]| {
    let lines: Vec<&[u8]> = data.split(|b| *b == b'\n').take(MAX_LINES).collect();
    runtime().block_on(session(&lines));
});
