//! Checking an answer against a spec, and extracting it, as flex-md does.
//! One analysis serves both: the answer is parsed once for
//! its outline and once for its tables, and each list section's content once.

use flexmd_core::{
    Diagnostic, ExtractedResult, ExtractedSection, LineIndex, LineStarts, ListItem, MarkdownParts,
    MdOutline, OutputFormatSpec, ParsedList, ParsedTable, SectionKind, Severity, Span, TableKind,
    parse_list, parse_tables, read_markdown_with_lines,
};
use serde::Serialize;

use crate::locate::{Found, Located, locate};

/// One problem found in an answer.
///
/// `code` is flex-md's (Appendix B) or flexmd's table code; [`Issue::id`]
/// joins it with the section as flex-md prints it (`missing_section:Reasoning`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Issue {
    /// `missing_section`, `empty_section_without_none`, `section_not_bullets`,
    /// `section_not_numbered`, `missing_table`, `table_columns_mismatch`,
    /// `ordered_table_missing_hash_column`, `ordered_table_bad_numbering`; for
    /// warnings `lenient_heading`, `lenient_bullets`, `lenient_numbering`,
    /// `duplicate_section`, `content_in_subsections`.
    pub code: String,
    /// The spec section it concerns, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// What is wrong and what the answer should do, in one sentence.
    pub message: String,
    /// Byte range in the answer.
    pub span: Span,
    /// 1-based line of the span's start.
    pub line: usize,
    /// 1-based column (in characters) of the span's start.
    pub column: usize,
}

impl Issue {
    /// Moves the span and column into `offsets`' unit (a binding's string
    /// indices: code points for Python, UTF-16 units for JavaScript).
    pub fn reindex(&mut self, offsets: &flexmd_core::TextOffsets<'_>) {
        self.column = offsets.column(self.span.start);
        self.span = offsets.range(self.span.clone());
    }

    /// An issue at `span`, whose start is at `(line, column)`.
    pub(crate) fn at(
        code: &str,
        section: Option<&str>,
        message: String,
        span: Span,
        (line, column): (usize, usize),
    ) -> Self {
        Issue {
            code: code.to_owned(),
            section: section.map(str::to_owned),
            message,
            span,
            line,
            column,
        }
    }

    /// flex-md's form: `code:SECTION`, or just `code` for table issues.
    ///
    /// ```
    /// let spec = flexmd_ofs::parse_spec("- Reasoning — ordered list\n").value;
    /// let report = flexmd_ofs::validate("# Intro\nhello\n", &spec);
    /// assert_eq!(report.errors[0].id(), "missing_section:Reasoning");
    /// ```
    pub fn id(&self) -> String {
        match &self.section {
            Some(section) => format!("{}:{section}", self.code),
            None => self.code.clone(),
        }
    }

    /// The issue as a [`Diagnostic`] (for rendering with its source).
    pub fn to_diagnostic(&self, severity: Severity) -> Diagnostic {
        Diagnostic {
            code: self.id(),
            severity,
            message: self.message.clone(),
            span: self.span.clone(),
            line: self.line,
            column: self.column,
        }
    }
}

/// The outcome of [`validate`]: `ok` when there is no error.
///
/// As JSON it is flex-md's `validateOutput` result — `ok`, and `errors` and
/// `warnings` as `"code:Section"` strings ([`Issue::id`]) — plus `valid`
/// (the same as `ok`, the name every flexmd validation result uses) and
/// `details`, the full issues with their spans, lines and columns:
///
/// ```
/// let spec = flexmd_ofs::parse_spec("- Steps — ordered list\n").value;
/// let report = flexmd_ofs::validate("## Steps\n- first\n", &spec);
/// let json = serde_json::to_value(&report).unwrap();
/// assert_eq!(json["ok"], false);
/// assert_eq!(json["valid"], false);
/// assert_eq!(json["errors"], serde_json::json!(["section_not_numbered:Steps"]));
/// assert_eq!(json["details"]["errors"][0]["line"], 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Whether the answer follows the spec (warnings allowed).
    pub ok: bool,
    /// What breaks the spec.
    pub errors: Vec<Issue>,
    /// What was read leniently: each leniency used, never silently.
    pub warnings: Vec<Issue>,
}

/// The JSON shape of a [`Report`] (its `Serialize` and `JsonSchema`).
#[derive(Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(rename = "Report"))]
struct ReportJson<'a> {
    /// Whether the answer follows the spec (warnings allowed).
    ok: bool,
    /// The same as `ok`: the name every flexmd validation result uses.
    valid: bool,
    /// What breaks the spec, as `"code:Section"` strings.
    errors: Vec<String>,
    /// Each leniency used to read the answer, as `"code:Section"` strings.
    warnings: Vec<String>,
    /// The same issues in full: code, section, message, span, line, column.
    details: Details<'a>,
}

/// The full issues of a [`Report`], under `details`.
#[derive(Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schemars", schemars(rename = "ReportDetails"))]
struct Details<'a> {
    /// What breaks the spec.
    errors: &'a [Issue],
    /// What was read leniently.
    warnings: &'a [Issue],
}

impl Serialize for Report {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let ids = |issues: &[Issue]| issues.iter().map(Issue::id).collect::<Vec<_>>();
        ReportJson {
            ok: self.ok,
            valid: self.ok,
            errors: ids(&self.errors),
            warnings: ids(&self.warnings),
            details: Details {
                errors: &self.errors,
                warnings: &self.warnings,
            },
        }
        .serialize(serializer)
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for Report {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        ReportJson::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        ReportJson::json_schema(generator)
    }
}

impl Report {
    /// Every issue's span and column in `offsets`' unit ([`Issue::reindex`]).
    pub fn reindex(&mut self, offsets: &flexmd_core::TextOffsets<'_>) {
        for issue in self.errors.iter_mut().chain(self.warnings.iter_mut()) {
            issue.reindex(offsets);
        }
    }

    /// This report with its warnings counted as errors: any leniency used
    /// to read the answer makes it invalid.
    ///
    /// ```
    /// let spec = flexmd_ofs::parse_spec("- Steps — ordered list\n").value;
    /// let report = flexmd_ofs::validate("## Steps\n1) first\n", &spec);
    /// assert!(report.ok);
    /// let strict = report.into_strict();
    /// assert!(!strict.ok && strict.warnings.is_empty());
    /// assert_eq!(strict.errors[0].id(), "lenient_numbering:Steps");
    /// ```
    #[must_use]
    pub fn into_strict(mut self) -> Self {
        if !self.warnings.is_empty() {
            self.errors.append(&mut self.warnings);
            self.ok = false;
        }
        self
    }
}

/// Options for [`extract`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExtractOptions {
    /// Parse lists in prose sections too (flex-md's "or enabled").
    pub lists_in_prose: bool,
}

/// Everything learned from one read of an answer.
struct Analysis<'a> {
    spec: &'a OutputFormatSpec,
    outline: MdOutline,
    located: Vec<Option<Located>>,
    /// Per spec section: the parsed list, for list kinds not written as `None`.
    lists: Vec<Option<ParsedList>>,
    /// Per spec section: whether it says the empty value (`None`).
    is_none: Vec<bool>,
    tables: Vec<ParsedTable>,
    /// Per spec table: the index of the answer's table for it.
    table_for: Vec<Option<usize>>,
    errors: Vec<Issue>,
    warnings: Vec<Issue>,
}

/// Checks `response` against `spec` (flex-md's `validateOutput`, Appendix B).
///
/// Sections are matched by name in any case, at any heading level, ignoring
/// trailing `:` and dashes, surrounding emphasis and numbering (`1. Reasoning`,
/// `Step 2 — Reasoning`); for duplicates the highest level wins and equal
/// levels merge in order. Without a heading, a bold line
/// (`**Short answer:**`) or a `Short answer:` label is accepted with a
/// `lenient_heading` warning. Kinds are checked on the parsed list: a list
/// section needs a bullet item, an ordered list a numbered one, unless it says
/// the spec's empty value (`None`, in any case, with or without backticks or
/// a period). Tables are matched by their columns; ordered tables need `#`
/// first and rows numbered 1..N. `by` is informational only.
///
/// ```
/// let spec = flexmd_ofs::parse_spec("- Short answer — prose\n- Steps — ordered list\n").value;
/// let report = flexmd_ofs::validate("## Short answer\nYes.\n\n## Steps\n- first\n", &spec);
/// assert!(!report.ok);
/// assert_eq!(report.errors[0].id(), "section_not_numbered:Steps");
/// assert_eq!((report.errors[0].line, report.errors[0].column), (5, 1));
/// ```
pub fn validate(response: &str, spec: &OutputFormatSpec) -> Report {
    let analysis = analyze(response, spec);
    Report {
        ok: analysis.errors.is_empty(),
        errors: analysis.errors,
        warnings: analysis.warnings,
    }
}

/// Validates and extracts in one read: the report and the extracted result.
pub fn check(
    response: &str,
    spec: &OutputFormatSpec,
    options: &ExtractOptions,
) -> (Report, ExtractedResult) {
    let (parts, lines) = read_markdown_with_lines(response);
    check_parts(response, parts, lines, spec, options)
}

/// [`check`] from the answer's parts, read in one parse or in a stream
/// (with the line starts it has read).
pub(crate) fn check_parts(
    response: &str,
    parts: MarkdownParts,
    lines: LineStarts,
    spec: &OutputFormatSpec,
    options: &ExtractOptions,
) -> (Report, ExtractedResult) {
    let mut analysis = analyze_parts(response, parts, lines, spec);
    let errors = std::mem::take(&mut analysis.errors);
    let warnings = std::mem::take(&mut analysis.warnings);
    let report = Report {
        ok: errors.is_empty(),
        errors,
        warnings,
    };
    (report, into_extracted(analysis, options))
}

/// Extracts `response` along `spec` (flex-md's `extractOutput`): the outline,
/// each found section by its spec name (node key and level, raw content, and
/// the parsed list for list kinds), and the answer's tables, with those that
/// match an ordered table of the spec marked `ordered_table`. A section found
/// by a lenient label has `nodeLevel` 0.
///
/// ```
/// use flexmd_ofs::{ExtractOptions, extract, parse_spec};
/// let spec = parse_spec("- Assumptions — list\n").value;
/// let result = extract("### Assumptions:\n- cheap\n- fast\n", &spec, &ExtractOptions::default());
/// let section = &result.sections_by_name["Assumptions"];
/// assert_eq!((section.node_key.as_str(), section.node_level), ("assumptions", 3));
/// assert_eq!(section.list.as_ref().unwrap().items[1].text, "fast");
/// ```
pub fn extract(
    response: &str,
    spec: &OutputFormatSpec,
    options: &ExtractOptions,
) -> ExtractedResult {
    into_extracted(analyze(response, spec), options)
}

fn into_extracted(analysis: Analysis<'_>, options: &ExtractOptions) -> ExtractedResult {
    let Analysis {
        spec,
        outline,
        located,
        mut lists,
        is_none,
        mut tables,
        table_for,
        ..
    } = analysis;
    let mut sections_by_name = indexmap::IndexMap::new();
    for (i, (section, found)) in spec.sections.iter().zip(located).enumerate() {
        let Some(found) = found else { continue };
        let list = lists.get_mut(i).and_then(Option::take);
        let empty = is_none.get(i).copied().unwrap_or(false);
        sections_by_name.insert(
            section.name.clone(),
            extracted_section(section.kind, found, list, empty, options),
        );
    }
    for (spec_table, found) in spec.tables.iter().zip(&table_for) {
        if let Some(table) = found.and_then(|i| tables.get_mut(i)) {
            table.kind = spec_table.kind;
            table.by.clone_from(&spec_table.by);
        }
    }
    ExtractedResult {
        outline,
        sections_by_name,
        tables,
    }
}

/// The extracted form of a found section, with its list (parsed here for a
/// prose section when `lists_in_prose` asks for it).
pub(crate) fn extracted_section(
    kind: SectionKind,
    found: Located,
    mut list: Option<ParsedList>,
    empty: bool,
    options: &ExtractOptions,
) -> ExtractedSection {
    if list.is_none() && options.lists_in_prose && kind == SectionKind::Prose && !empty {
        list = parse_list(&found.content);
    }
    ExtractedSection {
        node_key: found.node_key,
        node_level: found.node_level,
        md: found.content,
        subtree_md: found.subtree,
        list,
        empty,
    }
}

fn analyze<'a>(response: &str, spec: &'a OutputFormatSpec) -> Analysis<'a> {
    // One parse for the outline, the tables and every list.
    let (parts, lines) = read_markdown_with_lines(response);
    analyze_parts(response, parts, lines, spec)
}

/// [`analyze`] from the answer's parts, read in one parse or in a stream.
fn analyze_parts<'a>(
    response: &str,
    mut parts: MarkdownParts,
    lines: LineStarts,
    spec: &'a OutputFormatSpec,
) -> Analysis<'a> {
    // Built on the first issue: a valid answer needs none.
    let index = std::cell::OnceCell::new();
    let lines = std::cell::Cell::new(Some(lines));
    let names: Vec<&str> = spec.sections.iter().map(|s| s.name.as_str()).collect();
    let located = locate(response, &parts.outline, &parts.code_blocks, &names);
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let issue = |code: &str, section: Option<&str>, message: String, span: Span| {
        // A missing section points at the start: no index needed for that.
        let place = if span.start == 0 {
            (1, 1)
        } else {
            index
                .get_or_init(|| LineIndex::from_starts(response, lines.take().unwrap_or_default()))
                .line_col(span.start)
        };
        Issue::at(code, section, message, span, place)
    };
    // Each section's lists, moved out of the parse when only one section
    // wants them (copying thousands of merged items was a tenth of the time).
    let wanted: Vec<Vec<std::ops::Range<usize>>> = located
        .iter()
        .map(|found| {
            found.as_ref().map_or_else(Vec::new, |f| {
                f.content_spans
                    .iter()
                    .map(|s| parts.lists_within(s))
                    .collect()
            })
        })
        .collect();
    let mut uses = vec![0usize; parts.lists.len()];
    for range in wanted.iter().flatten() {
        for i in range.clone() {
            if let Some(n) = uses.get_mut(i) {
                *n += 1;
            }
        }
    }
    let mut pool: Vec<Option<flexmd_core::TopLevelList>> = std::mem::take(&mut parts.lists)
        .into_iter()
        .map(Some)
        .collect();
    let mut take_list = |ranges: &[std::ops::Range<usize>]| -> Option<ParsedList> {
        let mut merged: Option<ParsedList> = None;
        for i in ranges.iter().flat_map(Clone::clone) {
            let shared = uses.get(i).is_some_and(|&n| n > 1);
            let top = match pool.get_mut(i) {
                Some(slot) if shared => slot.clone(),
                Some(slot) => slot.take(),
                None => None,
            };
            let Some(top) = top else { continue };
            match merged.as_mut() {
                None => merged = Some(top.list),
                Some(all) => all.items.extend(top.list.items),
            }
        }
        merged
    };
    let mut lists = Vec::new();
    let mut is_none = Vec::new();
    for (n, (section, found)) in spec.sections.iter().zip(&located).enumerate() {
        let name = section.name.as_str();
        let Some(found) = found else {
            errors.push(issue(
                "missing_section",
                Some(name),
                format!("no section `{name}`: add a heading `## {name}`"),
                0..0,
            ));
            lists.push(None);
            is_none.push(false);
            continue;
        };
        let checked = check_section(
            response,
            spec,
            name,
            section.kind,
            found,
            &parts.tables,
            || take_list(wanted.get(n).map(Vec::as_slice).unwrap_or_default()),
            &issue,
        );
        errors.extend(checked.errors);
        warnings.extend(checked.warnings);
        is_none.push(checked.is_none);
        lists.push(checked.list);
    }

    let MarkdownParts {
        outline, tables, ..
    } = parts;
    let table_for = match_tables(spec, &tables);
    for (spec_table, found) in spec.tables.iter().zip(&table_for) {
        let wanted = spec_table.columns.join(", ");
        let Some(table) = found.and_then(|i| tables.get(i)) else {
            if !spec.tables_optional {
                errors.push(issue(
                    "missing_table",
                    None,
                    format!("no table with columns {wanted}"),
                    0..0,
                ));
            }
            continue;
        };
        let span = table.span.clone().unwrap_or(0..0);
        let have: Vec<String> = data_columns(&table.columns);
        let want: Vec<String> = data_columns(&spec_table.columns);
        let missing: Vec<&String> = want.iter().filter(|c| !have.contains(c)).collect();
        let extra: Vec<&String> = have.iter().filter(|c| !want.contains(c)).collect();
        if !missing.is_empty() || !extra.is_empty() {
            errors.push(issue(
                "table_columns_mismatch",
                None,
                format!("the table for ({wanted}) is missing {missing:?} and has extra {extra:?}"),
                span.clone(),
            ));
        }
        if spec_table.kind == TableKind::OrderedTable {
            if table.columns.first().map(|c| c.trim()) != Some("#") {
                errors.push(issue(
                    "ordered_table_missing_hash_column",
                    None,
                    format!("the ordered table for ({wanted}) needs a first column `#`"),
                    span,
                ));
            } else if let Some((row, cell)) = table
                .rows
                .iter()
                .enumerate()
                .find(|(i, row)| {
                    row.first().map(|c| c.trim()) != Some((i + 1).to_string().as_str())
                })
                .map(|(i, row)| (i, row.first().cloned().unwrap_or_default()))
            {
                errors.push(issue(
                    "ordered_table_bad_numbering",
                    None,
                    format!(
                        "the ordered table for ({wanted}) must number rows 1..N; row {} has `#` {cell:?}",
                        row + 1
                    ),
                    span,
                ));
            }
        }
    }
    // flex-md's order: spec sections in the spec's order, then tables;
    // within one, by place in the answer.
    let order: std::collections::HashMap<&str, usize> = spec
        .sections
        .iter()
        .enumerate()
        .rev()
        .map(|(i, s)| (s.name.as_str(), i))
        .collect();
    let key = |issue: &Issue| {
        let section = issue
            .section
            .as_deref()
            .and_then(|name| order.get(name).copied())
            .unwrap_or(usize::MAX);
        (section, issue.span.start)
    };
    errors.sort_by_key(key);
    warnings.sort_by_key(key);
    Analysis {
        spec,
        outline,
        located,
        lists,
        is_none,
        tables,
        table_for,
        errors,
        warnings,
    }
}

/// What [`check_section`] finds in one found section.
#[derive(Default)]
pub(crate) struct SectionCheck {
    pub(crate) errors: Vec<Issue>,
    pub(crate) warnings: Vec<Issue>,
    /// The section's parsed list, for a list kind not written as `None`.
    pub(crate) list: Option<ParsedList>,
    /// Whether it says the spec's empty value.
    pub(crate) is_none: bool,
}

/// Makes an [`Issue`]: code, section, message and span (line and column
/// come from the answer).
pub(crate) type MakeIssue<'a> = dyn Fn(&str, Option<&str>, String, Span) -> Issue + 'a;

/// The checks of one section found in the answer: how it was found, its
/// duplicates, its empty value and its kind. `take_list` gives the
/// section's lists merged, when its kind needs them.
#[expect(
    clippy::too_many_arguments,
    reason = "the whole-answer check and the stream pass different pieces of one read"
)]
pub(crate) fn check_section(
    response: &str,
    spec: &OutputFormatSpec,
    name: &str,
    kind: SectionKind,
    found: &Located,
    tables: &[ParsedTable],
    take_list: impl FnOnce() -> Option<ParsedList>,
    issue: &MakeIssue<'_>,
) -> SectionCheck {
    let mut out = SectionCheck::default();
    match found.found {
        Found::BoldLabel | Found::LabelLine => out.warnings.push(issue(
            "lenient_heading",
            Some(name),
            format!("`{name}` is marked by a label, not a heading; read as a section"),
            found.heading.clone(),
        )),
        Found::Heading | Found::NumberedHeading => {}
    }
    if found.in_subsections {
        out.warnings.push(issue(
            "content_in_subsections",
            Some(name),
            format!(
                "`{name}` has no content of its own, only under sub-headings; read from them (write it directly under the `{name}` heading)"
            ),
            found.heading.clone(),
        ));
    }
    if found.merged > 1 {
        out.warnings.push(issue(
            "duplicate_section",
            Some(name),
            format!(
                "`{name}` appears {} times at the same level; merged in order",
                found.merged
            ),
            found.heading.clone(),
        ));
    }
    let own_text = short_text_without_tables(response, &found.content_spans, tables);
    let body = own_text.as_deref().map(str::trim);
    let at = found.content_span.clone();
    let body_at = at.start + (found.content.len() - found.content.trim_start().len());
    let says_none = spec
        .empty_section_value
        .as_deref()
        .zip(body)
        .is_some_and(|(value, body)| says_empty_value(body, value));
    let body_is_empty = body.is_some_and(str::is_empty);
    out.is_none = says_none;
    if body_is_empty {
        if let Some(value) = &spec.empty_section_value {
            out.errors.push(issue(
                "empty_section_without_none",
                Some(name),
                format!("`{name}` is empty: write `{value}` in it"),
                found.heading.clone(),
            ));
        }
        return out;
    }
    if says_none || kind == SectionKind::Prose {
        return out;
    }
    let list = take_list();
    let ordered = kind == SectionKind::OrderedList;
    let items: Vec<&ListItem> = list
        .iter()
        .flat_map(|l| &l.items)
        .filter(|item| item.index.is_some() == ordered)
        .collect();
    if items.is_empty() {
        let (code, message) = if ordered {
            (
                "section_not_numbered",
                format!("`{name}` must be numbered items (`1.`, `2.` ...) or `None`"),
            )
        } else {
            (
                "section_not_bullets",
                format!("`{name}` must be `-` bullet items or `None`"),
            )
        };
        out.errors
            .push(issue(code, Some(name), message, body_at..at.end));
    } else {
        let marker_of = |item: &ListItem| {
            item.span
                .as_ref()
                .and_then(|s| response.get(s.start..))
                .map(|rest| rest.trim_start_matches(|c: char| c.is_ascii_digit()))
                .and_then(|rest| rest.chars().next())
        };
        let odd = items.iter().find(|item| {
            let marker = marker_of(item);
            if ordered {
                marker == Some(')')
            } else {
                marker != Some('-')
            }
        });
        if let Some(item) = odd {
            let start = item.span.as_ref().map_or(at.start, |s| s.start);
            let (code, message) = if ordered {
                (
                    "lenient_numbering",
                    format!("`{name}` numbers items with `)`; read as a numbered list"),
                )
            } else {
                (
                    "lenient_bullets",
                    format!("`{name}` uses `*` or `+` bullets; read as a list"),
                )
            };
            out.warnings
                .push(issue(code, Some(name), message, start..start + 1));
        }
    }
    out.list = list;
    out
}

/// The text of `spans` without the answer's tables inside them (from the
/// one parse of the answer), when it is short enough to be empty or the
/// empty value; `None` for longer text, which is neither, without copying it.
fn short_text_without_tables(
    response: &str,
    spans: &[Span],
    tables: &[ParsedTable],
) -> Option<String> {
    // Longer than any empty value written with its decorations.
    const SHORT: usize = 256;
    let mut text = String::new();
    let mut push = |piece: &str| -> bool {
        if text.trim().len() + piece.trim().len() > SHORT {
            return false;
        }
        text.push_str(piece);
        true
    };
    for span in spans {
        let first =
            tables.partition_point(|t| t.span.as_ref().is_some_and(|s| s.start < span.start));
        let mut at = span.start;
        for table in tables.get(first..).unwrap_or_default() {
            let Some(t) = table.span.as_ref() else {
                continue;
            };
            if t.end > span.end {
                break;
            }
            if !push(response.get(at..t.start.max(at)).unwrap_or_default()) {
                return None;
            }
            at = t.end.max(at);
        }
        if !push(response.get(at..span.end.max(at)).unwrap_or_default()) {
            return None;
        }
    }
    Some(text)
}

/// A section's text without its tables. Tables are read for the whole
/// answer: a table after a section's text (often the last section's) is not
/// part of what the section says, e.g. `None.`.
pub(crate) fn without_tables(content: &str) -> std::borrow::Cow<'_, str> {
    if !content.contains('|') {
        return std::borrow::Cow::Borrowed(content);
    }
    let tables = parse_tables(content);
    if tables.is_empty() {
        return std::borrow::Cow::Borrowed(content);
    }
    let mut text = String::new();
    let mut at = 0;
    for span in tables.iter().filter_map(|t| t.span.clone()) {
        text.push_str(content.get(at..span.start).unwrap_or_default());
        at = span.end.max(at);
    }
    text.push_str(content.get(at..).unwrap_or_default());
    std::borrow::Cow::Owned(text)
}

/// Whether a section's Markdown (its tables aside) says the empty value.
pub(crate) fn is_empty_value(md: &str, value: &str) -> bool {
    says_empty_value(&without_tables(md), value)
}

/// Whether a section's text says the empty value: `None`, `none.`,
/// `` `None` ``, `**None**`, `"None"`.
fn says_empty_value(body: &str, value: &str) -> bool {
    let stripped = body
        .trim()
        .trim_end_matches('.')
        .trim_matches(['`', '*', '_', '"', '\''])
        .trim_end_matches('.')
        .trim();
    stripped.eq_ignore_ascii_case(value.trim())
}

/// Column names without `#`, normalised for comparison.
fn data_columns(columns: &[String]) -> Vec<String> {
    columns
        .iter()
        .map(|c| c.trim().to_lowercase())
        .filter(|c| c != "#")
        .collect()
}

/// For each spec table, the answer's table for it: pairs are taken best
/// first, scored by shared columns and then by whether a `#` first column
/// agrees with the table's kind; each table is used once, and a table that
/// shares no column matches nothing.
pub(crate) fn match_tables(spec: &OutputFormatSpec, tables: &[ParsedTable]) -> Vec<Option<usize>> {
    let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
    for (i, spec_table) in spec.tables.iter().enumerate() {
        let want = data_columns(&spec_table.columns);
        let ordered = spec_table.kind == TableKind::OrderedTable;
        for (j, table) in tables.iter().enumerate() {
            let have = data_columns(&table.columns);
            let shared = want.iter().filter(|c| have.contains(c)).count();
            if shared == 0 {
                continue;
            }
            let hash_first = table.columns.first().is_some_and(|c| c.trim() == "#");
            pairs.push((shared * 2 + usize::from(hash_first == ordered), i, j));
        }
    }
    // Best score first; ties go to the earlier spec table, then the earlier answer table.
    pairs.sort_by_key(|&(score, i, j)| (std::cmp::Reverse(score), i, j));
    let mut chosen = vec![None; spec.tables.len()];
    let mut used = vec![false; tables.len()];
    for (_, i, j) in pairs {
        let free_spec = chosen.get(i).is_some_and(Option::is_none);
        let free_table = used.get(j).is_some_and(|u| !u);
        if free_spec && free_table {
            if let Some(slot) = chosen.get_mut(i) {
                *slot = Some(j);
            }
            if let Some(slot) = used.get_mut(j) {
                *slot = true;
            }
        }
    }
    chosen
}
