//! GFM pipe tables → [`ParsedTable`].

use pulldown_cmark::{Event, Tag, TagEnd};

use crate::markdown::{front_matter_end, offset_events, parser_text};
use crate::model::{ParsedTable, TableKind};
use crate::text::slice;

/// Parses every GFM pipe table in a Markdown text, in document order, at any
/// depth (inside block quotes and list items too).
///
/// A table needs a header row and a delimiter row; alignment colons are
/// optional and not kept. Cells are strings: the cell's Markdown as written,
/// trimmed, with `\|` unescaped to `|` (inline markup is kept). Following GFM,
/// a `|` splits cells even inside a code span unless it is escaped.
///
/// Ragged rows: a row with fewer cells than the header is padded with `""`
/// (as GFM renders it); a row with more cells keeps the extra cells at its end
/// (GFM drops them, but they are usually content with an unescaped `|`, and
/// nothing is lost). Every table gets `kind: "table"`; deciding that a table is
/// an ordered table is the OFS layer's job.
///
/// ```
/// use flexmd_core::parse_tables;
/// let tables = parse_tables("| a | b |\n|---|:-:|\n| 1 \\| 2 | `x` |\n| only |\n");
/// assert_eq!(tables[0].columns, ["a", "b"]);
/// assert_eq!(tables[0].rows, [vec!["1 | 2", "`x`"], vec!["only", ""]]);
/// ```
pub fn parse_tables(md: &str) -> Vec<ParsedTable> {
    let mut reader = TableReader::default();
    let parsed = parser_text(md);
    for (event, range) in offset_events(&parsed, front_matter_end(&parsed)) {
        reader.on_event(md, &event, range);
    }
    reader.tables
}

/// Builds tables from parser events (one of the readers that
/// [`crate::read_markdown`] feeds from a single pass).
#[derive(Default)]
pub(crate) struct TableReader {
    pub(crate) tables: Vec<ParsedTable>,
    current: Option<ParsedTable>,
    row: Vec<String>,
    last_cell_end: usize,
}

impl TableReader {
    pub(crate) fn on_event(&mut self, md: &str, event: &Event<'_>, range: std::ops::Range<usize>) {
        match event {
            Event::Start(Tag::Table(_)) => {
                self.current = Some(ParsedTable {
                    kind: TableKind::Table,
                    by: None,
                    columns: Vec::new(),
                    rows: Vec::new(),
                    span: Some(range),
                });
            }
            Event::Start(Tag::TableHead | Tag::TableRow) => {
                self.row = Vec::new();
                self.last_cell_end = range.start;
            }
            Event::Start(Tag::TableCell) => {
                self.row.push(cell_text(slice(md, range.clone())));
                self.last_cell_end = self.last_cell_end.max(range.end);
            }
            Event::End(end @ (TagEnd::TableHead | TagEnd::TableRow)) => {
                self.row
                    .extend(extra_cells(slice(md, self.last_cell_end..range.end)));
                if let Some(table) = self.current.as_mut() {
                    let mut cells = std::mem::take(&mut self.row);
                    if *end == TagEnd::TableHead {
                        table.columns = cells;
                    } else {
                        // The parser pads to the delimiter row's width; the
                        // header may be wider (cells it dropped, kept here).
                        if cells.len() < table.columns.len() {
                            cells.resize(table.columns.len(), String::new());
                        }
                        table.rows.push(cells);
                    }
                }
            }
            Event::End(TagEnd::Table) => self.tables.extend(self.current.take()),
            _ => {}
        }
    }
}

/// A cell's string: trimmed, `\|` unescaped.
fn cell_text(raw: &str) -> String {
    raw.trim().replace("\\|", "|")
}

/// The cells the parser dropped after a row's last cell: the rest of the row
/// line split on unescaped pipes, without the leading and trailing pipe.
fn extra_cells(rest: &str) -> Vec<String> {
    let rest = rest.trim();
    let Some(rest) = rest.strip_prefix('|') else {
        return Vec::new();
    };
    let rest = match rest.strip_suffix('|') {
        Some(inner) if !inner.ends_with('\\') => inner,
        _ => rest,
    };
    if rest.trim().is_empty() {
        return Vec::new();
    }
    let mut cells = Vec::new();
    let mut cell_start = 0;
    let mut escaped = false;
    for (i, b) in rest.bytes().enumerate() {
        match b {
            b'\\' => escaped = !escaped,
            b'|' if !escaped => {
                cells.push(cell_text(slice(rest, cell_start..i)));
                cell_start = i + 1;
            }
            _ => escaped = false,
        }
    }
    cells.push(cell_text(slice(rest, cell_start..rest.len())));
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_cells_split_on_unescaped_pipes_only() {
        assert_eq!(extra_cells(" | 3 | 4 \\| 5 |\n"), ["3", "4 | 5"]);
        assert_eq!(extra_cells("|\n"), Vec::<String>::new());
        assert_eq!(extra_cells(""), Vec::<String>::new());
        assert_eq!(extra_cells("| x"), ["x"]);
    }
}
