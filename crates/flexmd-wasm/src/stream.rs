//! Answers read while they stream in, for the package's
//! `StreamingExtractor` and `StreamingJson` classes: each method returns
//! one JSON text (the events `flexmd extract --stream` and `flexmd json
//! --stream` print as lines), offsets in UTF-16 units.

use flexmd_core::{OffsetUnit, TextOffsets};
use flexmd_ofs::OutputFormatSpec;
use serde::Deserialize;
use serde_json::Value;

use crate::api::{BindingError, Outcome, from_json, read_spec, to_value};

fn finished_error() -> BindingError {
    BindingError {
        name: "FlexmdError",
        code: "stream::finished".to_owned(),
        message: "the stream is finished: start another to read another answer".to_owned(),
        details: None,
    }
}

/// Options of a `StreamingExtractor`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct ExtractorOptions {
    /// Warnings count as errors in the final report.
    strict: bool,
    /// The final result as the plain object keyed by section name.
    as_json: bool,
    /// Read lists in prose sections too.
    lists_in_prose: bool,
}

/// An answer checked and extracted along a spec while it streams in.
pub(crate) struct Extractor {
    spec: OutputFormatSpec,
    strict: bool,
    as_json: bool,
    stream: Option<flexmd_ofs::StreamingExtractor>,
}

impl Extractor {
    /// A stream over `spec` (Markdown block or OutputFormatSpec JSON).
    pub(crate) fn new(spec: &str, options: &str) -> Result<Self, BindingError> {
        let options: ExtractorOptions = from_json("StreamingExtractor options", options)?;
        let spec = read_spec(spec)?;
        let extract = flexmd_ofs::ExtractOptions {
            lists_in_prose: options.lists_in_prose,
        };
        let stream = flexmd_ofs::StreamingExtractor::with_options(&spec, &extract);
        Ok(Self {
            spec,
            strict: options.strict,
            as_json: options.as_json,
            stream: Some(stream),
        })
    }

    /// The events the next piece settled.
    pub(crate) fn push(&mut self, text: &str) -> Outcome {
        let stream = self.stream.as_mut().ok_or_else(finished_error)?;
        let mut events: Vec<flexmd_ofs::StreamEvent> = stream.push(text).collect();
        // Only violations carry offsets, into the whole answer so far.
        if events
            .iter()
            .any(|e| matches!(e, flexmd_ofs::StreamEvent::Violation(_)))
        {
            let offsets = TextOffsets::utf16(stream.text());
            events.iter_mut().for_each(|e| e.reindex(&offsets));
        }
        to_value(&events)
    }

    /// The last events, then `finished` with the report and the result.
    pub(crate) fn finish(&mut self) -> Outcome {
        let stream = self.stream.take().ok_or_else(finished_error)?;
        let mut end = stream.finish();
        if self.strict {
            end.report = end.report.into_strict();
        }
        end.reindex(OffsetUnit::Utf16);
        let mut events: Vec<Value> = end
            .events
            .iter()
            .map(|e| serde_json::to_value(e).unwrap_or_default())
            .collect();
        events.push(end.finished_event(&self.spec, self.as_json));
        Ok(Value::Array(events))
    }

    /// Everything pushed so far.
    pub(crate) fn text(&self) -> Outcome {
        let stream = self.stream.as_ref().ok_or_else(finished_error)?;
        Ok(Value::String(stream.text().to_owned()))
    }

    /// A prompt asking the model to write a violation's section again
    /// (`null` for an issue of no section).
    pub(crate) fn correction(&self, issue: &str) -> Outcome {
        let issue: flexmd_ofs::Issue = from_json("issue", issue)?;
        Ok(flexmd_ofs::section_correction(&self.spec, &issue).map_or(Value::Null, Value::String))
    }
}

/// The JSON in an answer, read while it streams in.
#[derive(Default)]
pub(crate) struct Json {
    stream: Option<flexmd_detect::StreamingJson>,
}

impl Json {
    /// A stream before any text.
    pub(crate) fn new() -> Self {
        Self {
            stream: Some(flexmd_detect::StreamingJson::new()),
        }
    }

    /// The `update` the next piece made, or `null` when nothing changed.
    pub(crate) fn push(&mut self, text: &str) -> Outcome {
        let stream = self.stream.as_mut().ok_or_else(finished_error)?;
        let update = stream.push(text);
        if update.is_empty() {
            return Ok(Value::Null);
        }
        to_value(&update)
    }

    /// The partial value so far (`null` before it starts).
    pub(crate) fn value(&self) -> Outcome {
        let stream = self.stream.as_ref().ok_or_else(finished_error)?;
        Ok(stream.value().cloned().unwrap_or(Value::Null))
    }

    /// `pending`, `partial` or `done` for a JSON Pointer; `null` for a
    /// path not there.
    pub(crate) fn state(&self, pointer: &str) -> Outcome {
        let stream = self.stream.as_ref().ok_or_else(finished_error)?;
        to_value(&stream.state(pointer))
    }

    /// The `finished` event: `value` is what `findJson` gives for the
    /// whole text, with `found` (offsets in UTF-16 units) when `repairs`.
    pub(crate) fn finish(&mut self, repairs: bool) -> Outcome {
        let stream = self.stream.take().ok_or_else(finished_error)?;
        let text = stream.text().to_owned();
        let mut end = stream.finish();
        if let Some(found) = &mut end.found {
            found.reindex(&TextOffsets::utf16(&text));
        }
        Ok(end.finished_event(repairs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_streams_as_the_cli_prints_it() {
        let mut stream =
            Extractor::new("- Summary — prose\n- Risks — list\n", "{\"asJson\": true}")
                .unwrap_or_else(|e| panic!("{}", e.message));
        let events = stream
            .push("## Summary\nFine 😀.\n## Risks\n- a\n")
            .unwrap_or_default();
        let names: Vec<&str> = events
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|e| e["event"].as_str())
            .collect();
        assert_eq!(
            names,
            [
                "section_started",
                "section_delta",
                "section_completed",
                "section_started",
                "section_delta"
            ]
        );
        let end = stream.finish().unwrap_or_default();
        let last = end
            .as_array()
            .and_then(|a| a.last())
            .cloned()
            .unwrap_or_default();
        assert_eq!(
            last["result"],
            serde_json::json!({"Summary": "Fine 😀.", "Risks": ["a"]})
        );
        assert_eq!(
            stream.push("more").map_err(|e| e.code),
            Err("stream::finished".to_owned())
        );
    }

    #[test]
    fn json_grows_and_finishes() {
        let mut stream = Json::new();
        let update = stream.push("Sure: {\"title\": \"Cach").unwrap_or_default();
        assert_eq!(
            update["patches"],
            serde_json::json!([{"op": "add", "path": "", "value": {"title": "Cach"}}])
        );
        assert_eq!(stream.state("/title").unwrap_or_default(), "partial");
        assert_eq!(stream.push("").unwrap_or_default(), Value::Null);
        let end = stream.finish(true).unwrap_or_default();
        assert_eq!(end["value"], serde_json::json!({"title": "Cach"}));
        assert_eq!(end["found"]["start"], 6);
    }
}
