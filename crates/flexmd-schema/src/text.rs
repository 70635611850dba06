//! Validating JSON as a model wrote it: the value found in an answer, or
//! every record of a JSON Lines text, with each violation and warning placed
//! at its line and column.

use std::borrow::Cow;

use flexmd_core::LineIndex;
use flexmd_detect::{JsonMethod, Leniency, Repair, find_json, locate_pointer, parse_json};
use serde::Serialize;
use serde_json::Value;

use crate::{
    ChangeKind, CoercionRule, Outcome, Registry, SchemaError, TransformOptions, Violation,
};

/// One record of a JSON Lines text and its outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct RecordOutcome {
    /// The record's 1-based line number.
    pub line: usize,
    /// The record's validation (its positions are in the whole text).
    #[serde(flatten)]
    pub outcome: Outcome,
}

impl Outcome {
    /// This outcome with its warnings counted as errors: any warning makes
    /// it invalid (and drops `data`, as for any invalid outcome).
    ///
    /// ```
    /// use flexmd_schema::{Registry, TransformOptions};
    /// let registry = Registry::new();
    /// let schema = serde_json::json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    /// let options = TransformOptions { coerce: true, apply_defaults: true };
    /// let outcome = registry.validate_text("{\"n\": \"4\"}", &schema, options).unwrap();
    /// assert!(outcome.valid);
    /// assert_eq!(outcome.warnings[0].code, "coerced");
    /// let strict = outcome.into_strict();
    /// assert!(!strict.valid && strict.data.is_none());
    /// assert_eq!(strict.errors[0].code, "coerced");
    /// ```
    #[must_use]
    pub fn into_strict(mut self) -> Self {
        if !self.warnings.is_empty() {
            self.errors.append(&mut self.warnings);
            self.valid = false;
            self.data = None;
        }
        self
    }
}

impl Registry {
    /// Validates a value already read (not a text) against `schema`, after
    /// `options`' coercion and defaults, as [`Registry::validate_text`]
    /// judges the value it finds: each value coerced is also a warning, so
    /// [`Outcome::into_strict`] counts it.
    ///
    /// ```
    /// use flexmd_schema::{Registry, TransformOptions};
    /// let registry = Registry::new();
    /// let schema = serde_json::json!({"properties": {"n": {"type": "integer"}}});
    /// let options = TransformOptions { coerce: true, apply_defaults: true };
    /// let outcome = registry.validate_value(&serde_json::json!({"n": "3"}), &schema, options).unwrap();
    /// assert_eq!(outcome.data, Some(serde_json::json!({"n": 3})));
    /// assert_eq!(outcome.warnings[0].code, "coerced");
    /// assert!(!outcome.into_strict().valid);
    /// ```
    pub fn validate_value(
        &self,
        value: &Value,
        schema: &Value,
        options: TransformOptions,
    ) -> Result<Outcome, SchemaError> {
        Ok(self
            .record_validator(schema, options)?
            .validate_value(value))
    }

    /// Validates the JSON value in `text` (a model's answer: found in a
    /// fence or in prose, repaired if need be) against `schema`, after
    /// `options`' coercion and defaults. Each violation gets the line and
    /// column where its value is written (a missing property: where its
    /// object starts); each repair made to read the value and each value
    /// coerced is a warning. Text without a JSON value is an invalid outcome
    /// with code `no_json`.
    ///
    /// ```
    /// use flexmd_schema::{Registry, TransformOptions};
    /// let registry = Registry::new();
    /// let schema = serde_json::json!({"type": "object", "required": ["id"],
    ///     "properties": {"id": {"type": "string"}, "tags": {"type": "array"}}});
    /// let answer = "Here:\n```json\n{\n  \"tags\": 3,\n}\n```";
    /// let options = TransformOptions { coerce: false, apply_defaults: false };
    /// let outcome = registry.validate_text(answer, &schema, options).unwrap();
    /// let places: Vec<_> = outcome.errors.iter()
    ///     .map(|e| (e.code.as_str(), e.line, e.column)).collect();
    /// assert_eq!(places, [("missing_required", Some(3), Some(1)), ("invalid_type", Some(4), Some(11))]);
    /// assert_eq!(outcome.warnings[0].code, "json5");
    /// ```
    pub fn validate_text(
        &self,
        text: &str,
        schema: &Value,
        options: TransformOptions,
    ) -> Result<Outcome, SchemaError> {
        Ok(self.record_validator(schema, options)?.validate_text(text))
    }

    /// `schema` compiled once, to validate many records or answers with
    /// `options` (on several threads: a [`RecordValidator`] is `Send` and
    /// `Sync`).
    ///
    /// ```
    /// use flexmd_schema::{Registry, TransformOptions};
    /// let registry = Registry::new();
    /// let schema = serde_json::json!({"type": "object", "required": ["id"]});
    /// let options = TransformOptions { coerce: true, apply_defaults: true };
    /// let validator = registry.record_validator(&schema, options).unwrap();
    /// let record = validator.validate_record(12, "{\"name\": \"x\"}");
    /// assert_eq!(record.line, 12);
    /// assert_eq!((record.outcome.errors[0].line, record.outcome.errors[0].column), (Some(12), Some(1)));
    /// assert!(validator.validate_text("Here: {\"id\": 4}").valid);
    /// ```
    pub fn record_validator(
        &self,
        schema: &Value,
        options: TransformOptions,
    ) -> Result<RecordValidator, SchemaError> {
        Ok(RecordValidator {
            compiled: self.compile(schema)?,
            resources: self.resources_shared(),
            options,
        })
    }

    /// Validates every record of a JSON Lines `text` against `schema` (blank
    /// lines are skipped): one outcome per record, with its line number. A
    /// line that is not JSON even after repairs is an invalid record with
    /// code `invalid_json`.
    ///
    /// ```
    /// use flexmd_schema::{Registry, TransformOptions};
    /// let registry = Registry::new();
    /// let schema = serde_json::json!({"type": "object", "required": ["id"]});
    /// let options = TransformOptions { coerce: true, apply_defaults: true };
    /// let records = registry.validate_jsonl("{\"id\": 1}\n\n{\"name\": 2}\n", &schema, options).unwrap();
    /// let lines: Vec<_> = records.iter().map(|r| (r.line, r.outcome.valid)).collect();
    /// assert_eq!(lines, [(1, true), (3, false)]);
    /// assert_eq!(records[1].outcome.errors[0].line, Some(3));
    /// ```
    pub fn validate_jsonl(
        &self,
        text: &str,
        schema: &Value,
        options: TransformOptions,
    ) -> Result<Vec<RecordOutcome>, SchemaError> {
        let validator = self.record_validator(schema, options)?;
        Ok(text
            .split_inclusive('\n')
            .enumerate()
            .map(|(n, line)| (n + 1, line.trim_end_matches(['\n', '\r'])))
            .filter(|(_, record)| !record.trim().is_empty())
            .map(|(line, record)| validator.validate_record(line, record))
            .collect())
    }
}

/// A schema compiled once with its transformation options: validates JSON
/// Lines records, answers and values without compiling again
/// ([`Registry::record_validator`]).
pub struct RecordValidator {
    compiled: std::sync::Arc<crate::registry::Compiled>,
    resources: std::sync::Arc<std::collections::HashMap<String, Value>>,
    options: TransformOptions,
}

impl std::fmt::Debug for RecordValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordValidator")
            .field("schema", &self.compiled.schema)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl RecordValidator {
    /// The outcome for a value already read, coerced and defaulted as the
    /// options say (as [`Registry::validate_value`]).
    #[must_use]
    pub fn validate_value(&self, value: &Value) -> Outcome {
        let mut outcome = self.transform(Cow::Borrowed(value));
        let coerced: Vec<Violation> = outcome
            .changes
            .iter()
            .filter(|c| c.kind == ChangeKind::Coerced)
            .map(|c| coercion_warning(&c.path, &c.pointer, (c.from.as_ref(), Some(&c.to)), c.rule))
            .collect();
        outcome.warnings.extend(coerced);
        outcome
    }

    /// The outcome for the JSON value in a model's answer (as
    /// [`Registry::validate_text`]): positions are in `text`.
    #[must_use]
    pub fn validate_text(&self, text: &str) -> Outcome {
        self.validate_text_mapped(text, |value| value)
    }

    /// As [`RecordValidator::validate_text`], with the value found passed
    /// through `map` before it is validated: a caller that reads the answer
    /// in another shape first (a provider's strict-mode answer, mapped back
    /// to the original schema) keeps the repair warnings and the positions
    /// in `text`. `map` must not move values to other paths.
    #[must_use]
    pub fn validate_text_mapped(&self, text: &str, map: impl FnOnce(Value) -> Value) -> Outcome {
        let Some(found) = find_json(text) else {
            return Outcome::failure("No JSON value found in the text".to_owned(), "no_json");
        };
        if found
            .repairs
            .iter()
            .any(|r| r.kind == flexmd_detect::RepairKind::ValueLimit)
        {
            // Only part of the value was read: its violations would be wrong.
            return Outcome::failure(
                format!(
                    "The JSON holds more than {} values, more than flexmd reads from one text (a bound on memory)",
                    flexmd_core::MAX_JSON_VALUES
                ),
                "too_large",
            );
        }
        let outcome = self.transform(Cow::Owned(map(found.value)));
        let nothing_to_place = outcome.errors.is_empty()
            && found.repairs.is_empty()
            && found.method != JsonMethod::Json5
            && outcome
                .changes
                .iter()
                .all(|c| c.kind != ChangeKind::Coerced);
        if nothing_to_place {
            // A clean valid answer needs no line index of the text.
            return outcome;
        }
        let source = text.get(found.start..found.end).unwrap_or_default();
        let index = LineIndex::new(text);
        // The repairs' offsets are in the whole text already.
        let mut outcome = placed(outcome, &found.repairs, &index, (source, found.start), 0);
        if found.method == JsonMethod::Json5 {
            outcome
                .warnings
                .insert(0, json5_warning(&index, found.start));
        }
        outcome
    }

    /// The outcome for one JSON Lines record, read leniently (repaired if
    /// need be), whose text is line `line` of its file: positions say that
    /// line and the column in it. A record that is not JSON even after
    /// repairs is invalid with code `invalid_json`.
    #[must_use]
    pub fn validate_record(&self, line: usize, record: &str) -> RecordOutcome {
        let index = LineIndex::new(record);
        let mut outcome = match parse_json(record, Leniency::Repair) {
            Ok(parsed) => {
                let outcome = self.transform(Cow::Owned(parsed.value));
                let mut outcome = placed(outcome, &parsed.repairs, &index, (record, 0), 0);
                if parsed.method == JsonMethod::Json5 {
                    outcome.warnings.insert(0, json5_warning(&index, 0));
                }
                outcome
            }
            Err(e) => {
                let mut outcome =
                    Outcome::failure(format!("The line is not JSON: {e}"), "invalid_json");
                place_all(&mut outcome.errors, &index, e.offset());
                outcome
            }
        };
        // The record is one line: its index says line 1.
        for v in outcome.errors.iter_mut().chain(outcome.warnings.iter_mut()) {
            if v.line.is_some() {
                v.line = Some(line);
            }
        }
        RecordOutcome { line, outcome }
    }

    fn transform(&self, value: Cow<'_, Value>) -> Outcome {
        crate::transform::transform(
            &self.compiled,
            &self.compiled.schema,
            &self.resources,
            value,
            self.options,
        )
    }
}

/// `outcome` with lines and columns, and the repairs and coercions as
/// warnings. `source` is the value's text and where it starts in the indexed
/// text; `repair_base` is what the repairs' offsets are relative to.
fn placed(
    mut outcome: Outcome,
    repairs: &[Repair],
    index: &LineIndex<'_>,
    (source, base): (&str, usize),
    repair_base: usize,
) -> Outcome {
    let position = |offset: usize| {
        let (line, column) = index.line_col(offset);
        (Some(line), Some(column))
    };
    for error in &mut outcome.errors {
        let at = locate_pointer(source, &error.pointer).unwrap_or(0);
        (error.line, error.column) = position(base + at);
    }
    let mut warnings: Vec<Violation> = repairs
        .iter()
        .map(|r| repair_warning(r, index, repair_base))
        .collect();
    for change in &outcome.changes {
        if change.kind != ChangeKind::Coerced {
            continue;
        }
        let mut warning = coercion_warning(
            &change.path,
            &change.pointer,
            (change.from.as_ref(), Some(&change.to)),
            change.rule,
        );
        let at = locate_pointer(source, &change.pointer).unwrap_or(0);
        (warning.line, warning.column) = position(base + at);
        warnings.push(warning);
    }
    outcome.warnings.extend(warnings);
    outcome
}

/// A repair made to read JSON, as a warning placed in the indexed text
/// (`base` is what the repair's offset is relative to).
pub(crate) fn repair_warning(repair: &Repair, index: &LineIndex<'_>, base: usize) -> Violation {
    let (line, column) = index.line_col(base + repair.offset);
    Violation {
        message: repair.kind.describe().to_owned(),
        code: repair.kind.name().to_owned(),
        line: Some(line),
        column: Some(column),
        ..Violation::default()
    }
}

/// A value read as JSON5 rather than strict JSON, as a warning at its start.
pub(crate) fn json5_warning(index: &LineIndex<'_>, at: usize) -> Violation {
    let (line, column) = index.line_col(at);
    Violation {
        message: "Read as JSON5 (comments, trailing commas, single quotes or bare keys), \
                  not strict JSON"
            .to_owned(),
        code: "json5".to_owned(),
        line: Some(line),
        column: Some(column),
        ..Violation::default()
    }
}

/// A value coerced to the schema's type, as a warning (code `coerced`); a
/// coercion that drops part of the value says which rule dropped what.
pub(crate) fn coercion_warning(
    path: &str,
    pointer: &str,
    (from, to): (Option<&Value>, Option<&Value>),
    rule: Option<CoercionRule>,
) -> Violation {
    let show = |v: Option<&Value>| v.map_or_else(String::new, ToString::to_string);
    let why = match rule {
        Some(CoercionRule::LeadingNumber) => {
            " (rule leading_number: the number the text starts with, the rest dropped)"
        }
        Some(CoercionRule::TruncateToInteger) => {
            " (rule truncate_to_integer: the fraction dropped)"
        }
        _ => "",
    };
    Violation {
        path: path.to_owned(),
        pointer: pointer.to_owned(),
        message: format!("Coerced {} to {}{why}", show(from), show(to)),
        code: "coerced".to_owned(),
        ..Violation::default()
    }
}

/// Every violation placed at one offset.
fn place_all(violations: &mut [Violation], index: &LineIndex<'_>, offset: usize) {
    let (line, column) = index.line_col(offset);
    for v in violations {
        v.line = Some(line);
        v.column = Some(column);
    }
}

#[cfg(test)]
mod record_validator_tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn a_record_validator_can_be_shared_by_threads() {
        assert_send_sync::<RecordValidator>();
    }

    #[test]
    fn records_are_placed_on_their_own_line() {
        let registry = Registry::new();
        let schema =
            serde_json::json!({"type": "object", "properties": {"n": {"type": "integer"}}});
        let options = TransformOptions {
            coerce: false,
            apply_defaults: false,
        };
        let validator = registry.record_validator(&schema, options).unwrap();
        let record = validator.validate_record(40, "{'n': \"x\"}");
        let places: Vec<_> = record
            .outcome
            .errors
            .iter()
            .chain(&record.outcome.warnings)
            .map(|v| (v.code.as_str(), v.line, v.column))
            .collect();
        assert_eq!(
            places,
            [
                ("invalid_type", Some(40), Some(7)),
                ("json5", Some(40), Some(1))
            ]
        );
        let broken = validator.validate_record(41, "{\"n\": [1,");
        assert_eq!(broken.line, 41);
        // Repaired: the missing brackets are closed, and `[1]` is no integer.
        assert_eq!(broken.outcome.errors[0].code, "invalid_type");
        let garbage = validator.validate_record(42, "}}}");
        assert_eq!(
            (
                garbage.outcome.errors[0].code.as_str(),
                garbage.outcome.errors[0].line
            ),
            ("invalid_json", Some(42))
        );
    }
}
