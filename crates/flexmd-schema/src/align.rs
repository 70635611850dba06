//! Schema-aligned parsing: among the values an answer holds, the one that fits
//! a schema best, coerced to it, with every coercion logged and priced.

use std::collections::HashMap;

use flexmd_core::{OfsSection, OutputFormatSpec, SectionKind};
use flexmd_detect::{FoundJson, JsonMethod, JsonSource, Repair, find_all_json, find_json};
use miette::Diagnostic;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::coercion::CoercionRule;
use crate::pointer::escape;
use crate::registry::{MAX_INSTANCE_DEPTH, Registry, run};
use crate::transform::{each_child, fill_defaults, resolve_ref};
use crate::violation::Violation;

/// How far [`Registry::find_json_as`] goes to make a value fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// Repairs only (what [`flexmd_detect::find_json`] does): no coercion,
    /// no defaults. The best candidate is the one with the fewest
    /// violations.
    Strict,
    /// Repairs, coercions and defaults (the default).
    #[default]
    Standard,
    /// As `standard`, then every part that still violates the schema and
    /// can go (an array element, a property that is not required) is dropped
    /// and listed in `dropped`.
    Salvage,
}

impl Preset {
    /// The preset's name (`standard`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Strict => "strict",
            Self::Standard => "standard",
            Self::Salvage => "salvage",
        }
    }
}

/// One change made to fit the schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Coercion {
    /// Where, as a JSON Pointer into the result (for a dropped key: where it
    /// was).
    pub pointer: String,
    /// Which rule.
    pub rule: CoercionRule,
    /// The value before (absent for a default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<Value>,
    /// The value after (absent for a dropped key).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<Value>,
    /// What it costs (see [`CoercionRule::cost`]).
    pub cost: u32,
    /// For a change made inside an `anyOf` or `oneOf`: the branch chosen
    /// (`anyOf/0`), the one the value fits with the fewest violations, then
    /// the lowest cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
}

/// A part left out by the `salvage` preset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Dropped {
    /// Where it was, as a JSON Pointer into the value before dropping.
    pub pointer: String,
    /// What was dropped.
    pub value: Value,
    /// The violation that made it go.
    pub reason: String,
}

/// Where the chosen value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CandidateKind {
    /// A JSON value in the answer (in a fence or in the prose).
    Json,
    /// The Markdown sections of the answer, by heading, as an object.
    MarkdownSections,
    /// The whole answer as one string.
    RawAnswer,
}

/// The result of [`Registry::find_json_as`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Aligned {
    /// The value, coerced to the schema.
    pub value: Value,
    /// Whether it satisfies the schema.
    pub valid: bool,
    /// What still violates the schema (empty when valid).
    pub errors: Vec<Violation>,
    /// Where the value came from.
    pub candidate: CandidateKind,
    /// Byte span of the candidate in the answer.
    pub start: usize,
    /// Byte offset just after the candidate.
    pub end: usize,
    /// For a JSON candidate: where it was (fence or prose).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<JsonSource>,
    /// For a JSON candidate: the step that read it (strict JSON, JSON5 or
    /// the repair parser).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<JsonMethod>,
    /// The repairs made to read the JSON.
    pub repairs: Vec<Repair>,
    /// The changes made to fit the schema, in order.
    pub coercions: Vec<Coercion>,
    /// What the `salvage` preset left out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<Dropped>,
    /// The candidate's cost: one per repair, plus each coercion's cost.
    pub cost: u32,
    /// How many candidates were weighed.
    pub candidates: usize,
    /// The preset that ran.
    pub preset: Preset,
}

impl Aligned {
    /// Moves `start`, `end` and every repair's offset into `offsets`' unit
    /// (a binding's string indices: code points for Python, UTF-16 units
    /// for JavaScript).
    pub fn reindex(&mut self, offsets: &flexmd_core::TextOffsets<'_>) {
        self.start = offsets.index(self.start);
        self.end = offsets.index(self.end);
        for repair in &mut self.repairs {
            repair.offset = offsets.index(repair.offset);
        }
    }
}

/// Why no value could be given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Diagnostic)]
pub enum AlignError {
    /// The answer holds no JSON, no Markdown section the schema names, and
    /// the schema does not take a plain string.
    #[error("no value in the answer fits: no JSON found and no section the schema names")]
    #[diagnostic(code(schema::no_candidate))]
    NoCandidate,
    /// A value matches several enum values and nothing decides between
    /// them: never a silent pick.
    #[error("`{value}` at `{pointer}` could be any of {}", candidates.join(", "))]
    #[diagnostic(code(schema::ambiguous_enum), help("write one of the values in full"))]
    AmbiguousEnum {
        /// Where, as a JSON Pointer.
        pointer: String,
        /// The value as written.
        value: String,
        /// The enum values it could be.
        candidates: Vec<String>,
    },
    /// The schema cannot be compiled.
    #[error("{0}")]
    #[diagnostic(code(schema::invalid))]
    Schema(String),
}

/// What an answer is expected to hold.
#[derive(Debug, Clone, Copy)]
pub enum Target<'a> {
    /// A schema registered by name (the five predefined, or any registered).
    Named(&'a str),
    /// A schema given inline.
    Schema(&'a Value),
    /// An Output Format Spec: its JSON Schema (`flexmd_ofs::json_schema`),
    /// and its sections read from a Markdown answer.
    Spec(&'a OutputFormatSpec),
}

impl Registry {
    /// The value in `text` that fits `target` best, coerced to it.
    ///
    /// Candidates: every JSON value [`find_all_json`] finds (the one
    /// [`find_json`] would pick first; values inside reasoning blocks only
    /// when there is nothing else), the answer's Markdown sections read as an
    /// object whose keys are the schema's properties (the headings name
    /// them), and the whole answer as a string. Each is coerced to the schema
    /// ([`CoercionRule`]) and validated; the one with the fewest violations,
    /// then the lowest cost (repairs plus coercions), wins.
    ///
    /// ```
    /// use flexmd_schema::{CoercionRule, Preset, Registry, Target};
    /// use serde_json::json;
    ///
    /// let schema = json!({
    ///     "type": "object",
    ///     "properties": {
    ///         "status": {"enum": ["approved", "needs_changes"]},
    ///         "score": {"type": "number"},
    ///         "tags": {"type": "array", "items": {"type": "string"}}
    ///     },
    ///     "required": ["status", "score"],
    ///     "additionalProperties": false
    /// });
    /// let answer = "Review done.\n```json\n{\"Status\": \"Needs Changes\", \"score\": \"85%\", \"tags\": \"style\", \"note\": 1}\n```";
    /// let aligned = Registry::new().find_json_as(answer, Target::Schema(&schema), Preset::Standard).unwrap();
    /// assert!(aligned.valid);
    /// assert_eq!(aligned.value, json!({"status": "needs_changes", "score": 85, "tags": ["style"]}));
    /// let rules: Vec<_> = aligned.coercions.iter().map(|c| c.rule).collect();
    /// assert_eq!(rules, [
    ///     CoercionRule::KeyCase,
    ///     CoercionRule::EnumCase,
    ///     CoercionRule::NumberFromString,
    ///     CoercionRule::WrapInArray,
    ///     CoercionRule::DropUnknownKey,
    /// ]);
    /// ```
    pub fn find_json_as(
        &self,
        text: &str,
        target: Target<'_>,
        preset: Preset,
    ) -> Result<Aligned, AlignError> {
        self.align_text(text, target, preset, preset != Preset::Strict)
    }

    /// [`Registry::find_json_as`], with the filling of defaults chosen on
    /// its own (`run` honours `applyDefaults` and `coerceTypes` apart).
    pub(crate) fn align_text(
        &self,
        text: &str,
        target: Target<'_>,
        preset: Preset,
        defaults: bool,
    ) -> Result<Aligned, AlignError> {
        let spec_schema;
        let (schema, spec) = match target {
            Target::Named(name) => (
                self.get(name).ok_or_else(|| {
                    AlignError::Schema(format!(
                        "no schema named `{name}` (known: {})",
                        self.names().collect::<Vec<_>>().join(", ")
                    ))
                })?,
                None,
            ),
            Target::Schema(schema) => (schema, None),
            Target::Spec(spec) => {
                spec_schema = flexmd_ofs::json_schema(spec);
                (&spec_schema, Some(spec))
            }
        };
        let compiled = self
            .compile(schema)
            .map_err(|e| AlignError::Schema(e.to_string()))?;
        let candidates = candidates(text, schema, spec, self.resources());
        if candidates.is_empty() {
            return Err(AlignError::NoCandidate);
        }
        let count = candidates.len();
        let branches = BranchJudge::new(schema, self);
        let mut best: Option<Aligned> = None;
        let mut ambiguity = None;
        for candidate in candidates {
            let mut aligner = Aligner {
                root: schema,
                resources: self.resources(),
                coercions: Vec::new(),
                budget: 100_000,
                branches: &branches,
            };
            let mut value = candidate.value;
            if preset != Preset::Strict
                && let Err(e) = aligner.align(schema, &mut value, &mut String::new(), 0)
            {
                ambiguity.get_or_insert(e);
                continue;
            }
            if defaults {
                for change in fill_defaults(schema, self.resources(), &mut value) {
                    aligner.coercions.push(Coercion {
                        pointer: change.pointer,
                        rule: CoercionRule::Default,
                        before: None,
                        after: Some(change.to),
                        cost: CoercionRule::Default.cost(),
                        branch: None,
                    });
                }
            }
            let mut outcome = run(&compiled, &value);
            let mut dropped = Vec::new();
            if preset == Preset::Salvage && !outcome.valid {
                dropped = salvage(&compiled, &mut value);
                outcome = run(&compiled, &value);
            }
            let repair_cost = u32::try_from(candidate.repairs.len()).unwrap_or(u32::MAX);
            let cost = aligner
                .coercions
                .iter()
                .fold(repair_cost, |sum, c| sum.saturating_add(c.cost));
            let aligned = Aligned {
                value,
                valid: outcome.valid,
                errors: outcome.errors,
                candidate: candidate.kind,
                start: candidate.start,
                end: candidate.end,
                source: candidate.source,
                method: candidate.method,
                repairs: candidate.repairs,
                coercions: aligner.coercions,
                dropped,
                cost,
                candidates: count,
                preset,
            };
            let better = best
                .as_ref()
                .is_none_or(|b| (aligned.errors.len(), aligned.cost) < (b.errors.len(), b.cost));
            if better {
                best = Some(aligned);
            }
        }
        match (best, ambiguity) {
            (Some(best), _) if best.valid => Ok(best),
            // The ambiguity is what stands between the answer and a valid value.
            (_, Some(ambiguity)) => Err(ambiguity),
            (Some(best), None) => Ok(best),
            (None, None) => Err(AlignError::NoCandidate),
        }
    }
}

/// [`Registry::find_json_as`] with the predefined schemas' registry and
/// the `standard` preset.
///
/// ```
/// use serde_json::json;
///
/// let schema = json!({"type": "array", "items": {"type": "integer"}});
/// let aligned = flexmd_schema::find_json_as("Counts: [\"1,234\", 7.0]", &schema).unwrap();
/// assert_eq!(aligned.value, json!([1234, 7]));
/// ```
pub fn find_json_as(text: &str, schema: &Value) -> Result<Aligned, AlignError> {
    Registry::new().find_json_as(text, Target::Schema(schema), Preset::Standard)
}

/// A value to weigh.
struct Candidate {
    kind: CandidateKind,
    value: Value,
    start: usize,
    end: usize,
    source: Option<JsonSource>,
    method: Option<JsonMethod>,
    repairs: Vec<Repair>,
}

impl Candidate {
    fn from_found(found: FoundJson) -> Self {
        Self {
            kind: CandidateKind::Json,
            value: found.value,
            start: found.start,
            end: found.end,
            source: Some(found.source),
            method: Some(found.method),
            repairs: found.repairs,
        }
    }
}

/// The candidates, best first by the finder's own rules (ties go to the
/// earlier one).
fn candidates(
    text: &str,
    schema: &Value,
    spec: Option<&OutputFormatSpec>,
    resources: &HashMap<String, Value>,
) -> Vec<Candidate> {
    let mut list = Vec::new();
    let first = find_json(text);
    let all = find_all_json(text);
    let outside: Vec<FoundJson> = all.iter().filter(|f| !f.in_reasoning).cloned().collect();
    let pool = if outside.is_empty() { all } else { outside };
    if let Some(mut first) = first {
        first.pick = None;
        list.extend(pool.iter().find(|f| **f == first).cloned());
    }
    let chosen = list.first().map(|c: &FoundJson| c.start);
    list.extend(pool.into_iter().filter(|f| Some(f.start) != chosen));
    let mut candidates: Vec<Candidate> = list.into_iter().map(Candidate::from_found).collect();
    if let Some(sections) = markdown_sections(text, schema, spec, resources) {
        candidates.push(sections);
    }
    let trimmed = text.trim();
    if !trimmed.is_empty() && takes_string(schema) {
        let start = text.len() - text.trim_start().len();
        candidates.push(Candidate {
            kind: CandidateKind::RawAnswer,
            value: Value::String(trimmed.to_owned()),
            start,
            end: start + trimmed.len(),
            source: None,
            method: None,
            repairs: Vec::new(),
        });
    }
    candidates
}

/// Whether a property's schema asks for an array: `type: array`, or a union
/// (`anyOf`/`oneOf`, a type list) whose only non-null member is one
/// (`Optional[list[str]]`).
fn takes_array(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => return t == "array",
        Some(Value::Array(types)) => {
            return types.iter().any(|t| t == "array")
                && types.iter().all(|t| t == "array" || t == "null");
        }
        _ => {}
    }
    let branches = ["anyOf", "oneOf"]
        .iter()
        .find_map(|k| schema.get(*k).and_then(Value::as_array));
    branches.is_some_and(|branches| {
        let mut members = branches
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) != Some("null"));
        matches!((members.next(), members.next()), (Some(only), None) if takes_array(only))
    })
}

/// Whether a schema may take a plain string at its root.
fn takes_string(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "string",
        Some(Value::Array(types)) => types.iter().any(|t| t == "string"),
        _ => schema
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|e| e.iter().any(Value::is_string)),
    }
}

/// The answer's Markdown sections as an object: with a spec, its sections;
/// else one section per property of an object schema, titled after the
/// property (`filesChanged` → `Files changed`). `None` when no section is
/// there.
fn markdown_sections(
    text: &str,
    schema: &Value,
    spec: Option<&OutputFormatSpec>,
    resources: &HashMap<String, Value>,
) -> Option<Candidate> {
    // With a spec, a section written as its empty value is `null` (its
    // JSON Schema allows that); sections read for a plain schema leave it out.
    let keep_null = spec.is_some();
    let (spec, keys): (OutputFormatSpec, Vec<String>) = match spec {
        Some(spec) => (
            spec.clone(),
            spec.sections.iter().map(|s| s.name.clone()).collect(),
        ),
        None => {
            let schema = resolve_root(schema, resources)?;
            let properties = schema.get("properties")?.as_object()?;
            let sections = properties
                .iter()
                .map(|(key, sub)| OfsSection {
                    name: title_of(key),
                    kind: if takes_array(sub) {
                        SectionKind::List
                    } else {
                        SectionKind::Prose
                    },
                    hint: None,
                })
                .collect();
            let spec = OutputFormatSpec {
                sections,
                ..OutputFormatSpec::default()
            };
            (spec, properties.keys().cloned().collect())
        }
    };
    if spec.sections.is_empty() {
        return None;
    }
    let extracted = flexmd_ofs::extract(text, &spec, &flexmd_ofs::ExtractOptions::default());
    if extracted.sections_by_name.is_empty() {
        return None;
    }
    let json = flexmd_ofs::to_json(&extracted, &spec);
    let mut object = Map::new();
    for (section, key) in spec.sections.iter().zip(keys) {
        match json.get(&section.name) {
            // A section the answer has, written as the empty value (`None`),
            // is `null`; one it lacks is left out.
            Some(Value::Null)
                if keep_null && extracted.sections_by_name.contains_key(&section.name) =>
            {
                object.insert(key, Value::Null);
            }
            Some(Value::Null) | None => {}
            Some(value) => {
                object.insert(key, value.clone());
            }
        }
    }
    if let Some(tables) = json.get("tables").filter(|_| !spec.tables.is_empty()) {
        object.insert("tables".to_owned(), tables.clone());
    }
    Some(Candidate {
        kind: CandidateKind::MarkdownSections,
        value: Value::Object(object),
        start: 0,
        end: text.len(),
        source: None,
        method: None,
        repairs: Vec::new(),
    })
}

/// A schema's root, through one `$ref` to a registered schema.
fn resolve_root<'a>(schema: &'a Value, resources: &'a HashMap<String, Value>) -> Option<&'a Value> {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(target) if schema.get("properties").is_none() => {
            let (base, fragment) = target.split_once('#').unwrap_or((target, ""));
            resources.get(base)?.pointer(fragment)
        }
        _ => Some(schema),
    }
}

/// A property name as a heading: words split at `_`, `-` and lower-to-upper
/// case changes, the first capitalised.
fn title_of(key: &str) -> String {
    let mut words = String::new();
    let mut previous_lower = false;
    for c in key.chars() {
        if c == '_' || c == '-' {
            words.push(' ');
            previous_lower = false;
        } else if c.is_uppercase() && previous_lower {
            words.push(' ');
            words.extend(c.to_lowercase());
            previous_lower = false;
        } else {
            words.push(c);
            previous_lower = c.is_lowercase() || c.is_ascii_digit();
        }
    }
    let mut chars = words.trim().chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// Lower-case letters and digits only: how enum values and keys compare.
fn normal(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Walks a schema beside a value, coercing the value.
struct Aligner<'a> {
    root: &'a Value,
    resources: &'a HashMap<String, Value>,
    coercions: Vec<Coercion>,
    /// Schema nodes left to visit: recursive `$ref`s stop when it runs out.
    budget: usize,
    /// Judges which `anyOf`/`oneOf` branch a value fits.
    branches: &'a BranchJudge<'a>,
}

impl Aligner<'_> {
    fn log(
        &mut self,
        pointer: &str,
        rule: CoercionRule,
        before: Option<Value>,
        after: Option<Value>,
    ) {
        self.coercions.push(Coercion {
            pointer: pointer.to_owned(),
            rule,
            before,
            after,
            cost: rule.cost(),
            branch: None,
        });
    }

    fn align(
        &mut self,
        schema: &Value,
        value: &mut Value,
        pointer: &mut String,
        depth: usize,
    ) -> Result<(), AlignError> {
        if self.budget == 0 || depth > MAX_INSTANCE_DEPTH {
            return Ok(());
        }
        self.budget -= 1;
        let Some(node) = schema.as_object() else {
            return Ok(());
        };
        if let Some(target) = node.get("$ref").and_then(Value::as_str)
            && let Some(resolved) = self.resolve(target)
        {
            self.align(&resolved, value, pointer, depth + 1)?;
        }
        if let Some(all) = node.get("allOf").and_then(Value::as_array) {
            for sub in all {
                self.align(sub, value, pointer, depth + 1)?;
            }
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(branches) = node.get(keyword).and_then(Value::as_array) {
                self.align_branches(keyword, branches, value, pointer, depth)?;
            }
        }
        let types: Vec<&str> = match node.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !types.is_empty() && !types.iter().any(|t| has_type(value, t)) {
            self.coerce_type(&types, value, pointer);
        }
        if let Some(options) = node.get("enum").and_then(Value::as_array) {
            self.match_enum(options, value, pointer)?;
        }
        // A `const` is an enum of one (Pydantic's `Literal["dog"]`).
        if let Some(only) = node.get("const") {
            self.match_enum(std::slice::from_ref(only), value, pointer)?;
        }
        let drops = match value {
            Value::Object(map) => self.object_keys(node, map, pointer),
            _ => Vec::new(),
        };
        each_child(node, value, pointer, &mut |sub, child, pointer| {
            self.align(sub, child, pointer, depth + 1)
        })?;
        // Dropped keys are logged after the coercions inside the object.
        self.coercions.extend(drops);
        Ok(())
    }

    /// Aligns `value` to each branch of an `anyOf`/`oneOf` in turn and keeps
    /// the branch it then fits with the fewest violations, then the lowest
    /// cost (the first on a tie): `Optional[int]`'s `"212"` becomes `212`
    /// through `anyOf: [{type: integer}, {type: null}]`. A branch whose
    /// enum is ambiguous for the value is passed over; when every branch
    /// is, the value is left as it is.
    fn align_branches(
        &mut self,
        keyword: &str,
        branches: &[Value],
        value: &mut Value,
        pointer: &mut String,
        depth: usize,
    ) -> Result<(), AlignError> {
        // (violations, cost, index, the value aligned, its coercions)
        let mut best: Option<(usize, u32, usize, Value, Vec<Coercion>)> = None;
        for (i, branch) in branches.iter().enumerate() {
            let mut trial = value.clone();
            let outer = std::mem::take(&mut self.coercions);
            let result = self.align(branch, &mut trial, pointer, depth + 1);
            let made = std::mem::replace(&mut self.coercions, outer);
            if result.is_err() {
                continue;
            }
            let violations = self.branches.violations(branch, &trial);
            let cost = made.iter().fold(0u32, |sum, c| sum.saturating_add(c.cost));
            let better = best
                .as_ref()
                .is_none_or(|(v, c, ..)| (violations, cost) < (*v, *c));
            if better {
                let perfect = violations == 0 && cost == 0;
                best = Some((violations, cost, i, trial, made));
                if perfect {
                    break;
                }
            }
        }
        if let Some((_, _, i, trial, mut made)) = best {
            *value = trial;
            for change in &mut made {
                change
                    .branch
                    .get_or_insert_with(|| format!("{keyword}/{i}"));
            }
            self.coercions.extend(made);
        }
        Ok(())
    }

    /// Renames keys to the property they stand for; returns the log of the
    /// keys dropped (under `additionalProperties: false`).
    fn object_keys(
        &mut self,
        node: &Map<String, Value>,
        map: &mut Map<String, Value>,
        pointer: &str,
    ) -> Vec<Coercion> {
        let properties = node.get("properties").and_then(Value::as_object);
        let closed = node.get("additionalProperties") == Some(&Value::Bool(false));
        let patterns = node.contains_key("patternProperties");
        // Keys renamed to the property they stand for, or dropped (logged
        // after the coercions inside the object).
        let mut drops = Vec::new();
        if let Some(properties) = properties {
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                if properties.contains_key(&key) {
                    continue;
                }
                let wanted = normal(&key);
                let mut same = properties
                    .keys()
                    .filter(|p| normal(p) == wanted && !map.contains_key(*p));
                if let (Some(property), None) = (same.next(), same.next()) {
                    let property = property.clone();
                    let at = map.keys().position(|k| *k == key).unwrap_or(map.len());
                    if let Some(v) = map.shift_remove(&key) {
                        map.shift_insert(at, property.clone(), v);
                        self.log(
                            &format!("{pointer}/{}", escape(&property)),
                            CoercionRule::KeyCase,
                            Some(Value::String(key)),
                            Some(Value::String(property)),
                        );
                    }
                } else if closed
                    && !patterns
                    && let Some(v) = map.shift_remove(&key)
                {
                    drops.push(Coercion {
                        pointer: format!("{pointer}/{}", escape(&key)),
                        rule: CoercionRule::DropUnknownKey,
                        before: Some(v),
                        after: None,
                        cost: CoercionRule::DropUnknownKey.cost(),
                        branch: None,
                    });
                }
            }
        }
        drops
    }

    /// Converts `value` to the first of `types` it can become.
    fn coerce_type(&mut self, types: &[&str], value: &mut Value, pointer: &str) {
        // A one-element array where something else is wanted.
        if !types.contains(&"array")
            && let Value::Array(items) = value
            && items.len() == 1
            && let Some(only) = items.first().cloned()
        {
            let before = std::mem::replace(value, only);
            self.log(
                pointer,
                CoercionRule::UnwrapArray,
                Some(before),
                Some(value.clone()),
            );
            if types.iter().any(|t| has_type(value, t)) {
                return;
            }
        }
        for &t in types {
            let converted = match (t, &*value) {
                ("number" | "integer", Value::String(s)) => number_from_text(s, t == "integer")
                    .map(|n| (n, CoercionRule::NumberFromString))
                    .or_else(|| crate::numbers::read_number(s, t == "integer")),
                ("integer", Value::Number(n)) => n
                    .as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                    .map(|f| (Value::from(f as i64), CoercionRule::IntegerFromFloat)),
                ("boolean", Value::String(s)) => match s.trim().to_lowercase().as_str() {
                    "true" | "yes" | "y" | "on" | "1" => {
                        Some((Value::Bool(true), CoercionRule::BooleanFromString))
                    }
                    "false" | "no" | "n" | "off" | "0" => {
                        Some((Value::Bool(false), CoercionRule::BooleanFromString))
                    }
                    _ => None,
                },
                ("string", Value::Number(n)) => {
                    Some((Value::String(n.to_string()), CoercionRule::ToString))
                }
                ("string", Value::Bool(b)) => {
                    Some((Value::String(b.to_string()), CoercionRule::ToString))
                }
                ("string", Value::Object(_) | Value::Array(_)) => {
                    Some((Value::String(value.to_string()), CoercionRule::JsonText))
                }
                ("array", v) if !v.is_null() => {
                    Some((Value::Array(vec![v.clone()]), CoercionRule::WrapInArray))
                }
                _ => None,
            };
            if let Some((new, rule)) = converted {
                let before = std::mem::replace(value, new);
                self.log(pointer, rule, Some(before), Some(value.clone()));
                return;
            }
        }
    }

    /// A string that is not one of `options` but matches exactly one of
    /// them case- and punctuation-insensitively, or by a prefix only one has.
    fn match_enum(
        &mut self,
        options: &[Value],
        value: &mut Value,
        pointer: &str,
    ) -> Result<(), AlignError> {
        if options.contains(value) {
            return Ok(());
        }
        let Value::String(written) = &*value else {
            return Ok(());
        };
        let wanted = normal(written);
        if wanted.is_empty() {
            return Ok(());
        }
        let strings: Vec<&str> = options.iter().filter_map(Value::as_str).collect();
        let same: Vec<&str> = strings
            .iter()
            .copied()
            .filter(|o| normal(o) == wanted)
            .collect();
        let (matches, rule) = if same.is_empty() {
            let prefixed: Vec<&str> = strings
                .iter()
                .copied()
                .filter(|o| normal(o).starts_with(&wanted))
                .collect();
            (prefixed, CoercionRule::EnumPrefix)
        } else {
            (same, CoercionRule::EnumCase)
        };
        match matches.as_slice() {
            [] => Ok(()),
            [one] => {
                let new = Value::String((*one).to_owned());
                let before = std::mem::replace(value, new);
                self.log(pointer, rule, Some(before), Some(value.clone()));
                Ok(())
            }
            several => Err(AlignError::AmbiguousEnum {
                pointer: pointer.to_owned(),
                value: written.clone(),
                candidates: several.iter().map(|s| (*s).to_owned()).collect(),
            }),
        }
    }

    fn resolve(&self, target: &str) -> Option<Value> {
        resolve_ref(self.root, self.resources, target)
    }
}

/// Counts how many violations a value has against one branch of an
/// `anyOf`/`oneOf`, each branch compiled once by the registry (with the
/// root's `$defs` and `definitions`, which its `$ref`s may point into).
pub(crate) struct BranchJudge<'a> {
    root: &'a Value,
    registry: &'a Registry,
    /// By the branch's JSON text: a branch reached through a `$ref` is a
    /// fresh copy each time, so its address would never hit.
    compiled:
        std::cell::RefCell<HashMap<String, Option<std::sync::Arc<crate::registry::Compiled>>>>,
}

impl<'a> BranchJudge<'a> {
    pub(crate) fn new(root: &'a Value, registry: &'a Registry) -> Self {
        Self {
            root,
            registry,
            compiled: std::cell::RefCell::default(),
        }
    }

    /// The violations of `value` against `branch` (at most
    /// [`crate::MAX_ERRORS`]); a branch that cannot be compiled on its own
    /// counts as that many.
    fn violations(&self, branch: &Value, value: &Value) -> usize {
        self.compiled(branch).map_or(crate::MAX_ERRORS, |c| {
            c.count_errors(value, crate::MAX_ERRORS)
        })
    }

    fn compiled(&self, branch: &Value) -> Option<std::sync::Arc<crate::registry::Compiled>> {
        let key = branch.to_string();
        if let Some(known) = self.compiled.borrow().get(&key) {
            return known.clone();
        }
        let mut standalone = branch.clone();
        if let (Value::Object(map), Some(root)) = (&mut standalone, self.root.as_object()) {
            for keyword in ["$defs", "definitions", "$schema"] {
                if let Some(v) = root.get(keyword)
                    && !map.contains_key(keyword)
                {
                    map.insert(keyword.to_owned(), v.clone());
                }
            }
        }
        let compiled = self.registry.compile(&standalone).ok();
        self.compiled.borrow_mut().insert(key, compiled.clone());
        compiled
    }
}

/// Whether `value` has JSON Schema type `t`.
fn has_type(value: &Value, t: &str) -> bool {
    match (t, value) {
        ("null", Value::Null)
        | ("boolean", Value::Bool(_))
        | ("string", Value::String(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_))
        | ("number", Value::Number(_)) => true,
        ("integer", Value::Number(n)) => n.is_i64() || n.is_u64(),
        _ => false,
    }
}

/// A number written as text: `12`, `-3.5`, `1,234`, `1 234`, `$12.50`,
/// `€5`, `45%` (45), `3/4` (0.75). With `integer`, only whole numbers.
fn number_from_text(text: &str, integer: bool) -> Option<Value> {
    let t = text.trim();
    let t = t.strip_suffix('%').map_or(t, str::trim_end);
    let (negative, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, t),
    };
    let t = t.trim_start_matches(['$', '€', '£', '¥']).trim_start();
    let value = if let Some((a, b)) = t.split_once('/') {
        let a: f64 = a.trim().parse().ok()?;
        let b: f64 = b.trim().parse().ok()?;
        (b != 0.0).then_some(a / b)?
    } else {
        let digits = grouped_digits(t)?;
        digits.parse::<f64>().ok()?
    };
    let value = if negative { -value } else { value };
    if !value.is_finite() {
        return None;
    }
    if value.fract() == 0.0 && value.abs() < 9.0e15 {
        return Some(Value::from(value as i64));
    }
    if integer {
        return None;
    }
    serde_json::Number::from_f64(value).map(Value::Number)
}

/// `1,234.5` or `1 234` with the group separators removed; `None` for text
/// that is not a plain or grouped decimal number.
fn grouped_digits(t: &str) -> Option<String> {
    let (int, frac) = t.split_once('.').unwrap_or((t, ""));
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let groups: Vec<&str> = int.split([',', ' ', '_']).collect();
    let grouped = groups.len() > 1;
    let well_formed = groups.iter().enumerate().all(|(i, g)| {
        !g.is_empty()
            && g.bytes().all(|b| b.is_ascii_digit())
            && (!grouped || if i == 0 { g.len() <= 3 } else { g.len() == 3 })
    });
    if !well_formed {
        return None;
    }
    let mut digits = groups.concat();
    if !frac.is_empty() {
        digits.push('.');
        digits.push_str(frac);
    }
    Some(digits)
}

/// Drops what still violates the schema, where it can go: an array element
/// or an object member whose removal leaves fewer violations (so a required
/// property stays). Deepest first; at most [`SALVAGE_TRIES`] tries.
fn salvage(compiled: &crate::registry::Compiled, value: &mut Value) -> Vec<Dropped> {
    let mut dropped = Vec::new();
    let mut tries = 0;
    loop {
        let outcome = run(compiled, value);
        if outcome.valid {
            break;
        }
        let mut pointers: Vec<(String, String)> = outcome
            .errors
            .iter()
            .map(|e| {
                // What lacks a required property is the object around it.
                let pointer = match e.code.as_str() {
                    "missing_required" => {
                        e.pointer.rsplit_once('/').map_or("", |(parent, _)| parent)
                    }
                    _ => &e.pointer,
                };
                (pointer.to_owned(), e.message.clone())
            })
            .filter(|(pointer, _)| !pointer.is_empty())
            .collect();
        // Deepest and last first: a removal shifts no pointer still to try.
        pointers.sort_by(|a, b| b.0.cmp(&a.0));
        pointers.dedup_by(|a, b| a.0 == b.0);
        let mut progress = false;
        for (pointer, reason) in pointers {
            tries += 1;
            if tries > SALVAGE_TRIES {
                return dropped;
            }
            let mut trial = value.clone();
            let Some(removed) = remove_at(&mut trial, &pointer) else {
                continue;
            };
            if run(compiled, &trial).errors.len() < outcome.errors.len() {
                *value = trial;
                dropped.push(Dropped {
                    pointer,
                    value: removed,
                    reason,
                });
                progress = true;
                break;
            }
        }
        if !progress {
            break;
        }
    }
    dropped
}

/// How many removals salvage tries, each a validation of the whole value.
const SALVAGE_TRIES: usize = 256;

/// Removes the member or element at `pointer`.
fn remove_at(value: &mut Value, pointer: &str) -> Option<Value> {
    let (parent, last) = pointer.rsplit_once('/')?;
    let last = last.replace("~1", "/").replace("~0", "~");
    match value.pointer_mut(parent)? {
        Value::Array(items) => {
            let i: usize = last.parse().ok()?;
            (i < items.len()).then(|| items.remove(i))
        }
        Value::Object(map) => map.shift_remove(&last),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_written_as_text() {
        let n = |s: &str| number_from_text(s, false);
        assert_eq!(n("12"), Some(json!(12)));
        assert_eq!(n(" -3.5 "), Some(json!(-3.5)));
        assert_eq!(n("1,234"), Some(json!(1234)));
        assert_eq!(n("1,234,567.25"), Some(json!(1_234_567.25)));
        assert_eq!(n("$12.50"), Some(json!(12.5)));
        assert_eq!(n("45%"), Some(json!(45)));
        assert_eq!(n("3/4"), Some(json!(0.75)));
        assert_eq!(n("1,23"), None);
        assert_eq!(n("12 apples"), None);
        assert_eq!(n("1/0"), None);
        assert_eq!(number_from_text("2.5", true), None);
        assert_eq!(number_from_text("2.0", true), Some(json!(2)));
    }

    #[test]
    fn titles_of_properties() {
        assert_eq!(title_of("filesChanged"), "Files changed");
        assert_eq!(title_of("risk_level"), "Risk level");
        assert_eq!(title_of("summary"), "Summary");
    }
}
