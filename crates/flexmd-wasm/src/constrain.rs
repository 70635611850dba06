//! Shaping the answer while it is written, for the npm package: provider
//! strict schemas (`exportSchema`), grammars for local engines (`grammar`,
//! `specGrammar`) and the way back (`validateText(…, { fromProvider })`),
//! all from flexmd-constrain.

use flexmd_constrain::{GrammarFormat, SpecGrammarOptions};
use serde::Deserialize;
use serde_json::Value;

use crate::api::{BindingError, Outcome, constrain_error, from_json, read_spec, to_value};
use crate::schema::SchemaValidator;

fn format(name: Option<&str>) -> Result<GrammarFormat, BindingError> {
    name.unwrap_or("gbnf")
        .parse()
        .map_err(|e: flexmd_constrain::UnknownFormat| constrain_error(&e))
}

/// Options of `exportSchema`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct ExportArgs {
    /// The name the request gives the schema.
    name: Option<String>,
}

/// Options of `grammar`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct GrammarArgs {
    /// `gbnf` (default), `lark`, `ebnf` or `regex`.
    format: Option<String>,
}

/// Options of `specGrammar`: `flexmd grammar --spec`'s flags.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct SpecGrammarArgs {
    format: Option<String>,
    heading_level: Option<u8>,
    think_lines: Option<u32>,
    max_items: Option<u32>,
    max_rows: Option<u32>,
}

impl SchemaValidator {
    /// The request fragment that makes `provider` constrain its answer to
    /// `schema` (a name or a schema, JSON text): what `flexmd schema export
    /// --for PROVIDER --json` prints. The name is `options.name`, else the
    /// schema's name, its `title`, or `response`.
    pub fn export_schema(&self, schema: &str, provider: &str, options: &str) -> Outcome {
        let given: Value = from_json("schema", schema)?;
        let args: ExportArgs = from_json("exportSchema options", options)?;
        let provider = crate::api::provider(provider)?;
        let name = match (args.name, &given) {
            (Some(name), _) => name,
            (None, Value::String(name)) => name.clone(),
            (None, other) => flexmd_constrain::default_name(other).to_owned(),
        };
        let schema = self.schema(schema)?;
        let export =
            flexmd_constrain::export(&schema, provider, &name).map_err(|e| constrain_error(&e))?;
        to_value(&export)
    }

    /// A grammar for `schema` (a name or a schema, JSON text): what
    /// `flexmd grammar --schema S --format F --json` prints.
    pub fn grammar(&self, schema: &str, options: &str) -> Outcome {
        let args: GrammarArgs = from_json("grammar options", options)?;
        let format = format(args.format.as_deref())?;
        let schema = self.schema(schema)?;
        let grammar =
            flexmd_constrain::schema_grammar(&schema, format).map_err(|e| constrain_error(&e))?;
        to_value(&grammar)
    }
}

/// A grammar for the answers a spec (Markdown block or JSON) accepts in
/// its canonical layout: what `flexmd grammar --spec S --json` prints.
pub(crate) fn spec_grammar(spec: &str, options: &str) -> Outcome {
    let args: SpecGrammarArgs = from_json("specGrammar options", options)?;
    let format = format(args.format.as_deref())?;
    let spec = read_spec(spec)?;
    let defaults = SpecGrammarOptions::default();
    let options = SpecGrammarOptions {
        heading_level: args.heading_level.unwrap_or(defaults.heading_level),
        think_lines: args.think_lines,
        max_items: args.max_items,
        max_rows: args.max_rows,
    };
    let grammar =
        flexmd_constrain::spec_grammar(&spec, format, &options).map_err(|e| constrain_error(&e))?;
    to_value(&grammar)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exports_name_the_schema_and_refuse_what_a_provider_cannot_take() {
        let validator = SchemaValidator::new();
        let export = validator
            .export_schema(r#""review""#, "openai", "{}")
            .unwrap_or_default();
        assert_eq!(
            export["request"]["response_format"]["json_schema"]["name"],
            "review"
        );
        assert_eq!(export["schema"]["additionalProperties"], false);
        let titled = validator
            .export_schema(r#"{"title": "Note", "type": "string"}"#, "gemini", "{}")
            .unwrap_or_default();
        assert_eq!(titled["name"], "Note");
        let unknown = validator.export_schema(r#""review""#, "claude", "{}");
        assert_eq!(
            unknown.err().map(|e| (e.name, e.message)),
            Some((
                "ConstrainError",
                "unknown provider `claude`: use openai, openai-tool, anthropic, anthropic-tool or gemini"
                    .to_owned()
            ))
        );
    }

    #[test]
    fn grammars_come_in_each_format_and_name_what_they_cannot_express() {
        let validator = SchemaValidator::new();
        let gbnf = validator
            .grammar(r#"{"enum": ["yes", "no"]}"#, "{}")
            .unwrap_or_default();
        assert_eq!(
            gbnf["grammar"],
            "root ::= \"\\\"yes\\\"\" | \"\\\"no\\\"\"\n"
        );
        let tree = r##"{"$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}}, "$ref": "#/$defs/n"}"##;
        let error = validator.grammar(tree, r#"{"format": "regex"}"#).err();
        assert_eq!(error.map(|e| e.name), Some("ConstrainError"));
        let spec = spec_grammar(
            "## Output format\n- Summary — prose.\n",
            r#"{"format": "lark", "headingLevel": 3}"#,
        )
        .unwrap_or_default();
        assert_eq!(spec["format"], "lark");
        assert!(
            spec["grammar"]
                .as_str()
                .unwrap_or_default()
                .contains("### Summary")
        );
        let wrong = spec_grammar("## Output format\n- Summary — prose.\n", r#"{"level": 3}"#);
        assert_eq!(wrong.err().map(|e| e.name), Some("ArgumentError"));
    }
}
