//! StreamingJson against find_json: for generated answers cut into pieces
//! in every way, the partial value only grows, its patches rebuild it, and
//! the end is find_json of the whole text.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_detect::{JsonPatchOp, JsonUpdate, PathState, StreamingJson, find_json};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        "[a-z '\"\\\\/\n\t\u{e9}\u{4e2d}\u{1F600}]{0,10}".prop_map(Value::String),
    ];
    let inner = leaf.prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec(("[a-z~/ ]{1,5}", inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    });
    // An object with members, or an array of them: data wherever it
    // stands (find_json does not take `[[]]` or `[1]` in a sentence).
    let object = prop::collection::vec(("[a-z]{1,5}", inner), 1..5)
        .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>()));
    prop_oneof![
        object.clone(),
        prop::collection::vec(object, 1..4).prop_map(Value::Array),
    ]
}

/// How a model writes the value.
#[derive(Debug, Clone, Copy)]
enum Style {
    Compact,
    Pretty,
    /// Every non-ASCII character as `\uXXXX` (surrogate pairs for emoji).
    Ascii,
}

fn write(value: &Value, style: Style) -> String {
    match style {
        Style::Compact => serde_json::to_string(value).unwrap(),
        Style::Pretty => serde_json::to_string_pretty(value).unwrap(),
        Style::Ascii => {
            let mut out = String::new();
            for c in serde_json::to_string(value).unwrap().chars() {
                if c.is_ascii() {
                    out.push(c);
                } else {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        out.push_str(&format!("\\u{unit:04x}"));
                    }
                }
            }
            out
        }
    }
}

/// Where the value sits in the answer.
fn answer() -> impl Strategy<Value = (Value, String)> {
    let style = prop_oneof![
        Just(Style::Compact),
        Just(Style::Pretty),
        Just(Style::Ascii)
    ];
    let wrap = prop::sample::select(vec![
        "{}",
        "  {}\n",
        "Here is the result:\n\n```json\n{}\n```\n",
        "```\n{}\n```",
        "<think>\nMaybe {\"draft\": true}?\n</think>\n{}",
        "Sure [1]. The {braces} aside: {} Hope it helps!",
        "Draft:\n```json\n[0]\n```\nFinal:\n```json\n{}\n```\n",
        "```python\nx = {}\n```\nSo:\n~~~json\n{}\n~~~\n",
        "\u{feff}{}",
        "Text\r\n```JSON\r\n{}\r\n```\r\n",
    ]);
    (json_value(), style, wrap).prop_map(|(value, style, wrap)| {
        let written = write(&value, style);
        let text = wrap.replace("{}", &written);
        (value, text)
    })
}

/// Applies RFC 6902 operations (add, replace, remove) to `doc`.
fn apply(doc: &mut Value, patches: &[JsonPatchOp]) {
    for op in patches {
        let (path, value) = match op {
            JsonPatchOp::Add { path, value } | JsonPatchOp::Replace { path, value } => {
                (path, Some(value.clone()))
            }
            JsonPatchOp::Remove { path } => (path, None),
        };
        if path.is_empty() {
            *doc = value.unwrap_or(Value::Null);
            continue;
        }
        let (parent, last) = path.rsplit_once('/').unwrap();
        let last = last.replace("~1", "/").replace("~0", "~");
        let target = doc.pointer_mut(parent).expect("the parent exists");
        match (target, value) {
            (Value::Object(map), Some(v)) => {
                map.insert(last, v);
            }
            (Value::Object(map), None) => {
                map.shift_remove(&last).expect("removes a member");
            }
            (Value::Array(items), Some(v)) => {
                let i: usize = last.parse().unwrap();
                if matches!(op, JsonPatchOp::Add { .. }) {
                    items.insert(i, v);
                } else {
                    items[i] = v;
                }
            }
            (Value::Array(items), None) => {
                items.remove(last.parse().unwrap());
            }
            (other, _) => panic!("{path} points into {other}"),
        }
    }
}

/// `new` only adds to `old`: strings grow, nothing else changes or goes.
fn grows(old: &Value, new: &Value) -> bool {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            a.iter().all(|(k, v)| b.get(k).is_some_and(|w| grows(v, w)))
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len() && a.iter().zip(b).all(|(v, w)| grows(v, w))
        }
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        _ => old == new,
    }
}

/// Every scalar shown is final; every string shown is a prefix of the final.
fn agrees_with_final(shown: &Value, fin: &Value) -> bool {
    match (shown, fin) {
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        _ => grows(shown, fin),
    }
}

/// Streams `text` cut at `cuts`; checks every push; returns the last value
/// and the end.
fn stream(
    text: &str,
    cuts: &[usize],
) -> Result<(Option<Value>, flexmd_detect::JsonStreamEnd), TestCaseError> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (text.len() + 1)).collect();
    points.push(text.len());
    points.sort_unstable();
    let mut s = StreamingJson::new();
    let mut shown: Option<Value> = None;
    let mut at = 0;
    for mut end in points {
        while !text.is_char_boundary(end) {
            end += 1;
        }
        if end <= at {
            continue;
        }
        let update: JsonUpdate = s.push(&text[at..end]);
        at = end;
        let now = s.value().cloned();
        // The patches turn the value before the push into the one after.
        let mut rebuilt = shown.clone().unwrap_or(Value::Null);
        apply(&mut rebuilt, &update.patches);
        prop_assert_eq!(
            Some(&rebuilt),
            now.as_ref().or(Some(&Value::Null)),
            "patches {:?}",
            update.patches
        );
        if let (Some(old), Some(new), false) = (&shown, &now, update.restarted) {
            prop_assert!(
                grows(old, new),
                "{} then {} after {:?}",
                old,
                new,
                &text[..at]
            );
        }
        if let Some(new) = &now {
            for path in &update.done {
                prop_assert!(new.pointer(path).is_some(), "done {} not in {}", path, new);
                prop_assert_eq!(s.state(path), Some(PathState::Done));
            }
            if let Some(cursor) = &update.cursor {
                prop_assert_eq!(s.state(&cursor.path), Some(cursor.state));
                match cursor.state {
                    PathState::Partial => prop_assert!(new.pointer(&cursor.path).is_some()),
                    PathState::Pending => prop_assert!(new.pointer(&cursor.path).is_none()),
                    PathState::Done => prop_assert!(false, "the cursor is done"),
                }
                let (parent, _) = cursor.path.rsplit_once('/').unwrap_or_default();
                if !cursor.path.is_empty() {
                    prop_assert_eq!(s.state(parent), Some(PathState::Partial));
                }
            }
        }
        shown = now;
    }
    let end = s.finish();
    let whole = find_json(text);
    prop_assert_eq!(&end.found, &whole);
    let mut last = shown.clone().unwrap_or(Value::Null);
    apply(&mut last, &end.patches);
    prop_assert_eq!(last, whole.map_or(Value::Null, |f| f.value));
    Ok((shown, end))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_complete_answer_streams_to_its_value(
        (value, text) in answer(),
        cuts in proptest::collection::vec(any::<usize>(), 0..12),
    ) {
        let (shown, end) = stream(&text, &cuts)?;
        prop_assert_eq!(end.found.as_ref().map(|f| &f.value), Some(&value), "find_json of {:?}", text);
        // Everything was shown on the way: the end adds nothing.
        prop_assert_eq!(shown.as_ref(), Some(&value));
        prop_assert!(end.patches.is_empty());
    }

    #[test]
    fn one_character_at_a_time((value, text) in answer()) {
        let cuts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        let (shown, end) = stream(&text, &cuts)?;
        prop_assert_eq!(shown.as_ref(), Some(&value));
        prop_assert!(end.patches.is_empty());
    }

    #[test]
    fn a_cut_off_answer_grows_then_ends_as_find_json(
        (value, text) in answer(),
        cut in any::<usize>(),
        cuts in proptest::collection::vec(any::<usize>(), 0..8),
    ) {
        let mut cut = cut % (text.len() + 1);
        while !text.is_char_boundary(cut) {
            cut += 1;
        }
        let (shown, _) = stream(&text[..cut], &cuts)?;
        // What was shown of a cut-off answer is part of the whole answer
        // (scalars final, strings prefixes), unless a draft came first.
        if let Some(shown) = shown
            && !text.contains("draft")
            && !text.contains("[0]")
        {
            prop_assert!(agrees_with_final(&shown, &value), "{} vs {}", shown, value);
        }
    }

    #[test]
    fn any_text_never_breaks_the_stream(
        text in "[{}\\[\\]\"':,\\\\ a-z0-9\n`<>/*.é]{0,80}",
        cuts in proptest::collection::vec(any::<usize>(), 0..10),
    ) {
        stream(&text, &cuts)?;
    }
}

#[test]
fn every_split_of_small_answers() {
    let answers = [
        r#"{"a": "x\"y\\z\u00e9", "n": -1.5e3, "t": [true, false, null]}"#,
        "Reply:\n```json\n{\"k\": [1, 2, {\"d\": \"\\ud83d\\ude00\"}]}\n```\nDone.",
        "<think>{\"n\": 0}</think>\n{'n': 1, m: None,}",
    ];
    for text in answers {
        for cut in 0..=text.len() {
            stream(text, &[cut]).unwrap();
        }
        let each: Vec<usize> = (0..text.len()).collect();
        let (shown, end) = stream(text, &each).unwrap();
        assert_eq!(shown, end.found.map(|f| f.value), "{text}");
    }
}

#[test]
fn the_end_adds_a_number_the_text_ends_in() {
    let mut s = StreamingJson::new();
    s.push("{\"a\": [1, 2");
    assert_eq!(s.value(), Some(&json!({"a": [1]})));
    let end = s.finish();
    assert_eq!(
        end.patches,
        [JsonPatchOp::Add {
            path: "/a/1".into(),
            value: json!(2)
        }]
    );
}

#[test]
fn hostile_streams_stay_bounded() {
    // 100 000 brackets one at a time: the parser stops at 128 levels and
    // each push stays small.
    let mut s = StreamingJson::new();
    for _ in 0..100_000 {
        s.push("[");
    }
    assert_eq!(s.state(""), Some(PathState::Partial));
    let end = s.finish();
    assert_eq!(end.found, find_json(&"[".repeat(100_000)));
    // 200 000 elements in 16-byte chunks: one linear pass.
    let text = format!("[{}1]", "1,".repeat(200_000));
    let mut s = StreamingJson::new();
    let mut count = 0;
    for chunk in text.as_bytes().chunks(16) {
        count += s.push(std::str::from_utf8(chunk).unwrap()).patches.len();
    }
    // The first push shows the root with its first seven elements.
    assert_eq!(count, 1 + 200_001 - 7, "one patch per element");
    assert_eq!(
        s.value().and_then(Value::as_array).map(Vec::len),
        Some(200_001)
    );
}

#[test]
fn a_stream_of_one_long_line_reads_it_once() {
    // A line waited on (a fence's or a reasoning tag's) is searched once,
    // not once a piece; a string of 2 MB grows in place.
    for text in [
        format!("```{}", "j".repeat(2_000_000)),
        format!("<think{}", " ".repeat(2_000_000)),
        format!("{}{{\"a\": 1}}", " ".repeat(2_000_000)),
        format!("```json\n{}[1]\n```", " ".repeat(2_000_000)),
    ] {
        let mut s = StreamingJson::new();
        for piece in text.as_bytes().chunks(16) {
            let _ = s.push(std::str::from_utf8(piece).unwrap());
        }
        assert_eq!(s.finish().found, find_json(&text));
    }
}
