//! A whole agent turn with a fake model: the model calls a host tool whose
//! result is too large for the prompt, flexmd spools it and shows a notice,
//! the model queries it with the forged artifact tools, then answers.
//!
//! Run it with `cargo run -p flexmd-artifact --example agent_turn`.

use flexmd_artifact::{ResultKind, ToolDefinition, Turn, TurnOptions};
use serde_json::json;

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Message {
    /// `user`, `assistant` (with a tool call) or `tool` (a result).
    pub(crate) role: &'static str,
    /// What it says.
    pub(crate) text: String,
}

/// The host's own tools.
fn host_tools() -> Vec<ToolDefinition> {
    vec![ToolDefinition {
        name: "query_orders".to_owned(),
        description: "Return today's orders as JSON Lines.".to_owned(),
        parameters: json!({"type": "object", "properties": {}}),
    }]
}

/// The host tool itself: 2 000 orders, one JSON object per line.
fn query_orders() -> String {
    (0..2000)
        .map(|i| {
            let status = if i % 250 == 7 { "failed" } else { "shipped" };
            format!(
                "{{\"id\": {i}, \"customer\": \"c{}\", \"status\": \"{status}\"}}\n",
                i % 97
            )
        })
        .collect()
}

/// The fake model: the tool calls it makes in order, then its answer. A
/// real model would choose these from the tools offered and the results.
const SCRIPT: &[(&str, &str)] = &[
    ("query_orders", "{}"),
    ("artifact_json_length", r#"{"callId": "call_1"}"#),
    (
        "artifact_json_filter",
        r#"{"callId": "call_1", "path": "$[?(@.status === \"failed\")]"}"#,
    ),
];

/// Runs the turn and returns the conversation.
pub(crate) fn conversation() -> Vec<Message> {
    let mut messages = vec![Message {
        role: "user",
        text: "Which of today's orders failed?".to_owned(),
    }];
    let mut turn = Turn::new(TurnOptions::default());
    for (n, (tool, arguments)) in SCRIPT.iter().enumerate() {
        // What the model is offered at this step: the host's tools, and the
        // artifact tools once there is an artifact.
        let offered: Vec<String> = turn
            .merged_definitions(&host_tools())
            .into_iter()
            .map(|d| d.name)
            .collect();
        assert!(offered.iter().any(|name| name == tool), "{tool} is offered");
        let call_id = format!("call_{}", n + 1);
        messages.push(Message {
            role: "assistant",
            text: format!("(calls {tool} {arguments}, callId {call_id})"),
        });
        // The host runs the call: its own tool, or an artifact tool.
        let result = if turn.is_artifact_tool(tool) {
            turn.dispatch(tool, arguments)
                .unwrap_or_else(|e| format!("error: {e}"))
        } else {
            query_orders()
        };
        // Every result goes through the turn: large ones become artifacts.
        let shown = turn
            .add_result(&call_id, tool, result, ResultKind::Auto)
            .map(|out| out.text().to_owned())
            .unwrap_or_else(|e| format!("error: {e}"));
        messages.push(Message {
            role: "tool",
            text: shown,
        });
    }
    messages.push(Message {
        role: "assistant",
        text: "8 of the 2000 orders failed: ids 7, 257, 507, 757, 1007, 1257, 1507 and 1757."
            .to_owned(),
    });
    // The turn is over: the artifact and its tools go.
    turn.end();
    assert!(turn.merged_definitions(&host_tools()).len() == 1);
    messages
}

fn main() {
    for message in conversation() {
        println!("── {} ──\n{}\n", message.role, message.text);
    }
}
