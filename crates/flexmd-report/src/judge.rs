//! How one answer (or one line a batch check already printed) becomes a
//! [`Judged`]: against an Output Format Spec, against a JSON Schema, or
//! read back from the result line of `extract`, `validate` or `json
//! --jsonl`.

use std::sync::Arc;

use flexmd_ofs::OutputFormatSpec;
use flexmd_schema::{AlignError, Aligned, Preset, Registry, Target};
use serde_json::Value;

use crate::judged::{Finding, Judged};
use crate::tally::InvalidLine;

/// What answers are checked against.
#[derive(Debug, Clone)]
pub enum Check {
    /// An Output Format Spec: a Markdown answer is validated section by
    /// section; an answer in JSON instead (an object keyed by section
    /// name) is read against the spec's JSON Schema, repairs counted.
    Spec {
        /// The spec.
        spec: OutputFormatSpec,
        /// Count leniencies as errors.
        strict: bool,
    },
    /// A JSON Schema: the JSON in each answer, repaired and fitted to it.
    Schema {
        /// The schema.
        schema: SchemaRef,
        /// How far the fitting goes.
        preset: Preset,
    },
    /// Nothing: each line is what `flexmd extract --jsonl`, `validate
    /// --jsonl` or `json --jsonl` printed, and is counted as it says.
    Results,
}

/// A JSON Schema to check against.
#[derive(Debug, Clone)]
pub enum SchemaRef {
    /// One registered in the registry by this name.
    Named(String),
    /// A schema given as JSON.
    Inline(Value),
}

/// Why a report cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[non_exhaustive]
pub enum ReportError {
    /// The schema is not registered.
    #[error("no schema named `{name}` (registered: {known})")]
    #[diagnostic(code(flexmd::report::schema_not_found))]
    SchemaNotFound {
        /// The name asked for.
        name: String,
        /// The names registered.
        known: String,
    },
    /// The schema cannot be compiled.
    #[error("the schema cannot be used: {0}")]
    #[diagnostic(code(flexmd::report::invalid_schema))]
    InvalidSchema(String),
    /// The input could not be read to its end.
    #[error("line {line}: the input could not be read: {message}")]
    #[diagnostic(code(flexmd::report::io))]
    Io {
        /// The line being read.
        line: usize,
        /// What the operating system said.
        message: String,
    },
    /// The caller gave the pass up ([`flexmd_artifact::cancellable`]).
    #[error("the report was cancelled")]
    #[diagnostic(code(flexmd::report::cancelled))]
    Cancelled,
}

/// A [`Check`] ready to judge answers, with the schemas it may need.
#[derive(Debug)]
pub struct Checker {
    check: Check,
    registry: Arc<Registry>,
}

impl Checker {
    /// A checker for `check`, finding named schemas in `registry`; a
    /// schema is compiled here, once, so a broken one fails before any
    /// answer is read.
    ///
    /// # Errors
    ///
    /// [`ReportError::SchemaNotFound`] for an unknown name,
    /// [`ReportError::InvalidSchema`] for a schema that does not compile.
    pub fn new(check: Check, registry: impl Into<Arc<Registry>>) -> Result<Self, ReportError> {
        let checker = Self {
            check,
            registry: registry.into(),
        };
        if let Check::Schema { schema, .. } = &checker.check {
            match schema {
                SchemaRef::Named(name) if checker.registry.get(name).is_none() => {
                    return Err(ReportError::SchemaNotFound {
                        name: name.clone(),
                        known: checker.registry.names().collect::<Vec<_>>().join(", "),
                    });
                }
                // Compiled here (and kept by the registry for the answers).
                SchemaRef::Inline(schema) => {
                    if let Err(e) = checker.registry.validate_schema(schema, &Value::Null) {
                        return Err(ReportError::InvalidSchema(e.to_string()));
                    }
                }
                SchemaRef::Named(_) => {}
            }
        }
        Ok(checker)
    }

    /// Whether lines are results already checked ([`Check::Results`]).
    #[must_use]
    pub fn reads_results(&self) -> bool {
        matches!(self.check, Check::Results)
    }

    /// `text`'s value fitted to the schema or spec checked against.
    fn fit(&self, text: &str) -> Result<Aligned, AlignError> {
        let target = match &self.check {
            Check::Spec { spec, .. } => Target::Spec(spec),
            Check::Schema {
                schema: SchemaRef::Named(name),
                ..
            } => Target::Named(name),
            Check::Schema {
                schema: SchemaRef::Inline(schema),
                ..
            } => Target::Schema(schema),
            Check::Results => return Err(AlignError::NoCandidate),
        };
        let preset = match &self.check {
            Check::Schema { preset, .. } => *preset,
            _ => Preset::Standard,
        };
        self.registry.find_json_as(text, target, preset)
    }

    /// One answer, judged (its tokens counted, o200k).
    ///
    /// ```
    /// use flexmd_report::{Check, Checker};
    /// let spec = flexmd_ofs::parse_spec("- Short answer — prose\n- Steps — ordered list\n").value;
    /// let checker = Checker::new(Check::Spec { spec, strict: false }, flexmd_schema::Registry::new()).unwrap();
    /// let markdown = checker.judge("## Short answer\nYes.\n");
    /// assert_eq!(markdown.errors[0].code, "missing_section");
    /// // The same answer in JSON, with a missing comma repaired:
    /// let json = checker.judge(r#"{"Short answer": "Yes." "Steps": ["Go"]}"#);
    /// assert!(json.valid && json.lenient());
    /// assert_eq!(json.repairs[0].code, "missing_comma");
    /// ```
    #[must_use]
    pub fn judge(&self, text: &str) -> Judged {
        let tokens = Some(flexmd_artifact::count_tokens(
            text.as_bytes(),
            flexmd_artifact::Encoding::O200kBase,
        ));
        let mut judged = match &self.check {
            Check::Spec { spec, strict } => {
                let mut report = flexmd_ofs::validate(text, spec);
                if *strict {
                    report = report.into_strict();
                }
                // Every section missing: the answer is not Markdown
                // sections at all (a JSON answer keyed by section name?).
                let missing = report
                    .errors
                    .iter()
                    .filter(|e| e.code == "missing_section")
                    .count();
                let no_section_found = !spec.sections.is_empty() && missing >= spec.sections.len();
                if no_section_found && flexmd_detect::find_json(text).is_some() {
                    self.judge_json(text)
                } else {
                    Judged::from_report(&report, None)
                }
            }
            Check::Schema { .. } => self.judge_json(text),
            Check::Results => Judged::default(),
        };
        judged.tokens = tokens;
        judged
    }

    /// The JSON in `text`, fitted to the schema (or the spec's).
    fn judge_json(&self, text: &str) -> Judged {
        match self.fit(text) {
            Ok(aligned) => from_aligned(&aligned),
            Err(e) => Judged {
                valid: false,
                errors: vec![Finding {
                    code: match e {
                        AlignError::NoCandidate => "no_json",
                        AlignError::AmbiguousEnum { .. } => "ambiguous_enum",
                        AlignError::Schema(_) => "invalid_schema",
                    }
                    .to_owned(),
                    section: None,
                    message: e.to_string(),
                    span: None,
                }],
                ..Judged::default()
            },
        }
    }
}

/// A fitted value's violations, coercions and repairs as findings; a
/// violation points at the whole value, a repair at its place.
fn from_aligned(aligned: &Aligned) -> Judged {
    let value = aligned.start..aligned.end;
    Judged {
        valid: aligned.valid,
        errors: aligned
            .errors
            .iter()
            .map(|v| Finding {
                code: v.code.clone(),
                section: top_key(&v.pointer),
                message: v.message.clone(),
                span: Some(value.clone()),
            })
            .collect(),
        warnings: aligned
            .coercions
            .iter()
            .map(|c| Finding {
                code: serde_json::to_value(c.rule)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
                section: top_key(&c.pointer),
                message: format!(
                    "{}: {} → {}",
                    if c.pointer.is_empty() {
                        "/"
                    } else {
                        &c.pointer
                    },
                    c.before
                        .as_ref()
                        .map_or("-".to_owned(), ToString::to_string),
                    c.after.as_ref().map_or("-".to_owned(), ToString::to_string)
                ),
                span: None,
            })
            .collect(),
        repairs: json5_reading(aligned)
            .into_iter()
            .chain(aligned.repairs.iter().map(|r| Finding {
                code: r.kind.name().to_owned(),
                section: None,
                message: r.kind.describe().to_owned(),
                span: Some(r.offset..r.offset),
            }))
            .collect(),
        tokens: None,
    }
}

/// The code of JSON read as JSON5 (not strict JSON: a trailing comma,
/// single quotes, comments or unquoted keys), counted as a repair.
pub const JSON5_READING: &str = "json5";

/// A value read by the JSON5 step: not strict JSON, though no repair was
/// needed, so the answer relied on a lenient reading all the same.
fn json5_reading(aligned: &Aligned) -> Option<Finding> {
    (aligned.method == Some(flexmd_detect::JsonMethod::Json5)).then(|| Finding {
        code: JSON5_READING.to_owned(),
        section: None,
        message:
            "read as JSON5, not JSON (a trailing comma, single quotes, comments or unquoted keys)"
                .to_owned(),
        span: Some(aligned.start..aligned.end),
    })
}

/// The first key of a JSON Pointer (`/files/0/purpose` → `files`).
fn top_key(pointer: &str) -> Option<String> {
    let first = pointer.strip_prefix('/')?.split('/').next()?;
    Some(first.replace("~1", "/").replace("~0", "~"))
}

/// A result line of `flexmd extract|validate|json --jsonl`, read back.
///
/// ```
/// let line = serde_json::json!({"line": 3, "ok": false, "errors": ["section_not_numbered:Steps"],
///     "details": {"errors": [{"code": "section_not_numbered", "section": "Steps", "message": "…",
///     "span": {"start": 9, "end": 20}, "line": 2, "column": 1}], "warnings": []}});
/// let judged = flexmd_report::judge_result(&line).unwrap();
/// assert_eq!((judged.valid, judged.errors[0].span.clone()), (false, Some(9..20)));
/// ```
///
/// # Errors
///
/// The line as an [`InvalidLine`] (numbered from its `line`) when it is
/// an error line (`"error"`) or not a result at all.
pub fn judge_result(result: &Value) -> Result<Judged, InvalidLine> {
    let line = result
        .get("line")
        .and_then(Value::as_u64)
        .and_then(|l| usize::try_from(l).ok())
        .unwrap_or(0);
    let ok = result.get("ok").and_then(Value::as_bool);
    if let Some(error) = result.get("error") {
        let text = |key: &str| {
            error
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        return Err(InvalidLine {
            line,
            code: text("code"),
            message: text("message"),
        });
    }
    if let (Some(ok), Some(details)) = (ok, result.get("details")) {
        let findings = |key: &str| -> Vec<Finding> {
            details
                .get(key)
                .and_then(Value::as_array)
                .map(|issues| issues.iter().map(finding_of).collect())
                .unwrap_or_default()
        };
        return Ok(Judged {
            valid: ok,
            errors: findings("errors"),
            warnings: findings("warnings"),
            ..Judged::default()
        });
    }
    if let (Some(ok), Some(found)) = (ok, result.get("result")) {
        // `json --jsonl` (with --repairs the repairs are there too; with
        // --all, the result is an array of what was found).
        let each: Vec<&Value> = match found {
            Value::Array(items) if items.iter().all(|i| i.get("repairs").is_some()) => {
                items.iter().collect()
            }
            other => vec![other],
        };
        let repairs = each
            .iter()
            .filter_map(|f| f.get("repairs").and_then(Value::as_array))
            .flatten()
            .map(|r| {
                let code = r.get("kind").and_then(Value::as_str).unwrap_or_default();
                let offset = r
                    .get("offset")
                    .and_then(Value::as_u64)
                    .and_then(|o| usize::try_from(o).ok());
                Finding {
                    code: code.to_owned(),
                    span: offset.map(|o| o..o),
                    ..Finding::default()
                }
            })
            .collect();
        let errors = if ok {
            Vec::new()
        } else {
            vec![Finding {
                code: "no_json".to_owned(),
                message: "no JSON value found in the answer".to_owned(),
                ..Finding::default()
            }]
        };
        return Ok(Judged {
            valid: ok,
            errors,
            repairs,
            ..Judged::default()
        });
    }
    Err(InvalidLine {
        line,
        code: "not_a_result".to_owned(),
        message: "not a result line of `flexmd extract`, `validate` or `json --jsonl` (no `ok` with `details` or `result`)".to_owned(),
    })
}

/// An issue of a result line's `details`.
fn finding_of(issue: &Value) -> Finding {
    let text = |key: &str| issue.get(key).and_then(Value::as_str).map(str::to_owned);
    let at = |key: &str| {
        issue
            .get("span")
            .and_then(|s| s.get(key))
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
    };
    let code = text("code").unwrap_or_default();
    let span = at("start")
        .zip(at("end"))
        .and_then(|(s, e)| crate::judged::place(&code, s..e.max(s)));
    Finding {
        code,
        section: text("section"),
        message: text("message").unwrap_or_default(),
        span,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_line_and_an_error_line_are_read_back() {
        let found = serde_json::json!({"line": 2, "ok": true, "result": {"value": {"a": 1},
            "repairs": [{"kind": "single_quotes", "offset": 1}, {"kind": "trailing_comma", "offset": 9}]}});
        let judged = judge_result(&found).unwrap_or_default();
        let codes: Vec<&str> = judged.repairs.iter().map(|r| r.code.as_str()).collect();
        assert_eq!(codes, ["single_quotes", "trailing_comma"]);
        assert!(judged.lenient());
        let none = serde_json::json!({"line": 4, "ok": false, "result": null});
        assert_eq!(
            judge_result(&none).unwrap_or_default().errors[0].code,
            "no_json"
        );
        let error = serde_json::json!({"line": 5, "ok": false, "error": {"code": "invalid_json", "message": "line 5: not JSON"}});
        assert_eq!(
            judge_result(&error),
            Err(InvalidLine {
                line: 5,
                code: "invalid_json".to_owned(),
                message: "line 5: not JSON".to_owned()
            })
        );
        let other = serde_json::json!({"model": "a"});
        assert_eq!(
            judge_result(&other).map_err(|e| e.code),
            Err("not_a_result".to_owned())
        );
    }

    #[test]
    fn a_schema_answer_counts_violations_by_top_key() {
        let schema = serde_json::json!({"type": "object", "required": ["name", "tags"],
            "properties": {"name": {"type": "string"}, "tags": {"type": "array"}}});
        let check = Check::Schema {
            schema: SchemaRef::Inline(schema),
            preset: Preset::Strict,
        };
        let checker = Checker::new(check, Registry::empty()).unwrap_or_else(|e| panic!("{e}"));
        let judged = checker.judge(r#"Here: {"name": "x" "tags": 3}"#);
        assert!(!judged.valid);
        assert_eq!(judged.errors[0].code, "invalid_type");
        assert_eq!(judged.errors[0].section.as_deref(), Some("tags"));
        assert_eq!(judged.errors[0].span, Some(6..29));
        let codes: Vec<&str> = judged.repairs.iter().map(|r| r.code.as_str()).collect();
        assert_eq!(codes, ["missing_comma"]);
        assert_eq!(judged.tokens, Some(14));
    }

    #[test]
    fn markdown_with_json_beside_it_is_judged_as_markdown() {
        let spec = flexmd_ofs::parse_spec("- Short answer — prose\n- Steps — ordered list\n").value;
        let checker = Checker::new(
            Check::Spec {
                spec,
                strict: false,
            },
            Registry::new(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        // One section missing, and a metadata block: still a Markdown answer.
        let answer = "```json\n{\"confidence\": 0.9}\n```\n\n## Short answer\nYes.\n";
        let judged = checker.judge(answer);
        let codes: Vec<&str> = judged.errors.iter().map(|e| e.code.as_str()).collect();
        assert_eq!(codes, ["missing_section"]);
        assert!(judged.repairs.is_empty());
        // No section at all, and JSON keyed by the sections: a JSON answer.
        let judged = checker.judge(r#"{"Short answer": "Yes.", "Steps": ["Go."]}"#);
        assert!(judged.valid && judged.errors.is_empty());
    }

    #[test]
    fn a_broken_schema_or_an_unknown_name_fails_up_front() {
        let broken = Check::Schema {
            schema: SchemaRef::Inline(serde_json::json!({"type": 7})),
            preset: Preset::Standard,
        };
        assert!(matches!(
            Checker::new(broken, Registry::empty()),
            Err(ReportError::InvalidSchema(_))
        ));
        let unknown = Check::Schema {
            schema: SchemaRef::Named("nope".to_owned()),
            preset: Preset::Standard,
        };
        assert!(matches!(
            Checker::new(unknown, Registry::new()),
            Err(ReportError::SchemaNotFound { .. })
        ));
    }
}
