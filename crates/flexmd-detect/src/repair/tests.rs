//! The repair parser's tests, by construct: every repair each file
//! records, the limits, and what is refused.

use super::*;
use serde_json::json;

fn whole(text: &str) -> (Value, Vec<(RepairKind, usize)>) {
    let l = parse_lenient(text, 0, true, usize::MAX).unwrap_or_else(|f| panic!("{text:?}: {f:?}"));
    (
        l.value,
        l.repairs.into_iter().map(|r| (r.kind, r.offset)).collect(),
    )
}

fn value(text: &str) -> Value {
    whole(text).0
}

fn kinds(text: &str) -> Vec<RepairKind> {
    whole(text).1.into_iter().map(|(k, _)| k).collect()
}

fn fails(text: &str) -> Failure {
    parse_lenient(text, 0, true, usize::MAX).expect_err(text)
}

use RepairKind::*;

#[test]
fn json5_is_read_without_repairs() {
    let (v, r) =
        whole("// c\n{a: 1, 'b': [0x1F, .5, 5., +2, -0xA,], /* x */ \"c\\x41\\u00e9\": 'it\\'s',}");
    assert_eq!(
        v,
        json!({"a": 1, "b": [31, 0.5, 5.0, 2, -10], "cAé": "it's"})
    );
    assert_eq!(r, []);
}

#[test]
fn model_mistakes_are_repaired_and_reported() {
    assert_eq!(
        whole("{“a”: ‘x’, \"b\": True, \"c\": None}"),
        (
            json!({"a": "x", "b": true, "c": null}),
            vec![
                (SmartQuotes, 1),
                (SmartQuotes, 10),
                (PythonLiteral, 24),
                (PythonLiteral, 35)
            ]
        )
    );
    assert_eq!(
        whole("{\"a\": 1\n \"b\": [1 2]}"),
        (
            json!({"a": 1, "b": [1, 2]}),
            vec![(MissingComma, 9), (MissingComma, 17)]
        )
    );
    assert_eq!(
        whole("{\"q\": \"say \"hi\" now\", \"n\": \"a\nb\"}"),
        (
            json!({"q": "say \"hi\" now", "n": "a\nb"}),
            vec![
                (UnescapedQuote, 11),
                (UnescapedQuote, 14),
                (UnescapedNewline, 29)
            ]
        )
    );
}

#[test]
fn truncated_input_is_closed_and_cut_members_dropped() {
    assert_eq!(
        whole("{\"a\": [1, 2, {\"b\": \"hel"),
        (
            json!({"a": [1, 2, {"b": "hel"}]}),
            vec![
                (UnclosedString, 23),
                (UnclosedObject, 23),
                (UnclosedArray, 23),
                (UnclosedObject, 23)
            ]
        )
    );
    assert_eq!(
        whole("{\"a\": 1, \"b\": tr"),
        (
            json!({"a": 1}),
            vec![(DroppedIncomplete, 9), (UnclosedObject, 16)]
        )
    );
    assert_eq!(
        whole("{\"a\": 1, \"long_k"),
        (
            json!({"a": 1}),
            vec![(DroppedIncomplete, 9), (UnclosedObject, 16)]
        )
    );
    assert_eq!(
        whole("[1, -"),
        (json!([1]), vec![(DroppedIncomplete, 4), (UnclosedArray, 5)])
    );
    assert_eq!(
        whole("[1, 2, /* cut"),
        (
            json!([1, 2]),
            vec![(UnclosedComment, 7), (UnclosedArray, 13)]
        )
    );
}

#[test]
fn non_finite_numbers_become_null() {
    assert_eq!(
        whole("[Infinity, -Infinity, NaN, 1e999]"),
        (
            json!([null, null, null, null]),
            vec![
                (NonFiniteNumber, 1),
                (NonFiniteNumber, 11),
                (NonFiniteNumber, 22),
                (NonFiniteNumber, 27)
            ]
        )
    );
}

#[test]
fn escapes() {
    assert_eq!(
        whole(
            r#"["\ud83d\ude00", "\ud800x", "\1", "a\
b", "^\s+\(x"]"#
        ),
        (
            json!(["😀", "\u{fffd}x", "\\1", "ab", "^\\s+\\(x"]),
            vec![
                (InvalidEscape, 18),
                (InvalidEscape, 29),
                (InvalidEscape, 44),
                (InvalidEscape, 47)
            ]
        )
    );
}

#[test]
fn unquoted_strings_end_where_the_context_says() {
    assert_eq!(
        whole("{city: New York, zip: 10001}"),
        (
            json!({"city": "New York", "zip": 10001}),
            vec![(UnquotedString, 7)]
        )
    );
    // A comma or a line break ends a member's value only before a member.
    assert_eq!(
        value("{a: one, two, three\n  and four,\n b: x}"),
        json!({"a": "one, two, three\n  and four", "b": "x"})
    );
    assert_eq!(value("[a, b c\nd]"), json!(["a", "b c", "d"]));
    assert_eq!(
        value("{url: https://example.com/a, n: 1}"),
        json!({"url": "https://example.com/a", "n": 1})
    );
    assert_eq!(kinds("{\"a\": b\"}"), [UnquotedString, MissingQuote]);
}

#[test]
fn strings_missing_a_quote() {
    assert_eq!(
        whole("{\"a\": \"b, \"c\": \"d\"}"),
        (json!({"a": "b", "c": "d"}), vec![(MissingQuote, 8)])
    );
    assert_eq!(
        value("{\"a\": \"first, b: \"second\"}"),
        json!({"a": "first", "b": "second"})
    );
    assert_eq!(
        whole("{\"key\": [\"value]}"),
        (json!({"key": ["value"]}), vec![(MissingQuote, 15)])
    );
    assert_eq!(value("{\"a\": \"fox. }"), json!({"a": "fox."}));
    assert_eq!(value("{\"key:\"value\"}"), json!({"key": "value"}));
    assert_eq!(value("{\"key:value}"), json!({"key": "value"}));
    // Brackets inside the string keep a quote from ending it.
    assert_eq!(
        value("{\"x\": \"is {\"a\": \"b\"}, ok\"}"),
        json!({"x": "is {\"a\": \"b\"}, ok"})
    );
}

#[test]
fn separators_and_brackets() {
    assert_eq!(
        whole("{a 1 b:2}"),
        (
            json!({"a": 1, "b": 2}),
            vec![(MissingColon, 3), (MissingComma, 5)]
        )
    );
    assert_eq!(
        whole("[,1,,2]"),
        (json!([1, 2]), vec![(ExtraComma, 1), (ExtraComma, 4)])
    );
    assert_eq!(
        whole("[{\"b\":2]"),
        (json!([{"b": 2}]), vec![(MissingBracket, 7)])
    );
    assert_eq!(
        whole("{\"a\":2]"),
        (json!({"a": 2}), vec![(MismatchedBracket, 6)])
    );
    assert_eq!(whole("[1]}"), (json!([1]), vec![(ExtraBracket, 3)]));
    assert_eq!(
        whole("[\"a\": 1]"),
        (
            json!([{"a": 1}]),
            vec![(MissingBracket, 1), (MissingBracket, 7)]
        )
    );
    assert_eq!(
        whole("{\"a\": 1}, \"b\": 2}"),
        (json!({"a": 1, "b": 2}), vec![(ExtraBracket, 8)])
    );
    assert_eq!(
        whole("{\"a\": 1}, {\"b\": 2}"),
        (json!([{"a": 1}, {"b": 2}]), vec![(MultipleValues, 8)])
    );
    assert_eq!(
        whole("[[1, 2], 3, 4], [5]]"),
        (json!([[1, 2], [3, 4], [5]]), vec![(MissingBracket, 13)])
    );
    assert_eq!(
        whole("{\"a\": 1, COMMENT \"b\": 2}"),
        (json!({"a": 1, "b": 2}), vec![(DroppedText, 9)])
    );
}

#[test]
fn javascript_and_python_forms() {
    assert_eq!(
        whole("[1, ..., (2, 3), undefined, TRUE, /a+b/, 1_000]"),
        (
            json!([1, [2, 3], null, true, "/a+b/", 1000]),
            vec![
                (Ellipsis, 4),
                (PythonTuple, 9),
                (Undefined, 17),
                (LiteralCase, 28),
                (RegexLiteral, 34),
                (DigitSeparator, 41)
            ]
        )
    );
    assert_eq!(
        whole("callback({\"a\": NumberLong(2)});"),
        (
            json!({"a": 2}),
            vec![(FunctionWrapper, 0), (FunctionWrapper, 15)]
        )
    );
    assert_eq!(
        whole("'a' + \"b\" /* c */ + 'c'"),
        (json!("abc"), vec![(StringConcat, 4), (StringConcat, 18)])
    );
    assert_eq!(
        whole("{\"v\": 1.2.3, \"d\": 2024-01-02}"),
        (
            json!({"v": "1.2.3", "d": "2024-01-02"}),
            vec![(NumberAsString, 6), (NumberAsString, 18)]
        )
    );
    assert_eq!(
        whole("{\"a\":\u{200b}1 # note\n}"),
        (
            json!({"a": 1}),
            vec![(SpecialWhitespace, 5), (HashComment, 10)]
        )
    );
    assert_eq!(
        whole("{\"\"a\"\": \"\"\"x\"y\"\"\"}"),
        (
            json!({"a": "x\"y"}),
            vec![(DoubledQuotes, 1), (DoubledQuotes, 8)]
        )
    );
}

#[test]
fn garbage_is_refused_with_a_position() {
    let f = fails("{braces}");
    assert_eq!(
        (f.offset, f.message.as_str()),
        (7, "expected `:` after a key (found `}`)")
    );
    assert_eq!(
        fails("{\"a\": 1} tail").message,
        "unexpected text after the value (found `t`)"
    );
    assert_eq!(
        fails("").message,
        "the input ends before a value (at the end of the input)"
    );
    assert_eq!(
        fails("{\"a\nb\": 1}").message,
        "a key cannot span lines (found `\\n`)"
    );
    assert_eq!(fails("hello").offset, 0);
}

#[test]
fn depth_is_bounded() {
    let f = fails(&"[".repeat(100_000));
    assert!(f.too_deep);
    assert_eq!(f.offset, 128);
    let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    assert!(parse_lenient(&ok, 0, true, usize::MAX).is_ok());
}

#[test]
fn prefix_mode_reports_where_the_value_ends() {
    let l = parse_lenient("x {\"a\": [1]} and more", 2, false, usize::MAX).unwrap();
    assert_eq!((l.value, l.end), (json!({"a": [1]}), 12));
}
