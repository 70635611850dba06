//! The JSON finder: one example per repair kind (each with the value it
//! reads and where the repair is reported), and the rules that choose among
//! several candidates (reasoning blocks, draft and final fences, one-line
//! fences, prose).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_detect::{JsonSource, Leniency, Pick, RepairKind, find_all_json, find_json, parse_json};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use RepairKind::*;

/// For every repair kind: an input, the value read, and the text at the
/// reported offset (the first repair of that kind).
fn examples() -> Vec<(RepairKind, &'static str, Value, &'static str)> {
    vec![
        (SmartQuotes, "{“a”: 1}", json!({"a": 1}), "“a”"),
        (PythonLiteral, "[True, None]", json!([true, null]), "True"),
        (LiteralCase, "{\"a\": TRUE}", json!({"a": true}), "TRUE"),
        (Undefined, "[undefined]", json!([null]), "undefined"),
        (UnescapedNewline, "[\"a\nb\"]", json!(["a\nb"]), "\nb"),
        (
            UnescapedQuote,
            "{\"q\": \"say \"hi\" now\"}",
            json!({"q": "say \"hi\" now"}),
            "\"hi",
        ),
        (
            UnquotedString,
            "{city: New York}",
            json!({"city": "New York"}),
            "New York",
        ),
        (
            MissingQuote,
            "{\"a\": \"b, \"c\": 1}",
            json!({"a": "b", "c": 1}),
            ", \"c\"",
        ),
        (
            DoubledQuotes,
            "{\"\"a\"\": 1}",
            json!({"a": 1}),
            "\"\"a\"\"",
        ),
        (StringConcat, "\"ab\" + \"c\"", json!("abc"), "+ \"c\""),
        (EscapedJson, "{\\\"a\\\": 1}", json!({"a": 1}), "\\\"a"),
        (MissingComma, "[1 2]", json!([1, 2]), "2]"),
        (MissingColon, "{\"a\" 1}", json!({"a": 1}), "1}"),
        (ExtraComma, "[1,,2]", json!([1, 2]), ",2]"),
        (MissingBracket, "[{\"a\": 1]", json!([{"a": 1}]), "]"),
        (ExtraBracket, "[1]]", json!([1]), "]"),
        (MismatchedBracket, "{\"a\": 1]", json!({"a": 1}), "]"),
        (Ellipsis, "[1, 2, ...]", json!([1, 2]), "...]"),
        (
            PythonTuple,
            "{\"p\": (1, 2)}",
            json!({"p": [1, 2]}),
            "(1, 2)",
        ),
        (FunctionWrapper, "cb({\"a\": 1});", json!({"a": 1}), "cb("),
        (
            RegexLiteral,
            "{\"re\": /a+b/}",
            json!({"re": "/a+b/"}),
            "/a+b/",
        ),
        (
            NumberAsString,
            "{\"v\": 1.2.3}",
            json!({"v": "1.2.3"}),
            "1.2.3",
        ),
        (
            FormattedNumber,
            "{\"d\": 5 km, \"p\": 1,250,000 USD, \"t\": +1 415 555 0100}",
            json!({"d": "5 km", "p": "1,250,000 USD", "t": "+1 415 555 0100"}),
            "5 km",
        ),
        (
            StringPrefix,
            "{u'name': u'Ada'}",
            json!({"name": "Ada"}),
            "u'name'",
        ),
        (
            BacktickString,
            "{\"cmd\": `ls -la`}",
            json!({"cmd": "ls -la"}),
            "`ls",
        ),
        (DigitSeparator, "[1_000]", json!([1000]), "1_000"),
        (
            HashComment,
            "{\"a\": 1 # note\n}",
            json!({"a": 1}),
            "# note",
        ),
        (
            SpecialWhitespace,
            "{\"a\":\u{200b}1}",
            json!({"a": 1}),
            "\u{200b}1",
        ),
        (
            DroppedText,
            "{\"a\": 1, NOTE \"b\": 2}",
            json!({"a": 1, "b": 2}),
            "NOTE",
        ),
        (
            MultipleValues,
            "{\"a\": 1}, {\"b\": 2}",
            json!([{"a": 1}, {"b": 2}]),
            ", {",
        ),
        (
            JsonLines,
            "{\"a\": 1}\n{\"b\": 2}\n",
            json!([{"a": 1}, {"b": 2}]),
            "{\"b\"",
        ),
        (DoubleEncoded, "\"{\\\"a\\\": 1}\"", json!({"a": 1}), "\"{"),
        (
            PartOfValue,
            "{\"data\": {\"x\": 1}, \"meta\": ::: }",
            json!({"x": 1}),
            "{\"x\"",
        ),
        (UnclosedString, "[\"ab", json!(["ab"]), ""),
        (UnclosedArray, "[1, 2", json!([1, 2]), ""),
        (UnclosedObject, "{\"a\": 1", json!({"a": 1}), ""),
        (UnclosedComment, "[1] /* note", json!([1]), "/* note"),
        (DroppedIncomplete, "[1, tr", json!([1]), "tr"),
        (NonFiniteNumber, "[NaN]", json!([null]), "NaN"),
        // (JSON5 lets any character escape itself: the repair step, which
        // keeps the backslash, runs when JSON5 cannot read the text.)
        (
            InvalidEscape,
            "[\"\\d+\", True]",
            json!(["\\d+", true]),
            "\\d+",
        ),
    ]
}

#[test]
fn every_repair_kind_is_read_and_reported_where_it_happened() {
    let examples = examples();
    for &kind in RepairKind::ALL {
        // Its example takes 4 MB: `more_values_than_the_bound_are_cut` below.
        assert!(
            kind == RepairKind::ValueLimit || examples.iter().any(|(k, ..)| *k == kind),
            "no example for {kind:?}"
        );
    }
    for (kind, input, value, at) in examples {
        // A string holding a document is a string to the parser; the
        // finder reads the document the model meant.
        let parsed = if matches!(kind, RepairKind::DoubleEncoded | RepairKind::PartOfValue) {
            let found = find_json(input).unwrap();
            flexmd_detect::ParsedJson {
                value: found.value,
                method: found.method,
                repairs: found.repairs,
            }
        } else {
            parse_json(input, Leniency::Repair)
                .unwrap_or_else(|e| panic!("{kind:?}: {input:?} is not read: {e}"))
        };
        assert_eq!(parsed.value, value, "the value of {input:?}");
        let repair = parsed
            .repairs
            .iter()
            .find(|r| r.kind == kind)
            .unwrap_or_else(|| panic!("{input:?} should report {kind:?}: {:?}", parsed.repairs));
        assert!(
            input[repair.offset..].starts_with(at),
            "{kind:?} in {input:?} should point at {at:?}, points at {:?}",
            &input[repair.offset..]
        );
        // The finder reads the same value from the same text.
        assert_eq!(find_json(input).map(|f| f.value), Some(value), "{input:?}");
    }
}

#[test]
fn reasoning_blocks_are_skipped() {
    for tag in ["think", "thinking", "reasoning", "scratchpad", "THINK"] {
        let text = format!("<{tag}>\nDraft: {{\"n\": 1}}\n</{tag}>\n\nAnswer: {{\"n\": 2}}");
        let found = find_json(&text).unwrap();
        assert_eq!(found.value, json!({"n": 2}), "<{tag}>");
        assert!(!found.in_reasoning);
        assert_eq!(found.pick, Some(Pick::Prose));
    }
    // Fences inside reasoning are skipped too; the whole answer after it wins.
    let text = "<think>\n```json\n{\"draft\": true}\n```\n</think>\n{\"final\": true}";
    let found = find_json(text).unwrap();
    assert_eq!(
        (found.value, found.pick),
        (json!({"final": true}), Some(Pick::WholeText))
    );
}

#[test]
fn json_only_in_reasoning_is_used_and_flagged() {
    // Closed, then nothing else.
    let text = "<think>The user wants {\"n\": 1}.</think>\nDone.";
    let found = find_json(text).unwrap();
    assert_eq!(found.value, json!({"n": 1}));
    assert!(found.in_reasoning);
    assert_eq!(found.pick, Some(Pick::Reasoning));
    // Never closed: the rest of the text is reasoning.
    let text = "<thinking>\n```json\n{\"n\": 2}\n```\nand then";
    let found = find_json(text).unwrap();
    assert_eq!((found.value, found.in_reasoning), (json!({"n": 2}), true));
    // find_all_json lists every value, marking those in reasoning.
    let text = "<think>{\"n\": 1}</think> {\"n\": 2}";
    let all: Vec<_> = find_all_json(text)
        .into_iter()
        .map(|f| (f.value, f.in_reasoning))
        .collect();
    assert_eq!(all, [(json!({"n": 1}), true), (json!({"n": 2}), false)]);
}

#[test]
fn the_last_complete_fence_wins() {
    let text = "Draft:\n```json\n{\"v\": 1}\n```\nAgain:\n```json\n{\"v\": 2}\n```\n";
    let found = find_json(text).unwrap();
    assert_eq!(
        (found.value, found.pick),
        (json!({"v": 2}), Some(Pick::LastCompleteFence))
    );
    // A final fence cut off by the end of the answer loses to a complete draft.
    let text = "```json\n{\"v\": 1}\n```\nAgain:\n```json\n{\"v\": 2, \"w\": [";
    let found = find_json(text).unwrap();
    assert_eq!(
        (found.value, found.pick),
        (json!({"v": 1}), Some(Pick::LastCompleteFence))
    );
    // With no complete fence: the last one.
    let text = "```json\n{\"v\": 1\n```\n```json\n{\"v\": 2";
    let found = find_json(text).unwrap();
    assert_eq!(
        (found.value, found.pick),
        (json!({"v": 2}), Some(Pick::LastFence))
    );
    // JSON-labeled fences before unlabeled ones, whatever the order.
    let text = "```json\n{\"v\": 1}\n```\n```\n{\"v\": 2}\n```\n";
    assert_eq!(find_json(text).unwrap().value, json!({"v": 1}));
}

#[test]
fn one_line_fences_are_fences() {
    let text = "The result is ```json {\"a\": 1}``` and the input was ```json {\"b\": 2}```.";
    let found = find_json(text).unwrap();
    assert_eq!(found.value, json!({"b": 2}));
    assert_eq!(found.source, JsonSource::JsonFence);
    assert_eq!(found.lang.as_deref(), Some("json"));
    assert_eq!(&text[found.start..found.end], "{\"b\": 2}");
    let all: Vec<_> = find_all_json(text).into_iter().map(|f| f.value).collect();
    assert_eq!(all, [json!({"a": 1}), json!({"b": 2})]);
    // A one-line fence of another language is prose.
    let text = "Run ```python print({'a': 1})``` now.";
    assert_eq!(find_json(text).unwrap().source, JsonSource::Prose);
}

#[test]
fn prose_candidates_must_look_like_data() {
    assert!(find_json("sets are {a, b}; see [citation needed] and [1].").is_none());
    assert!(find_json("Comprehensions: {k: v for k in ks}.").is_none());
    assert_eq!(
        find_json("The output is {a: b}.").unwrap().value,
        json!({"a": "b"})
    );
    assert_eq!(
        find_json("Tags: [\"x\", \"y\"] and more").unwrap().value,
        json!(["x", "y"])
    );
}

#[test]
fn whole_answers_of_any_kind() {
    assert_eq!(
        find_json("  \"just a string\" ").unwrap().value,
        json!("just a string")
    );
    assert_eq!(find_json("42").unwrap().value, json!(42));
    assert_eq!(
        find_json("/* header */ callback({\"a\": [1, 2,]});")
            .unwrap()
            .value,
        json!({"a": [1, 2]})
    );
    assert!(find_json("Hello world").is_none());
}

#[test]
fn found_values_serialise_with_their_pick() {
    let found = find_json("```json\n{\"a\": 1}\n```").unwrap();
    let json = serde_json::to_value(&found).unwrap();
    assert_eq!(json["pick"], json!("last_complete_fence"));
    assert!(json.get("in_reasoning").is_none());
    let found = find_json("<think>{\"a\": 1}</think>").unwrap();
    let json = serde_json::to_value(&found).unwrap();
    assert_eq!(
        (&json["pick"], &json["in_reasoning"]),
        (&json!("reasoning"), &json!(true))
    );
}

/// 1 100 000 arrays of one number in an array: 2 200 001 values, over the
/// bound of 2 000 000.
fn over_the_value_bound() -> String {
    format!("[{}[1]]", "[1],".repeat(1_099_999))
}

#[test]
fn more_values_than_the_bound_are_cut() {
    let text = over_the_value_bound();
    // Strict reading refuses the text; the repair step reads the first
    // 2 000 000 values: 999 999 arrays of one number and the `[` of the next.
    let err = parse_json(&text, Leniency::Json5).unwrap_err();
    assert_eq!(err.to_string(), "the text holds more than 2000000 values");
    let parsed = parse_json(&text, Leniency::Repair).unwrap();
    let items = parsed.value.as_array().unwrap();
    assert_eq!(items.len(), 1_000_000);
    assert_eq!(items[999_998], json!([1]));
    assert_eq!(items[999_999], json!([]));
    let cut = parsed
        .repairs
        .iter()
        .find(|r| r.kind == RepairKind::ValueLimit)
        .unwrap();
    assert_eq!(cut.offset, 3_999_998);
    assert_eq!(&text[cut.offset..cut.offset + 3], "1],");

    let found = find_json(&text).unwrap();
    assert_eq!(found.value.as_array().map(Vec::len), Some(1_000_000));
    assert!(
        found
            .repairs
            .iter()
            .any(|r| r.kind == RepairKind::ValueLimit)
    );
}

#[test]
fn find_all_json_keeps_at_most_the_bound_of_values() {
    // 1 000 001 objects of one member in prose: 2 000 002 values.
    let text = "and {\"a\": 1} ".repeat(1_000_001);
    let found = find_all_json(&text);
    assert_eq!(found.len(), 1_000_000);
    let last = found.last().unwrap();
    assert_eq!(last.value, json!({"a": 1}));
    assert_eq!(last.repairs.len(), 1);
    assert_eq!(last.repairs[0].kind, RepairKind::ValueLimit);
    assert_eq!(last.repairs[0].offset, last.end);
}
