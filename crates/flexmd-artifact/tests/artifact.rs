//! Base and JSON artifacts against the seed's rules.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_artifact::{
    Encoding, FileReader, GrepFlags, JsonFormat, MemoryReader, SpoolReader, SpooledArtifact,
    SpooledJsonArtifact,
};
use serde_json::json;

fn text(content: &str) -> SpooledArtifact {
    SpooledArtifact::new(MemoryReader::new(content))
}

fn json_artifact(content: &str, hint: Option<JsonFormat>) -> SpooledJsonArtifact {
    SpooledJsonArtifact::new(MemoryReader::new(content), hint).unwrap()
}

mod lines {
    use super::*;

    #[test]
    fn the_seed_line_rules() {
        assert_eq!(text("").line_count(), 0);
        assert_eq!(text("").head(10), Vec::<String>::new());
        let a = text("a\nb\n");
        assert_eq!(a.line_count(), 3);
        assert_eq!(a.cat(None, None), ["a", "b", ""]);
        let crlf = text("a\r\nb\r\n");
        assert_eq!(
            crlf.cat(None, None),
            ["a\r", "b\r", ""],
            "CR stays in its line"
        );
        assert_eq!(text("x").line_count(), 1);
        assert_eq!(text("\n").cat(None, None), ["", ""]);
    }

    #[test]
    fn invalid_utf8_is_lossy_in_lines_and_raw_in_bytes() {
        let a = SpooledArtifact::new(MemoryReader::new(b"ok\n\xff\xfe bad\n".to_vec()));
        assert_eq!(a.byte_length(), 10);
        assert_eq!(a.cat(Some(1), Some(2)), ["\u{fffd}\u{fffd} bad"]);
        assert_eq!(
            a.grep("bad", GrepFlags::NONE).unwrap(),
            ["\u{fffd}\u{fffd} bad"]
        );
    }

    #[test]
    fn cat_clamps_like_slice() {
        let a = text("0\n1\n2\n3");
        assert_eq!(a.cat(Some(2), None), ["2", "3"]);
        assert_eq!(
            a.cat(Some(3), Some(2)),
            Vec::<String>::new(),
            "start >= end"
        );
        assert_eq!(a.cat(Some(10), Some(20)), Vec::<String>::new());
        assert_eq!(a.cat(None, Some(100)), ["0", "1", "2", "3"]);
        assert_eq!(a.head(2), ["0", "1"]);
        assert_eq!(a.tail(10), ["0", "1", "2", "3"]);
        assert_eq!(a.tail(0), Vec::<String>::new());
    }

    #[test]
    fn grep_flags_are_validated() {
        let a = text("Alpha\nbeta\nALPHA\n");
        assert_eq!(
            a.grep("alpha", GrepFlags::IGNORE_CASE).unwrap(),
            ["Alpha", "ALPHA"]
        );
        assert_eq!(a.grep("^b", GrepFlags::NONE).unwrap(), ["beta"]);
        for bad in ["g", "y", "x", "ii", "gi"] {
            let err = bad.parse::<GrepFlags>().unwrap_err().to_string();
            assert!(err.starts_with("invalid pattern: "), "{bad}: {err}");
        }
        assert!(a.grep("(", GrepFlags::NONE).is_err());
    }

    #[test]
    fn a_file_reader_reads_the_same_as_memory() {
        let dir = std::env::temp_dir().join(format!("flexmd-artifact-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let content: String = (0..1000).map(|i| format!("line {i}\r\n")).collect();
        let path = dir.join("a.txt");
        std::fs::write(&path, &content).unwrap();
        let file = SpooledArtifact::new(FileReader::open(&path).unwrap());
        let memory = text(&content);
        assert_eq!(file.line_count(), 1001);
        assert_eq!(file.tail(3), memory.tail(3));
        assert_eq!(
            file.cat(Some(500), Some(503)),
            ["line 500\r", "line 501\r", "line 502\r"]
        );
        assert_eq!(
            file.grep("^line 99\\d\\r?$", GrepFlags::NONE)
                .unwrap()
                .len(),
            10
        );
        assert_eq!(file.as_string(), content);
        std::fs::write(dir.join("empty"), "").unwrap();
        let empty = SpooledArtifact::new(FileReader::open(dir.join("empty")).unwrap());
        assert_eq!((empty.line_count(), empty.byte_length()), (0, 0));
        assert!(FileReader::open(dir.join("missing")).is_err());
        let reader = FileReader::open(&path).unwrap();
        assert_eq!(reader.line_of(0), 0);
        assert_eq!(reader.line_of(content.len()), 1000);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn tokens() {
        let a = text("Hello world\n");
        assert_eq!(a.estimate_tokens(Encoding::Cl100kBase), 3);
        assert_eq!(a.estimate_tokens(Encoding::Claude), 4);
    }
}

mod json_artifacts {
    use super::*;

    #[test]
    fn inference_order() {
        assert_eq!(
            json_artifact("{\"a\": 1}", None).json_type(),
            JsonFormat::Json
        );
        assert_eq!(
            json_artifact("[1, 2]\n", None).json_type(),
            JsonFormat::Json
        );
        assert_eq!(
            json_artifact("{\"a\": 1}\n", None).json_type(),
            JsonFormat::Json,
            "one record is JSON"
        );
        assert_eq!(
            json_artifact("{\"a\": 1}\n\n{\"a\": 2}\n", None).json_type(),
            JsonFormat::Jsonl
        );
        assert_eq!(
            json_artifact("{\"a\": 1}\r\n{\"a\": 2}\r\n", None).json_type(),
            JsonFormat::Jsonl
        );
        assert_eq!(
            json_artifact("// c\n{a: 1,}", None).json_type(),
            JsonFormat::Json5
        );
        let err = SpooledJsonArtifact::new(MemoryReader::new("not json"), None).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("the artifact is neither JSON, JSON Lines nor JSON5"),
            "{err}"
        );
        assert_eq!(
            json_artifact("{\"a\":1}", Some(JsonFormat::Ndjson)).json_type(),
            JsonFormat::Ndjson
        );
    }

    #[test]
    fn queries_on_a_root() {
        let a = json_artifact(r#"{"b": [1, 2], "a": {"c": "x"}}"#, None);
        assert_eq!(
            a.json_keys().unwrap(),
            Some(vec!["b".to_owned(), "a".to_owned()])
        );
        assert_eq!(a.json_length().unwrap(), 1);
        assert_eq!(a.json_get("$.b[*]").unwrap(), [json!(1), json!(2)]);
        assert_eq!(a.json_get("$..c").unwrap(), [json!("x")]);
        assert_eq!(
            a.json_get("$.nope").unwrap(),
            Vec::<serde_json::Value>::new()
        );
        assert_eq!(
            a.json_slice(Some(5), None).unwrap(),
            [json!({"b": [1, 2], "a": {"c": "x"}})]
        );
        assert_eq!(a.json_filter("$.a").unwrap().len(), 1);
        assert_eq!(a.json_filter("$.z").unwrap().len(), 0);
        assert_eq!(json_artifact("[1]", None).json_keys().unwrap(), None);
    }

    #[test]
    fn queries_on_json_lines() {
        let a = json_artifact(
            "{\"id\": 1, \"t\": \"a\"}\n\n[1]\n{\"id\": 2, \"u\": true}\n",
            None,
        );
        assert_eq!(a.json_length().unwrap(), 3);
        assert_eq!(
            a.json_keys().unwrap(),
            Some(vec!["id".to_owned(), "t".to_owned(), "u".to_owned()])
        );
        assert_eq!(a.json_pluck("$.id").unwrap(), [json!(1), json!(2)]);
        assert_eq!(a.json_slice(Some(1), Some(2)).unwrap(), [json!([1])]);
        assert_eq!(
            a.json_slice(Some(2), Some(1)).unwrap(),
            Vec::<serde_json::Value>::new()
        );
        assert_eq!(
            a.json_filter("$[?@.id > 1]").unwrap(),
            [json!({"id": 2, "u": true})]
        );
        let broken = json_artifact("{\"a\": 1}\nnope\n", Some(JsonFormat::Jsonl));
        assert_eq!(broken.json_length().unwrap(), 2);
        assert!(
            broken
                .json_get("$.a")
                .unwrap_err()
                .to_string()
                .starts_with("line 2 is not JSON")
        );
    }

    #[test]
    fn json5_with_comments() {
        let a = json_artifact("{\n  // the list\n  items: ['a', 'b',],\n}\n", None);
        assert_eq!(a.json_type(), JsonFormat::Json5);
        assert_eq!(a.json_get("$.items[1]").unwrap(), [json!("b")]);
    }

    #[test]
    fn hostile_paths_and_documents() {
        let a = json_artifact(r#"{"a": 1}"#, None);
        assert!(a.json_get(&"$".repeat(5000)).is_err());
        let deep_path = format!("$[?{}@.a{}]", "(".repeat(70), ")".repeat(70));
        assert!(
            a.json_get(&deep_path)
                .unwrap_err()
                .to_string()
                .contains("nests deeper")
        );
        assert!(a.json_get("$[").is_err());
        let deep_doc = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        // Checking the syntax needs no recursion; building the root stops at 128.
        let inferred = json_artifact(&deep_doc, None);
        assert_eq!(inferred.json_type(), JsonFormat::Json);
        assert!(
            inferred
                .json_get("$")
                .unwrap_err()
                .to_string()
                .contains("recursion limit")
        );
        let json5 = json_artifact(&format!("// deep\n{deep_doc}"), Some(JsonFormat::Json5));
        assert!(
            json5
                .json_keys()
                .unwrap_err()
                .to_string()
                .contains("nests deeper than 128")
        );
        let unclosed =
            SpooledJsonArtifact::new(MemoryReader::new("[".repeat(100_000)), None).unwrap_err();
        assert!(
            unclosed.to_string().contains("nests deeper than 128"),
            "{unclosed}"
        );
        // `$..*` over a wide, 100-deep document is bounded by its size.
        let mut doc = json!(1);
        for _ in 0..100 {
            doc = json!({"a": doc, "b": [1, 2]});
        }
        let wide = json_artifact(&doc.to_string(), None);
        assert_eq!(
            wide.json_get("$..*").unwrap().len(),
            400,
            "a, b, b[0], b[1] per level"
        );
    }
}

mod member_fast_path {
    use super::*;

    #[test]
    fn member_chains_select_what_jsonpath_selects() {
        let lines = concat!(
            "{\"a\": {\"b\": 1}, \"x\": 0}\n",
            "{\"a\": {\"b\": [1, {\"c\": 2}]}}\n",
            "{\"a\": 5}\n",
            "[{\"a\": {\"b\": 9}}]\n",
            "{\"z\": 1}\n",
            "{\"a\": {\"b\": \"dup1\", \"b\": \"dup2\"}}\n",
            "{\"a\\u0062\": 3, \"a\": {\"b\": null}}\n",
        );
        let a = json_artifact(lines, Some(JsonFormat::Jsonl));
        let fast = a.json_get("$.a.b").unwrap();
        let general = a.json_get("$.a[*]").unwrap();
        assert_eq!(
            fast,
            [json!(1), json!([1, {"c": 2}]), json!("dup2"), json!(null)]
        );
        assert_eq!(a.json_get("$['a']['b']").unwrap(), fast);
        assert_eq!(general.len(), 4);
        assert_eq!(
            a.json_get("$.ab").unwrap(),
            [json!(3)],
            "escaped keys compare unescaped"
        );
        let broken = json_artifact("{\"a\": 1}\n{\"a\": \n", Some(JsonFormat::Jsonl));
        assert!(
            broken
                .json_get("$.a")
                .unwrap_err()
                .to_string()
                .starts_with("line 2 is not JSON")
        );
    }
}

/// JSONPath-Plus's `.length`, which flex-md's artifacts take: never a
/// silent empty result.
mod length {
    use super::*;

    #[test]
    fn a_trailing_length_is_the_length_of_arrays_and_strings() {
        let a = json_artifact(
            r#"{"tags": ["a", "b", "c"], "name": "café 😀", "meta": {"length": 7}, "n": 1}"#,
            None,
        );
        assert_eq!(a.json_get("$.tags.length").unwrap(), [json!(3)]);
        // As JavaScript counts a string: UTF-16 units (😀 is two).
        assert_eq!(a.json_get("$.name.length").unwrap(), [json!(7)]);
        assert_eq!(a.json_get("$.meta.length").unwrap(), [json!(7)]);
        assert_eq!(
            a.json_get("$.n.length").unwrap(),
            Vec::<serde_json::Value>::new()
        );
        assert_eq!(
            a.json_get("$.*.length").unwrap(),
            [json!(3), json!(7), json!(7)]
        );
        let lines = json_artifact("{\"xs\": [1, 2]}\n{\"xs\": []}\n", Some(JsonFormat::Jsonl));
        assert_eq!(lines.json_get("$.xs.length").unwrap(), [json!(2), json!(0)]);
    }

    #[test]
    fn length_inside_a_filter_that_selects_nothing_says_how_to_write_it() {
        let a = json_artifact(r#"[{"tags": ["a", "b"]}, {"tags": []}]"#, None);
        let error = a.json_get("$[?@.tags.length > 1]").unwrap_err().to_string();
        assert!(error.contains("write `length(@.x)`"), "{error}");
        assert_eq!(
            a.json_get("$[?length(@.tags) > 1]").unwrap(),
            [json!({"tags": ["a", "b"]})]
        );
        // A real member named `length` in a filter still works.
        let b = json_artifact(r#"[{"length": 3}, {"length": 1}]"#, None);
        assert_eq!(
            b.json_get("$[?@.length > 2]").unwrap(),
            [json!({"length": 3})]
        );
    }
}
