//! References inside one schema (`#`, `#/$defs/NAME`, any JSON Pointer).

use serde_json::{Map, Value};

/// The schema `reference` points to inside `root`, and its JSON Pointer
/// (`""` for the root); `None` for a reference outside the schema or to
/// nothing.
pub(crate) fn resolve_local<'a>(root: &'a Value, reference: &str) -> Option<(&'a Value, String)> {
    let fragment = reference.strip_prefix('#')?;
    let pointer = percent_decode(fragment)?;
    if !pointer.is_empty() && !pointer.starts_with('/') {
        // `#name`: an anchor; not followed.
        return None;
    }
    root.pointer(&pointer).map(|target| (target, pointer))
}

/// A schema with its `$ref` chain followed (at most 32 steps), not
/// converted; an error names the place and why.
pub(crate) fn follow(root: &Value, node: &Value, pointer: &str) -> Result<Value, (String, String)> {
    let mut node = node.clone();
    for _ in 0..32 {
        let Some(reference) = node.get("$ref").and_then(Value::as_str) else {
            return Ok(node);
        };
        let (target, _) = resolve_local(root, reference).ok_or_else(|| {
            (
                pointer.to_owned(),
                format!("`$ref` `{reference}` does not resolve inside the schema"),
            )
        })?;
        node = target.clone();
    }
    Err((
        pointer.to_owned(),
        "a chain of more than 32 `$ref`s".to_owned(),
    ))
}

/// `allOf` and the keywords beside it (`map`), merged into one schema:
/// properties and required joined, any other keyword equal in every branch.
/// An error names the branch and the keyword they disagree on.
pub(crate) fn merge_all_of(
    root: &Value,
    map: &Map<String, Value>,
    all_of: &Value,
    pointer: &str,
) -> Result<Map<String, Value>, (String, String)> {
    let Some(branches) = all_of.as_array() else {
        return Err((
            format!("{pointer}/allOf"),
            "`allOf` is not an array".to_owned(),
        ));
    };
    let mut merged: Map<String, Value> = map
        .iter()
        .filter(|(k, _)| k.as_str() != "allOf")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    for (i, branch) in branches.iter().enumerate() {
        let at = format!("{pointer}/allOf/{i}");
        let branch = follow(root, branch, &at)?;
        let Value::Object(branch) = branch else {
            if branch == Value::Bool(true) {
                continue;
            }
            return Err((
                at,
                "an `allOf` branch that is not an object schema".to_owned(),
            ));
        };
        for (k, v) in branch {
            match (k.as_str(), merged.get_mut(&k)) {
                (_, None) => {
                    merged.insert(k, v);
                }
                ("properties", Some(Value::Object(mine))) => {
                    let Value::Object(theirs) = v else { continue };
                    for (name, schema) in theirs {
                        if let Some(existing) = mine.get(&name)
                            && *existing != schema
                        {
                            return Err((
                                at,
                                format!(
                                    "`allOf` branches give property `{name}` two different schemas; merge them by hand"
                                ),
                            ));
                        }
                        mine.insert(name, schema);
                    }
                }
                ("required", Some(Value::Array(mine))) => {
                    for name in v.as_array().into_iter().flatten() {
                        if !mine.contains(name) {
                            mine.push(name.clone());
                        }
                    }
                }
                ("description" | "title" | "$defs" | "definitions", Some(_)) => {}
                (_, Some(existing)) if *existing == v => {}
                (_, Some(_)) => {
                    return Err((
                        at,
                        format!("`allOf` branches disagree on `{k}`; merge them by hand"),
                    ));
                }
            }
        }
    }
    Ok(merged)
}

/// `%xx` escapes decoded (a URI fragment may carry them); `None` when the
/// result is not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = |j: usize| bytes.get(j).and_then(|c| (*c as char).to_digit(16));
        if b == b'%'
            && let (Some(hi), Some(lo)) = (hex(i + 1), hex(i + 2))
        {
            out.push(u8::try_from(hi * 16 + lo).ok()?);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A JSON Pointer token: `~` as `~0`, `/` as `~1`.
pub(crate) fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// A JSON Pointer token read back.
pub(crate) fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn references_resolve_inside_the_schema_only() {
        let root = json!({"$defs": {"a/b": {"type": "string"}, "n": {"type": "integer"}}});
        assert_eq!(
            resolve_local(&root, "#/$defs/n").map(|(v, p)| (v.clone(), p)),
            Some((json!({"type": "integer"}), "/$defs/n".to_owned()))
        );
        assert_eq!(
            resolve_local(&root, "#/$defs/a~1b").map(|(v, _)| v.clone()),
            Some(json!({"type": "string"}))
        );
        assert_eq!(
            resolve_local(&root, "#/%24defs/n").map(|(_, p)| p),
            Some("/$defs/n".to_owned())
        );
        assert_eq!(
            resolve_local(&root, "#").map(|(_, p)| p),
            Some(String::new())
        );
        assert!(resolve_local(&root, "other.json#/x").is_none());
        assert!(resolve_local(&root, "#/$defs/missing").is_none());
        assert!(resolve_local(&root, "#anchor").is_none());
        assert_eq!(escape("a/b~c"), "a~1b~0c");
        assert_eq!(unescape("a~1b~0c"), "a/b~c");
    }
}
