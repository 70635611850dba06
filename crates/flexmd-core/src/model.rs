//! The flex-md data model: the JSON contract of flex-md (docs/FORMAT.md explains it).
//!
//! Every type here serialises to exactly the field names and enum strings of
//! the flex-md TypeScript interfaces, so JSON made by flexmd is interchangeable
//! with flex-md's. Maps keep insertion order ([`IndexMap`]) because JavaScript
//! objects do, and because reordering a user's keys loses information.
//!
//! Types built from source text ([`MdNode`], [`ListItem`], [`ParsedTable`])
//! also carry the byte span they came from, for diagnostics. Spans are not part
//! of the JSON contract: they are skipped by serde and ignored by `==`.

use std::ops::Range;

use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A byte range into the source text a value was built from.
pub type Span = Range<usize>;

/// One meta value of a frame or document (flex-md's `FlexMetaValue`).
///
/// Numbers are kept as [`serde_json::Number`], so an integer stays an integer.
///
/// ```
/// use flexmd_core::FlexMetaValue;
/// let tags = FlexMetaValue::Strings(vec!["a".into(), "b".into()]);
/// assert_eq!(serde_json::to_string(&tags).unwrap(), r#"["a","b"]"#);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum FlexMetaValue {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer or a float.
    Number(serde_json::Number),
    /// A plain string (the default for every meta value).
    String(String),
    /// A list of strings (array keys such as `tags` and `refs`).
    Strings(Vec<String>),
}

/// A fenced block bound to a name by `@payload:name: X` (flex-md's `FlexPayload`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct FlexPayload {
    /// The fence's language, e.g. `json` or `table`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// The fence's content exactly as written; always kept.
    pub raw: String,
    /// Parsed JSON for `json`, a parsed table for `table`, otherwise the string.
    #[serde(default)]
    pub value: serde_json::Value,
    /// Why parsing `raw` failed, with its position; absent when it did not fail.
    #[serde(
        rename = "parseError",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub parse_error: Option<String>,
}

/// One frame of a FlexMD document (flex-md's `FlexFrame`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct FlexFrame {
    /// The frame type, e.g. `message` or `section`.
    #[serde(rename = "type")]
    pub frame_type: String,
    /// `user`, `assistant`, `system`, `tool`, ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// The frame's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The frame's timestamp, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ts: Option<String>,
    /// Meta values, in the order written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<IndexMap<String, FlexMetaValue>>,
    /// The frame's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The frame's Markdown body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_md: Option<String>,
    /// Named payloads, in the order written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payloads: Option<IndexMap<String, FlexPayload>>,
}

/// A FlexMD document: optional title and meta, then frames (flex-md's `FlexDocument`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct FlexDocument {
    /// The document title (a `# Title` before the first frame).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Document-level meta values, in the order written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<IndexMap<String, FlexMetaValue>>,
    /// Text before the first frame that is neither the title nor meta
    /// (flexmd's addition, so nothing is lost; omitted when empty).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub preamble_md: String,
    /// The frames, in order.
    pub frames: Vec<FlexFrame>,
}

/// What an OFS section must contain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SectionKind {
    /// Any Markdown text.
    Prose,
    /// `None` or at least one bullet item.
    List,
    /// `None` or at least one numbered item; order matters.
    OrderedList,
}

/// One section an answer must contain (flex-md's `OfsSection`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct OfsSection {
    /// The section's name, e.g. `Short answer`.
    pub name: String,
    /// What the section must contain.
    pub kind: SectionKind,
    /// Optional guidance written after the kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// Whether a table's rows are numbered (flex-md's `TableKind`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TableKind {
    /// A plain pipe table.
    #[default]
    Table,
    /// A pipe table whose first column is `#`, numbered `1..N`.
    OrderedTable,
}

/// A table an answer may contain (flex-md's `OfsTable`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct OfsTable {
    /// The column names, without the `#` column of an ordered table.
    pub columns: Vec<String>,
    /// Plain or ordered.
    pub kind: TableKind,
    /// The informational dimension (`by property2`); never enforced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
}

/// Defines a one-value enum serialised as a fixed string, for the constant
/// discriminator fields of the contract.
macro_rules! literal_string {
    ($(#[$doc:meta])* $name:ident = $text:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
        pub enum $name {
            #[doc = concat!("The string `\"", $text, "\"`.")]
            #[default]
            #[serde(rename = $text)]
            Value,
        }
    };
}

literal_string!(
    /// The constant `descriptorType` of an [`OutputFormatSpec`].
    DescriptorType = "output_format_spec"
);
literal_string!(
    /// The constant `format` of an [`OutputFormatSpec`].
    SpecFormat = "markdown"
);
literal_string!(
    /// The constant `type` of an [`MdOutline`].
    OutlineType = "md_outline"
);
literal_string!(
    /// The constant `kind` of a [`ParsedList`].
    ListKind = "list"
);

/// The constant `sectionOrderMatters: false` of an [`OutputFormatSpec`]:
/// section order never matters, so no other value exists.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SectionOrderMatters;

impl Serialize for SectionOrderMatters {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(false)
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for SectionOrderMatters {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SectionOrderMatters".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Always false: section order never matters.",
            "const": false
        })
    }
}

impl<'de> Deserialize<'de> for SectionOrderMatters {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if bool::deserialize(deserializer)? {
            Err(serde::de::Error::custom(
                "sectionOrderMatters must be false: section order never matters",
            ))
        } else {
            Ok(SectionOrderMatters)
        }
    }
}

/// The Output Format Spec: what sections and tables an answer must have.
///
/// [`OutputFormatSpec::default`] is flex-md's `makeDefaultOfs()` minus its
/// sections: no sections, no tables, tables optional, empty value `None`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct OutputFormatSpec {
    /// Always `"output_format_spec"`.
    #[serde(default)]
    pub descriptor_type: DescriptorType,
    /// Always `"markdown"`.
    #[serde(default)]
    pub format: SpecFormat,
    /// Always `false`.
    #[serde(default)]
    pub section_order_matters: SectionOrderMatters,
    /// The sections, in the order the spec lists them.
    pub sections: Vec<OfsSection>,
    /// Whether the tables may be left out (default `true`).
    #[serde(default = "default_true")]
    pub tables_optional: bool,
    /// The tables.
    #[serde(default)]
    pub tables: Vec<OfsTable>,
    /// What an empty section must say; `None` (the word) when the JSON
    /// leaves the field out, as in flex-md. A spec whose empty sections stay
    /// empty has no value, written `"emptySectionValue": null`.
    #[serde(default = "default_empty_section_value")]
    pub empty_section_value: Option<String>,
}

fn default_true() -> bool {
    true
}

fn default_empty_section_value() -> Option<String> {
    Some("None".to_owned())
}

impl Default for OutputFormatSpec {
    fn default() -> Self {
        Self {
            descriptor_type: DescriptorType::Value,
            format: SpecFormat::Value,
            section_order_matters: SectionOrderMatters,
            sections: Vec::new(),
            tables_optional: true,
            tables: Vec::new(),
            empty_section_value: Some("None".to_owned()),
        }
    }
}

/// One heading and what it owns (flex-md's `MdNode`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct MdNode {
    /// The heading text with inline markup removed.
    pub title: String,
    /// The heading level, 1 to 6.
    pub level: u8,
    /// A slug of the title, unique within its outline (`short-answer`, `short-answer-2`).
    pub key: String,
    /// An optional internal id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The exact source between this heading and its first child or next heading.
    pub content_md: String,
    /// The headings nested under this one.
    #[serde(default)]
    pub children: Vec<MdNode>,
    /// Where the heading and its content were in the source; `None` when the
    /// node was not built from source text.
    #[serde(skip)]
    pub source: Option<NodeSource>,
}

/// Where an [`MdNode`] came from in its source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeSource {
    /// The heading line(s), from the start of the line to the end of the heading
    /// (including its setext underline and line ending).
    pub heading: Span,
    /// The node's own content: the span of `content_md`.
    pub content: Span,
}

impl PartialEq for MdNode {
    /// Compares content, not source positions.
    fn eq(&self, other: &Self) -> bool {
        self.title == other.title
            && self.level == other.level
            && self.key == other.key
            && self.id == other.id
            && self.content_md == other.content_md
            && self.children == other.children
    }
}

/// The heading tree of a Markdown text (flex-md's `MdOutline`).
///
/// `preamble_md` is flexmd's addition: the text before the first heading, so
/// nothing is lost; it is omitted from JSON when empty.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct MdOutline {
    /// Always `"md_outline"`.
    #[serde(rename = "type", default)]
    pub outline_type: OutlineType,
    /// The exact source before the first heading (front matter included).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub preamble_md: String,
    /// The top-level headings.
    pub nodes: Vec<MdNode>,
}

/// One item of a parsed list (flex-md's `ListItem`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct ListItem {
    /// The item's own Markdown, without its marker and its sub-lists.
    pub text: String,
    /// The number as written, for items of ordered lists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    /// The nested items.
    #[serde(default)]
    pub children: Vec<ListItem>,
    /// The item's span in the source (marker to end of its sub-lists); `None`
    /// when not built from source text.
    #[serde(skip)]
    pub span: Option<Span>,
}

impl PartialEq for ListItem {
    /// Compares content, not source positions.
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text && self.index == other.index && self.children == other.children
    }
}

/// A list parsed into an item tree (flex-md's `ParsedList`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct ParsedList {
    /// Always `"list"`.
    #[serde(default)]
    pub kind: ListKind,
    /// Whether the (first) list is numbered.
    pub ordered: bool,
    /// The top-level items.
    pub items: Vec<ListItem>,
}

/// A pipe table with string cells (flex-md's `ParsedTable`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct ParsedTable {
    /// Plain or ordered.
    #[serde(default)]
    pub kind: TableKind,
    /// The informational dimension of an ordered table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// The header cells (with `#` first for an ordered table).
    pub columns: Vec<String>,
    /// The body rows.
    pub rows: Vec<Vec<String>>,
    /// The table's span in the source; `None` when not built from source text.
    #[serde(skip)]
    pub span: Option<Span>,
}

impl PartialEq for ParsedTable {
    /// Compares content, not source positions.
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
            && self.by == other.by
            && self.columns == other.columns
            && self.rows == other.rows
    }
}

/// One extracted section of an answer (the value type of `sectionsByName`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ExtractedSection {
    /// The `key` of the outline node the section came from.
    pub node_key: String,
    /// The heading level of that node.
    pub node_level: u8,
    /// The section's raw content Markdown: the text under its heading up
    /// to the next heading of any level (flex-md's `content_md`). When that
    /// is empty and its sub-headings hold the content, that content (read
    /// leniently, with a `content_in_subsections` warning).
    pub md: String,
    /// The section's whole subtree (its own text, its sub-headings and
    /// their text), when it has sub-headings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtree_md: Option<String>,
    /// The parsed list, for list and ordered-list sections.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list: Option<ParsedList>,
    /// Whether the section says the spec's empty value (`None`): written,
    /// but deliberately empty. A section the answer lacks has no entry in
    /// `sectionsByName` at all. Written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub empty: bool,
}

/// An answer's sections and tables, extracted along an OFS.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ExtractedResult {
    /// The answer's full outline.
    pub outline: MdOutline,
    /// The sections the spec names, keyed by their names in the spec.
    pub sections_by_name: IndexMap<String, ExtractedSection>,
    /// The tables found.
    pub tables: Vec<ParsedTable>,
}
