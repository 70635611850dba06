//! JSON Patch (RFC 6902) between two values, with JSON Pointer (RFC 6901)
//! paths: what one push changed. A leaf of `stream/`.

use serde_json::Value;

use crate::stream::event::JsonPatchOp;

/// The patches that turn `old` into `new`, for the value at `path`.
pub(crate) fn diff(old: &Value, new: &Value, path: &mut String, out: &mut Vec<JsonPatchOp>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            for key in a.keys().filter(|k| !b.contains_key(*k)) {
                out.push(JsonPatchOp::Remove {
                    path: format!("{path}/{}", escape_token(key)),
                });
            }
            for (key, value) in b {
                let len = path.len();
                path.push('/');
                path.push_str(&escape_token(key));
                match a.get(key) {
                    Some(old) => diff(old, value, path, out),
                    None => out.push(JsonPatchOp::Add {
                        path: path.clone(),
                        value: value.clone(),
                    }),
                }
                path.truncate(len);
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for i in (b.len()..a.len()).rev() {
                out.push(JsonPatchOp::Remove {
                    path: format!("{path}/{i}"),
                });
            }
            for (i, value) in b.iter().enumerate() {
                let len = path.len();
                path.push('/');
                path.push_str(&i.to_string());
                match a.get(i) {
                    Some(old) => diff(old, value, path, out),
                    None => out.push(JsonPatchOp::Add {
                        path: path.clone(),
                        value: value.clone(),
                    }),
                }
                path.truncate(len);
            }
        }
        _ if old == new => {}
        _ => out.push(JsonPatchOp::Replace {
            path: path.clone(),
            value: new.clone(),
        }),
    }
}

/// A JSON Pointer reference token: `~` → `~0`, `/` → `~1`.
pub(crate) fn escape_token(key: &str) -> String {
    if key.contains(['~', '/']) {
        key.replace('~', "~0").replace('/', "~1")
    } else {
        key.to_owned()
    }
}
