//! A fuzzed JSONPath on a fixed document, a fuzzed grep pattern on a fixed
//! log, and any text as a Markdown artifact: never a panic that escapes;
//! the Markdown's text and links read a chunk at a time (chunks of 1 to 64
//! bytes, from the text's length) are the whole call's.
//!
//! libFuzzer's panic hook aborts on every panic, even one the library
//! catches. markdown-rs has known panics that `md_ast` contains (it returns
//! an error; regression r008 of flexmd-artifact), so panics raised inside
//! markdown-rs are let through to that containment; any other panic aborts
//! as before, and a markdown-rs panic that escapes `md_ast` still reaches
//! libFuzzer's own catch and aborts.

#![no_main]

use flexmd_artifact::{
    GrepFlags, MemoryReader, SpooledArtifact, SpooledJsonArtifact, SpooledMarkdownArtifact,
};
use libfuzzer_sys::fuzz_target;

/// Lets panics inside markdown-rs unwind to `md_ast`'s containment.
fn contain_markdown_rs_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let abort_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_markdown_rs = info
                .location()
                .is_some_and(|l| l.file().contains("/markdown-1."));
            if !in_markdown_rs {
                abort_hook(info);
            }
        }));
    });
}

fuzz_target!(|text: &str| {
    contain_markdown_rs_panics();
    let doc = "{\"store\": {\"book\": [{\"title\": \"a\", \"price\": 8}, {\"title\": \"b\", \"price\": 12}]}}";
    if let Ok(json) = SpooledJsonArtifact::new(MemoryReader::new(doc), None) {
        let _ = json.json_get(text);
        let _ = json.json_filter(text);
    }
    let log = SpooledArtifact::new(MemoryReader::new(b"start\nERROR disk x\xaa\nok\n".to_vec()));
    let _ = log.grep(text, GrepFlags::NONE);
    let _ = log.grep(text, "imsu".parse().unwrap());
    let md = SpooledMarkdownArtifact::new(MemoryReader::new(text));
    let _ = md.md_headings(None);
    let _ = md.md_sections(None);
    let whole = md.md_text(None, None);
    let links = md.md_links(None, None);
    let max_bytes = text.len() % 64 + 1;
    let (mut texts, mut at) = (Vec::new(), None);
    loop {
        let chunk = md.md_text_chunk(None, None, at, max_bytes);
        if !chunk.text.is_empty() {
            texts.push(chunk.text);
        }
        match chunk.next {
            Some(next) if at.is_none_or(|at| next > at) => at = Some(next),
            Some(next) => panic!("an md_text chunk went back to line {next}"),
            None => break,
        }
    }
    assert_eq!(texts.join("\n\n"), whole, "md_text by chunks differs");
    let (mut chunked_links, mut at) = (Vec::new(), None);
    loop {
        let chunk = md.md_links_chunk(None, None, at, max_bytes);
        chunked_links.extend(chunk.items);
        match chunk.next {
            Some(next) if at.is_none_or(|at| next > at) => at = Some(next),
            Some(next) => panic!("an md_links chunk went back to line {next}"),
            None => break,
        }
    }
    assert_eq!(chunked_links, links, "md_links by chunks differs");
    let _ = md.md_frontmatter();
    let _ = md.md_ast(None, None);
});
