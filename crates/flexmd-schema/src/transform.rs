//! `validate_and_transform`: defaults filled in, types coerced where that
//! makes the instance valid (elsabro's `validateAndTransform`, made
//! recursive).

use std::collections::HashMap;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{JsonType, ValidationError};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::coercion::CoercionRule;
use crate::numbers::read_number;
use crate::outcome::{Change, ChangeKind, Outcome};
use crate::pointer::{dotted_path, escape};
use crate::registry::{Compiled, Registry, run, verdict};

/// What [`Registry::validate_and_transform`] may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TransformOptions {
    /// Coerce values to the type the schema asks for (elsabro's `coerce`).
    pub coerce: bool,
    /// Fill missing properties that have a `default` (elsabro's `applyDefaults`).
    pub apply_defaults: bool,
}

/// Rounds of coercion: wrapping a scalar in an array can expose its items'
/// types, which the next round coerces.
const MAX_ROUNDS: usize = 8;

/// The most values one transformation coerces (each is reported); an
/// instance that needs more is reported as it was given.
const MAX_COERCIONS: usize = 10_000;

impl Registry {
    /// Validates `instance` against the schema `name` after transforming it:
    ///
    /// 1. with `apply_defaults`, every missing property whose schema has a
    ///    `default` gets it — in nested objects and in array items too (through
    ///    `properties`, `items`, `prefixItems`, `additionalProperties`,
    ///    `allOf` and `$ref`);
    /// 2. with `coerce`, when the instance is then invalid (and holds at
    ///    most [`MAX_VALUES_FOR_ALL_ERRORS`](crate::MAX_VALUES_FOR_ALL_ERRORS)
    ///    values), each value that fails `type` is converted where the
    ///    conversion fits: a string to a
    ///    number, integer or boolean (`"42"`, `"true"`), any scalar to a
    ///    string, an object or array to its JSON text for a string, a
    ///    non-array to a one-element array. Coercions are kept only if they
    ///    make the whole instance valid; otherwise the outcome reports the
    ///    errors of the instance as given (with defaults).
    ///
    /// The outcome lists every change with its path, and says `coerced`
    /// when any value was coerced.
    ///
    /// ```
    /// use flexmd_schema::{ChangeKind, Registry, TransformOptions};
    /// use serde_json::json;
    ///
    /// let registry = Registry::new();
    /// let answer = json!({"success": "true", "filesCreated": [
    ///     {"path": "a.rs", "purpose": "x", "linesAdded": "12"}]});
    /// let options = TransformOptions { coerce: true, apply_defaults: true };
    /// let outcome = registry.validate_and_transform("implementation", &answer, options);
    /// assert!(outcome.valid);
    /// let data = outcome.data.unwrap();
    /// assert_eq!(data["filesCreated"][0]["linesAdded"], json!(12));
    /// assert_eq!(data["errors"], json!([]));
    /// let kinds: Vec<_> = outcome.changes.iter().map(|c| (c.kind, c.path.as_str())).collect();
    /// assert_eq!(kinds[..2], [(ChangeKind::Default, "filesModified"), (ChangeKind::Default, "testsCreated")]);
    /// assert_eq!(kinds[4..], [(ChangeKind::Coerced, "success"), (ChangeKind::Coerced, "filesCreated.[0].linesAdded")]);
    /// assert!(outcome.coerced, "elsabro's `coerced: true`");
    /// ```
    pub fn validate_and_transform(
        &self,
        name: &str,
        instance: &Value,
        options: TransformOptions,
    ) -> Outcome {
        let (Some(compiled), Some(schema)) = (self.compiled(name), self.get(name)) else {
            return self.validate(name, instance);
        };
        transform(
            compiled,
            schema,
            self.resources(),
            std::borrow::Cow::Borrowed(instance),
            options,
        )
    }

    /// [`Registry::validate_and_transform`] with a schema given inline.
    pub fn validate_and_transform_schema(
        &self,
        schema: &Value,
        instance: &Value,
        options: TransformOptions,
    ) -> Result<Outcome, crate::SchemaError> {
        let validator = self.compile(schema)?;
        Ok(transform(
            &validator,
            schema,
            self.resources(),
            std::borrow::Cow::Borrowed(instance),
            options,
        ))
    }
}

pub(crate) fn transform(
    compiled: &Compiled,
    schema: &Value,
    resources: &HashMap<String, Value>,
    instance: std::borrow::Cow<'_, Value>,
    options: TransformOptions,
) -> Outcome {
    // A borrowed instance is copied only to change it or to return it valid
    // (a 50 MB instance is a tree of about 1.5 GB); an owned one never.
    let mut value = instance;
    let mut changes = Vec::new();
    if options.apply_defaults && has_defaults(schema, resources) {
        changes = fill_defaults(schema, resources, value.to_mut());
    }
    let outcome = verdict(compiled, &value);
    // Coercion is driven by the validator's full list of type errors, which
    // a huge instance makes huge: past the limit, the instance is reported
    // as given (its first violation).
    if outcome.valid || !options.coerce || outcome.errors_limited {
        let data = outcome.valid.then(|| value.into_owned());
        return Outcome {
            changes,
            data,
            ..outcome
        };
    }
    let mut coerced = value.into_owned();
    let mut coercions = Vec::new();
    for _ in 0..MAX_ROUNDS {
        let mut progress = false;
        // The type errors of this round (at most MAX_COERCIONS in all),
        // read before the instance changes; inside `anyOf`/`oneOf`, those
        // of the branch that needs the fewest coercions.
        let wrong: Vec<Fix> = compiled
            .validator
            .iter_errors(&coerced)
            .filter_map(|error| fixes(&error, &coerced, 0))
            .flatten()
            .take(MAX_COERCIONS.saturating_sub(coercions.len()))
            .collect();
        for fix in wrong {
            let Some(slot) = coerced.pointer_mut(&fix.pointer) else {
                continue;
            };
            if let Some((new, rule)) = fix.types.iter().find_map(|t| coerce(slot, *t)) {
                coercions.push(Change {
                    kind: ChangeKind::Coerced,
                    path: String::new(),
                    pointer: fix.pointer,
                    from: Some(slot.clone()),
                    to: new.clone(),
                    branch: fix.branch,
                    rule: Some(rule),
                });
                *slot = new;
                progress = true;
            }
        }
        if !progress {
            break;
        }
    }
    let after = run(compiled, &coerced);
    if !after.valid {
        return Outcome { changes, ..outcome };
    }
    for change in &mut coercions {
        change.path = dotted_path(&coerced, &change.pointer);
    }
    let any_coerced = !coercions.is_empty();
    changes.extend(coercions);
    Outcome {
        changes,
        coerced: any_coerced,
        ..after
    }
}

/// A value that fails `type`: where, the types it may become, and the
/// `anyOf`/`oneOf` branch that asks for them.
struct Fix {
    pointer: String,
    types: Vec<JsonType>,
    branch: Option<String>,
}

/// How far `anyOf` inside `anyOf` is followed.
const MAX_BRANCH_DEPTH: usize = 8;

/// The coercions that clear `error`: a `type` error's own; for `anyOf` or
/// `oneOf` (none of whose branches matched), those of the branch whose
/// every error is a type error the instance can be coerced out of, with
/// the fewest coercions (the first on a tie). `None` when coercion cannot
/// clear it.
fn fixes(error: &ValidationError<'_>, instance: &Value, depth: usize) -> Option<Vec<Fix>> {
    match error.kind() {
        ValidationErrorKind::Type { kind } => Some(vec![Fix {
            pointer: error.instance_path().as_str().to_owned(),
            types: match kind {
                TypeKind::Single(t) => vec![*t],
                TypeKind::Multiple(set) => set.iter().collect(),
            },
            branch: None,
        }]),
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context }
            if depth < MAX_BRANCH_DEPTH =>
        {
            // The keyword (`anyOf`), as the fitting's log names branches.
            let at = error.schema_path().as_str();
            let at = at.rsplit('/').next().unwrap_or(at);
            context
                .iter()
                .enumerate()
                .filter_map(|(i, branch)| {
                    let mut all = Vec::new();
                    for e in branch {
                        all.extend(fixes(e, instance, depth + 1)?);
                    }
                    let coercible = all.iter().all(|fix| {
                        instance
                            .pointer(&fix.pointer)
                            .is_some_and(|v| fix.types.iter().any(|t| coerce(v, *t).is_some()))
                    });
                    coercible.then(|| {
                        for fix in &mut all {
                            fix.branch.get_or_insert_with(|| format!("{at}/{i}"));
                        }
                        all
                    })
                })
                .min_by_key(Vec::len)
        }
        _ => None,
    }
}

/// `value` converted to `target`, if that conversion is one elsabro makes,
/// with the rule that made it. Numbers are read from text as `parseFloat`
/// and `parseInt` read them (see [`read_number`]).
fn coerce(value: &Value, target: JsonType) -> Option<(Value, CoercionRule)> {
    let converted = match (target, value) {
        (JsonType::Number, Value::String(s)) => return read_number(s, false),
        (JsonType::Integer, Value::String(s)) => return read_number(s, true),
        (JsonType::Boolean, Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
            "true" => (Value::Bool(true), CoercionRule::BooleanFromString),
            "false" => (Value::Bool(false), CoercionRule::BooleanFromString),
            _ => return None,
        },
        (JsonType::String, Value::Number(n)) => {
            (Value::String(n.to_string()), CoercionRule::ToString)
        }
        (JsonType::String, Value::Bool(b)) => {
            (Value::String(b.to_string()), CoercionRule::ToString)
        }
        (JsonType::String, Value::Null) => {
            (Value::String("null".to_owned()), CoercionRule::ToString)
        }
        (JsonType::String, Value::Array(_) | Value::Object(_)) => {
            (Value::String(value.to_string()), CoercionRule::JsonText)
        }
        (JsonType::Array, v) if !v.is_array() => {
            (Value::Array(vec![v.clone()]), CoercionRule::WrapInArray)
        }
        _ => return None,
    };
    Some(converted)
}

/// Whether `schema`, or a resource it may `$ref`, has a `default` anywhere.
fn has_defaults(schema: &Value, resources: &HashMap<String, Value>) -> bool {
    fn any(value: &Value) -> bool {
        match value {
            Value::Object(map) => map.contains_key("default") || map.values().any(any),
            Value::Array(items) => items.iter().any(any),
            _ => false,
        }
    }
    any(schema) || (references(schema) && resources.values().any(any))
}

/// Whether `schema` has a `$ref` to another document.
fn references(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => {
            map.get("$ref")
                .and_then(Value::as_str)
                .is_some_and(|r| !r.starts_with('#'))
                || map.values().any(references)
        }
        Value::Array(items) => items.iter().any(references),
        _ => false,
    }
}

/// Fills every missing property that has a `default` (see
/// [`Registry::validate_and_transform`]); returns the changes, with paths.
pub(crate) fn fill_defaults(
    schema: &Value,
    resources: &HashMap<String, Value>,
    value: &mut Value,
) -> Vec<Change> {
    let mut changes = Vec::new();
    let mut defaults = Defaults {
        root: schema,
        resources,
        changes: &mut changes,
        budget: 100_000,
    };
    defaults.fill(schema, value, &mut String::new(), 0);
    for change in &mut changes {
        change.path = dotted_path(value, &change.pointer);
    }
    changes
}

/// Fills defaults by walking the schema beside the instance.
struct Defaults<'a> {
    root: &'a Value,
    resources: &'a HashMap<String, Value>,
    changes: &'a mut Vec<Change>,
    /// Schema nodes left to visit: recursive `$ref`s stop when it runs out.
    budget: usize,
}

impl Defaults<'_> {
    fn fill(&mut self, schema: &Value, value: &mut Value, pointer: &mut String, depth: usize) {
        if self.budget == 0 || depth > crate::registry::MAX_INSTANCE_DEPTH {
            return;
        }
        self.budget -= 1;
        let Some(schema_map) = schema.as_object() else {
            return;
        };
        if let Some(target) = schema_map.get("$ref").and_then(Value::as_str)
            && let Some(resolved) = self.resolve(target)
        {
            self.fill(&resolved, value, pointer, depth + 1);
        }
        if let Some(all) = schema_map.get("allOf").and_then(Value::as_array) {
            for sub in all {
                self.fill(sub, value, pointer, depth + 1);
            }
        }
        for keyword in ["anyOf", "oneOf"] {
            let branches = schema_map.get(keyword).and_then(Value::as_array);
            if let Some(branch) = branches.and_then(|b| self.branch_for(b, value)) {
                self.fill(&branch, value, pointer, depth + 1);
            }
        }
        match value {
            Value::Object(map) => {
                let properties = schema_map.get("properties").and_then(Value::as_object);
                for (key, sub) in properties.into_iter().flatten() {
                    if !map.contains_key(key)
                        && let Some(default) = sub.get("default")
                    {
                        map.insert(key.clone(), default.clone());
                        self.changes.push(Change {
                            kind: ChangeKind::Default,
                            path: String::new(),
                            pointer: format!("{pointer}/{}", escape(key)),
                            from: None,
                            to: default.clone(),
                            branch: None,
                            rule: None,
                        });
                    }
                }
            }
            Value::Array(_) => {}
            _ => return,
        }
        let _ = each_child::<std::convert::Infallible>(
            schema_map,
            value,
            pointer,
            &mut |sub, child, pointer| {
                self.fill(sub, child, pointer, depth + 1);
                Ok(())
            },
        );
    }

    fn resolve(&self, target: &str) -> Option<Value> {
        resolve_ref(self.root, self.resources, target)
    }

    /// The `anyOf`/`oneOf` branch whose defaults `value` takes (see
    /// [`branch_for`]), its `$ref` followed.
    fn branch_for(&self, branches: &[Value], value: &Value) -> Option<Value> {
        branch_for(branches, value, &|target| self.resolve(target))
    }
}

/// The branch of an `anyOf`/`oneOf` that an object (or array) is an instance
/// of, to fill its defaults: among the branches that take its type and whose
/// `const` and `enum` properties it does not contradict, the one with every
/// `required` property present (or defaulted) and the most of its keys
/// among its `properties`; the first on a tie. `None` for a scalar, or when
/// no branch takes the value. A `$ref` branch is followed one step.
pub(crate) fn branch_for(
    branches: &[Value],
    value: &Value,
    resolve: &dyn Fn(&str) -> Option<Value>,
) -> Option<Value> {
    if !(value.is_object() || value.is_array()) {
        return None;
    }
    let mut best: Option<((bool, usize), Value)> = None;
    for branch in branches {
        let branch = match branch.get("$ref").and_then(Value::as_str) {
            Some(target) => match resolve(target) {
                Some(resolved) => resolved,
                None => continue,
            },
            None => branch.clone(),
        };
        let Some(score) = fit_score(&branch, value) else {
            continue;
        };
        if best.as_ref().is_none_or(|(b, _)| score > *b) {
            best = Some((score, branch));
        }
    }
    best.map(|(_, branch)| branch)
}

/// How well `value` fits a branch: (every required property there or
/// defaulted, how many of its keys the branch names); `None` when the branch
/// cannot take it.
fn fit_score(branch: &Value, value: &Value) -> Option<(bool, usize)> {
    let declared: Vec<&str> = match branch.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let kind = if value.is_object() { "object" } else { "array" };
    if !declared.is_empty() && !declared.contains(&kind) {
        return None;
    }
    let Value::Object(map) = value else {
        return Some((true, 0));
    };
    let properties = branch.get("properties").and_then(Value::as_object);
    let mut named = 0;
    for (key, v) in map {
        let Some(sub) = properties.and_then(|p| p.get(key)) else {
            continue;
        };
        named += 1;
        let contradicts = sub.get("const").is_some_and(|c| c != v)
            || sub
                .get("enum")
                .and_then(Value::as_array)
                .is_some_and(|e| !e.contains(v));
        if contradicts {
            return None;
        }
    }
    let complete = branch
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .all(|r| {
            map.contains_key(r)
                || properties
                    .and_then(|p| p.get(r))
                    .is_some_and(|s| s.get("default").is_some())
        });
    Some((complete, named))
}

/// Calls `f` with each child of `value` that `node` gives a sub-schema
/// (`properties`, an object `additionalProperties`, `prefixItems`, `items`),
/// `pointer` extended to the child while it runs; stops at the first error.
pub(crate) fn each_child<E>(
    node: &serde_json::Map<String, Value>,
    value: &mut Value,
    pointer: &mut String,
    f: &mut dyn FnMut(&Value, &mut Value, &mut String) -> Result<(), E>,
) -> Result<(), E> {
    let mut visit = |segment: &str, sub: &Value, child: &mut Value| {
        let len = pointer.len();
        pointer.push('/');
        pointer.push_str(segment);
        let result = f(sub, child, pointer);
        pointer.truncate(len);
        result
    };
    match value {
        Value::Object(map) => {
            let properties = node.get("properties").and_then(Value::as_object);
            let additional = node.get("additionalProperties").filter(|a| a.is_object());
            for (key, child) in map.iter_mut() {
                if let Some(sub) = properties.and_then(|p| p.get(key)).or(additional) {
                    visit(&escape(key), sub, child)?;
                }
            }
        }
        Value::Array(items) => {
            let prefix = node.get("prefixItems").and_then(Value::as_array);
            let rest = node.get("items").filter(|i| i.is_object());
            for (i, item) in items.iter_mut().enumerate() {
                if let Some(sub) = prefix.and_then(|p| p.get(i)).or(rest) {
                    visit(&i.to_string(), sub, item)?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// A `$ref` target: `#/pointer` in `root`, or a registered URI with an
/// optional `#/pointer`.
pub(crate) fn resolve_ref(
    root: &Value,
    resources: &HashMap<String, Value>,
    target: &str,
) -> Option<Value> {
    let (base, fragment) = target.split_once('#').unwrap_or((target, ""));
    let document = if base.is_empty() {
        root
    } else {
        resources.get(base)?
    };
    document.pointer(fragment).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn coercions_the_seed_makes() {
        use CoercionRule::*;
        let c = |v: Value, t| coerce(&v, t);
        assert_eq!(
            c(json!("42"), JsonType::Integer),
            Some((json!(42), NumberFromString))
        );
        assert_eq!(
            c(json!(" 3.0 "), JsonType::Integer),
            Some((json!(3), NumberFromString))
        );
        assert_eq!(
            c(json!("3.5"), JsonType::Integer),
            Some((json!(3), TruncateToInteger))
        );
        assert_eq!(
            c(json!("12px"), JsonType::Integer),
            Some((json!(12), LeadingNumber))
        );
        assert_eq!(
            c(json!("2.5"), JsonType::Number),
            Some((json!(2.5), NumberFromString))
        );
        assert_eq!(
            c(json!("7"), JsonType::Number),
            Some((json!(7), NumberFromString))
        );
        assert_eq!(
            c(json!("12px"), JsonType::Number),
            Some((json!(12), LeadingNumber))
        );
        assert_eq!(c(json!("NaN"), JsonType::Number), None);
        assert_eq!(c(json!("abc"), JsonType::Number), None);
        assert_eq!(
            c(json!("TRUE"), JsonType::Boolean),
            Some((json!(true), BooleanFromString))
        );
        assert_eq!(c(json!("yes"), JsonType::Boolean), None);
        assert_eq!(
            c(json!(12), JsonType::String),
            Some((json!("12"), ToString))
        );
        assert_eq!(
            c(json!({"a": 1}), JsonType::String),
            Some((json!("{\"a\":1}"), JsonText))
        );
        assert_eq!(
            c(json!("x"), JsonType::Array),
            Some((json!(["x"]), WrapInArray))
        );
        assert_eq!(c(json!(1), JsonType::Object), None);
    }

    #[test]
    fn lossy_number_coercions_are_warnings_naming_their_rule() {
        let registry = Registry::new();
        let schema = json!({"type": "object", "properties": {
            "width": {"type": "number"}, "count": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}});
        let options = TransformOptions {
            coerce: true,
            apply_defaults: false,
        };
        let outcome = registry
            .validate_and_transform_schema(
                &schema,
                &json!({"width": "12px", "count": "3.7"}),
                options,
            )
            .unwrap();
        assert!(outcome.valid);
        assert_eq!(outcome.data, Some(json!({"width": 12, "count": 3})));
        let rules: Vec<_> = outcome
            .changes
            .iter()
            .map(|c| (c.path.as_str(), c.rule))
            .collect();
        assert_eq!(
            rules,
            [
                ("width", Some(CoercionRule::LeadingNumber)),
                ("count", Some(CoercionRule::TruncateToInteger))
            ]
        );
        let text = registry
            .validate_text(r#"{"width": "12px", "count": "3.7"}"#, &schema, options)
            .unwrap();
        let messages: Vec<_> = text.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "Coerced \"12px\" to 12 (rule leading_number: the number the text starts with, the rest dropped)",
                "Coerced \"3.7\" to 3 (rule truncate_to_integer: the fraction dropped)"
            ]
        );
        assert_eq!(text.into_strict().errors[0].code, "coerced");
    }
}
