//! Prompt guidance: only the rules a spec needs.

use flexmd_core::{OutputFormatSpec, SectionKind, TableKind};

use crate::spec::render_spec;

/// The prompt rules that apply to `spec`, as a `Rules:` list, or `""`
/// when none does.
///
/// ```
/// let spec = flexmd_ofs::parse_spec("- Steps — ordered list\n").value;
/// assert_eq!(
///     flexmd_ofs::enrich_instructions(&spec),
///     "Rules:\n- If a section is empty, write `None`.\n- Ordered-list sections must use numbered items (nested allowed).\n"
/// );
/// ```
pub fn enrich_instructions(spec: &OutputFormatSpec) -> String {
    let mut rules: Vec<String> = Vec::new();
    if let Some(value) = &spec.empty_section_value {
        rules.push(format!("If a section is empty, write `{value}`."));
    }
    let has = |kind: SectionKind| spec.sections.iter().any(|s| s.kind == kind);
    if has(SectionKind::List) {
        rules.push("List sections must use '-' bullets (nested allowed).".to_owned());
    }
    if has(SectionKind::OrderedList) {
        rules.push("Ordered-list sections must use numbered items (nested allowed).".to_owned());
    }
    if !spec.tables.is_empty() {
        rules.push("Tables must be Markdown pipe tables with the specified columns.".to_owned());
    }
    if spec
        .tables
        .iter()
        .any(|t| t.kind == TableKind::OrderedTable)
    {
        rules.push(
            "Ordered tables must add a first column named '#' with rows numbered 1..N.".to_owned(),
        );
    }
    if rules.is_empty() {
        return String::new();
    }
    let mut out = String::from("Rules:\n");
    for rule in rules {
        out.push_str("- ");
        out.push_str(&rule);
        out.push('\n');
    }
    out
}

/// The text to paste into a prompt: the canonical OFS block, then the rules
/// that apply.
pub fn prompt(spec: &OutputFormatSpec) -> String {
    let rules = enrich_instructions(spec);
    let block = render_spec(spec);
    if rules.is_empty() {
        block
    } else {
        format!("{block}\n{rules}")
    }
}
