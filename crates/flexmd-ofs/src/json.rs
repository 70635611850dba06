//! Beyond flex-md: an extracted answer as a plain JSON object, and the JSON
//! Schema that object satisfies, so a Markdown answer can be checked like a
//! JSON one.

use flexmd_core::{
    ExtractedResult, ListItem, OfsTable, OutputFormatSpec, ParsedTable, SectionKind, TableKind,
};
use serde_json::{Map, Value, json};

use crate::check::{is_empty_value, match_tables};

/// The extracted answer as a plain object keyed by section name:
///
/// - prose → the section's Markdown, trimmed;
/// - list and ordered list → an array of strings, one per top-level item,
///   in order, whatever the answer nests: an item with sub-items is its
///   text followed by them as an indented Markdown list (`"b\n  - b1"`), so
///   the shape a consumer types never changes and nothing is lost (the
///   item trees are in [`ExtractedResult`]'s `list`);
/// - a section that says the empty value (`None`) or is missing → `null`;
/// - `"tables"` (when the spec declares tables) → an object with one entry
///   per spec table, in spec order, keyed by [`table_key`] (its row keys
///   joined by `", "`): an array of row objects keyed by the spec's column
///   names (`#` first for an ordered table), or `null` when the answer has no
///   table for it.
///
/// ```
/// use flexmd_ofs::{ExtractOptions, extract, parse_spec, to_json};
/// let spec = parse_spec("- Answer — prose\n- Steps — ordered list\n- Risks — list\n").value;
/// let answer = "## Answer\nYes.\n\n## Steps\n1. a\n2. b\n   - b1\n\n## Risks\nNone.\n";
/// let json = to_json(&extract(answer, &spec, &ExtractOptions::default()), &spec);
/// assert_eq!(json, serde_json::json!({
///     "Answer": "Yes.",
///     "Steps": ["a", "b\n  - b1"],
///     "Risks": null
/// }));
/// ```
pub fn to_json(extracted: &ExtractedResult, spec: &OutputFormatSpec) -> Value {
    let mut object = Map::new();
    for section in &spec.sections {
        let value = match extracted.sections_by_name.get(&section.name) {
            None => Value::Null,
            Some(found) => {
                let says_none = found.empty
                    || spec
                        .empty_section_value
                        .as_deref()
                        .is_some_and(|v| is_empty_value(&found.md, v));
                match (section.kind, says_none, &found.list) {
                    (_, true, _) => Value::Null,
                    (SectionKind::Prose, false, _) => Value::String(found.md.trim().to_owned()),
                    (_, false, Some(list)) => items_json(&list.items),
                    (_, false, None) => Value::Array(Vec::new()),
                }
            }
        };
        object.insert(section.name.clone(), value);
    }
    if !spec.tables.is_empty() {
        let tables: Map<String, Value> = match_tables(spec, &extracted.tables)
            .into_iter()
            .zip(&spec.tables)
            .zip(table_keys(spec))
            .map(|((found, spec_table), key)| {
                let rows = match found.and_then(|i| extracted.tables.get(i)) {
                    None => Value::Null,
                    Some(table) => table_rows(table, spec_table),
                };
                (key, rows)
            })
            .collect();
        object.insert("tables".to_owned(), Value::Object(tables));
    }
    Value::Object(object)
}

/// The name a spec table goes by in [`to_json`]'s `"tables"` object: the
/// keys of its rows joined by `", "` — the spec's column names, after `#`
/// for an ordered table.
///
/// ```
/// let spec = flexmd_ofs::parse_spec(
///     "Tables:\n- (Option, Cost — table)\n- (Option, Cost — ordered table)\n",
/// )
/// .value;
/// assert_eq!(flexmd_ofs::table_key(&spec.tables[0]), "Option, Cost");
/// assert_eq!(flexmd_ofs::table_key(&spec.tables[1]), "#, Option, Cost");
/// ```
pub fn table_key(table: &OfsTable) -> String {
    let ordered = (table.kind == TableKind::OrderedTable).then_some("#");
    ordered
        .into_iter()
        .chain(table.columns.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every spec table's key, in spec order; a key already taken gets ` (2)`,
/// ` (3)`… so two tables with the same columns stay apart.
fn table_keys(spec: &OutputFormatSpec) -> Vec<String> {
    let mut keys: Vec<String> = Vec::with_capacity(spec.tables.len());
    for table in &spec.tables {
        let base = table_key(table);
        let mut key = base.clone();
        let mut n = 2;
        while keys.contains(&key) {
            key = format!("{base} ({n})");
            n += 1;
        }
        keys.push(key);
    }
    keys
}

/// A table's rows as objects keyed by the spec's column names (`#` first for
/// an ordered table), whatever case the answer wrote them in; a column the
/// answer lacks is `null`, and a column the spec does not name keeps the
/// answer's name.
fn table_rows(table: &ParsedTable, spec_table: &OfsTable) -> Value {
    let mut names: Vec<String> = Vec::new();
    if spec_table.kind == TableKind::OrderedTable {
        names.push("#".to_owned());
    }
    names.extend(spec_table.columns.iter().cloned());
    let normal = |c: &str| c.trim().to_lowercase();
    let wanted: Vec<String> = names.iter().map(|n| normal(n)).collect();
    let rows = table
        .rows
        .iter()
        .map(|row| {
            let mut cells = Map::new();
            for name in &names {
                let at = table.columns.iter().position(|c| normal(c) == normal(name));
                let cell = at
                    .and_then(|i| row.get(i))
                    .map_or(Value::Null, |c| Value::String(c.clone()));
                cells.insert(name.clone(), cell);
            }
            for (column, cell) in table.columns.iter().zip(row) {
                if !wanted.contains(&normal(column)) {
                    cells.insert(column.clone(), Value::String(cell.clone()));
                }
            }
            Value::Object(cells)
        })
        .collect();
    Value::Array(rows)
}

/// One string per top-level item: its text, then its sub-items as an
/// indented Markdown list.
fn items_json(items: &[ListItem]) -> Value {
    Value::Array(
        items
            .iter()
            .map(|i| {
                let mut text = i.text.clone();
                sub_items(&i.children, 1, &mut text);
                Value::String(text)
            })
            .collect(),
    )
}

/// Appends `items` to `out` as a Markdown list indented `depth` levels (two
/// spaces each; `N.` for numbered items, `-` otherwise), continuation
/// lines of an item indented under its text. Lists are at most
/// `MAX_LIST_DEPTH` (32) deep, so this recursion is bounded.
fn sub_items(items: &[ListItem], depth: usize, out: &mut String) {
    let indent = "  ".repeat(depth);
    for item in items {
        let marker = item
            .index
            .map_or_else(|| "- ".to_owned(), |n| format!("{n}. "));
        out.push('\n');
        out.push_str(&indent);
        out.push_str(&marker);
        let hang = " ".repeat(marker.len());
        for (k, line) in item.text.split('\n').enumerate() {
            if k > 0 {
                out.push('\n');
                if !line.is_empty() {
                    out.push_str(&indent);
                    out.push_str(&hang);
                }
            }
            out.push_str(line);
        }
        sub_items(&item.children, depth + 1, out);
    }
}

/// The JSON Schema (draft 2020-12) that [`to_json`]'s object satisfies for
/// `spec`: every section is required (and may be `null`, for `None`), no
/// other key is allowed, and `"tables"` is required unless tables are
/// optional.
///
/// ```
/// let spec = flexmd_ofs::parse_spec("- Answer — prose\n").value;
/// let schema = flexmd_ofs::json_schema(&spec);
/// assert_eq!(schema["properties"]["Answer"], serde_json::json!({"type": ["string", "null"]}));
/// assert_eq!(schema["required"], serde_json::json!(["Answer"]));
/// ```
pub fn json_schema(spec: &OutputFormatSpec) -> Value {
    let mut properties = Map::new();
    let mut required: Vec<Value> = Vec::new();
    for section in &spec.sections {
        let schema = match section.kind {
            SectionKind::Prose => json!({"type": ["string", "null"]}),
            SectionKind::List | SectionKind::OrderedList => json!({
                "type": ["array", "null"],
                "items": {"type": "string"}
            }),
        };
        properties.insert(section.name.clone(), schema);
        required.push(Value::String(section.name.clone()));
    }
    if !spec.tables.is_empty() {
        let tables: Map<String, Value> = spec
            .tables
            .iter()
            .zip(table_keys(spec))
            .map(|(table, key)| {
                let mut columns: Vec<String> = Vec::new();
                if table.kind == TableKind::OrderedTable {
                    columns.push("#".to_owned());
                }
                columns.extend(table.columns.iter().cloned());
                let cells: Map<String, Value> = columns
                    .iter()
                    .map(|c| (c.clone(), json!({"type": ["string", "null"]})))
                    .collect();
                let schema = json!({
                    "type": ["array", "null"],
                    "description": format!("the rows of the table with columns {key}, or null when the answer has none"),
                    "items": {"type": "object", "properties": cells, "required": columns}
                });
                (key, schema)
            })
            .collect();
        let keys: Vec<&String> = tables.keys().collect();
        properties.insert(
            "tables".to_owned(),
            json!({
                "type": "object",
                "description": "one entry per table of the spec, keyed by its row keys joined by \", \"",
                "properties": tables,
                "required": keys,
                "additionalProperties": false
            }),
        );
        if !spec.tables_optional {
            required.push(Value::String("tables".to_owned()));
        }
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false
    })
}
