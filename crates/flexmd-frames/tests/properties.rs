//! Round-trip and robustness properties over generated documents and text.

// Test helpers may panic: a panic here is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_core::{FlexDocument, FlexFrame, FlexMetaValue, FlexPayload};
use flexmd_frames::{HeaderStyle, ParseOptions, StringifyOptions, parse, stringify};
use indexmap::IndexMap;
use proptest::prelude::*;

fn word() -> impl Strategy<Value = String> {
    "[A-Za-z0-9][A-Za-z0-9.,!?*_`'()-]{0,8}".prop_map(String::from)
}

/// One line of words: no leading or trailing space.
fn text_line() -> impl Strategy<Value = String> {
    proptest::collection::vec(word(), 1..6).prop_map(|w| w.join(" "))
}

fn key() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9_]{0,6}".prop_filter("reserved", |k| k != "payload")
}

fn meta() -> impl Strategy<Value = Option<IndexMap<String, FlexMetaValue>>> {
    proptest::option::of(
        proptest::collection::vec(
            prop_oneof![
                (key(), text_line()).prop_map(|(k, v)| (k, FlexMetaValue::String(v))),
                (key(), Just(String::new())).prop_map(|(k, v)| (k, FlexMetaValue::String(v))),
                proptest::collection::vec("[a-z0-9]([a-z0-9 ]{0,5}[a-z0-9])?", 0..4)
                    .prop_map(|v| ("tags".to_owned(), FlexMetaValue::Strings(v))),
            ],
            1..4,
        )
        .prop_map(|pairs| {
            let mut map = IndexMap::new();
            for (k, v) in pairs {
                map.entry(k).or_insert(v);
            }
            map
        }),
    )
}

fn payload() -> impl Strategy<Value = FlexPayload> {
    prop_oneof![
        (
            prop_oneof![
                Just(None),
                Just(Some("text".to_owned())),
                Just(Some("py".to_owned()))
            ],
            proptest::collection::vec(
                prop_oneof![
                    text_line(),
                    Just("```".to_owned()),
                    Just("~~~".to_owned()),
                    Just(String::new())
                ],
                0..5
            ),
        )
            .prop_map(|(lang, lines)| {
                let raw: String = lines.iter().map(|l| format!("{l}\n")).collect();
                FlexPayload {
                    lang,
                    value: serde_json::Value::String(raw.clone()),
                    raw,
                    parse_error: None,
                }
            }),
        proptest::collection::vec((key(), any::<i32>()), 0..4).prop_map(|pairs| {
            let value: serde_json::Value = pairs
                .into_iter()
                .map(|(k, v)| (k, serde_json::Value::from(v)))
                .collect::<serde_json::Map<_, _>>()
                .into();
            FlexPayload {
                lang: Some("json".to_owned()),
                raw: format!("{value}\n"),
                value,
                parse_error: None,
            }
        }),
    ]
}

fn attr_value() -> impl Strategy<Value = String> {
    prop_oneof![word(), "[ -~\u{e9}\n\t]{0,12}".prop_map(String::from)]
}

fn frame() -> impl Strategy<Value = FlexFrame> {
    (
        "[a-z][a-z_]{0,7}",
        proptest::option::of(attr_value()),
        proptest::option::of(attr_value()),
        proptest::option::of(attr_value()),
        meta(),
        proptest::option::of(text_line()),
        proptest::option::of(proptest::collection::vec(
            prop_oneof![text_line(), Just(String::new())],
            1..5,
        )),
        proptest::option::of(proptest::collection::vec((key(), payload()), 1..3)),
    )
        .prop_map(|(frame_type, role, id, ts, meta, title, body, payloads)| {
            let body = body
                .map(|lines| lines.join("\n").trim_matches('\n').to_owned())
                .filter(|b| !b.is_empty());
            let payloads = payloads.map(|ps| {
                let mut map = IndexMap::new();
                for (k, p) in ps {
                    map.entry(k).or_insert(p);
                }
                map
            });
            FlexFrame {
                frame_type,
                role,
                id,
                ts,
                meta,
                title,
                body_md: body,
                payloads,
            }
        })
}

fn document() -> impl Strategy<Value = FlexDocument> {
    (
        proptest::option::of(text_line()),
        meta(),
        proptest::option::of(text_line()),
        proptest::collection::vec(frame(), 0..4),
    )
        .prop_map(|(title, meta, preamble, frames)| FlexDocument {
            title,
            meta,
            preamble_md: preamble.unwrap_or_default(),
            frames,
        })
}

/// Text shaped like FlexMD: headers (good and broken), meta, bindings,
/// fences, blank lines and prose, with every kind of line ending.
fn flexmd_like() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        Just("[[message role=user id=m1]]".to_owned()),
        Just("## [[message role=\"a b\"]] Title".to_owned()),
        Just("[[message role=user".to_owned()),
        Just("[[Some Page]]".to_owned()),
        Just("@tags: a, b".to_owned()),
        Just("@k: v".to_owned()),
        Just("@payload:name: p".to_owned()),
        Just("@payload:x:".to_owned()),
        Just("```json".to_owned()),
        Just("```".to_owned()),
        Just("~~~~".to_owned()),
        Just("{\"a\": 1}".to_owned()),
        Just("# Title".to_owned()),
        Just("    indented".to_owned()),
        Just("> quote".to_owned()),
        Just("---".to_owned()),
        Just(String::new()),
        text_line(),
        "\\PC{0,12}".prop_map(String::from),
    ];
    let ending = prop_oneof![Just("\n"), Just("\r\n"), Just("\r")];
    proptest::collection::vec((line, ending), 0..30)
        .prop_map(|lines| lines.into_iter().map(|(l, e)| l + e).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parse_reads_back_what_stringify_writes(doc in document(), heading in any::<bool>()) {
        let style = if heading { HeaderStyle::Heading(2) } else { HeaderStyle::Bracket };
        let text = stringify(&doc, &StringifyOptions { header_style: style });
        let parsed = parse(&text, &ParseOptions::default());
        prop_assert!(parsed.diagnostics.is_empty(), "{:?}\n{}", parsed.diagnostics, text);
        prop_assert_eq!(parsed.value, doc, "text:\n{}", text);
    }

    #[test]
    fn stringify_of_parse_is_a_fixed_point(s in flexmd_like()) {
        let options = ParseOptions::default();
        let once = stringify(&parse(&s, &options).value, &StringifyOptions::default());
        let twice = stringify(&parse(&once, &options).value, &StringifyOptions::default());
        prop_assert_eq!(twice, once);
    }

    #[test]
    fn parse_never_panics(s in "\\PC*", anywhere in any::<bool>()) {
        let options = ParseOptions { meta_anywhere: anywhere, ..ParseOptions::default() };
        let parsed = parse(&s, &options);
        let _ = stringify(&parsed.value, &StringifyOptions::default());
    }
}
