//! Inputs shared by flexmd's benchmarks: realistic Markdown made from the
//! bundled example answers, at the sizes the benchmarks name.

/// The bundled example answers, concatenated.
const ANSWERS: [&str; 3] = [
    include_str!("../../examples/responses/clean.md"),
    include_str!("../../examples/responses/quirks.md"),
    include_str!("../../examples/responses/nested.md"),
];

/// A Markdown document of at least `target_bytes`: the example answers
/// repeated under numbered chapter headings, so headings, lists, tables, code
/// fences and prose all occur at their natural density.
pub fn document(target_bytes: usize) -> String {
    let mut doc = String::with_capacity(target_bytes + 4096);
    let mut chapter = 0usize;
    while doc.len() < target_bytes {
        chapter += 1;
        for answer in ANSWERS {
            // Front matter is only valid at the very start: keep the rest.
            let body = answer
                .split_once("---\n# ")
                .map_or(answer, |(_, rest)| rest);
            doc.push_str(&format!(
                "# Chapter {chapter}\n\nSome prose before the answer.\n\n"
            ));
            doc.push_str(body);
            doc.push('\n');
        }
    }
    doc
}
