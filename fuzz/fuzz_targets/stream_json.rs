//! The JSON stream on any text cut anywhere: never a panic; between pushes
//! the partial value only grows (strings grow, nothing else changes or
//! goes) unless the stream restarted; its end is `find_json` of the text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn grows(old: &Value, new: &Value) -> bool {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            a.iter().all(|(k, v)| b.get(k).is_some_and(|w| grows(v, w)))
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len() && a.iter().zip(b).all(|(v, w)| grows(v, w))
        }
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        _ => old == new,
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&seed, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let mut stream = flexmd_detect::StreamingJson::new();
    let mut shown: Option<Value> = None;
    let mut at = 0;
    let mut state = u32::from(seed) | 1;
    while at < text.len() {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let mut end = (at + 1 + (state >> 16) as usize % 16).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let update = stream.push(&text[at..end]);
        let now = stream.value().cloned();
        if let (Some(old), Some(new), false) = (&shown, &now, update.restarted) {
            assert!(grows(old, new), "{old} then {new}");
        }
        shown = now;
        at = end;
    }
    let end = stream.finish();
    assert_eq!(end.found, flexmd_detect::find_json(text));
});
