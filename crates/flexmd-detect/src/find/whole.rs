//! An answer that is one JSON value, as a whole or after a short lead
//! (README rule 2).

use flexmd_core::{MAX_JSON_VALUES, json_values_exceed};
use serde_json::Value;

use crate::find::found::{FoundJson, JsonSource, Pick, found_at};
use crate::ladder::{JsonMethod, Leniency, StrictFailure, parse_after_strict, parse_within};
use crate::repair::blank_len;

/// The whole text as one value: strict JSON of any kind, or, when it
/// starts like JSON (after blanks and comments: a bracket, a quote, an
/// escaped quote, a call such as `callback(`), repaired.
pub(crate) fn whole_value(text: &str) -> Option<FoundJson> {
    let strict = match whole_strict(text) {
        Ok(whole) => return Some(whole),
        Err(strict) => strict,
    };
    let lead = lead_len(text);
    let trimmed = text.get(lead..).unwrap_or_default().trim_end();
    let (blank, _) = blank_len(trimmed);
    let head = trimmed.get(blank..).unwrap_or_default();
    let word = head
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '.')))
        .unwrap_or(head.len());
    let call = word > 0
        && head
            .get(word..)
            .is_some_and(|r| r.trim_start_matches([' ', '\t']).starts_with('('));
    let starts_like_json =
        head.starts_with(['{', '[', '"', '\'', '“', '‘']) || head.starts_with("\\\"") || call;
    if !starts_like_json {
        return None;
    }
    let parsed = match strict {
        // Strict JSON has had its say on this text (trailing blanks aside).
        Some(strict) => parse_after_strict(
            trimmed,
            Leniency::Repair,
            MAX_JSON_VALUES,
            None,
            Some(strict),
        ),
        None => parse_within(trimmed, Leniency::Repair, MAX_JSON_VALUES),
    }
    .ok()?
    .0;
    let mut found = found_at(lead, lead + trimmed.len(), parsed);
    found.pick = Some(Pick::WholeText);
    Some(found)
}

/// The length of what comes before a text's first character of content: a
/// byte order mark, then whitespace.
pub(crate) fn lead_len(text: &str) -> usize {
    let bom = flexmd_core::bom_len(text.as_bytes());
    let rest = text.get(bom..).unwrap_or_default();
    bom + rest.len() - rest.trim_start().len()
}

/// The fast path: the whole text is one strict JSON value. Else how
/// strict JSON failed on it (`None`: not tried).
pub(crate) fn whole_strict(text: &str) -> Result<FoundJson, Option<StrictFailure>> {
    let start = lead_len(text);
    let trimmed = text.get(start..).unwrap_or_default();
    if !trimmed
        .starts_with(|c: char| matches!(c, '{' | '[' | '"' | '-' | 't' | 'f' | 'n' | '0'..='9'))
    {
        return Err(None);
    }
    if json_values_exceed(trimmed, MAX_JSON_VALUES).is_some() {
        return Err(None);
    }
    let mut values = serde_json::Deserializer::from_str(trimmed).into_iter::<Value>();
    let value = match values.next() {
        Some(Ok(value)) => value,
        Some(Err(e)) => return Err(Some(StrictFailure::of(&e))),
        None => return Err(Some(StrictFailure::Truncated)),
    };
    let rest = trimmed.get(values.byte_offset()..).unwrap_or_default();
    let rest = rest.trim_start();
    if !rest.is_empty() {
        // A comment after the value is JSON5; other text is not.
        return Err(Some(if rest.starts_with('/') {
            StrictFailure::Other
        } else {
            StrictFailure::TrailingText
        }));
    }
    Ok(FoundJson {
        value,
        start,
        end: text.trim_end().len(),
        source: JsonSource::Prose,
        lang: None,
        method: JsonMethod::Strict,
        repairs: Vec::new(),
        pick: Some(Pick::WholeText),
        in_reasoning: false,
        template: false,
    })
}
