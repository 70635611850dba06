//! Numbered regressions: each input once crashed, hung or blew up memory,
//! reached from a tool call or a tool output. Each test fails on the code
//! before its fix (docs/reliability.md records cause, fix and figures).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_artifact::{
    Artifact, Encoding, GrepFlags, JsonFormat, MAX_DOCUMENT_BYTES, MAX_FILTER_NESTING,
    MemoryReader, SpooledArtifact, SpooledJsonArtifact, compile_path, count_tokens, forge_tools,
};

/// 1. A JSONPath with a cut `\u` escape reached an `unreachable!` inside
///    serde_json_path: a model's tool call ended the host process.
#[test]
fn r001_cut_unicode_escape_in_a_path_is_an_error() {
    let doc = SpooledJsonArtifact::new(MemoryReader::new("{\"a\": 1}"), None).unwrap();
    for path in ["$[\"\\u", "$[\"D\\uD", "$['\\u12", "$[\"\\uD800\\u0041\"]"] {
        let err = doc.json_get(path).unwrap_err().to_string();
        assert!(err.contains("needs four hex digits"), "{path}: {err}");
    }
    assert!(doc.json_get("$[\"\\u0061\"]").is_ok());
}

/// 2. `(.|)` over a line holding a byte that is not UTF-8 made
///    regex-automata's forward and reverse searches disagree, and it
///    panicked ("reverse search must match if forward search does").
#[test]
fn r002_empty_alternative_over_invalid_utf8_does_not_panic() {
    let log = SpooledArtifact::new(MemoryReader::new(b"x\xaa\n".to_vec()));
    assert_eq!(log.grep("(.|)", GrepFlags::NONE).unwrap().len(), 2);
    let log = SpooledArtifact::new(MemoryReader::new(b"\x00\xaa\n".to_vec()));
    assert_eq!(log.grep(".|", GrepFlags::NONE).unwrap().len(), 2);
}

/// 3. Nested filters made JSONPath parsing exponential: 22 levels of `$[?`
///    took 6 s, each level doubling (and invalid paths cost the same).
#[test]
fn r003_nested_filters_are_bounded() {
    let nested = |n: usize| format!("{}@{}", "$[?".repeat(n), "]".repeat(n));
    assert!(compile_path(&nested(MAX_FILTER_NESTING)).is_ok());
    for n in [MAX_FILTER_NESTING + 1, 22, 26] {
        let err = compile_path(&nested(n)).unwrap_err().to_string();
        assert!(err.contains("more than 8 filters"), "{err}");
    }
    let inner = format!("$[?{}@{}]", "@[?".repeat(30), "]".repeat(30));
    assert!(compile_path(&inner).is_err());
    // Filters side by side are not nested.
    let wide = format!("$[{}]", vec!["?@.a"; 20].join(", "));
    assert!(compile_path(&wide).is_ok());
}

/// 4. A run without spaces reached tiktoken-rs whole: 1 MB of one letter,
///    digit or space overflowed its regex (a panic), and 100 KB took 3–7 s.
#[test]
fn r004_long_runs_are_counted_by_the_tiktoken_encodings() {
    for unit in ["a", "7", " "] {
        let text = unit.repeat(1_000_000);
        for encoding in [Encoding::Gpt2, Encoding::P50kBase] {
            assert!(count_tokens(text.as_bytes(), encoding) > 0, "{unit:?}");
        }
    }
    // 100 KB of `a`: the same count as before, now in linear time.
    assert_eq!(
        count_tokens("a".repeat(100_000).as_bytes(), Encoding::Gpt2),
        25_000
    );
}

/// 5. `$..*` on 10 MB of 120 nested arrays peaked at 4.6 GB: the first 2001
///    matches (each nearly the whole document) were cloned, cloned again
///    and serialised in full before the 64 KiB cap applied. Matches are now
///    lent and serialised within the cap.
#[test]
fn r005_descendants_of_a_deep_document_stay_within_the_cap() {
    let inner = vec!["1234567"; 20_000].join(",");
    let doc = format!("{}{inner}{}", "[".repeat(120), "]".repeat(120));
    let tools = [(
        "deep".to_owned(),
        Artifact::Json(SpooledJsonArtifact::new(MemoryReader::new(doc), None).unwrap()),
    )];
    let out = forge_tools(&tools)
        .call("artifact_json_get", r#"{"callId": "deep", "path": "$..*"}"#)
        .unwrap();
    assert!(out.len() < 66 * 1024, "{} bytes", out.len());
    assert!(out.starts_with("[\n  [\n    [\n"), "{}", &out[..40]);
    assert!(out.ends_with(
        "bytes shown; narrow the query (a range, a path, a pattern)]\n[truncated: more than 2000 items; narrow the query]"
    ));
}

/// 6. A 1 GB single-document `.json` artifact was parsed whole (8.1 GB,
///    abort). Past 64 MiB the tree is refused before reading; `$.a.b` still
///    reads only the members on the way.
#[test]
fn r006_a_document_too_large_for_a_tree_is_refused_early() {
    let filler = "x".repeat(1024);
    let mut doc = String::from("{\"meta\": {\"id\": 7}, \"rows\": [");
    while doc.len() <= MAX_DOCUMENT_BYTES {
        doc.push_str(&format!("\"{filler}\","));
    }
    doc.push_str("0]}");
    let a = SpooledJsonArtifact::new(MemoryReader::new(doc), Some(JsonFormat::Json)).unwrap();
    let err = a.json_get("$.rows[0]").unwrap_err().to_string();
    assert!(
        err.contains("documents over 67108864 bytes are not parsed whole"),
        "{err}"
    );
    assert_eq!(a.json_get("$.meta.id").unwrap(), [serde_json::json!(7)]);
}

/// 7. md_ast stayed superlinear inside its guards, which counted markers on
///    one line only: 400 KB of `[` ran past a minute, a list nested 1 000
///    levels across lines (1 MB) took 12 s. Unclosed `[` are counted, and a
///    line's indentation counts toward its nesting.
#[test]
fn r007_md_ast_guards_what_makes_markdown_rs_slow() {
    use flexmd_artifact::{MAX_AST_OPEN_BRACKETS, SpooledMarkdownArtifact};
    let md = |text: String| SpooledMarkdownArtifact::new(MemoryReader::new(text));
    let err = md("[".repeat(400_000))
        .md_ast(None, None)
        .unwrap_err()
        .to_string();
    assert!(err.contains("400000 `[` that no `]` closes"), "{err}");
    assert!(
        md("[".repeat(MAX_AST_OPEN_BRACKETS))
            .md_ast(None, None)
            .is_ok()
    );
    // Links close their brackets: any number is fine.
    assert!(md("[a](b) ".repeat(6_000)).md_ast(None, None).is_ok());
    let nested: String = (0..1_000)
        .map(|i| format!("{}- x\n", "  ".repeat(i)))
        .collect();
    let err = md(nested).md_ast(None, None).unwrap_err().to_string();
    assert!(
        err.contains("nests block quotes or lists deeper than 32"),
        "{err}"
    );
    let shallow: String = (0..32)
        .map(|i| format!("{}- x\n", "  ".repeat(i)))
        .collect();
    assert!(md(shallow).md_ast(None, None).is_ok());
}

/// 8. markdown-rs reaches `unreachable!` ("mismatched ListOrdered /
///    ListUnordered") on an unclosed fence inside an ordered item followed
///    by a bullet list (fuzz target `artifact_query`): the panic is
///    contained and `md_ast` returns an error; the other Markdown tools,
///    which use pulldown-cmark, read the text.
#[test]
fn r008_a_markdown_rs_panic_on_mixed_lists_is_an_error() {
    let text = "1. Call the endpoint:\n\n   ```json\n   {\"query\": \"weather\", \"ciust a paragraph.\n\n- and a list\ne rusponse.\n";
    let artifact =
        flexmd_artifact::SpooledMarkdownArtifact::new(MemoryReader::new(text.to_owned()));
    let err = artifact.md_ast(None, None).unwrap_err().to_string();
    assert!(err.contains("markdown-rs failed on this range"), "{err}");
    assert_eq!(artifact.md_headings(None).len(), 0);
    assert!(artifact.md_text(None, None).contains("and a list"));
}

/// 9. Under the 64 MiB bound, 30 MB of 150 000 arrays nested 100 deep
///    built a tree of 15 million values: `json-get '$..*'` took 4.6 GB.
///    More than 2 000 000 values are refused before parsing, in a document
///    and in a JSON Lines record; `$.a.b` still reads such a document.
#[test]
fn r009_a_document_of_too_many_values_is_refused_before_parsing() {
    let unit = format!("{}1{}", "[".repeat(100), "]".repeat(100));
    let rows = vec![unit; 20_000].join(",");
    let doc = format!("{{\"id\": 7, \"rows\": [{rows}]}}");
    let a =
        SpooledJsonArtifact::new(MemoryReader::new(doc.clone()), Some(JsonFormat::Json)).unwrap();
    let err = a.json_get("$..*").unwrap_err().to_string();
    assert!(
        err.starts_with(
            "the artifact's json document holds more than 2000000 values (past byte 3999916)"
        ),
        "{err}"
    );
    assert_eq!(a.json_get("$.id").unwrap(), [serde_json::json!(7)]);
    let lines = SpooledJsonArtifact::new(
        MemoryReader::new(format!("{{\"id\": 1}}\n{doc}\n")),
        Some(JsonFormat::Jsonl),
    )
    .unwrap();
    let err = lines.json_get("$[*].id").unwrap_err().to_string();
    assert!(
        err.starts_with("line 2 holds more than 2000000 values"),
        "{err}"
    );
}

/// 10. A file whose size the system reports as 0 but which has content
///     (`/proc/self/status`) opened as an empty artifact, which an agent
///     reads as "empty file"; a pipe given by path made the open wait for a
///     writer forever.
#[test]
fn r010_special_files_are_read_or_refused_never_silently_empty() {
    use flexmd_artifact::{FileReader, SpoolReader};
    // The error and its cause, as the CLI and the bindings show them.
    let chain = |e: flexmd_artifact::ArtifactError| {
        let cause = std::error::Error::source(&e).map(ToString::to_string);
        format!("{e}: {}", cause.unwrap_or_default())
    };
    #[cfg(target_os = "linux")]
    {
        let status = FileReader::open("/proc/self/status").unwrap();
        let text = String::from_utf8_lossy(status.bytes()).into_owned();
        assert!(text.starts_with("Name:"), "{text:?}");
        assert!(status.line_count() > 10);
    }
    let dir = std::env::temp_dir().join(format!("flexmd-r010-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let error = chain(FileReader::open(&dir).unwrap_err());
    assert!(
        error.contains("it is a directory, not a regular file"),
        "{error}"
    );
    #[cfg(unix)]
    {
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let error = chain(FileReader::open(&fifo).unwrap_err());
            assert!(
                error.contains(
                    "it is a pipe (FIFO), not a regular file: give its content on standard input"
                ),
                "{error}"
            );
        }
        let error = chain(FileReader::open("/dev/zero").unwrap_err());
        assert!(error.contains("it is a device"), "{error}");
    }
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    assert_eq!(FileReader::open(&empty).unwrap().bytes(), b"");
    std::fs::remove_dir_all(&dir).unwrap();
}
