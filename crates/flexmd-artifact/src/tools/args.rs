//! Checking a call's arguments against its tool's parameters: the JSON
//! text read (`parse_arguments`), the `callId` matched (`call_id`), each
//! argument's type and range (`Args`), and the same checks without any
//! artifact (`check_arguments`).
//!
//! Imports the catalogue only; must not import the runner or the result
//! formatting.

use serde_json::{Map, Value};

use crate::error::ArtifactError;
use crate::tools::catalogue::{MAX_LISTED_CALL_IDS, Param, SPECS, Spec};

/// Checks the arguments of a call to the tool `name` (JSON text, an
/// object) without any artifact: unknown names, types and ranges, with the
/// same messages as [`ToolSet::call`](crate::ToolSet::call). `callId` may be left out. A front
/// end checks a call with this before it opens a large file.
///
/// ```
/// use flexmd_artifact::check_arguments;
/// assert!(check_arguments("artifact_head", r#"{"n": 3}"#).is_ok());
/// let err = check_arguments("artifact_head", r#"{"m": 3}"#).unwrap_err();
/// assert_eq!(err.to_string(), "artifact_head: unknown argument `m`; the arguments are `callId`, `n`");
/// ```
pub fn check_arguments(name: &str, arguments: &str) -> Result<(), ArtifactError> {
    let Some(spec) = SPECS.iter().find(|s| s.name == name) else {
        let names: Vec<&str> = SPECS.iter().map(|s| s.name).collect();
        return Err(ArtifactError::Call(format!(
            "unknown tool `{name}`; the tools are {}",
            names.join(", ")
        )));
    };
    let mut args = parse_arguments(name, arguments)?;
    // Any callId will do here: the artifact is not known yet.
    if let Value::Object(map) = &mut args {
        map.entry("callId")
            .or_insert_with(|| Value::String(String::new()));
    }
    let id = args
        .get("callId")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    Args::check(spec, &[id.as_str()], &args).map(|_| ())
}

/// A call's arguments as JSON (`""` is no arguments).
pub(crate) fn parse_arguments(name: &str, arguments: &str) -> Result<Value, ArtifactError> {
    if arguments.trim().is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    serde_json::from_str(arguments)
        .map_err(|e| ArtifactError::Call(format!("{name}: the arguments are not JSON: {e}")))
}

/// The `callId` of a call to the tool `name`, which must be one of `ids`.
pub(crate) fn call_id<'v>(
    name: &str,
    ids: &[&str],
    args: &'v Map<String, Value>,
) -> Result<&'v str, ArtifactError> {
    let given = args.get("callId");
    if let Some(Value::String(id)) = given
        && ids.contains(&id.as_str())
    {
        return Ok(id.as_str());
    }
    let quoted = |ids: &[&str]| {
        ids.iter()
            .map(|i| format!("\"{i}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // Past the listed number, the closest ids by their common start: a
    // message with thousands of ids would not fit in a model's context.
    let allowed = if ids.len() > MAX_LISTED_CALL_IDS {
        let typed = given.and_then(Value::as_str).unwrap_or_default();
        let mut closest = ids.to_vec();
        closest.sort_by_key(|id| {
            std::cmp::Reverse(
                id.chars()
                    .zip(typed.chars())
                    .take_while(|(a, b)| a == b)
                    .count(),
            )
        });
        closest.truncate(10);
        format!(
            "the id of one of the {} open artifacts, such as {}",
            ids.len(),
            quoted(&closest)
        )
    } else {
        format!("one of {}", quoted(ids))
    };
    match given {
        Some(other) => Err(ArtifactError::Call(format!(
            "{name}: `callId` must be {allowed} (got {other})"
        ))),
        None => Err(ArtifactError::Call(format!(
            "{name}: `callId` is required: {allowed}"
        ))),
    }
}

/// Checked arguments of one call.
pub(crate) struct Args<'v> {
    pub(crate) call_id: &'v str,
    pub(crate) values: &'v Map<String, Value>,
    ints: Vec<(&'static str, i64)>,
}

impl<'v> Args<'v> {
    pub(crate) fn check(spec: &Spec, ids: &[&str], args: &'v Value) -> Result<Self, ArtifactError> {
        let name = spec.name;
        let fail = |message: String| ArtifactError::Call(format!("{name}: {message}"));
        let Value::Object(map) = args else {
            return Err(fail("the arguments must be a JSON object".to_owned()));
        };
        for key in map.keys() {
            if key != "callId" && !spec.params.iter().any(|p| p.name() == key) {
                let allowed: Vec<String> = std::iter::once("callId")
                    .chain(spec.params.iter().map(Param::name))
                    .map(|n| format!("`{n}`"))
                    .collect();
                return Err(fail(format!(
                    "unknown argument `{key}`; the arguments are {}",
                    allowed.join(", ")
                )));
            }
        }
        let quoted = |ids: &[&str]| {
            ids.iter()
                .map(|i| format!("\"{i}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let call_id = call_id(name, ids, map)?;
        let mut ints = Vec::new();
        for param in spec.params {
            let value = map.get(param.name());
            match (param, value) {
                (
                    Param::Int {
                        name,
                        min,
                        max,
                        default,
                        ..
                    },
                    v,
                ) => {
                    let n = match v {
                        None | Some(Value::Null) => match default {
                            Some(d) => *d,
                            None => continue,
                        },
                        Some(Value::Number(n)) => n.as_i64().ok_or_else(|| {
                            fail(format!("`{name}` must be an integer (got {n})"))
                        })?,
                        Some(other) => {
                            return Err(fail(format!("`{name}` must be an integer (got {other})")));
                        }
                    };
                    if n < *min || n > *max {
                        let range = if *max == i64::MAX {
                            format!("at least {min}")
                        } else {
                            format!("between {min} and {max}")
                        };
                        return Err(fail(format!("`{name}` must be {range} (got {n})")));
                    }
                    ints.push((*name, n));
                }
                (
                    Param::Str {
                        name,
                        required,
                        max_len,
                        ..
                    },
                    v,
                ) => match v {
                    None | Some(Value::Null) if *required => {
                        return Err(fail(format!("`{name}` is required")));
                    }
                    None | Some(Value::Null) => {}
                    Some(Value::String(s)) if s.len() > *max_len => {
                        return Err(fail(format!(
                            "`{name}` is {} bytes; at most {max_len}",
                            s.len()
                        )));
                    }
                    Some(Value::String(_)) => {}
                    Some(other) => {
                        return Err(fail(format!("`{name}` must be a string (got {other})")));
                    }
                },
                (Param::Bool { name, .. }, v) => match v {
                    None | Some(Value::Null | Value::Bool(_)) => {}
                    Some(other) => {
                        return Err(fail(format!(
                            "`{name}` must be true or false (got {other})"
                        )));
                    }
                },
                (Param::Enum { name, values, .. }, v) => match v {
                    None | Some(Value::Null) => {}
                    Some(Value::String(s)) if s.is_empty() || values.contains(&s.as_str()) => {}
                    Some(other) => {
                        return Err(fail(format!(
                            "`{name}` must be one of {} (got {other})",
                            quoted(values)
                        )));
                    }
                },
            }
        }
        Ok(Self {
            call_id,
            values: map,
            ints,
        })
    }

    /// A boolean argument; `false` when omitted.
    pub(crate) fn bool(&self, name: &str) -> bool {
        self.values.get(name) == Some(&Value::Bool(true))
    }

    /// A non-negative integer argument (negative ones read as 0).
    pub(crate) fn int(&self, name: &str) -> Option<usize> {
        self.signed(name).map(|v| usize::try_from(v).unwrap_or(0))
    }

    /// An integer argument that may be negative.
    pub(crate) fn signed(&self, name: &str) -> Option<i64> {
        self.ints.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }

    /// A string argument; `""` is `None` where it means "omitted".
    pub(crate) fn str(&self, name: &str) -> Option<&'v str> {
        let s = self.values.get(name)?.as_str()?;
        let omitted_when_empty = SPECS.iter().flat_map(|s| s.params).any(|p| {
            matches!(p, Param::Str { name: n, empty_is_omitted: true, .. } if *n == name)
                || matches!(p, Param::Enum { name: n, .. } if *n == name)
        });
        (!(s.is_empty() && omitted_when_empty)).then_some(s)
    }
}
