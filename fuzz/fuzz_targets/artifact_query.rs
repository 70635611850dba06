//! A fuzzed JSONPath on a fixed document, a fuzzed grep pattern on a fixed
//! log, and any text as a Markdown artifact: never a panic.

#![no_main]

use flexmd_artifact::{
    GrepFlags, MemoryReader, SpooledArtifact, SpooledJsonArtifact, SpooledMarkdownArtifact,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
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
    let _ = md.md_text(None, None);
    let _ = md.md_links(None, None);
    let _ = md.md_frontmatter();
    let _ = md.md_ast(None, None);
});
