//! The tool catalogue: one table (`SPECS`, in @nhtio/adk's order) that
//! defines every artifact tool — name, family, description, parameters
//! and a typical call — and what is built from it: each tool's JSON Schema
//! and the documented list (`tool_catalogue`).
//!
//! Owns: `Param`, `Family`, `Spec`, `SPECS`, `ToolInfo`. Must not import
//! the runner or the result formatting: the table describes, it never runs.

use serde_json::{Map, Value, json};

use crate::kind::ArtifactKind;
use crate::tools::formats::ToolDefinition;

/// What a tool's parameter accepts.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Param {
    /// An integer in `[min, max]`, with a default when omitted.
    Int {
        name: &'static str,
        min: i64,
        max: i64,
        default: Option<i64>,
        doc: &'static str,
    },
    /// A string of at most `max_len` bytes; `empty_is_omitted` when `""`
    /// means the same as leaving it out.
    Str {
        name: &'static str,
        required: bool,
        max_len: usize,
        empty_is_omitted: bool,
        doc: &'static str,
    },
    /// `true` or `false`, `false` when omitted.
    Bool {
        name: &'static str,
        doc: &'static str,
    },
    /// One of a closed set of strings.
    Enum {
        name: &'static str,
        values: &'static [&'static str],
        default: &'static str,
        doc: &'static str,
    },
}

impl Param {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Self::Int { name, .. }
            | Self::Str { name, .. }
            | Self::Bool { name, .. }
            | Self::Enum { name, .. } => name,
        }
    }
}

/// Which artifacts a tool reads: every kind, JSON or Markdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    Base,
    Json,
    Markdown,
}

/// One tool of the table: its name, family, description and parameters.
pub(crate) struct Spec {
    pub(crate) name: &'static str,
    pub(crate) family: Family,
    /// Arguments of a typical call (without `callId`), as JSON.
    pub(crate) example: &'static str,
    pub(crate) description: &'static str,
    pub(crate) params: &'static [Param],
}

const LINE_START: Param = Param::Int {
    name: "startLine",
    min: 0,
    max: i64::MAX,
    default: None,
    doc: "0-based first line (inclusive); default 0",
};
const LINE_END: Param = Param::Int {
    name: "endLine",
    min: 0,
    max: i64::MAX,
    default: None,
    doc: "0-based end line (exclusive); default the line count",
};
const PATH: Param = Param::Str {
    name: "path",
    required: true,
    max_len: crate::jsonpath::MAX_PATH_LEN,
    empty_is_omitted: false,
    doc: "a JSONPath, RFC 9535 (e.g. `$.items[*].name`, `$..id`, `$[?@.status == 'active']`); JSONPath-Plus filters such as `$[?(@.status === 'active')]` and `@.name.match(/re/i)` are read too",
};
const DEPTH: Param = Param::Int {
    name: "depth",
    min: 1,
    max: 6,
    default: None,
    doc: "only headings of this depth (1-6)",
};

const ENCODINGS: &[&str] = &[
    "gpt2",
    "r50k_base",
    "p50k_base",
    "p50k_edit",
    "cl100k_base",
    "o200k_base",
    "claude",
];

pub(crate) const SPECS: &[Spec] = &[
    Spec {
        name: "artifact_head",
        family: Family::Base,
        example: r#"{"n": 20}"#,
        description: "Return the first n lines of a tool result from this turn.",
        params: &[Param::Int {
            name: "n",
            min: 1,
            max: 2000,
            default: Some(10),
            doc: "number of lines",
        }],
    },
    Spec {
        name: "artifact_tail",
        family: Family::Base,
        example: r#"{"n": 20}"#,
        description: "Return the last n lines of a tool result from this turn.",
        params: &[Param::Int {
            name: "n",
            min: 1,
            max: 2000,
            default: Some(10),
            doc: "number of lines",
        }],
    },
    Spec {
        name: "artifact_grep",
        family: Family::Base,
        example: r#"{"pattern": "ERROR|WARN", "flags": "i"}"#,
        description: "Return the lines of a tool result from this turn that match a regular expression (Rust regex syntax, no lookaround; each line matched on its own). With lineNumbers, each line starts with its 1-based line number and a colon, as grep -n prints it (artifact_cat counts lines from 0: line N is start=N-1).",
        params: &[
            Param::Str {
                name: "pattern",
                required: true,
                max_len: crate::grep::MAX_PATTERN_LEN,
                empty_is_omitted: false,
                doc: "the regular expression",
            },
            Param::Str {
                name: "flags",
                required: false,
                max_len: 4,
                empty_is_omitted: true,
                doc: "a subset of `imsu` (i: ignore case); \"\" for none",
            },
            Param::Bool {
                name: "lineNumbers",
                doc: "prefix each line with its 1-based line number and `:`; default false",
            },
        ],
    },
    Spec {
        name: "artifact_cat",
        family: Family::Base,
        example: r#"{"start": -5}"#,
        description: "Return lines [start, end) of a tool result from this turn, as JavaScript's Array.prototype.slice takes them (negative counts from the end; clamped to the line count).",
        params: &[
            Param::Int {
                name: "start",
                min: i64::MIN,
                max: i64::MAX,
                default: Some(0),
                doc: "0-based first line (inclusive); negative counts from the end (-10: the last ten lines)",
            },
            Param::Int {
                name: "end",
                min: i64::MIN,
                max: i64::MAX,
                default: None,
                doc: "0-based end line (exclusive); negative counts from the end; default the line count",
            },
        ],
    },
    Spec {
        name: "artifact_byte_length",
        family: Family::Base,
        example: r#"{}"#,
        description: "Return the size in bytes of a tool result from this turn.",
        params: &[],
    },
    Spec {
        name: "artifact_line_count",
        family: Family::Base,
        example: r#"{}"#,
        description: "Return the number of lines of a tool result from this turn.",
        params: &[],
    },
    Spec {
        name: "artifact_estimate_tokens",
        family: Family::Base,
        example: r#"{"encoding": "cl100k_base"}"#,
        description: "Return the number of tokens of a tool result from this turn under an encoding.",
        params: &[Param::Enum {
            name: "encoding",
            values: ENCODINGS,
            default: "o200k_base",
            doc: "the tokenizer",
        }],
    },
    Spec {
        name: "artifact_json_type",
        family: Family::Json,
        example: r#"{}"#,
        description: "Return the format of a JSON tool result from this turn: json, json5, jsonl or ndjson.",
        params: &[],
    },
    Spec {
        name: "artifact_json_keys",
        family: Family::Json,
        example: r#"{}"#,
        description: "Return the top-level keys of a JSON tool result from this turn (for JSON Lines, of all records).",
        params: &[],
    },
    Spec {
        name: "artifact_json_length",
        family: Family::Json,
        example: r#"{}"#,
        description: "Return the number of records of a JSON tool result from this turn (1 for json/json5).",
        params: &[],
    },
    Spec {
        name: "artifact_json_get",
        family: Family::Json,
        example: r#"{"path": "$.items[*].name"}"#,
        description: "Return the values a JSONPath selects in a JSON tool result from this turn (for JSON Lines, in every record).",
        params: &[PATH],
    },
    Spec {
        name: "artifact_json_filter",
        family: Family::Json,
        example: r#"{"path": "$[?@.status == 'active']"}"#,
        description: "Return the records of a JSON tool result from this turn in which a JSONPath selects something; a path starting with `$[?` tests the record itself, e.g. `$[?@.status == 'active']`.",
        params: &[PATH],
    },
    Spec {
        name: "artifact_json_slice",
        family: Family::Json,
        example: r#"{"start": 0, "end": 3}"#,
        description: "Return records [start, end) of a JSON Lines tool result from this turn, as JavaScript's Array.prototype.slice takes them (negative counts from the end); the root for json/json5.",
        params: &[
            Param::Int {
                name: "start",
                min: i64::MIN,
                max: i64::MAX,
                default: Some(0),
                doc: "first record (inclusive); negative counts from the end",
            },
            Param::Int {
                name: "end",
                min: i64::MIN,
                max: i64::MAX,
                default: None,
                doc: "end record (exclusive); negative counts from the end; default the record count",
            },
        ],
    },
    Spec {
        name: "artifact_json_pluck",
        family: Family::Json,
        example: r#"{"path": "$.id"}"#,
        description: "Return one field from every record of a JSON tool result from this turn, by JSONPath (e.g. `$.id`).",
        params: &[PATH],
    },
    Spec {
        name: "artifact_md_frontmatter",
        family: Family::Markdown,
        example: r#"{}"#,
        description: "Return the YAML front matter of a Markdown tool result from this turn, as JSON.",
        params: &[],
    },
    Spec {
        name: "artifact_md_headings",
        family: Family::Markdown,
        example: r#"{"depth": 2}"#,
        description: "Return the headings of a Markdown tool result from this turn, with their line ranges.",
        params: &[DEPTH],
    },
    Spec {
        name: "artifact_md_code_blocks",
        family: Family::Markdown,
        example: r#"{"lang": "rust"}"#,
        description: "Return the fenced code blocks of a Markdown tool result from this turn (language and line range; read them with artifact_cat).",
        params: &[Param::Str {
            name: "lang",
            required: false,
            max_len: 64,
            empty_is_omitted: false,
            doc: "only blocks of this language; \"\" for blocks with none",
        }],
    },
    Spec {
        name: "artifact_md_sections",
        family: Family::Markdown,
        example: r#"{"depth": 2}"#,
        description: "Return the sections of a Markdown tool result from this turn: heading, depth and body line range (read a body with artifact_cat).",
        params: &[DEPTH],
    },
    Spec {
        name: "artifact_md_links",
        family: Family::Markdown,
        example: r#"{"startLine": 0, "endLine": 40}"#,
        description: "Return the links in lines [startLine, endLine) of a Markdown tool result from this turn.",
        params: &[LINE_START, LINE_END],
    },
    Spec {
        name: "artifact_md_images",
        family: Family::Markdown,
        example: r#"{}"#,
        description: "Return the images in lines [startLine, endLine) of a Markdown tool result from this turn.",
        params: &[LINE_START, LINE_END],
    },
    Spec {
        name: "artifact_md_text",
        family: Family::Markdown,
        example: r#"{"startLine": 10, "endLine": 20}"#,
        description: "Return the plain text (markup removed) of lines [startLine, endLine) of a Markdown tool result from this turn.",
        params: &[LINE_START, LINE_END],
    },
    Spec {
        name: "artifact_md_ast",
        family: Family::Markdown,
        example: r#"{"startLine": 0, "endLine": 5}"#,
        description: "Return the mdast syntax tree of lines [startLine, endLine) of a Markdown tool result from this turn (at most 1 MiB; bound the range with artifact_md_sections).",
        params: &[LINE_START, LINE_END],
    },
];

/// One artifact tool as documentation: its definition (with `callId` a
/// plain string), the kind of artifact it reads and a typical call.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolInfo {
    /// The definition, as [`ToolSet::definitions`](crate::ToolSet::definitions) gives it.
    pub definition: ToolDefinition,
    /// The kind of artifact it reads; `None` when it reads any kind (the
    /// line tools).
    pub reads: Option<ArtifactKind>,
    /// Arguments of a typical call, without `callId` (a JSON object).
    pub example: Value,
}

/// Every tool [`forge_tools`](crate::forge_tools) can forge, in order, documented: what the
/// CLI's `flexmd artifact --help` and generated docs are built from.
///
/// ```
/// let tools = flexmd_artifact::tool_catalogue();
/// let grep = tools.iter().find(|t| t.definition.name == "artifact_grep").unwrap();
/// assert_eq!(grep.reads, None);
/// assert_eq!(grep.example["pattern"], "ERROR|WARN");
/// assert_eq!(grep.definition.parameters["required"], serde_json::json!(["callId", "pattern"]));
/// ```
pub fn tool_catalogue() -> Vec<ToolInfo> {
    SPECS
        .iter()
        .map(|spec| ToolInfo {
            definition: ToolDefinition {
                name: spec.name.to_owned(),
                description: spec.description.to_owned(),
                parameters: schema(spec, &[]),
            },
            reads: match spec.family {
                Family::Base => None,
                Family::Json => Some(ArtifactKind::Json),
                Family::Markdown => Some(ArtifactKind::Markdown),
            },
            example: serde_json::from_str(spec.example).unwrap_or_default(),
        })
        .collect()
}

impl std::fmt::Debug for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// How many `callId`s a tool's schema lists (as an `enum`); with more
/// artifacts the schema takes any string and a wrong one's error names
/// the closest.
pub const MAX_LISTED_CALL_IDS: usize = 20;

/// The JSON Schema of a tool's arguments.
pub(crate) fn schema(spec: &Spec, ids: &[&str]) -> Value {
    let mut properties = Map::new();
    // Past a few ids the list would swell every tool's schema (and a
    // model's context) with each artifact opened: a plain string then.
    let call_id = if ids.len() > MAX_LISTED_CALL_IDS {
        json!({"type": "string", "description": format!(
            "the id of the tool call whose result to read (more than {MAX_LISTED_CALL_IDS} \
             are open, so they are not listed here; a wrong id's error names the closest)"
        )})
    } else {
        json!({"type": "string", "enum": ids, "description": "the id of the tool call whose result to read"})
    };
    properties.insert("callId".to_owned(), call_id);
    let mut required = vec![json!("callId")];
    for param in spec.params {
        let (name, schema) = match param {
            Param::Int {
                name,
                min,
                max,
                default,
                doc,
            } => {
                let mut s = Map::new();
                s.insert("type".to_owned(), json!("integer"));
                if *min != i64::MIN {
                    s.insert("minimum".to_owned(), json!(min));
                }
                if *max != i64::MAX {
                    s.insert("maximum".to_owned(), json!(max));
                }
                if let Some(d) = default {
                    s.insert("default".to_owned(), json!(d));
                }
                s.insert("description".to_owned(), json!(doc));
                (name, Value::Object(s))
            }
            Param::Str {
                name,
                required: r,
                max_len,
                doc,
                ..
            } => {
                if *r {
                    required.push(json!(name));
                }
                (
                    name,
                    json!({"type": "string", "maxLength": max_len, "description": doc}),
                )
            }
            Param::Bool { name, doc } => (
                name,
                json!({"type": "boolean", "default": false, "description": doc}),
            ),
            Param::Enum {
                name,
                values,
                default,
                doc,
            } => {
                let mut all: Vec<&str> = values.to_vec();
                all.push("");
                (
                    name,
                    json!({"type": "string", "enum": all, "default": default,
                    "description": format!("{doc}; \"\" for the default")}),
                )
            }
        };
        properties.insert((*name).to_owned(), schema);
    }
    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
}
