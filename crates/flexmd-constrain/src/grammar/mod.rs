//! Grammars for local engines: a JSON Schema (and, in `spec`, an Output
//! Format Spec) written as a grammar in the dialect of llama.cpp (GBNF),
//! llguidance (Lark), XGrammar (EBNF) or a regex engine (Outlines), with a
//! report of what the grammar enforces and what it leaves to validation.

mod format;
mod ir;
mod json;
mod render;
mod spec;

use serde::Serialize;
use serde_json::Value;

use crate::error::ConstrainError;

pub use format::{GrammarFormat, UnknownFormat};
pub use ir::Coverage;
pub use json::{MAX_BOUND, REGEX_ANY_DEPTH};
pub use render::{MAX_REGEX_CHARS, MAX_REGEX_NESTING};
pub use spec::{MAX_SPEC_BOUND, SpecGrammarOptions, THINK_LINE_CHARS};

/// A grammar and its report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Grammar {
    /// The dialect it is written in.
    pub format: GrammarFormat,
    /// The grammar text.
    pub grammar: String,
    /// How many rules it has (1 for a regex).
    pub rules: usize,
    /// Per place, what it enforces and what it leaves to validation.
    pub coverage: Vec<Coverage>,
}

impl Grammar {
    /// Every place where something is left to validation.
    pub fn unenforced(&self) -> impl Iterator<Item = &Coverage> {
        self.coverage.iter().filter(|c| !c.unenforced.is_empty())
    }
}

/// A grammar for the JSON values `schema` accepts, in `format`.
///
/// Objects are written with their properties in the schema's order
/// (required ones always, optional ones maybe), arrays with their item
/// schema and, up to [`MAX_BOUND`], their `minItems`/`maxItems`; strings
/// with `minLength`/`maxLength` up to the same bound; `enum` and `const` as
/// their JSON text; `$ref` as a rule of its own (recursion where the
/// dialect has it: not in `regex`, where a schema that refers to itself is
/// an error, and a value of any kind nests at most [`REGEX_ANY_DEPTH`]
/// deep). `pattern`, `format`, numeric bounds but
/// the sign, `uniqueItems`, "exactly one" of `oneOf` and the like are left to
/// validation and listed in [`Grammar::coverage`]. Whitespace is kept small:
/// a space, or a line break and at most 20 spaces or tabs, between tokens.
///
/// ```
/// use flexmd_constrain::{GrammarFormat, schema_grammar};
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"ok": {"type": "boolean"}, "n": {"type": "integer", "minimum": 0}},
///     "required": ["ok"]
/// });
/// let grammar = schema_grammar(&schema, GrammarFormat::Gbnf).unwrap();
/// assert_eq!(grammar.grammar, r#"root ::= "{" ws object-first-0 ws "}"
/// ws ::= (" " | "\n" [ \t]{0,20})?
/// object-rest-1 ::= (ws "," ws "\"n\"" ws ":" ws ("0" | [1-9] [0-9]{0,15}))?
/// object-first-0 ::= "\"ok\"" ws ":" ws ("true" | "false") object-rest-1
/// "#);
/// // A grammar enforces all of this schema: nothing is left to validation.
/// assert_eq!(grammar.unenforced().count(), 0);
/// ```
pub fn schema_grammar(schema: &Value, format: GrammarFormat) -> Result<Grammar, ConstrainError> {
    crate::provider::check_schema(schema)?;
    let any_depth = (format == GrammarFormat::Regex).then_some(REGEX_ANY_DEPTH);
    let built = json::JsonRules::build(schema, any_depth)?;
    written(&built.rules, built.coverage, format)
}

/// A grammar for the Markdown answers an Output Format Spec asks for, in
/// one canonical layout that `flexmd validate --strict` accepts: an
/// optional `<think>` block (see [`SpecGrammarOptions::think_lines`]), then
/// each section once, in the spec's order, as a heading of
/// [`SpecGrammarOptions::heading_level`] followed (or not) by a blank line
/// and its body — prose lines and fenced code (no line that would start a heading,
/// a table or an HTML block), `- ` bullets with nested `  - ` items, or
/// `1.` numbered items; the spec's empty value (`None`) for an empty list
/// section — sections separated by a blank line, then the spec's tables
/// with their exact header, one `|---|` row and rows of as many cells.
///
/// Why one order: any order of n sections would need a rule for every
/// subset of sections already written (2^n), so the grammar keeps the
/// spec's; validation never cares about order.
///
/// ```
/// use flexmd_constrain::{GrammarFormat, SpecGrammarOptions, spec_grammar};
/// use flexmd_ofs::parse_spec;
///
/// let spec = parse_spec("## Output format\n- Summary — prose\n- Steps — ordered list\n").value;
/// let grammar = spec_grammar(&spec, GrammarFormat::Regex, &SpecGrammarOptions::default()).unwrap();
/// assert!(grammar.grammar.starts_with("^(?:## Summary\\n\\n?"));
/// ```
pub fn spec_grammar(
    spec: &flexmd_core::OutputFormatSpec,
    format: GrammarFormat,
    options: &SpecGrammarOptions,
) -> Result<Grammar, ConstrainError> {
    let built = spec::SpecRules::build(spec, options)?;
    written(&built.rules, built.coverage, format)
}

/// `rules` written in `format`, with the coverage they were built with.
fn written(
    rules: &ir::Rules,
    coverage: Vec<Coverage>,
    format: GrammarFormat,
) -> Result<Grammar, ConstrainError> {
    let grammar = render::render(rules, format)?;
    let count = if format == GrammarFormat::Regex {
        1
    } else {
        render::reachable(rules).iter().filter(|r| **r).count()
    };
    Ok(Grammar {
        format,
        grammar,
        rules: count,
        coverage,
    })
}
