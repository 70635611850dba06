//! Seed fidelity: the @nhtio/adk artifact contracts, with the seed's own
//! examples where it gives them.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_artifact::{
    Artifact, GrepFlags, MemoryReader, SpooledArtifact, SpooledJsonArtifact,
    SpooledMarkdownArtifact, forge_tools,
};
use pretty_assertions::assert_eq;
use serde_json::json;

fn jsonl(text: &str) -> SpooledJsonArtifact {
    SpooledJsonArtifact::new(MemoryReader::new(text), None).unwrap()
}

#[test]
fn json_filter_reads_the_seeds_own_jsonpath_plus_example() {
    // `json_filter`'s doc comment: `'$[?(@.status === "active")]'`.
    let users = jsonl(
        "{\"id\": 1, \"status\": \"active\"}\n{\"id\": 2, \"status\": \"idle\"}\n{\"id\": 3, \"status\": \"active\"}\n",
    );
    let ids = |path: &str| -> Vec<serde_json::Value> {
        users
            .json_filter(path)
            .unwrap()
            .iter()
            .map(|r| r["id"].clone())
            .collect()
    };
    assert_eq!(ids(r#"$[?(@.status === "active")]"#), [json!(1), json!(3)]);
    assert_eq!(ids("$[?(@.status !== 'active')]"), [json!(2)]);
    // The class comment's `$[?(@.age > 18)]` form is RFC 9535 already.
    let people = jsonl("{\"age\": 20}\n{\"age\": 10}\n");
    assert_eq!(
        people.json_filter("$[?(@.age > 18)]").unwrap(),
        [json!({"age": 20})]
    );
    // `json_get` with `$..name` and `$.user.address.city`.
    let doc = SpooledJsonArtifact::new(
        MemoryReader::new(r#"{"user": {"name": "A", "address": {"city": "B"}}}"#),
        None,
    )
    .unwrap();
    assert_eq!(doc.json_get("$..name").unwrap(), [json!("A")]);
    assert_eq!(doc.json_get("$.user.address.city").unwrap(), [json!("B")]);
}

#[test]
fn the_tool_says_which_dialect_it_speaks_and_what_has_no_equivalent() {
    let artifacts = vec![(
        "c1".to_owned(),
        Artifact::Json(jsonl("{\"a\": [1, 2, 3]}\n")),
    )];
    let tools = forge_tools(&artifacts);
    let get = tools
        .definitions()
        .into_iter()
        .find(|d| d.name == "artifact_json_get")
        .unwrap();
    let path_doc = get.parameters["properties"]["path"]["description"]
        .as_str()
        .unwrap();
    assert!(path_doc.contains("RFC 9535") && path_doc.contains("JSONPath-Plus"));
    let err = tools
        .call(
            "artifact_json_get",
            r#"{"callId": "c1", "path": "$.a[(@.length-1)]"}"#,
        )
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`[(@.length-1)]` is `[-1]` in RFC 9535"),
        "{err}"
    );
    assert_eq!(
        tools
            .call(
                "artifact_json_get",
                r#"{"callId": "c1", "path": "$.a[-1]"}"#
            )
            .unwrap(),
        "[\n  3\n]"
    );
}

#[test]
fn cat_and_json_slice_take_negative_indexes_as_array_slice_does() {
    let a = SpooledArtifact::new(MemoryReader::new("l0\nl1\nl2\nl3\nl4"));
    assert_eq!(a.cat(Some(-2), None), ["l3", "l4"]);
    assert_eq!(a.cat(Some(-3), Some(-1)), ["l2", "l3"]);
    assert_eq!(a.cat(Some(1), Some(-3)), ["l1"]);
    assert_eq!(a.cat(Some(-100), Some(1)), ["l0"]);
    assert_eq!(a.cat(Some(-1), Some(-2)), Vec::<String>::new());
    let records = jsonl("1\n2\n3\n4\n");
    assert_eq!(
        records.json_slice(Some(-2), None).unwrap(),
        [json!(3), json!(4)]
    );
    assert_eq!(records.json_slice(Some(0), Some(-3)).unwrap(), [json!(1)]);
    // Through the tools, whose schemas no longer say `minimum: 0`.
    let artifacts = vec![
        ("log".to_owned(), Artifact::Text(a)),
        ("rows".to_owned(), Artifact::Json(records)),
    ];
    let tools = forge_tools(&artifacts);
    assert_eq!(
        tools
            .call("artifact_cat", r#"{"callId": "log", "start": -2}"#)
            .unwrap(),
        "l3\nl4"
    );
    assert_eq!(
        tools
            .call("artifact_json_slice", r#"{"callId": "rows", "start": -1}"#)
            .unwrap(),
        "[\n  4\n]"
    );
    let cat = tools
        .definitions()
        .into_iter()
        .find(|d| d.name == "artifact_cat")
        .unwrap();
    assert_eq!(cat.parameters["properties"]["start"].get("minimum"), None);
}

#[test]
fn md_images_are_alt_url_title() {
    let md = SpooledMarkdownArtifact::new(MemoryReader::new(
        "# Logos\n![the logo](logo.png \"Logo\")\n![plain](a.svg)\n",
    ));
    assert_eq!(
        serde_json::to_value(md.md_images(None, None)).unwrap(),
        json!([
            {"alt": "the logo", "url": "logo.png", "title": "Logo"},
            {"alt": "plain", "url": "a.svg"}
        ])
    );
    let artifacts = vec![("doc".to_owned(), Artifact::Markdown(md))];
    let out = forge_tools(&artifacts)
        .call("artifact_md_images", r#"{"callId": "doc"}"#)
        .unwrap();
    let shown: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(shown[1], json!({"alt": "plain", "url": "a.svg"}));
}

#[test]
fn a_leading_byte_order_mark_is_not_part_of_the_first_line() {
    let md = SpooledMarkdownArtifact::new(MemoryReader::new("\u{feff}# Title\nbody\n"));
    assert_eq!(md.md_headings(None)[0].text, "Title");
    assert_eq!(md.base().head(1), ["# Title"]);
    assert_eq!(md.base().grep("^# ", GrepFlags::NONE).unwrap(), ["# Title"]);
    // Byte counts and the whole text stay byte-faithful.
    assert_eq!(md.base().byte_length(), 3 + "# Title\nbody\n".len());
    assert!(md.base().as_string().starts_with('\u{feff}'));
    let json = SpooledJsonArtifact::new(MemoryReader::new("\u{feff}{\"a\": 1}"), None).unwrap();
    assert_eq!(json.json_type().name(), "json");
    assert_eq!(json.json_get("$.a").unwrap(), [json!(1)]);
    let lines = jsonl("\u{feff}{\"a\": 1}\n{\"b\": 2}\n");
    assert_eq!(lines.json_type().name(), "jsonl");
    assert_eq!(lines.json_length().unwrap(), 2);
}
