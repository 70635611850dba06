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

/// A prompt that asks the model to write one section again: what was
/// wrong (`issue`, from [`validate`](crate::validate) or a
/// [`StreamingExtractor`](crate::StreamingExtractor) violation), and the
/// form the section must take. `None` when the issue concerns no section of
/// `spec` (a missing table).
///
/// With a stream, stop the model at the first violation and send this:
/// only that section is written again.
///
/// ```
/// let spec = flexmd_ofs::parse_spec("- Risks — list, the main ones\n").value;
/// let report = flexmd_ofs::validate("## Risks\nNothing much.\n", &spec);
/// let prompt = flexmd_ofs::section_correction(&spec, &report.errors[0]).unwrap();
/// assert_eq!(
///     prompt,
///     "The section `Risks` of your answer does not follow the format: \
///      `Risks` must be `-` bullet items or `None`.\n\
///      Write only that section again, starting with its heading:\n\n## Risks\n\n\
///      It holds `-` bullet items (nested allowed), or `None` if it is empty \
///      (the main ones).\n"
/// );
///
/// let missing = flexmd_ofs::validate("Nothing here.", &spec);
/// let prompt = flexmd_ofs::section_correction(&spec, &missing.errors[0]).unwrap();
/// assert!(prompt.starts_with("Your answer has no section `Risks`.\n"));
/// ```
pub fn section_correction(spec: &OutputFormatSpec, issue: &crate::Issue) -> Option<String> {
    let name = issue.section.as_deref()?;
    let section = spec.sections.iter().find(|s| s.name == name)?;
    let form = match section.kind {
        SectionKind::Prose => "It holds prose".to_owned(),
        SectionKind::List => "It holds `-` bullet items (nested allowed)".to_owned(),
        SectionKind::OrderedList => {
            "It holds numbered items `1.`, `2.`, … (nested allowed)".to_owned()
        }
    };
    let empty = spec
        .empty_section_value
        .as_deref()
        .map(|value| format!(", or `{value}` if it is empty"))
        .unwrap_or_default();
    let hint = section
        .hint
        .as_deref()
        .map(|hint| format!(" ({hint})"))
        .unwrap_or_default();
    let problem = if issue.code == "missing_section" {
        format!(
            "Your answer has no section `{name}`.\nWrite only that section, starting with its heading:"
        )
    } else {
        format!(
            "The section `{name}` of your answer does not follow the format: {}.\n\
             Write only that section again, starting with its heading:",
            issue.message.trim_end_matches('.')
        )
    };
    Some(format!("{problem}\n\n## {name}\n\n{form}{empty}{hint}.\n"))
}
