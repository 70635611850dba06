//! The forged-tool dispatcher with fuzzed calls, run on a text, a JSON and
//! a Markdown artifact: the first line is the tool name (a name that is not
//! a tool's picks one by its first byte, so most calls reach a tool), the
//! rest its arguments (JSON text, as a model sends it). Never a panic.

#![no_main]

use flexmd_artifact::{
    Artifact, MemoryReader, SpooledArtifact, SpooledJsonArtifact, SpooledMarkdownArtifact,
    forge_tools,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let (name, arguments) = text.split_once('\n').unwrap_or((text, "{}"));
    let mut artifacts = vec![
        (
            "log".to_owned(),
            Artifact::Text(SpooledArtifact::new(MemoryReader::new("a\nERROR b\nc\n"))),
        ),
        (
            "doc".to_owned(),
            Artifact::Markdown(SpooledMarkdownArtifact::new(MemoryReader::new(
                "---\ntitle: t\n---\n# A\ntext [l](u)\n## B\n```rs\nx\n```\n",
            ))),
        ),
    ];
    if let Ok(json) = SpooledJsonArtifact::new(
        MemoryReader::new("{\"a\": [1, {\"b\": \"c\"}], \"n\": 2}"),
        None,
    ) {
        artifacts.push(("data".to_owned(), Artifact::Json(json)));
    }
    let tools = forge_tools(&artifacts);
    let definitions = tools.definitions();
    let known = definitions.iter().any(|d| d.name == name);
    let name = match name.bytes().next() {
        Some(b) if !known && !definitions.is_empty() => {
            definitions[usize::from(b) % definitions.len()].name.clone()
        }
        _ => name.to_owned(),
    };
    let _ = tools.call(&name, arguments);
});
