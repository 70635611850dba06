//! The OFS block: Markdown ⇄ [`OutputFormatSpec`].

use crate::error::SpecError;
use flexmd_core::{
    Diagnostic, LineIndex, OfsSection, OfsTable, OutputFormatSpec, Parsed, SectionKind, Severity,
    TableKind, line_spans, normalize_title,
};

/// The heading [`render_spec`] writes.
const HEADING: &str = "## Output format (Markdown)";
/// The sentence before the section list.
const INTRO: &str = "Include these sections somewhere (order does not matter):";
/// The phrase for a spec whose empty sections stay empty.
const LEAVE_EMPTY: &str = "If a section is empty, leave it empty.";

/// Where a line of the block belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    Sections,
    Tables,
    Empty,
}

/// Reads an OFS block the way people write it.
///
/// - a title: a heading of any level, a bold line, a `Label:` line, or none;
/// - section bullets (`-`, `*`, `+`): `Name — kind`, with `—`, `–`, ` - ` or
///   `:` as the delimiter, kinds `prose`, `list`, `ordered list` in any case
///   (synonyms such as `bullet list`, `numbered list`, `text` are read with a
///   warning), then an optional hint after `,`, a delimiter or in parentheses;
/// - `Tables (only if needed):` (tables optional) or `Tables:` (required),
///   then `- (a, b, c — table)` or `- (a, b — ordered table, by b)`;
/// - `Empty sections:` then `- If a section is empty, write `None`.`: the
///   value between backticks or quotes; without this block the value is
///   `None`, as in flex-md's default; `leave it empty` means no value.
///
/// Any other line is a warning with its line and column, never dropped
/// silently; the spec is still built from everything recognised.
///
/// ```
/// use flexmd_core::SectionKind;
/// let parsed = flexmd_ofs::parse_spec("- Summary: prose\n* Steps – numbered list, one per step\n");
/// let spec = &parsed.value;
/// assert_eq!(spec.sections[1].name, "Steps");
/// assert_eq!(spec.sections[1].kind, SectionKind::OrderedList);
/// assert_eq!(spec.sections[1].hint.as_deref(), Some("one per step"));
/// assert_eq!(parsed.diagnostics[0].code, "ofs::kind_synonym");
/// ```
pub fn parse_spec(md: &str) -> Parsed<OutputFormatSpec> {
    let mut spec = OutputFormatSpec::default();
    let mut diagnostics = Vec::new();
    let index = LineIndex::new(md);
    let mut report =
        |severity: Severity, code: &str, message: String, span: std::ops::Range<usize>| {
            diagnostics.push(Diagnostic::new(code, severity, message, span, &index));
        };
    let warn = Severity::Warning;
    let mut block = Block::Sections;
    let mut seen_content = false;
    // Normalised names already listed (a set: a spec may be huge).
    let mut seen_names = std::collections::HashSet::new();
    for line in line_spans(md) {
        let text = md.get(line.start..line.end).unwrap_or_default();
        let trimmed = text.trim();
        let indent = text.len() - text.trim_start().len();
        let span = line.start + indent..line.end;
        if trimmed.is_empty() {
            continue;
        }
        let first_content = !seen_content;
        seen_content = true;
        if let Some(item) = bullet(trimmed) {
            match block {
                Block::Sections => match section_item(item) {
                    Ok((section, synonym)) => {
                        if let Some(word) = synonym {
                            report(
                                warn,
                                "ofs::kind_synonym",
                                format!(
                                    "`{word}` read as `{}`; write `{}` to be exact",
                                    kind_name(section.kind),
                                    kind_name(section.kind)
                                ),
                                span.clone(),
                            );
                        }
                        if !seen_names.insert(normalize_title(&section.name)) {
                            report(
                                warn,
                                "ofs::duplicate_section",
                                format!(
                                    "section `{}` is listed twice; the first is kept",
                                    section.name
                                ),
                                span,
                            );
                        } else {
                            spec.sections.push(section);
                        }
                    }
                    Err(message) => match mistyped_kind(item) {
                        // A kind one or two letters off is a typo: dropping
                        // the section would let every answer pass it.
                        Some((name, written, nearest)) => report(
                            Severity::Error,
                            "ofs::unknown_kind",
                            format!(
                                "section `{name}`: unknown kind `{written}`; did you mean `{nearest}`?"
                            ),
                            span,
                        ),
                        None => report(warn, "ofs::unknown_line", message, span),
                    },
                },
                Block::Tables => match table_item(item) {
                    Ok(table) => spec.tables.push(table),
                    Err(message) => report(warn, "ofs::unknown_line", message, span),
                },
                Block::Empty => match empty_value(item) {
                    Some(value) => spec.empty_section_value = value,
                    None => report(
                        warn,
                        "ofs::unknown_line",
                        "expected `If a section is empty, write `None`.`".to_owned(),
                        span,
                    ),
                },
            }
            continue;
        }
        let label = normalize_title(trimmed.trim_start_matches('#'));
        if label.starts_with("tables") {
            block = Block::Tables;
            spec.tables_optional = label.contains("only if needed") || label.contains("optional");
        } else if label.starts_with("empty section") {
            block = Block::Empty;
        } else if label.starts_with("include these sections") || label.starts_with("sections") {
            block = Block::Sections;
        } else if first_content
            && (trimmed.starts_with('#') || is_bold_line(trimmed) || trimmed.ends_with(':'))
        {
            // The block's title: any heading level, a bold line, or a label.
        } else {
            report(
                warn,
                "ofs::unknown_line",
                format!("not part of an output format spec: {trimmed:?}; ignored"),
                span,
            );
        }
    }
    Parsed {
        value: spec,
        diagnostics,
    }
}

/// The text after a `-`, `*` or `+` bullet.
fn bullet(line: &str) -> Option<&str> {
    let rest = line.strip_prefix(['-', '*', '+'])?;
    rest.starts_with([' ', '\t']).then(|| rest.trim())
}

fn is_bold_line(line: &str) -> bool {
    let inner = line.trim_end_matches(':');
    (inner.starts_with("**") && inner.ends_with("**") && inner.len() > 4)
        || (inner.starts_with("__") && inner.ends_with("__") && inner.len() > 4)
}

/// The delimiters between a section's name and its kind, longest first.
const DELIMITERS: [&str; 4] = ["—", "–", " - ", ":"];

/// `Name — kind[, hint]`: the section, and the synonym used for its kind.
fn section_item(item: &str) -> Result<(OfsSection, Option<String>), String> {
    // Try each delimiter position from the right: a name may hold `:` or `—`.
    let mut cuts: Vec<(usize, usize)> = DELIMITERS
        .iter()
        .flat_map(|d| item.match_indices(d).map(|(i, m)| (i, i + m.len())))
        .collect();
    cuts.sort_unstable_by_key(|cut| std::cmp::Reverse(cut.0));
    for (at, after) in cuts {
        let name = item.get(..at).unwrap_or_default().trim();
        let rest = item.get(after..).unwrap_or_default().trim();
        if name.is_empty() {
            continue;
        }
        if let Some((kind, synonym, hint)) = kind_and_hint(rest) {
            return Ok((
                OfsSection {
                    name: name.to_owned(),
                    kind,
                    hint,
                },
                synonym,
            ));
        }
    }
    Err(format!(
        "expected `Name — kind` with kind prose, list or ordered list: {item:?}; ignored"
    ))
}

/// Kind words and synonyms, longest first so `ordered list` wins over `list`.
const KINDS: [(&str, SectionKind, bool); 12] = [
    ("ordered list", SectionKind::OrderedList, false),
    ("numbered list", SectionKind::OrderedList, true),
    ("ordered_list", SectionKind::OrderedList, true),
    ("bulleted list", SectionKind::List, true),
    ("bullet list", SectionKind::List, true),
    ("bullets", SectionKind::List, true),
    ("list", SectionKind::List, false),
    ("prose", SectionKind::Prose, false),
    ("paragraphs", SectionKind::Prose, true),
    ("paragraph", SectionKind::Prose, true),
    ("text", SectionKind::Prose, true),
    ("steps", SectionKind::OrderedList, true),
];

/// For a section line whose kind is no kind: the name, the kind as
/// written and the kind it is nearest to, when that is at most two edits
/// away (`orderd list` → `ordered list`).
fn mistyped_kind(item: &str) -> Option<(String, String, &'static str)> {
    let (at, len) = DELIMITERS
        .iter()
        .filter_map(|d| item.rfind(d).map(|i| (i, d.len())))
        .max_by_key(|&(i, _)| i)?;
    let name = item.get(..at)?.trim();
    let written = item
        .get(at + len..)?
        .split([',', '(', ';'])
        .next()?
        .trim()
        .to_lowercase();
    // Kind words are short; anything long is prose, not a typo.
    if name.is_empty() || written.is_empty() || written.chars().count() > 20 {
        return None;
    }
    KINDS
        .iter()
        .map(|(word, kind, _)| (edit_distance(&written, word), kind_name(*kind)))
        .filter(|&(d, _)| d <= 2)
        .min_by_key(|&(d, _)| d)
        .map(|(_, nearest)| (name.to_owned(), written, nearest))
}

/// Levenshtein distance between two short strings, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = i;
        if let Some(first) = row.first_mut() {
            *first = i + 1;
        }
        for (j, cb) in b.iter().enumerate() {
            let above = row.get(j + 1).copied().unwrap_or(usize::MAX);
            let left = row.get(j).copied().unwrap_or(usize::MAX);
            let next = (diagonal + usize::from(ca != *cb))
                .min(above.saturating_add(1))
                .min(left.saturating_add(1));
            diagonal = above;
            if let Some(cell) = row.get_mut(j + 1) {
                *cell = next;
            }
        }
    }
    row.last().copied().unwrap_or(0)
}

/// `kind[, hint]`, `kind (hint)`, `kind — hint`.
fn kind_and_hint(rest: &str) -> Option<(SectionKind, Option<String>, Option<String>)> {
    // Only the start can be a kind word: lowercase no more than that, so a
    // line with thousands of delimiters stays linear per try.
    let head: String = rest.chars().take(16).collect();
    let lower = head.to_lowercase();
    let (word, kind, synonym) = KINDS.iter().find(|(word, _, _)| lower.starts_with(word))?;
    let after = rest.get(word.len()..)?;
    // The kind must end at a word boundary.
    if after.chars().next().is_some_and(char::is_alphanumeric) {
        return None;
    }
    let hint = after
        .trim()
        .trim_start_matches([',', ';', ':', '—', '–', '-'])
        .trim();
    let hint = hint
        .strip_prefix('(')
        .and_then(|h| h.strip_suffix(')'))
        .unwrap_or(hint)
        .trim();
    let synonym = synonym.then(|| rest.get(..word.len()).unwrap_or(word).to_owned());
    Some((*kind, synonym, (!hint.is_empty()).then(|| hint.to_owned())))
}

/// `(a, b, c — table)` or `(a, b — ordered table, by b)`.
fn table_item(item: &str) -> Result<OfsTable, String> {
    let bad = || {
        format!("expected `(a, b — table)` or `(a, b — ordered table, by b)`: {item:?}; ignored")
    };
    let inner = item
        .strip_prefix('(')
        .and_then(|i| i.strip_suffix(')'))
        .unwrap_or(item)
        .trim();
    let (columns, rest) = DELIMITERS
        .iter()
        .filter_map(|d| inner.rfind(d).map(|i| (i, d.len())))
        .max_by_key(|&(i, _)| i)
        .and_then(|(i, len)| Some((inner.get(..i)?, inner.get(i + len..)?)))
        .ok_or_else(bad)?;
    let rest = rest.trim();
    let lower = rest.to_lowercase();
    let (kind, after) = if lower.starts_with("ordered table") {
        (TableKind::OrderedTable, rest.get("ordered table".len()..))
    } else if lower.starts_with("table") {
        (TableKind::Table, rest.get("table".len()..))
    } else {
        return Err(bad());
    };
    let after = after
        .unwrap_or_default()
        .trim()
        .trim_start_matches(',')
        .trim();
    let by = match after.get(..3).map(str::to_lowercase).as_deref() {
        Some("by ") => after.get(3..).map(|b| b.trim().to_owned()),
        _ if after.is_empty() => None,
        _ => return Err(bad()),
    };
    let columns: Vec<String> = columns
        .split(',')
        .map(|c| c.trim().to_owned())
        .filter(|c| !c.is_empty())
        .collect();
    if columns.is_empty() {
        return Err(bad());
    }
    Ok(OfsTable { columns, kind, by })
}

/// The value in `If a section is empty, write `None`.`; `Some(None)` for
/// `leave it empty`.
fn empty_value(item: &str) -> Option<Option<String>> {
    let lower = item.to_lowercase();
    if lower.contains("leave it empty") {
        return Some(None);
    }
    let at = lower.find("write")?;
    let value = item
        .get(at + "write".len()..)?
        .trim()
        .trim_end_matches('.')
        .trim();
    let value = value.trim_matches(['`', '"', '\'', '“', '”']).trim();
    (!value.is_empty()).then(|| Some(value.to_owned()))
}

/// The canonical name of a kind, as the spec writes it.
pub(crate) fn kind_name(kind: SectionKind) -> &'static str {
    match kind {
        SectionKind::Prose => "prose",
        SectionKind::List => "list",
        SectionKind::OrderedList => "ordered list",
    }
}

/// The general-purpose spec flex-md's `makeDefaultOfs()` returns: five
/// sections — `Short answer` and `Long answer` (prose), `Reasoning` (ordered
/// list), `Assumptions` and `Unknowns` (lists) —, no tables, empty sections
/// written `None`.
///
/// ([`OutputFormatSpec::default`] is the same minus the sections: the blank
/// a spec is built on.)
///
/// ```
/// let spec = flexmd_ofs::default_spec();
/// let names: Vec<&str> = spec.sections.iter().map(|s| s.name.as_str()).collect();
/// assert_eq!(names, ["Short answer", "Long answer", "Reasoning", "Assumptions", "Unknowns"]);
/// assert!(flexmd_ofs::render_spec(&spec).contains("- Reasoning — ordered list\n"));
/// ```
pub fn default_spec() -> OutputFormatSpec {
    let section = |name: &str, kind| OfsSection {
        name: name.to_owned(),
        kind,
        hint: None,
    };
    OutputFormatSpec {
        sections: vec![
            section("Short answer", SectionKind::Prose),
            section("Long answer", SectionKind::Prose),
            section("Reasoning", SectionKind::OrderedList),
            section("Assumptions", SectionKind::List),
            section("Unknowns", SectionKind::List),
        ],
        tables_optional: true,
        tables: Vec::new(),
        empty_section_value: Some("None".to_owned()),
        ..OutputFormatSpec::default()
    }
}

/// Reads a spec given in either form, told apart by content: text whose
/// first non-blank character is `{` is OutputFormatSpec JSON, anything else
/// is the Markdown block [`parse_spec`] reads (its diagnostics are kept).
///
/// Text that is neither — JSON that is not a spec, Markdown that names
/// no section and no table, or a section whose kind is misspelt — is a
/// [`SpecError`], never a spec that would pass what it should not.
///
/// ```
/// let md = flexmd_ofs::read_spec("- Summary — prose\n").unwrap().value;
/// let json = flexmd_ofs::read_spec(r#"{"sections":[{"name":"Summary","kind":"prose"}]}"#)
///     .unwrap()
///     .value;
/// assert_eq!(md, json);
/// let err = flexmd_ofs::read_spec("Just say hello.").unwrap_err();
/// assert_eq!(err, flexmd_ofs::SpecError::NotASpec);
/// ```
pub fn read_spec(text: &str) -> Result<Parsed<OutputFormatSpec>, SpecError> {
    let body = text
        .get(flexmd_core::bom_len(text.as_bytes())..)
        .unwrap_or_default();
    if body.trim_start().starts_with('{') {
        return serde_json::from_str::<OutputFormatSpec>(body)
            .map(|value| Parsed {
                value,
                diagnostics: Vec::new(),
            })
            .map_err(|e| {
                let offset = text.len() - body.len() + json_error_offset(body, &e);
                let (line, column) = LineIndex::new(text).line_col(offset);
                // serde_json ends its message with the place; the error
                // gives line and column fields of its own.
                let reason = e.to_string();
                let reason = reason
                    .rfind(" at line ")
                    .and_then(|at| reason.get(..at))
                    .unwrap_or(&reason)
                    .to_owned();
                SpecError::Json {
                    reason,
                    line,
                    column,
                    span: offset.into(),
                }
            });
    }
    let parsed = parse_spec(text);
    if let Some(bad) = parsed
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
    {
        return Err(SpecError::BadLine {
            message: bad.message.clone(),
            line: bad.line,
            column: bad.column,
            span: (bad.span.start, bad.span.len()).into(),
        });
    }
    if parsed.value.sections.is_empty() && parsed.value.tables.is_empty() {
        return Err(SpecError::NotASpec);
    }
    Ok(parsed)
}

/// The byte offset of serde_json's 1-based line and column (its column
/// counts bytes) in `text`.
fn json_error_offset(text: &str, e: &serde_json::Error) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(e.line().saturating_sub(1))
        .map(str::len)
        .sum();
    (line_start + e.column().saturating_sub(1)).min(text.len())
}

/// Writes the canonical OFS block for `spec`; [`parse_spec`]
/// reads it back to the same spec.
///
/// ```
/// let spec = flexmd_ofs::parse_spec("- Short answer — prose\n").value;
/// assert_eq!(
///     flexmd_ofs::render_spec(&spec),
///     "## Output format (Markdown)\nInclude these sections somewhere (order does not matter):\n\n- Short answer — prose\n\nEmpty sections:\n- If a section is empty, write `None`.\n"
/// );
/// ```
pub fn render_spec(spec: &OutputFormatSpec) -> String {
    let mut out = format!("{HEADING}\n{INTRO}\n\n");
    for section in &spec.sections {
        out.push_str("- ");
        out.push_str(&section.name);
        out.push_str(" — ");
        out.push_str(kind_name(section.kind));
        if let Some(hint) = &section.hint {
            out.push_str(", ");
            out.push_str(hint);
        }
        out.push('\n');
    }
    if !spec.tables.is_empty() || !spec.tables_optional {
        out.push_str(if spec.tables_optional {
            "\nTables (only if needed):\n"
        } else {
            "\nTables:\n"
        });
        for table in &spec.tables {
            out.push_str("- (");
            out.push_str(&table.columns.join(", "));
            out.push_str(match table.kind {
                TableKind::Table => " — table",
                TableKind::OrderedTable => " — ordered table",
            });
            if let Some(by) = &table.by {
                out.push_str(", by ");
                out.push_str(by);
            }
            out.push_str(")\n");
        }
    }
    out.push_str("\nEmpty sections:\n- ");
    match &spec.empty_section_value {
        Some(value) => {
            out.push_str("If a section is empty, write `");
            out.push_str(value);
            out.push_str("`.\n");
        }
        None => {
            out.push_str(LEAVE_EMPTY);
            out.push('\n');
        }
    }
    out
}
