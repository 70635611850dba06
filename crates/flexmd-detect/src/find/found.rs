//! What finding JSON returns: [`FoundJson`] (the value, where it was, how
//! it was read), [`JsonSource`] and [`Pick`], and the helpers every tier
//! uses to build one. A leaf of `find/`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ladder::{JsonMethod, ParsedJson};
use crate::repair::{Lenient, Repair, RepairKind};
use crate::repair_kind::shift;

/// Where a found value was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum JsonSource {
    /// In a fenced block labeled as JSON (`json`, `json5`, `jsonc`, `jsonl`,
    /// `ndjson`, any case).
    JsonFence,
    /// In an unlabeled fence, or one labeled `javascript`, `js`,
    /// `typescript` or `ts`; or in a fence of another language whose whole
    /// content is one object or array written as data (JSON, JSON5, or a
    /// literal with Python's spellings).
    CodeFence,
    /// In the text around fences (never inside a fence of another
    /// language: CSS rules, shell `{}` or a Python assignment are code).
    Prose,
}

/// A JSON value found in a text by [`find_json`](crate::find_json) or [`find_all_json`](crate::find_all_json).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct FoundJson {
    /// The value.
    pub value: Value,
    /// Byte offset where its text starts.
    pub start: usize,
    /// Byte offset just after its text.
    pub end: usize,
    /// Where it was found.
    pub source: JsonSource,
    /// The fence's language as written, for values in a fence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// The ladder step that read it.
    pub method: JsonMethod,
    /// What was changed to read it, with offsets into the searched text.
    pub repairs: Vec<Repair>,
    /// Why [`find_json`](crate::find_json) chose this value (`None` from [`find_all_json`](crate::find_all_json)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pick: Option<Pick>,
    /// The value is inside a reasoning block (`<think>…</think>`): a draft,
    /// not the answer.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub in_reasoning: bool,
    /// The value is an unfilled template: every value in it is a
    /// placeholder (`...`, `<number>`, `TODO`, type names such as
    /// `"string"`). [`find_json`](crate::find_json) never returns one; [`find_all_json`](crate::find_all_json) lists
    /// them with this set.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub template: bool,
}

impl FoundJson {
    /// Moves `start`, `end` and every repair's offset into `offsets`' unit
    /// (a binding's string indices: code points for Python, UTF-16 units
    /// for JavaScript), so `text[start:end]` is the value's text there.
    ///
    /// ```
    /// use flexmd_core::TextOffsets;
    /// let text = "Voilà : {\"a\": 1,}";
    /// let mut found = flexmd_detect::find_json(text).unwrap();
    /// found.reindex(&TextOffsets::code_points(text));
    /// let chars: Vec<char> = text.chars().collect();
    /// assert_eq!(chars[found.start..found.end].iter().collect::<String>(), "{\"a\": 1,}");
    /// ```
    pub fn reindex(&mut self, offsets: &flexmd_core::TextOffsets<'_>) {
        self.start = offsets.index(self.start);
        self.end = offsets.index(self.end);
        for repair in &mut self.repairs {
            repair.offset = offsets.index(repair.offset);
        }
    }
}

/// Why [`find_json`](crate::find_json) chose the value it returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Pick {
    /// The whole answer (outside reasoning) is the value.
    WholeText,
    /// The last fence whose value is complete (a draft fence followed by a
    /// final one gives the final one): JSON-labeled fences first, then
    /// unlabeled or JavaScript ones.
    LastCompleteFence,
    /// No fence holds a complete value: the last one.
    LastFence,
    /// The last complete object or array in the prose (a draft followed by
    /// its correction gives the correction); else the last one.
    Prose,
    /// The first complete value after the last label that marks a final
    /// value (`Final answer:`, `Corrected:`, `Here is the final JSON`, `no
    /// wait`), before any other rule: a fence or a value in the prose.
    AfterLabel,
    /// Nothing outside reasoning blocks: the value inside one.
    Reasoning,
}

/// `parsed` (read again from the part of the text that `lenient` read, at
/// `start`) with the cut at the bound on values that `lenient` made: the
/// second reading sees only the text cut short.
pub(crate) fn with_limit(mut parsed: ParsedJson, lenient: &Lenient, start: usize) -> ParsedJson {
    if let Some(cut) = lenient
        .repairs
        .iter()
        .find(|r| r.kind == RepairKind::ValueLimit)
    {
        parsed.repairs.push(Repair {
            kind: RepairKind::ValueLimit,
            offset: cut.offset.saturating_sub(start),
        });
    }
    parsed
}

/// A value parsed from `text[start..end]`, with repair offsets made
/// relative to `text`.
pub(crate) fn found_at(start: usize, end: usize, parsed: ParsedJson) -> FoundJson {
    FoundJson {
        value: parsed.value,
        start,
        end,
        source: JsonSource::Prose,
        lang: None,
        method: parsed.method,
        repairs: shift(parsed.repairs, |at| start + at),
        pick: None,
        in_reasoning: false,
        template: false,
    }
}

/// Whether a value was read from JSON Lines (its records as one array).
pub(crate) fn is_json_lines(repairs: &[Repair]) -> bool {
    repairs.iter().any(|r| r.kind == RepairKind::JsonLines)
}
