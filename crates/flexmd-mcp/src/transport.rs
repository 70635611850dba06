//! The gate in front of the MCP protocol loop: every line the client
//! sends is read here first, so that no line goes unanswered.
//!
//! rmcp drops a line it cannot decode without a word, and a client that
//! sent a request on it waits forever. Here each line is checked before
//! rmcp sees it: one over the size limit, one that is not UTF-8 or not
//! JSON, one nested deeper than a JSON parser takes, and a request whose
//! parameters have the wrong shape is answered with a JSON-RPC error (the
//! request's `id` when it can be read) and a line on stderr. Lone
//! surrogate escapes (`"\ud800"`, which JavaScript's `JSON.stringify`
//! writes for a broken string) are read as U+FFFD, as a browser would,
//! rather than refused.

use std::fmt::Write as _;

use rmcp::model::{
    CallToolRequestParams, InitializeRequestParams, PaginatedRequestParams,
    ReadResourceRequestParams,
};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// JSON-RPC's "parse error": the line is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's "invalid request": JSON, but not a request the server takes.
pub(crate) const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's "invalid params": a known method with arguments of the
/// wrong shape.
pub(crate) const INVALID_PARAMS: i64 = -32602;

/// The deepest a message may nest, its JSON-RPC envelope included: the
/// JSON parser behind the protocol loop stops at 128.
pub const MAX_MESSAGE_DEPTH: usize = 127;

/// The default for [`crate::Options::max_message_bytes`]: 16 MiB.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 16 << 20;

/// How much of an over-long line is kept to find its `id`.
const ID_PREFIX: usize = 4096;

/// A line the gate answered itself, and why.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Refusal {
    pub(crate) id: Value,
    pub(crate) code: i64,
    pub(crate) message: String,
}

impl Refusal {
    /// The JSON-RPC error response, one line with its newline.
    fn response(&self) -> Vec<u8> {
        let mut line = json!({
            "jsonrpc": "2.0",
            "id": self.id,
            "error": {"code": self.code, "message": self.message},
        })
        .to_string()
        .into_bytes();
        line.push(b'\n');
        line
    }
}

/// What the gate makes of one line.
#[derive(Debug, PartialEq)]
pub(crate) enum Verdict {
    /// Blank: nothing to do.
    Skip,
    /// For the protocol loop, as it is or with lone surrogates replaced
    /// (how many), and the `id` when it is a request (one that is owed an
    /// answer).
    Pass(Vec<u8>, usize, Option<Value>),
    /// Answered here.
    Refuse(Refusal),
}

/// Checks one complete line (without its newline). `over` is set when
/// the line was longer than `limit` bytes and only its first bytes are
/// in `line`.
pub(crate) fn check_line(mut line: Vec<u8>, over: Option<usize>, limit: usize) -> Verdict {
    while line
        .last()
        .is_some_and(|b| matches!(b, b'\r' | b' ' | b'\t'))
    {
        line.pop();
    }
    if over.is_none() && line.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Skip;
    }
    let scan = scan(&mut line);
    let id = scan.id.clone().unwrap_or(Value::Null);
    if let Some(length) = over {
        return Verdict::Refuse(Refusal {
            id,
            code: INVALID_REQUEST,
            message: format!(
                "the message is {length} bytes or more, over the server's limit of {limit} \
                 bytes (flexmd mcp --max-message-bytes); send less in one call, or start the \
                 server with a higher limit"
            ),
        });
    }
    if let Err(e) = std::str::from_utf8(&line) {
        return Verdict::Refuse(Refusal {
            id,
            code: PARSE_ERROR,
            message: format!(
                "the message is not valid UTF-8 (byte {} is not part of a character); \
                 JSON-RPC messages are UTF-8 text",
                e.valid_up_to()
            ),
        });
    }
    if let Some(key) = &scan.repeated_key {
        return Verdict::Refuse(Refusal {
            // Which of two ids is meant cannot be known.
            id: if key == "id" { Value::Null } else { id },
            code: INVALID_REQUEST,
            message: format!(
                "the message names its member {key:?} twice; a JSON-RPC message names each \
                 member once"
            ),
        });
    }
    if scan.depth > MAX_MESSAGE_DEPTH {
        return Verdict::Refuse(Refusal {
            id,
            code: INVALID_REQUEST,
            message: format!(
                "the message nests {} levels deep; the server reads at most \
                 {MAX_MESSAGE_DEPTH}, its JSON-RPC envelope included (about 123 inside a \
                 tool's arguments)",
                scan.depth
            ),
        });
    }
    let value: Value = match serde_json::from_slice(&line) {
        Ok(value) => value,
        Err(e) => {
            return Verdict::Refuse(Refusal {
                id,
                code: PARSE_ERROR,
                message: format!("the message is not JSON: {e}"),
            });
        }
    };
    if let Some(refusal) = check_request(&value) {
        return Verdict::Refuse(refusal);
    }
    let request = value.get("method").and(value.get("id")).cloned();
    Verdict::Pass(line, scan.surrogates, request)
}

/// A request whose method the server knows but whose parameters it cannot
/// read, or a request that is not one: refused here with the reason,
/// where the protocol loop would answer "invalid request" without an id or
/// "method not found".
fn check_request(value: &Value) -> Option<Refusal> {
    let Value::Object(message) = value else {
        return Some(Refusal {
            id: Value::Null,
            code: INVALID_REQUEST,
            message: "a JSON-RPC message is a JSON object (batches are not part of MCP)".to_owned(),
        });
    };
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Some(Refusal {
            id,
            code: INVALID_REQUEST,
            message: "a JSON-RPC message has \"jsonrpc\": \"2.0\"".to_owned(),
        });
    }
    if !matches!(
        message.get("id"),
        None | Some(Value::String(_) | Value::Number(_))
    ) {
        return Some(Refusal {
            id: Value::Null,
            code: INVALID_REQUEST,
            message: "a request's \"id\" is a string or a number".to_owned(),
        });
    }
    let Some(method) = message.get("method") else {
        // A response to the server (rmcp reads those), or nothing at all.
        return if message.contains_key("result") || message.contains_key("error") {
            None
        } else {
            Some(Refusal {
                id,
                code: INVALID_REQUEST,
                message: "a request has a \"method\"".to_owned(),
            })
        };
    };
    let Value::String(method) = method else {
        return Some(Refusal {
            id,
            code: INVALID_REQUEST,
            message: "a request's \"method\" is a string".to_owned(),
        });
    };
    // Notifications get no answer, whatever their shape.
    if !message.contains_key("id") {
        return None;
    }
    let params = message.get("params").cloned();
    // MCP's parameters are always an object; the protocol loop answers
    // anything else without the request's id.
    if !matches!(params, None | Some(Value::Object(_) | Value::Null)) {
        return Some(Refusal {
            id,
            code: INVALID_PARAMS,
            message: format!("invalid params for {method}: \"params\" must be an object"),
        });
    }
    let problem = match method.as_str() {
        "initialize" => params_error::<InitializeRequestParams>(params),
        "tools/call" => params_error::<CallToolRequestParams>(params),
        "resources/read" => params_error::<ReadResourceRequestParams>(params),
        "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list" => {
            params_error::<Option<PaginatedRequestParams>>(params)
        }
        _ => None,
    }?;
    Some(Refusal {
        id,
        code: INVALID_PARAMS,
        message: format!("invalid params for {method}: {problem}"),
    })
}

/// Why `params` is not a `T`, if it is not.
fn params_error<T: DeserializeOwned>(params: Option<Value>) -> Option<String> {
    let params = params.unwrap_or(Value::Null);
    // A missing object where one is required reads better than serde's
    // "invalid type: null".
    serde_json::from_value::<T>(params).err().map(|e| {
        let text = e.to_string();
        if text.starts_with("invalid type: null") {
            "\"params\" is required and must be an object".to_owned()
        } else {
            text
        }
    })
}

/// What a scan of a line found.
#[derive(Debug, Default)]
struct Scan {
    /// The deepest nesting of arrays and objects.
    depth: usize,
    /// The top-level `"id"`, when it is a number or a string.
    id: Option<Value>,
    /// Lone surrogate escapes replaced by `\ufffd`.
    surrogates: usize,
    /// A top-level key named twice (JSON parsers keep one of the two
    /// values; which one differs, so the message is refused).
    repeated_key: Option<String>,
}

/// One pass over a line, however broken: its nesting depth, its `id` (for
/// the error response, even when the rest cannot be read) and its lone
/// surrogate escapes, replaced in place by `\ufffd` (the same length).
fn scan(line: &mut [u8]) -> Scan {
    let mut out = Scan::default();
    let mut depth = 0_usize;
    let mut i = 0;
    // The top-level key just read, while its value is awaited.
    let mut key: Option<String> = None;
    let mut keys: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut expect_key = false;
    // Whether the outermost value is an object (an array has no keys).
    let mut top_is_object = false;
    while let Some(&b) = line.get(i) {
        match b {
            b'{' | b'[' => {
                depth += 1;
                if depth == 1 {
                    top_is_object = b == b'{';
                }
                out.depth = out.depth.max(depth);
                expect_key = depth == 1 && b == b'{';
                key = None;
                i += 1;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b',' => {
                expect_key = depth == 1 && top_is_object;
                key = None;
                i += 1;
            }
            b'"' => {
                let start = i + 1;
                let end = string_end(line, start, &mut out.surrogates);
                if depth == 1 {
                    if expect_key {
                        let name = key_name(line, start, end);
                        if !keys.insert(name.clone()) && out.repeated_key.is_none() {
                            out.repeated_key = Some(name.clone());
                        }
                        key = Some(name);
                        expect_key = false;
                    } else if key.as_deref() == Some("id") && out.id.is_none() {
                        out.id = line
                            .get(start.saturating_sub(1)..end.saturating_add(1).min(line.len()))
                            .and_then(|raw| serde_json::from_slice(raw).ok());
                    }
                }
                i = end + 1;
            }
            b'-' | b'0'..=b'9'
                if depth == 1 && key.as_deref() == Some("id") && out.id.is_none() =>
            {
                let end = line
                    .get(i..)
                    .and_then(|rest| {
                        rest.iter().position(|c| {
                            !matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                        })
                    })
                    .map_or(line.len(), |n| i + n);
                out.id = line
                    .get(i..end)
                    .and_then(|raw| serde_json::from_slice::<serde_json::Number>(raw).ok())
                    .map(Value::Number);
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

/// The name of the key whose content is `line[start..end]`, its escapes
/// read (`"i\u0064"` is `id`).
fn key_name(line: &[u8], start: usize, end: usize) -> String {
    let raw = line.get(start..end).unwrap_or_default();
    if raw.contains(&b'\\') {
        let quoted = line.get(start.saturating_sub(1)..end.saturating_add(1).min(line.len()));
        if let Some(name) = quoted.and_then(|q| serde_json::from_slice::<String>(q).ok()) {
            return name;
        }
    }
    String::from_utf8_lossy(raw).into_owned()
}

/// The index of the quote that ends the string whose content starts at
/// `start` (the line's length when it never ends), replacing lone
/// surrogate escapes on the way.
fn string_end(line: &mut [u8], start: usize, replaced: &mut usize) -> usize {
    let mut i = start;
    // Where the last high surrogate escape started, when the escape just
    // before the cursor was one.
    let mut pending_high: Option<usize> = None;
    while let Some(&b) = line.get(i) {
        match b {
            b'"' => break,
            b'\\' => {
                if line.get(i + 1) == Some(&b'u') {
                    let unit = line
                        .get(i + 2..i + 6)
                        .and_then(|h| std::str::from_utf8(h).ok())
                        .and_then(|h| u16::from_str_radix(h, 16).ok());
                    match unit {
                        Some(0xD800..=0xDBFF) => {
                            if let Some(at) = pending_high {
                                replace_escape(line, at, replaced);
                            }
                            pending_high = Some(i);
                        }
                        Some(0xDC00..=0xDFFF) => {
                            if pending_high.take().is_none() {
                                replace_escape(line, i, replaced);
                            }
                        }
                        _ => {
                            if let Some(at) = pending_high.take() {
                                replace_escape(line, at, replaced);
                            }
                        }
                    }
                    i += 6;
                } else {
                    if let Some(at) = pending_high.take() {
                        replace_escape(line, at, replaced);
                    }
                    i += 2;
                }
                continue;
            }
            _ => {
                if let Some(at) = pending_high.take() {
                    replace_escape(line, at, replaced);
                }
            }
        }
        i += 1;
    }
    if let Some(at) = pending_high {
        replace_escape(line, at, replaced);
    }
    i.min(line.len())
}

/// Writes `\ufffd` over the six-byte escape at `at`.
fn replace_escape(line: &mut [u8], at: usize, replaced: &mut usize) {
    if let Some(escape) = line.get_mut(at..at + 6) {
        escape.copy_from_slice(b"\\ufffd");
        *replaced += 1;
    }
}

/// Reads `reader` a line at a time, passes good lines to `to_loop` and
/// answers the others on `replies`; ends at the end of input or when the
/// protocol loop is gone.
pub(crate) async fn gate<R, W>(
    reader: R,
    mut to_loop: W,
    replies: mpsc::Sender<Vec<u8>>,
    limit: usize,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut reader = BufReader::with_capacity(64 << 10, reader);
    let mut number = 0_u64;
    loop {
        let (line, over, ended) = match read_line(&mut reader, limit).await {
            Ok(Some(read)) => read,
            Ok(None) => break,
            Err(e) => {
                eprintln!("flexmd mcp: cannot read the client's messages: {e}");
                break;
            }
        };
        number += 1;
        match check_line(line, over, limit) {
            Verdict::Skip => {}
            Verdict::Pass(mut line, surrogates, _) => {
                if surrogates > 0 {
                    eprintln!(
                        "flexmd mcp: message {number}: {surrogates} lone surrogate escape(s) \
                         read as U+FFFD"
                    );
                }
                line.push(b'\n');
                if to_loop.write_all(&line).await.is_err() || to_loop.flush().await.is_err() {
                    break;
                }
            }
            Verdict::Refuse(refusal) => {
                let mut note = format!("flexmd mcp: message {number}");
                if !refusal.id.is_null() {
                    let _ = write!(note, " (id {})", refusal.id);
                }
                eprintln!("{note}: error {}: {}", refusal.code, refusal.message);
                if replies.send(refusal.response()).await.is_err() {
                    break;
                }
            }
        }
        if ended {
            break;
        }
    }
    let _ = to_loop.shutdown().await;
}

/// The next line: its bytes (only the first [`ID_PREFIX`] when it is over
/// `limit`), its length when over, and whether the input ended with it
/// (a last line without a newline). `None` at the end of input.
async fn read_line<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
    limit: usize,
) -> std::io::Result<Option<(Vec<u8>, Option<usize>, bool)>> {
    let mut line = Vec::new();
    let mut length = 0_usize;
    loop {
        let buffer = reader.fill_buf().await?;
        if buffer.is_empty() {
            return Ok((length > 0).then(|| {
                let over = (length > limit).then_some(length);
                (line, over, true)
            }));
        }
        let (chunk, found) = match buffer.iter().position(|&b| b == b'\n') {
            Some(n) => (buffer.get(..n).unwrap_or(buffer), true),
            None => (buffer, false),
        };
        length = length.saturating_add(chunk.len());
        if length > limit {
            // Over the limit only a prefix is kept, to find the id in.
            line.truncate(ID_PREFIX);
            let keep = ID_PREFIX.saturating_sub(line.len()).min(chunk.len());
            line.extend_from_slice(chunk.get(..keep).unwrap_or(chunk));
        } else {
            line.extend_from_slice(chunk);
        }
        let used = chunk.len() + usize::from(found);
        reader.consume(used);
        if found {
            let over = (length > limit).then_some(length);
            return Ok(Some((line, over, false)));
        }
    }
}

/// Writes whole lines to `writer` as they come: the protocol loop's and
/// the gate's, never interleaved within a line.
pub(crate) async fn write_lines<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut lines: mpsc::Receiver<Vec<u8>>,
) {
    while let Some(line) = lines.recv().await {
        if writer.write_all(&line).await.is_err() || writer.flush().await.is_err() {
            break;
        }
    }
}

/// Passes the protocol loop's output, a line at a time, to the writer.
pub(crate) async fn forward_lines<R: AsyncRead + Unpin>(reader: R, lines: mpsc::Sender<Vec<u8>>) {
    let mut reader = BufReader::new(reader);
    loop {
        let mut line = Vec::new();
        match reader.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                if lines.send(line).await.is_err() {
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(line: &[u8]) -> Refusal {
        match check_line(line.to_vec(), None, 1 << 20) {
            Verdict::Refuse(r) => r,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn garbage_is_a_parse_error_with_the_id_when_it_can_be_read() {
        let r = refusal(br#"{"jsonrpc":"2.0","id":7,"method":"ping","params":{"#);
        assert_eq!((r.id, r.code), (json!(7), PARSE_ERROR));
        let r = refusal(b"not json");
        assert_eq!((r.id, r.code), (Value::Null, PARSE_ERROR));
        assert!(
            r.message
                .starts_with("the message is not JSON: expected ident")
        );
    }

    #[test]
    fn a_member_named_twice_is_refused() {
        // Found by the mcp_session fuzz target (its regression r001): the
        // protocol loop answered "Invalid request" without an id, and
        // logged nothing.
        let r =
            refusal(br#"{"jsonrpc":"2.0","id":1,"methonrpc":"2.0","id":2,"method":"tools/list"}"#);
        assert_eq!((r.id, r.code), (Value::Null, INVALID_REQUEST));
        assert_eq!(
            r.message,
            "the message names its member \"id\" twice; a JSON-RPC message names each member once"
        );
        // An escape spells the same name; another member keeps the id.
        let r = refusal(br#"{"jsonrpc":"2.0","id":4,"method":"ping","meth\u006fd":"ping"}"#);
        assert_eq!((r.id, r.code), (json!(4), INVALID_REQUEST));
        assert!(r.message.contains("\"method\" twice"), "{}", r.message);
        // Repeats inside the parameters, or strings of an array, are not members.
        let fine = br#"{"jsonrpc":"2.0","id":5,"method":"ping","params":{"a":1,"b":{"a":2},"c":["a","a"]}}"#;
        assert!(matches!(
            check_line(fine.to_vec(), None, 1 << 20),
            Verdict::Pass(_, 0, _)
        ));
        let r = refusal(br#"["id","id"]"#);
        assert!(
            r.message.starts_with("a JSON-RPC message is a JSON object"),
            "{}",
            r.message
        );
    }

    #[test]
    fn invalid_utf8_is_a_parse_error_naming_the_byte() {
        let r = refusal(b"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\",\"x\":\"\xff\"}");
        assert_eq!((r.id, r.code), (json!("a"), PARSE_ERROR));
        assert!(r.message.contains("byte 47 "), "{}", r.message);
    }

    #[test]
    fn too_deep_is_refused_with_the_id() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"x","arguments":{{"data":{}{}}}}}}}"#,
            "[".repeat(130),
            "]".repeat(130)
        );
        let r = refusal(deep.as_bytes());
        assert_eq!((r.id, r.code), (json!(3), INVALID_REQUEST));
        assert!(r.message.starts_with("the message nests 133 levels deep"));
        let fits = format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"ping","params":{{"data":{}{}}}}}"#,
            "[".repeat(125),
            "]".repeat(125)
        );
        assert!(matches!(
            check_line(fits.into_bytes(), None, 1 << 20),
            Verdict::Pass(_, 0, _)
        ));
    }

    #[test]
    fn over_the_limit_is_refused_with_the_id_from_its_start() {
        let r = match check_line(
            br#"{"jsonrpc":"2.0","id":12,"method":"#.to_vec(),
            Some(99),
            50,
        ) {
            Verdict::Refuse(r) => r,
            other => panic!("{other:?}"),
        };
        assert_eq!((r.id, r.code), (json!(12), INVALID_REQUEST));
        assert!(
            r.message.starts_with(
                "the message is 99 bytes or more, over the server's limit of 50 bytes"
            )
        );
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let line = br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"x\ud800y","b":"\ud83d\ude00","c":"\udc00\\ud800","d":"\ud800\ud800"}}"#;
        match check_line(line.to_vec(), None, 1 << 20) {
            Verdict::Pass(line, n, _) => {
                assert_eq!(n, 4);
                let value: Value = serde_json::from_slice(&line).unwrap_or_default();
                assert_eq!(
                    value["params"],
                    json!({"a": "x\u{fffd}y", "b": "😀", "c": "\u{fffd}\\ud800", "d": "\u{fffd}\u{fffd}"})
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn wrong_params_for_a_known_method_are_invalid_params() {
        let r = refusal(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"detect","arguments":5}}"#);
        assert_eq!((r.id, r.code), (json!(1), INVALID_PARAMS));
        assert!(
            r.message.starts_with(
                "invalid params for tools/call: invalid type: integer `5`, expected a map"
            ),
            "{}",
            r.message
        );
        let r = refusal(br#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#);
        assert_eq!(
            r.message,
            "invalid params for tools/call: \"params\" is required and must be an object"
        );
        let r = refusal(br#"{"jsonrpc":"2.0","id":2,"method":"ping","params":5}"#);
        assert_eq!((r.id, r.code), (json!(2), INVALID_PARAMS));
        assert_eq!(
            r.message,
            "invalid params for ping: \"params\" must be an object"
        );
    }

    #[test]
    fn messages_that_are_not_requests_say_what_is_missing() {
        assert_eq!(refusal(b"[1,2]").code, INVALID_REQUEST);
        assert_eq!(
            refusal(br#"{"id":1,"method":"ping"}"#).message,
            "a JSON-RPC message has \"jsonrpc\": \"2.0\""
        );
        assert_eq!(
            refusal(br#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#).id,
            Value::Null
        );
        assert_eq!(
            refusal(br#"{"jsonrpc":"2.0","id":4}"#).message,
            "a request has a \"method\""
        );
    }

    #[test]
    fn good_lines_and_notifications_pass_untouched() {
        // The id comes back for requests only: a response carries one but
        // is owed nothing.
        for (line, request) in [
            (
                br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.as_slice(),
                Some(json!(1)),
            ),
            (
                br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                None,
            ),
            (
                br#"{"jsonrpc":"2.0","id":"a","method":"nosuch","params":{}}"#,
                Some(json!("a")),
            ),
            (br#"{"jsonrpc":"2.0","id":1,"result":{}}"#, None),
        ] {
            assert_eq!(
                check_line(line.to_vec(), None, 1 << 20),
                Verdict::Pass(line.to_vec(), 0, request)
            );
        }
        assert_eq!(check_line(b"  \r".to_vec(), None, 10), Verdict::Skip);
    }

    #[tokio::test]
    async fn an_over_long_line_is_skipped_to_its_end() {
        let input: Vec<u8> = [
            br#"{"id":5,"#.as_slice(),
            &vec![b'x'; 200_000],
            b"\nnext\nlast",
        ]
        .concat();
        let mut reader = BufReader::with_capacity(1024, input.as_slice());
        let first = read_line(&mut reader, 1000).await.ok().flatten();
        let (line, over, ended) = first.unwrap_or_default();
        assert_eq!((line.len(), over, ended), (ID_PREFIX, Some(200_008), false));
        assert!(line.starts_with(br#"{"id":5,"#));
        let second = read_line(&mut reader, 1000).await.ok().flatten();
        assert_eq!(second, Some((b"next".to_vec(), None, false)));
        let third = read_line(&mut reader, 1000).await.ok().flatten();
        assert_eq!(third, Some((b"last".to_vec(), None, true)));
        assert_eq!(read_line(&mut reader, 1000).await.ok().flatten(), None);
    }
}
