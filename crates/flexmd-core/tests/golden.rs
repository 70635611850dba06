//! Golden JSON: every contract type serialises to exactly the seed's field
//! names and enum strings (seed §2), and reads back to the same value.

// Test helpers may panic: a panic here is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_core::*;
use indexmap::IndexMap;
use pretty_assertions::assert_eq;
use serde::{Serialize, de::DeserializeOwned};
use std::fmt::Debug;

/// Serialises `value`, compares with `expected` (compact JSON), and reads it back.
fn golden<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T, expected: &str) {
    let json = serde_json::to_string(value).unwrap();
    assert_eq!(
        json, expected,
        "serialised form should match the seed's contract"
    );
    let back: T = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, value, "JSON should read back to the same value");
}

#[test]
fn flex_meta_value_variants() {
    golden(&FlexMetaValue::Null, "null");
    golden(&FlexMetaValue::Bool(true), "true");
    golden(&FlexMetaValue::Number(12.into()), "12");
    golden(&FlexMetaValue::String("0012".into()), r#""0012""#);
    golden(
        &FlexMetaValue::Strings(vec!["a".into(), "b".into()]),
        r#"["a","b"]"#,
    );
}

#[test]
fn flex_payload_with_and_without_parse_error() {
    golden(
        &FlexPayload {
            lang: Some("json".into()),
            raw: "{\"a\":1}".into(),
            value: serde_json::json!({"a": 1}),
            parse_error: None,
        },
        r#"{"lang":"json","raw":"{\"a\":1}","value":{"a":1}}"#,
    );
    golden(
        &FlexPayload {
            lang: None,
            raw: "{".into(),
            value: serde_json::Value::Null,
            parse_error: Some("EOF while parsing an object at line 1 column 1".into()),
        },
        r#"{"raw":"{","value":null,"parseError":"EOF while parsing an object at line 1 column 1"}"#,
    );
}

#[test]
fn flex_document_and_frame() {
    let mut meta = IndexMap::new();
    meta.insert("priority".to_owned(), FlexMetaValue::String("high".into()));
    meta.insert("tags".to_owned(), FlexMetaValue::Strings(vec!["a".into()]));
    let mut payloads = IndexMap::new();
    payloads.insert(
        "input".to_owned(),
        FlexPayload {
            lang: Some("text".into()),
            raw: "hi".into(),
            value: "hi".into(),
            parse_error: None,
        },
    );
    let doc = FlexDocument {
        title: Some("Chat".into()),
        meta: Some(meta.clone()),
        preamble_md: "Intro\n".into(),
        frames: vec![FlexFrame {
            frame_type: "message".into(),
            role: Some("user".into()),
            id: Some("m1".into()),
            ts: Some("2024-01-01".into()),
            meta: Some(meta),
            title: Some("Hello".into()),
            body_md: Some("Hi there\n".into()),
            payloads: Some(payloads),
        }],
    };
    golden(
        &doc,
        concat!(
            r#"{"title":"Chat","meta":{"priority":"high","tags":["a"]},"preamble_md":"Intro\n","frames":[{"type":"message","#,
            r#""role":"user","id":"m1","ts":"2024-01-01","meta":{"priority":"high","tags":["a"]},"#,
            r#""title":"Hello","body_md":"Hi there\n","payloads":{"input":{"lang":"text","raw":"hi","value":"hi"}}}]}"#
        ),
    );
    golden(
        &FlexDocument {
            frames: vec![FlexFrame {
                frame_type: "section".into(),
                ..FlexFrame::default()
            }],
            ..FlexDocument::default()
        },
        r#"{"frames":[{"type":"section"}]}"#,
    );
}

#[test]
fn section_and_table_kinds_use_snake_case_strings() {
    golden(&SectionKind::Prose, r#""prose""#);
    golden(&SectionKind::List, r#""list""#);
    golden(&SectionKind::OrderedList, r#""ordered_list""#);
    golden(&TableKind::Table, r#""table""#);
    golden(&TableKind::OrderedTable, r#""ordered_table""#);
}

#[test]
fn output_format_spec_is_the_seeds_default_ofs() {
    let spec = OutputFormatSpec {
        sections: vec![
            OfsSection {
                name: "Short answer".into(),
                kind: SectionKind::Prose,
                hint: None,
            },
            OfsSection {
                name: "Reasoning".into(),
                kind: SectionKind::OrderedList,
                hint: Some("one step per item".into()),
            },
        ],
        tables: vec![
            OfsTable {
                columns: vec!["property1".into(), "property2".into()],
                kind: TableKind::Table,
                by: None,
            },
            OfsTable {
                columns: vec!["property1".into(), "property2".into()],
                kind: TableKind::OrderedTable,
                by: Some("property2".into()),
            },
        ],
        ..OutputFormatSpec::default()
    };
    golden(
        &spec,
        concat!(
            r#"{"descriptorType":"output_format_spec","format":"markdown","sectionOrderMatters":false,"#,
            r#""sections":[{"name":"Short answer","kind":"prose"},"#,
            r#"{"name":"Reasoning","kind":"ordered_list","hint":"one step per item"}],"#,
            r#""tablesOptional":true,"tables":[{"columns":["property1","property2"],"kind":"table"},"#,
            r#"{"columns":["property1","property2"],"kind":"ordered_table","by":"property2"}],"#,
            r#""emptySectionValue":"None"}"#
        ),
    );
}

#[test]
fn output_format_spec_rejects_wrong_constants_and_fills_defaults() {
    let err =
        serde_json::from_str::<OutputFormatSpec>(r#"{"sectionOrderMatters":true,"sections":[]}"#)
            .unwrap_err();
    assert!(
        err.to_string()
            .contains("sectionOrderMatters must be false"),
        "got {err}"
    );
    assert!(
        serde_json::from_str::<OutputFormatSpec>(r#"{"descriptorType":"other","sections":[]}"#)
            .is_err(),
        "descriptorType is a constant"
    );
    let minimal: OutputFormatSpec = serde_json::from_str(r#"{"sections":[]}"#).unwrap();
    assert!(minimal.tables_optional, "tablesOptional defaults to true");
    assert_eq!(
        minimal.empty_section_value.as_deref(),
        Some("None"),
        "absent means flex-md's default, `None`"
    );
    let leave_empty: OutputFormatSpec =
        serde_json::from_str(r#"{"sections":[],"emptySectionValue":null}"#).unwrap();
    assert_eq!(leave_empty.empty_section_value, None);
    let json = serde_json::to_value(&leave_empty).unwrap();
    assert_eq!(
        json["emptySectionValue"],
        serde_json::Value::Null,
        "written, so it reads back"
    );
    assert_eq!(
        serde_json::from_value::<OutputFormatSpec>(json).unwrap(),
        leave_empty
    );
}

#[test]
fn md_outline_and_node() {
    let outline = MdOutline {
        preamble_md: "Intro\n".into(),
        nodes: vec![MdNode {
            title: "Short answer".into(),
            level: 2,
            key: "short-answer".into(),
            id: None,
            content_md: "Yes.\n".into(),
            children: vec![MdNode {
                title: "Detail".into(),
                level: 3,
                key: "detail".into(),
                id: Some("n2".into()),
                content_md: String::new(),
                children: vec![],
                source: None,
            }],
            source: None,
        }],
        ..MdOutline::default()
    };
    golden(
        &outline,
        concat!(
            r#"{"type":"md_outline","preamble_md":"Intro\n","nodes":[{"title":"Short answer","level":2,"#,
            r#""key":"short-answer","content_md":"Yes.\n","children":[{"title":"Detail","level":3,"#,
            r#""key":"detail","id":"n2","content_md":"","children":[]}]}]}"#
        ),
    );
    golden(&MdOutline::default(), r#"{"type":"md_outline","nodes":[]}"#);
}

#[test]
fn parsed_list_and_items() {
    golden(
        &ParsedList {
            kind: ListKind::Value,
            ordered: true,
            items: vec![ListItem {
                text: "Step".into(),
                index: Some(1),
                children: vec![ListItem {
                    text: "sub".into(),
                    index: None,
                    children: vec![],
                    span: None,
                }],
                span: None,
            }],
        },
        r#"{"kind":"list","ordered":true,"items":[{"text":"Step","index":1,"children":[{"text":"sub","children":[]}]}]}"#,
    );
}

#[test]
fn parsed_table() {
    golden(
        &ParsedTable {
            kind: TableKind::OrderedTable,
            by: Some("name".into()),
            columns: vec!["#".into(), "name".into()],
            rows: vec![vec!["1".into(), "x".into()]],
            span: None,
        },
        r##"{"kind":"ordered_table","by":"name","columns":["#","name"],"rows":[["1","x"]]}"##,
    );
}

#[test]
fn extracted_result() {
    let mut sections = IndexMap::new();
    sections.insert(
        "Assumptions".to_owned(),
        ExtractedSection {
            subtree_md: None,
            node_key: "assumptions".into(),
            node_level: 2,
            md: "- a\n".into(),
            list: Some(ParsedList {
                kind: ListKind::Value,
                ordered: false,
                items: vec![ListItem {
                    text: "a".into(),
                    index: None,
                    children: vec![],
                    span: None,
                }],
            }),
            empty: false,
        },
    );
    sections.insert(
        "Short answer".to_owned(),
        ExtractedSection {
            subtree_md: None,
            node_key: "short-answer".into(),
            node_level: 1,
            md: "Yes.".into(),
            list: None,
            empty: false,
        },
    );
    sections.insert(
        "Unknowns".to_owned(),
        ExtractedSection {
            subtree_md: None,
            node_key: "unknowns".into(),
            node_level: 2,
            md: "None".into(),
            list: None,
            empty: true,
        },
    );
    golden(
        &ExtractedResult {
            outline: MdOutline::default(),
            sections_by_name: sections,
            tables: vec![],
        },
        concat!(
            r#"{"outline":{"type":"md_outline","nodes":[]},"sectionsByName":{"#,
            r#""Assumptions":{"nodeKey":"assumptions","nodeLevel":2,"md":"- a\n","#,
            r#""list":{"kind":"list","ordered":false,"items":[{"text":"a","children":[]}]}},"#,
            r#""Short answer":{"nodeKey":"short-answer","nodeLevel":1,"md":"Yes."},"#,
            r#""Unknowns":{"nodeKey":"unknowns","nodeLevel":2,"md":"None","empty":true}},"#,
            r#""tables":[]}"#
        ),
    );
}

#[test]
fn equality_ignores_source_spans() {
    let built = build_outline("# A\nx\n");
    let from_json: MdOutline =
        serde_json::from_str(&serde_json::to_string(&built).unwrap()).unwrap();
    assert!(built.nodes[0].source.is_some());
    assert!(from_json.nodes[0].source.is_none());
    assert_eq!(built, from_json, "spans are positions, not content");
}
