//! The forged-tool dispatcher with fuzzed calls: the first line is the tool
//! name, the rest its arguments (JSON text, as a model sends it), run on a
//! text, a JSON and a Markdown artifact. Never a panic.

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
    let _ = tools.call(name, arguments);
    // The same arguments under every tool name.
    for definition in tools.definitions() {
        let _ = tools.call(&definition.name, arguments);
    }
});
