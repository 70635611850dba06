//! What a `StreamingJson` reports, the wire types of `flexmd json
//! --stream`: `PathState`, `JsonPatchOp` (RFC 6902), `Cursor`,
//! `JsonUpdate`, `JsonStreamEnd`. A leaf of `stream/`: types and their
//! JSON, no reading.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::find::FoundJson;

/// How far a path of the partial value has been read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PathState {
    /// Its key is read but its value is not shown yet (a number, `true`,
    /// `null` or a bare word is shown only once it is complete).
    Pending,
    /// Shown and still growing: a string, object or array not closed yet.
    Partial,
    /// Complete: it will not change any more.
    Done,
}

/// One JSON Patch operation (RFC 6902), as [`StreamingJson`](crate::StreamingJson) sends them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum JsonPatchOp {
    /// A new value at `path` (`""` is the whole document; an array index
    /// equal to the array's length appends).
    Add {
        /// A JSON Pointer (RFC 6901).
        path: String,
        /// The value, as far as it is read.
        value: Value,
    },
    /// The value at `path` is now `value` (a string that grew, or what the
    /// end of the stream decided).
    Replace {
        /// A JSON Pointer (RFC 6901).
        path: String,
        /// The new value.
        value: Value,
    },
    /// The value at `path` is gone (only at the end of a stream).
    Remove {
        /// A JSON Pointer (RFC 6901).
        path: String,
    },
}

/// Where the reading is: the innermost path not complete yet. It and every
/// path above it are open; every other path of the value is done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Cursor {
    /// A JSON Pointer (RFC 6901).
    pub path: String,
    /// [`PathState::Partial`] (a string, object or array being written) or
    /// [`PathState::Pending`] (a key read, its value not shown yet). The
    /// paths above it are partial.
    pub state: PathState,
}

/// What one [`StreamingJson::push`](crate::StreamingJson::push) changed. As JSON (a line of `flexmd
/// json --stream`) it carries `"event": "update"` besides its fields.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(tag = "event", rename = "update")]
#[cfg_attr(feature = "schemars", schemars(transform = event_tag))]
pub struct JsonUpdate {
    /// The operations that turn the value before the push into the value
    /// after it, in order.
    pub patches: Vec<JsonPatchOp>,
    /// Paths completed by this push, innermost first.
    pub done: Vec<String>,
    /// Where the reading is after the push; `None` before a value starts
    /// and once it is complete (or the stream stopped reading it).
    pub cursor: Option<Cursor>,
    /// The stream has moved to another value (a later fence, which
    /// [`find_json`](crate::find_json) prefers): the patches start by replacing the whole
    /// document, and the growth guarantees start again from it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub restarted: bool,
}

/// Adds the `"event": "update"` serde writes (schemars leaves a struct's
/// tag out).
#[cfg(feature = "schemars")]
fn event_tag(schema: &mut schemars::Schema) {
    if let Some(properties) = schema
        .get_mut("properties")
        .and_then(serde_json::Value::as_object_mut)
    {
        properties.insert(
            "event".to_owned(),
            serde_json::json!({"const": "update", "description": "Always `update`."}),
        );
    }
    if let Some(required) = schema
        .get_mut("required")
        .and_then(serde_json::Value::as_array_mut)
    {
        required.insert(0, "event".into());
    }
}

impl JsonUpdate {
    /// Whether the push changed nothing.
    pub fn is_empty(&self) -> bool {
        self.patches.is_empty() && self.done.is_empty() && !self.restarted
    }
}

/// The end of a [`StreamingJson`](crate::StreamingJson).
#[derive(Debug, Clone, PartialEq)]
pub struct JsonStreamEnd {
    /// [`find_json`](crate::find_json) of the whole text: the value, where it was, its repairs.
    pub found: Option<FoundJson>,
    /// The operations that turn the last partial value into `found`'s
    /// value (`null` when nothing was found): what only the whole text
    /// decides, such as a number the text ends in, or repairs.
    pub patches: Vec<JsonPatchOp>,
}

impl JsonStreamEnd {
    /// The last line of `flexmd json --stream`: `{"event": "finished",
    /// "patches": [...], "value": ...}` (`value` is `null` when nothing was
    /// found), and with `with_found` the whole [`FoundJson`] as `found`.
    ///
    /// ```
    /// let mut stream = flexmd_detect::StreamingJson::new();
    /// stream.push("{\"a\": [1, 2");
    /// let end = stream.finish().finished_event(false);
    /// assert_eq!(
    ///     end,
    ///     serde_json::json!({"event": "finished",
    ///         "patches": [{"op": "add", "path": "/a/1", "value": 2}],
    ///         "value": {"a": [1, 2]}})
    /// );
    /// ```
    pub fn finished_event(&self, with_found: bool) -> Value {
        let mut event = Map::new();
        event.insert("event".to_owned(), Value::from("finished"));
        event.insert(
            "patches".to_owned(),
            serde_json::to_value(&self.patches).unwrap_or_default(),
        );
        event.insert(
            "value".to_owned(),
            self.found
                .as_ref()
                .map_or(Value::Null, |found| found.value.clone()),
        );
        if let (true, Some(found)) = (with_found, &self.found) {
            event.insert(
                "found".to_owned(),
                serde_json::to_value(found).unwrap_or_default(),
            );
        }
        Value::Object(event)
    }
}
