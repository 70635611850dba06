//! `StreamingJson` against `find_json`: the same value, whatever the chunks.

#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use super::*;
use serde_json::json;

/// Pushes `text` one character at a time; the value after each push.
fn each_char(text: &str) -> (Vec<Option<Value>>, JsonStreamEnd) {
    let mut stream = StreamingJson::new();
    let mut seen = Vec::new();
    for c in text.chars() {
        stream.push(c.encode_utf8(&mut [0; 4]));
        seen.push(stream.value().cloned());
    }
    (seen, stream.finish())
}

#[test]
fn escapes_are_held_back_until_complete() {
    let text = r#"{"a": "x\u00e9\ud83d\ude00\n"}"#;
    let (seen, end) = each_char(text);
    let strings: Vec<String> = seen
        .iter()
        .filter_map(|v| v.as_ref()?.get("a")?.as_str().map(str::to_owned))
        .collect();
    for pair in strings.windows(2) {
        assert!(pair[1].starts_with(&pair[0]), "{pair:?}");
    }
    assert!(strings.contains(&"xé".to_owned()));
    assert!(
        !strings
            .iter()
            .any(|s| s.contains('\u{FFFD}') || s.contains('\\'))
    );
    assert_eq!(end.found.unwrap().value, json!({"a": "xé😀\n"}));
    assert!(end.patches.is_empty());
}

#[test]
fn scalars_appear_only_when_complete() {
    let (seen, _) = each_char(r#"[12, true, null, -3.5e2, "s"]"#);
    let shown: Vec<Value> = seen.into_iter().flatten().collect();
    for value in &shown {
        for item in value.as_array().unwrap() {
            assert!(
                [json!(12), json!(true), json!(null), json!(-350.0)].contains(item)
                    || item.is_string(),
                "{item}"
            );
        }
    }
}

#[test]
fn patches_rebuild_the_value() {
    let mut stream = StreamingJson::new();
    let first = stream.push("```json\n{\"a\": [1, {\"b\": \"he");
    assert_eq!(
        first.patches,
        [JsonPatchOp::Add {
            path: String::new(),
            value: json!({"a": [1, {"b": "he"}]})
        }]
    );
    let next = stream.push("llo\"}, 2");
    assert_eq!(
        next.patches,
        [JsonPatchOp::Replace {
            path: "/a/1/b".into(),
            value: json!("hello")
        }]
    );
    assert_eq!(next.done, ["/a/1/b", "/a/1"]);
    let cursor = next.cursor.unwrap();
    assert_eq!(
        (cursor.path.as_str(), cursor.state),
        ("/a/2", PathState::Pending)
    );
    assert_eq!(stream.state("/a"), Some(PathState::Partial));
    assert_eq!(stream.state("/a/1"), Some(PathState::Done));
    assert_eq!(stream.state("/b"), None);
}

#[test]
fn reasoning_and_prose_are_skipped() {
    let mut stream = StreamingJson::new();
    stream.push("<think>maybe {\"n\": 1}?</think>\nSure: see [1]. {\"n\": 2}");
    assert_eq!(stream.value(), Some(&json!({"n": 2})));
    assert_eq!(stream.finish().found.unwrap().value, json!({"n": 2}));
}

#[test]
fn a_closing_tag_with_none_open_drops_the_reasoning_before_it() {
    let mut stream = StreamingJson::new();
    stream.push("The user wants n. Draft {\"n\": 1} then check.\n</thi");
    assert_eq!(
        stream.value(),
        Some(&json!({"n": 1})),
        "shown until the tag"
    );
    let update = stream.push("nk>\n\n{\"n\": 2}");
    assert!(update.restarted);
    assert_eq!(stream.value(), Some(&json!({"n": 2})));
    let mut stream = StreamingJson::new();
    stream.push("<think>a</think>\n{\"n\": 1}\n</think>\n");
    assert_eq!(
        stream.value(),
        Some(&json!({"n": 1})),
        "a second closing tag"
    );
    let end = stream.finish().found.unwrap();
    assert_eq!((end.value, end.in_reasoning), (json!({"n": 1}), false));
}

#[test]
fn a_later_json_fence_restarts_the_value() {
    let mut stream = StreamingJson::new();
    stream.push("Draft:\n```json\n{\"n\": 1}\n```\nFinal:\n```json\n[");
    assert_eq!(stream.value(), Some(&json!([])));
    let end = stream.finish();
    assert_eq!(end.found.unwrap().value, json!({"n": 1}));
}

#[test]
fn model_slips_are_read() {
    let (_, end) = each_char("{name: 'Ada', ok: True, tags: ['a', 'b',], // note\n}");
    assert_eq!(
        end.found.unwrap().value,
        json!({"name": "Ada", "ok": true, "tags": ["a", "b"]})
    );
    assert!(end.patches.is_empty(), "{:?}", end.patches);
}
