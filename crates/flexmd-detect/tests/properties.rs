//! Properties: nothing panics, nothing is lost, spans are sound, valid JSON
//! reads back exactly, and a cut-off document never gains content.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_detect::{
    DetectedKind, JsonMethod, Leniency, RepairKind, detect_objects, find_all_json, find_json,
    locate_pointer, parse_any, parse_json,
};
use proptest::prelude::*;
use serde_json::{Map, Value};

/// Text over an alphabet rich in what the parsers look at.
fn messy_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "```",
        "~~~",
        "````",
        "json",
        "flexmd",
        "md",
        "\n",
        "\r\n",
        "\r",
        " ",
        "  ",
        "{",
        "}",
        "[",
        "]",
        "\"",
        "'",
        "“",
        "”",
        ":",
        ",",
        "//",
        "/*",
        "*/",
        "\\",
        "True",
        "None",
        "nul",
        "1",
        "-",
        ".5",
        "0x",
        "[[m]]",
        "@k: v",
        "@payload:name: p",
        "> ",
        "- ",
        "é",
        "a",
        "key",
        "...",
        "…",
        "+",
        "(",
        ")",
        "#",
        ";",
        "<think>",
        "</think>",
        "\\\"",
        "undefined",
        "NumberLong(",
        "\u{200b}",
        "TRUE",
        "1_0",
        "1.2.3",
        "/a/",
        "```json {",
        "b: ",
    ]);
    prop::collection::vec(pieces, 0..60).prop_map(|v| v.concat())
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        "[a-z \"\\\\\n\u{e9}\u{1F600}]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec(("[a-z]{1,5}", inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Whether `got` could come from a prefix of `full`: no key, element or
/// character that `full` does not have there (numbers may be cut short).
fn is_prefix_of(got: &Value, full: &Value) -> bool {
    match (got, full) {
        (Value::Object(g), Value::Object(f)) => g
            .iter()
            .all(|(k, v)| f.get(k).is_some_and(|fv| is_prefix_of(v, fv))),
        (Value::Array(g), Value::Array(f)) => {
            g.len() <= f.len() && g.iter().zip(f).all(|(a, b)| is_prefix_of(a, b))
        }
        (Value::String(g), Value::String(f)) => f.starts_with(g.as_str()),
        (Value::Number(_), Value::Number(_)) => true,
        _ => got == full,
    }
}

/// Every JSON Pointer into `value`, with the value it points at.
fn pointers(value: &Value, at: String, out: &mut Vec<(String, Value)>) {
    out.push((at.clone(), value.clone()));
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let token = k.replace('~', "~0").replace('/', "~1");
                pointers(v, format!("{at}/{token}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn every_pointer_is_located_at_its_value(value in json_value(), pretty in any::<bool>()) {
        let text = if pretty {
            serde_json::to_string_pretty(&value).unwrap()
        } else {
            serde_json::to_string(&value).unwrap()
        };
        let mut all = Vec::new();
        pointers(&value, String::new(), &mut all);
        for (pointer, expected) in all {
            let at = locate_pointer(&text, &pointer).unwrap();
            let mut read = serde_json::Deserializer::from_str(&text[at..]).into_iter::<Value>();
            let got = read.next().unwrap().unwrap();
            prop_assert_eq!(got, expected, "{}", pointer);
        }
    }

    #[test]
    fn locating_in_any_text_never_panics(text in messy_text(), pointer in "(/[a-z0-9~]{0,3}){0,4}") {
        if let Some(at) = locate_pointer(&text, &pointer) {
            prop_assert!(text.is_char_boundary(at) && at < text.len());
        }
    }

    #[test]
    fn nothing_panics_and_spans_are_sound(text in messy_text()) {
        let objects = detect_objects(&text);
        let mut at = 0;
        let mut last_end = 0;
        let mut rebuilt = String::new();
        for o in &objects {
            prop_assert!(o.start >= last_end && o.start < o.end, "sorted, no overlap: {objects:?}");
            prop_assert_eq!(&text[o.start..o.end], o.raw.as_str());
            last_end = o.end;
            // parse_any leaves in the remainder what reads as no document:
            // a FlexDocument-shaped fence without the types (0.8, or 0.5
            // unclosed) and loose markers holding no frame (0.4).
            let near = |c: f64| (o.confidence - c).abs() < 1e-9;
            let unread = match o.kind {
                DetectedKind::FlexdocJsonFence => near(0.8) || near(0.5),
                DetectedKind::RawFlexmd => {
                    near(0.4)
                        && flexmd_frames::parse(&o.raw, &Default::default())
                            .value
                            .frames
                            .is_empty()
                }
                _ => false,
            };
            if !unread {
                rebuilt.push_str(&text[at..o.start]);
                at = o.end;
            }
        }
        rebuilt.push_str(&text[at..]);
        let parsed = parse_any(&text).value;
        prop_assert_eq!(rebuilt, parsed.remainder, "remainder is the text outside the objects read");

        let found = find_all_json(&text);
        let mut at = 0;
        for f in &found {
            prop_assert!(f.start >= at && f.start <= f.end && f.end <= text.len());
            prop_assert!(text.is_char_boundary(f.start) && text.is_char_boundary(f.end));
            for r in &f.repairs {
                prop_assert!(r.offset <= text.len());
            }
            at = f.end;
        }
        if let Some(mut best) = find_json(&text) {
            best.pick = None;
            // Which part of a value was read is find_json's own note.
            best.repairs.retain(|r| r.kind != RepairKind::PartOfValue);
            if found.contains(&best) {
            } else if best.repairs.iter().any(|r| r.kind == RepairKind::JsonLines) {
                // JSON Lines: find_all_json lists each record.
                let records: Vec<Value> = found
                    .iter()
                    .filter(|f| best.start <= f.start && f.end <= best.end)
                    .map(|f| f.value.clone())
                    .collect();
                prop_assert_eq!(Value::Array(records), best.value);
            } else {
                prop_assert!(false, "find_json found {:?}, find_all_json {:?}", best, found);
            }
        }
        let _ = parse_json(&text, Leniency::Repair);
        let _ = parse_json(&text, Leniency::Json5);
    }

    #[test]
    fn valid_json_reads_back_exactly(value in json_value(), pretty in any::<bool>()) {
        let text = if pretty {
            serde_json::to_string_pretty(&value).unwrap()
        } else {
            serde_json::to_string(&value).unwrap()
        };
        let parsed = parse_json(&text, Leniency::Repair).unwrap();
        prop_assert_eq!(parsed.method, JsonMethod::Strict);
        prop_assert_eq!(&parsed.value, &value);

        let answer = format!("Here it is:\n\n```json\n{text}\n```\n\nAnything else?");
        let found = find_json(&answer).unwrap();
        prop_assert_eq!(&found.value, &value);
        prop_assert_eq!(&answer[found.start..found.end], text.as_str());
    }

    #[test]
    fn a_cut_document_never_gains_content(value in json_value(), cut in any::<prop::sample::Index>()) {
        let text = serde_json::to_string(&value).unwrap();
        let boundaries: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
        let end = *cut.get(&boundaries);
        if let Ok(parsed) = parse_json(&text[..end], Leniency::Repair) {
            prop_assert!(
                is_prefix_of(&parsed.value, &value),
                "{:?} from {:?} is not a prefix of {}", parsed.value, &text[..end], text
            );
        }
    }
}
