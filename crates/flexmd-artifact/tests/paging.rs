//! Paged tool results: every page within its token budget and well formed,
//! and the pages together exactly the whole result.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_artifact::{
    Artifact, Caps, Encoding, JsonFormat, MemoryReader, PageUnit, SpooledArtifact,
    SpooledJsonArtifact, SpooledMarkdownArtifact, count_tokens, forge_tools,
};
use proptest::prelude::*;
use serde_json::{Value, json};

fn artifacts(text: &str) -> Vec<(String, Artifact)> {
    let mut list = vec![
        (
            "text".to_owned(),
            Artifact::Text(SpooledArtifact::new(MemoryReader::new(text))),
        ),
        (
            "md".to_owned(),
            Artifact::Markdown(SpooledMarkdownArtifact::new(MemoryReader::new(text))),
        ),
    ];
    let records: String = text
        .lines()
        .enumerate()
        .map(|(i, line)| format!("{}\n", json!({"i": i, "line": line, "even": i % 2 == 0})))
        .collect();
    if let Ok(a) = SpooledJsonArtifact::new(MemoryReader::new(records), Some(JsonFormat::Jsonl)) {
        list.push(("rows".to_owned(), Artifact::Json(a)));
    }
    list
}

/// Every page of a call, following the cursors; `None` when the call
/// refuses the budget (one line or value larger than it).
fn pages(
    list: &[(String, Artifact)],
    name: &str,
    args: &Value,
    budget: usize,
) -> Option<Vec<flexmd_artifact::Page>> {
    let tools = forge_tools(list);
    let args = args.to_string();
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = match tools.call_paged(name, &args, budget, cursor.as_deref()) {
            Ok(page) => page,
            Err(e) => {
                assert!(e.to_string().contains("more than `max_tokens`"), "{e}");
                return None;
            }
        };
        assert!(
            page.tokens <= budget,
            "{} tokens over {budget}",
            page.tokens
        );
        assert_eq!(
            page.tokens,
            count_tokens(page.text.as_bytes(), Encoding::O200kBase)
        );
        assert_eq!(page.truncated, page.cursor.is_some());
        cursor = page.cursor.clone();
        out.push(page);
        if cursor.is_none() {
            return Some(out);
        }
        assert!(out.len() < 10_000, "pages never end");
    }
}

/// The pages put back together, compared with the whole result.
fn check_reassembled(list: &[(String, Artifact)], name: &str, args: Value, budget: usize) {
    let whole = forge_tools(list)
        .with_caps(Caps::unlimited())
        .call(name, &args.to_string())
        .expect("the whole call runs");
    let Some(pages) = pages(list, name, &args, budget) else {
        return;
    };
    let items = pages
        .iter()
        .any(|p| p.omitted.is_some_and(|o| o.unit == PageUnit::Items))
        || pages.first().is_some_and(|p| p.text.starts_with("[\n"));
    if items {
        let mut all = Vec::new();
        for page in &pages {
            let Value::Array(values) =
                serde_json::from_str::<Value>(&page.text).expect("each page is JSON")
            else {
                panic!("a page of items is an array: {}", page.text);
            };
            all.extend(values);
        }
        let whole: Value = serde_json::from_str(&whole).expect("the whole result is JSON");
        assert_eq!(Value::Array(all), whole);
    } else {
        let joined = pages
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        let expected = if whole == "(1 empty line)" {
            String::new()
        } else {
            whole
        };
        assert_eq!(joined, expected);
    }
}

fn file() -> impl Strategy<Value = String> {
    let word = prop_oneof!["[a-z]{1,8}", "ERROR", "é", "🙂", "\\{\"k\": 1\\}", ""];
    let line = prop::collection::vec(word, 0..12).prop_map(|w| w.join(" "));
    let heading = "[a-z ]{1,20}".prop_map(|t| format!("## {t}"));
    prop::collection::vec(prop_oneof![4 => line, 1 => heading], 0..120)
        .prop_map(|lines| lines.join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn the_pages_of_any_call_make_up_its_whole_result(text in file(), budget in 16usize..300) {
        let list = artifacts(&text);
        check_reassembled(&list, "artifact_head", json!({"callId": "text", "n": 2000}), budget);
        check_reassembled(&list, "artifact_tail", json!({"callId": "text", "n": 50}), budget);
        check_reassembled(&list, "artifact_cat", json!({"callId": "text", "start": 3, "end": -2}), budget);
        check_reassembled(&list, "artifact_grep", json!({"callId": "text", "pattern": "ERROR|é"}), budget);
        check_reassembled(&list, "artifact_grep", json!({"callId": "text", "pattern": "^$", "lineNumbers": true}), budget);
        check_reassembled(&list, "artifact_md_headings", json!({"callId": "md"}), budget.max(60));
        check_reassembled(&list, "artifact_md_text", json!({"callId": "md"}), budget);
        if list.len() == 3 {
            check_reassembled(&list, "artifact_json_slice", json!({"callId": "rows"}), budget.max(60));
            check_reassembled(&list, "artifact_json_pluck", json!({"callId": "rows", "path": "$.line"}), budget);
            check_reassembled(&list, "artifact_json_filter", json!({"callId": "rows", "path": "$[?@.even == true]"}), budget.max(60));
        }
    }
}

fn log(lines: usize) -> Vec<(String, Artifact)> {
    let text: String = (0..lines)
        .map(|i| format!("line {i}: GET /item/{i} 200\n"))
        .collect();
    vec![(
        "log".to_owned(),
        Artifact::Text(SpooledArtifact::new(MemoryReader::new(text))),
    )]
}

#[test]
fn a_page_says_what_is_left_and_where_to_go_on() {
    let list = log(1000);
    let tools = forge_tools(&list);
    let page = tools
        .call_paged("artifact_cat", r#"{"callId": "log"}"#, 200, None)
        .unwrap();
    assert!(page.truncated);
    let shown = page.text.lines().count();
    assert_eq!(page.text.lines().next(), Some("line 0: GET /item/0 200"));
    let omitted = page.omitted.unwrap();
    assert_eq!(
        (omitted.unit, omitted.count),
        (PageUnit::Lines, Some(1001 - shown))
    );
    let next = tools
        .call_paged(
            "artifact_cat",
            r#"{"callId": "log"}"#,
            200,
            page.cursor.as_deref(),
        )
        .unwrap();
    assert_eq!(
        next.text.lines().next(),
        Some(format!("line {shown}: GET /item/{shown} 200").as_str())
    );
    let json = serde_json::to_value(&page).unwrap();
    assert_eq!(
        json["omitted"],
        json!({"unit": "lines", "count": 1001 - shown})
    );
}

#[test]
fn a_cursor_continues_only_its_own_call() {
    let list = log(300);
    let tools = forge_tools(&list);
    let page = tools
        .call_paged(
            "artifact_grep",
            r#"{"callId": "log", "pattern": "GET"}"#,
            100,
            None,
        )
        .unwrap();
    let cursor = page.cursor.unwrap();
    // The same arguments in another order are the same call.
    assert!(
        tools
            .call_paged(
                "artifact_grep",
                r#"{"pattern": "GET", "callId": "log"}"#,
                100,
                Some(&cursor)
            )
            .is_ok()
    );
    let other = tools
        .call_paged(
            "artifact_grep",
            r#"{"callId": "log", "pattern": "200"}"#,
            100,
            Some(&cursor),
        )
        .unwrap_err();
    assert!(
        other.to_string().contains("is not one this call returned"),
        "{other}"
    );
    let bad = tools
        .call_paged(
            "artifact_grep",
            r#"{"callId": "log", "pattern": "GET"}"#,
            100,
            Some("x"),
        )
        .unwrap_err();
    assert!(
        bad.to_string()
            .starts_with("artifact_grep: `cursor` \"x\" is not one this call returned")
    );
}

#[test]
fn an_edited_cursor_is_refused_never_read_as_another_place() {
    let list = log(1000);
    let tools = forge_tools(&list);
    let args = r#"{"callId": "log"}"#;
    let page = tools.call_paged("artifact_cat", args, 200, None).unwrap();
    let cursor = page.cursor.unwrap();
    let (position, check) = cursor.split_once('.').unwrap();
    // Every one-digit change of the position is caught.
    for digit in '0'..='9' {
        let edited = format!("{}{digit}.{check}", &position[..position.len() - 1]);
        if edited == cursor {
            continue;
        }
        let error = tools
            .call_paged("artifact_cat", args, 200, Some(&edited))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("is not one this call returned (it was changed"),
            "{edited}: {error}"
        );
        assert!(error.contains("start again without a cursor"), "{error}");
    }
    // Another file with the same callId (a log that grew) refuses it too.
    let grown = log(1001);
    let error = forge_tools(&grown)
        .call_paged("artifact_cat", args, 200, Some(&cursor))
        .unwrap_err();
    assert!(error.to_string().contains("is not one this call returned"));
}

#[test]
fn a_cursor_past_the_end_of_a_result_that_shrank_is_an_error() {
    let args = json!({"q": "ids"});
    let long = json!((0..200).collect::<Vec<_>>());
    let first = flexmd_artifact::page_value("ids", &args, &long, 50, None).unwrap();
    let cursor = first.cursor.unwrap();
    let short = json!([1, 2]);
    let error = flexmd_artifact::page_value("ids", &args, &short, 50, Some(&cursor)).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("points past the end of the result"),
        "{error}"
    );
}

#[test]
fn a_budget_past_the_ceiling_is_lowered_and_said() {
    let list = log(20);
    let tools = forge_tools(&list);
    let page = tools
        .call_paged(
            "artifact_cat",
            r#"{"callId": "log"}"#,
            1_000_000_000_000,
            None,
        )
        .unwrap();
    assert_eq!(page.max_tokens_capped, Some(1_000_000_000_000));
    assert!(!page.truncated);
    let json = serde_json::to_value(&page).unwrap();
    assert_eq!(json["max_tokens_capped"], json!(1_000_000_000_000_u64));
    // A large log: the page stays within the ceiling.
    let big = log(200_000);
    let page = forge_tools(&big)
        .call_paged(
            "artifact_grep",
            r#"{"callId": "log", "pattern": "GET"}"#,
            usize::MAX,
            None,
        )
        .unwrap();
    assert!(page.truncated && page.tokens <= flexmd_artifact::MAX_PAGE_TOKENS);
    let at = tools
        .call_paged(
            "artifact_cat",
            r#"{"callId": "log"}"#,
            flexmd_artifact::MAX_PAGE_TOKENS,
            None,
        )
        .unwrap();
    assert_eq!(at.max_tokens_capped, None);
    let value =
        flexmd_artifact::page_value("mine", &json!({}), &json!([1, 2]), usize::MAX, None).unwrap();
    assert_eq!(value.max_tokens_capped, Some(usize::MAX));
}

#[test]
fn budgets_too_small_for_one_piece_are_errors_that_say_what_to_do() {
    let list = log(10);
    let tools = forge_tools(&list);
    let tiny = tools
        .call_paged("artifact_head", r#"{"callId": "log"}"#, 4, None)
        .unwrap_err();
    assert_eq!(
        tiny.to_string(),
        "artifact_head: `max_tokens` must be at least 16 (got 4)"
    );
    let long = vec![(
        "big".to_owned(),
        Artifact::Text(SpooledArtifact::new(MemoryReader::new("word ".repeat(500)))),
    )];
    let err = forge_tools(&long)
        .call_paged("artifact_head", r#"{"callId": "big"}"#, 100, None)
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("artifact_head: line 1 alone is 501 tokens, more than `max_tokens` (100)"),
        "{err}"
    );
}

#[test]
fn results_that_fit_are_one_page_as_the_plain_call_gives_them() {
    let list = log(3);
    let tools = forge_tools(&list);
    for (name, args) in [
        ("artifact_head", r#"{"callId": "log"}"#),
        ("artifact_line_count", r#"{"callId": "log"}"#),
        (
            "artifact_grep",
            r#"{"callId": "log", "pattern": "nothing"}"#,
        ),
    ] {
        let page = tools.call_paged(name, args, 1000, None).unwrap();
        assert_eq!(page.text, tools.call(name, args).unwrap(), "{name}");
        assert!(!page.truncated && page.cursor.is_none() && page.omitted.is_none());
    }
}

/// A JSON value of some depth, with keys and strings that tokenise
/// unevenly.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        "[a-zé🙂 \n]{0,30}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..12).prop_map(Value::Array),
            prop::collection::vec(("[a-z]{1,6}", inner), 0..12)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// The pages of a result of one's own, following the cursors; `None` when
/// one piece is larger than the budget.
fn value_pages(result: &Value, budget: usize) -> Option<Vec<flexmd_artifact::Page>> {
    let args = json!({"q": 1});
    let mut out: Vec<flexmd_artifact::Page> = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page =
            match flexmd_artifact::page_value("mine", &args, result, budget, cursor.as_deref()) {
                Ok(page) => page,
                Err(e) => {
                    assert!(e.to_string().contains("more than `max_tokens`"), "{e}");
                    return None;
                }
            };
        assert!(
            page.tokens <= budget,
            "{} tokens over {budget}",
            page.tokens
        );
        assert_eq!(
            page.tokens,
            count_tokens(page.text.as_bytes(), Encoding::O200kBase)
        );
        assert_eq!(page.truncated, page.cursor.is_some());
        cursor = page.cursor.clone();
        out.push(page);
        if cursor.is_none() {
            return Some(out);
        }
        assert!(out.len() < 10_000, "pages never end");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Any result of one's own: each page valid JSON of the result's own
    /// type (or whole lines of a text), the pages together the result.
    #[test]
    fn the_pages_of_any_value_make_up_the_value(result in json_value(), budget in 16usize..200) {
        let Some(pages) = value_pages(&result, budget) else { return Ok(()); };
        let whole = match &result {
            Value::String(s) => s.clone(),
            other => serde_json::to_string_pretty(other).unwrap(),
        };
        if pages.len() == 1 {
            prop_assert_eq!(&pages[0].text, &whole);
        }
        match &result {
            Value::String(s) => {
                let joined: Vec<&str> = pages.iter().map(|p| p.text.as_str()).collect();
                prop_assert_eq!(&joined.join("\n"), s);
            }
            Value::Array(items) => {
                let mut all = Vec::new();
                for page in &pages {
                    let Value::Array(values) = serde_json::from_str::<Value>(&page.text).unwrap() else {
                        panic!("a page of an array is an array: {}", page.text);
                    };
                    all.extend(values);
                }
                prop_assert_eq!(&all, items);
            }
            Value::Object(members) => {
                let mut all = serde_json::Map::new();
                for page in &pages {
                    let Value::Object(part) = serde_json::from_str::<Value>(&page.text).unwrap() else {
                        panic!("a page of an object is an object: {}", page.text);
                    };
                    all.extend(part);
                }
                prop_assert_eq!(&all, members);
                // In order, too.
                let keys: Vec<&String> = all.keys().collect();
                let expected: Vec<&String> = members.keys().collect();
                prop_assert_eq!(keys, expected);
            }
            scalar => prop_assert_eq!(&serde_json::from_str::<Value>(&pages[0].text).unwrap(), scalar),
        }
    }
}

#[test]
fn a_large_object_comes_in_objects_of_whole_members() {
    let result: Value = Value::Object(
        (0..40)
            .map(|i| (format!("key{i}"), json!({"n": i, "tags": ["a", "b"]})))
            .collect(),
    );
    let first = flexmd_artifact::page_value("mine", &json!({}), &result, 120, None).unwrap();
    assert!(first.truncated);
    let omitted = first.omitted.unwrap();
    assert_eq!(omitted.unit, PageUnit::Members);
    let part: Value = serde_json::from_str(&first.text).unwrap();
    let shown = part.as_object().unwrap().len();
    assert_eq!(omitted.count, Some(40 - shown));
    assert_eq!(part["key0"], json!({"n": 0, "tags": ["a", "b"]}));
    // A cursor of another call is refused.
    let other = flexmd_artifact::page_value(
        "mine",
        &json!({"x": 1}),
        &result,
        120,
        first.cursor.as_deref(),
    );
    assert!(
        other
            .unwrap_err()
            .to_string()
            .contains("is not one this call returned")
    );
}

#[test]
fn a_cancelled_grep_stops_with_an_error_not_a_short_page() {
    let list = log(1000);
    let cancel = std::sync::atomic::AtomicBool::new(true);
    let tools = forge_tools(&list).with_cancel(&cancel);
    let args = r#"{"callId": "log", "pattern": "GET"}"#;
    let err = tools
        .call_paged("artifact_grep", args, 500, None)
        .unwrap_err();
    assert!(
        matches!(err, flexmd_artifact::ArtifactError::Cancelled),
        "{err}"
    );
    assert_eq!(err.to_string(), "the call was cancelled before it finished");
    // Any paged call stops, not only a grep.
    let err = tools
        .call_paged("artifact_head", r#"{"callId": "log", "n": 5}"#, 500, None)
        .unwrap_err();
    assert!(matches!(err, flexmd_artifact::ArtifactError::Cancelled));
}

#[test]
fn pages_of_a_grep_for_empty_lines_keep_the_last_one() {
    // Found by the property above: ten line breaks are eleven lines, the
    // last one empty, and the pages lost it.
    let list = artifacts(&"\n".repeat(10));
    check_reassembled(
        &list,
        "artifact_grep",
        json!({"callId": "text", "pattern": "^$", "lineNumbers": true}),
        30,
    );
}
