//! JSON Pointers and elsabro's dotted paths: a key escaped as a pointer
//! segment, a pointer written as `files.[0].purpose`. A leaf: it imports
//! nothing of the crate.

use serde_json::Value;

/// A key as a JSON Pointer segment.
pub(crate) fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// elsabro's dotted path for a JSON Pointer: `/files/0/purpose` →
/// `files.[0].purpose`. A segment of digits is an index only where the
/// instance holds an array.
pub(crate) fn dotted_path(instance: &Value, pointer: &str) -> String {
    let mut out = String::new();
    let mut node = Some(instance);
    for raw in pointer.split('/').skip(1) {
        let segment = raw.replace("~1", "/").replace("~0", "~");
        if !out.is_empty() {
            out.push('.');
        }
        match node {
            Some(Value::Array(items)) => {
                out.push('[');
                out.push_str(&segment);
                out.push(']');
                node = segment.parse::<usize>().ok().and_then(|i| items.get(i));
            }
            Some(Value::Object(map)) => {
                node = map.get(&segment);
                out.push_str(&segment);
            }
            _ => {
                node = None;
                out.push_str(&segment);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dotted_paths_as_the_seed_prints_them() {
        let v = json!({"files": [{"purpose": 1}], "a/b": {"0": 2}});
        assert_eq!(dotted_path(&v, "/files/0/purpose"), "files.[0].purpose");
        assert_eq!(dotted_path(&v, "/a~1b/0"), "a/b.0");
        assert_eq!(dotted_path(&v, ""), "");
    }
}
