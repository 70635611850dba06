//! Where the JSON in an answer is: [`find_json`] (the one value a caller
//! wants) and [`find_all_json`] (every value), trying the places in the
//! order the crate README gives them:
//!
//! 1. reasoning blocks (`<think>…</think>`) are left out — `reasoning.rs`;
//! 2. an answer that is one value, or JSON Lines — `whole.rs`;
//! 3. fenced code blocks, JSON ones first, and one-line fences — `fenced.rs`;
//! 4. values in prose, after a label such as "Final answer:" first —
//!    `prose.rs`.
//!
//! `found.rs` holds what every tier returns (`FoundJson`, `JsonSource`,
//! `Pick`). Each value is read with the ladder (`crate::ladder`).

mod fenced;
mod found;
mod prose;
mod reasoning;
mod whole;

use flexmd_core::MAX_JSON_VALUES;
use serde_json::Value;

use crate::fence::{Fence, fences};
use crate::find::fenced::{
    InlineFence, fence_source, fence_values, inline_fences, inline_value, prose_regions,
};
use crate::find::found::is_json_lines;
use crate::find::prose::{closing_end, first_object, prose_values};
use crate::find::reasoning::{blank_out, reasoning_blocks};
use crate::find::whole::{lead_len, whole_value};
use crate::ladder::{JsonMethod, Leniency, parse_json};
use crate::repair::{Repair, RepairKind};

pub use found::{FoundJson, JsonSource, Pick};

/// The best JSON value in `text`. `None` when there is none.
///
/// Reasoning blocks (`<think>`, `<thinking>`, `<reasoning>`,
/// `<scratchpad>` at the start of a line, closed or not) are skipped, and
/// so is everything before a closing tag with none open (`</think>`
/// starting or ending its line: the chat template wrote the opening tag); a
/// value inside reasoning is returned only when there is nothing else
/// (`in_reasoning` is then set).
/// Outside them, in this order:
/// 1. the whole text, when it is one value (strict, or repaired when it
///    starts like JSON: a bracket, a quote, an escaped quote, a call);
/// 2. the first complete value, in a fence or in the prose, after the last
///    label that marks a final value (`Final answer:`, `Corrected:`, `Here
///    is the final JSON`, `no wait`, `Actually,`);
/// 3. the last complete value among the fences labeled as JSON (a draft
///    fence followed by a final one gives the final one), one-line fences
///    (`` ```json {...}``` `` in a sentence) included; else the last one;
/// 4. the same among unlabeled and JavaScript fences;
/// 5. the same among the objects and arrays in the prose that hold
///    something (a member; an element that is a string, array or object)
///    and look like data (a quote, colon or comma in it; with nothing
///    quoted, no spaces in its strings), so `[1]`, `[citation needed]`,
///    `{braces}` or `{k: v for k in ks}` in a sentence are not taken for
///    JSON; else the first empty object.
///
/// An unfilled template — every value a placeholder (`...`, `<number>`,
/// `TODO`, type names such as `"string"`) — is no answer: a real value
/// elsewhere wins, and with only templates there is none ([`not_json`]
/// says a template was seen).
/// JSON Lines (two or more objects, or arrays, each alone on its line) are
/// read as one array of the records, with a [`RepairKind::JsonLines`]
/// repair; a value found that is a string holding a whole JSON document is
/// that document ([`RepairKind::DoubleEncoded`]). [`FoundJson::pick`] says which rule chose the value. A value of more
/// than [`MAX_JSON_VALUES`] values is read up to that bound and carries a
/// [`RepairKind::ValueLimit`] repair.
///
/// ```
/// use flexmd_detect::{JsonSource, Pick, find_json};
/// use serde_json::json;
///
/// let answer = "Sure! Here it is:\n\n```json\n{\"name\": \"Ada\", \"langs\": [\"en\", \"fr\",]}\n```\n";
/// let found = find_json(answer).unwrap();
/// assert_eq!(found.value, json!({"name": "Ada", "langs": ["en", "fr"]}));
/// assert_eq!((found.source, found.pick), (JsonSource::JsonFence, Some(Pick::LastCompleteFence)));
/// assert_eq!(&answer[found.start..found.end], "{\"name\": \"Ada\", \"langs\": [\"en\", \"fr\",]}");
///
/// let thinking = "<think>Maybe {\"n\": 1}?</think>\n{\"n\": 2}";
/// assert_eq!(find_json(thinking).unwrap().value, json!({"n": 2}));
/// let opened_by_the_template = "Maybe {\"n\": 1}? No.\n</think>\n\n{\"n\": 2}";
/// assert_eq!(find_json(opened_by_the_template).unwrap().value, json!({"n": 2}));
///
/// assert!(find_json("Use {braces} for [citation needed] [1].").is_none());
///
/// let corrected = "Draft: {\"n\": 1}\nNo wait, the final answer: {\"n\": 2}. (Was {\"n\": 1}.)";
/// let found = find_json(corrected).unwrap();
/// assert_eq!((found.value, found.pick), (json!({"n": 2}), Some(Pick::AfterLabel)));
/// ```
pub fn find_json(text: &str) -> Option<FoundJson> {
    let reasoning = reasoning_blocks(text);
    if reasoning.is_empty() {
        return find_in(text, &[]).map(decoded);
    }
    if let Some(found) = find_in(&blank_out(text, &reasoning), &reasoning) {
        return Some(decoded(found));
    }
    // Only reasoning holds JSON: read it by the same rules.
    let outside = complement(&reasoning, text.len());
    let mut found = find_in(&blank_out(text, &outside), &outside)?;
    found.pick = Some(Pick::Reasoning);
    found.in_reasoning = true;
    Some(decoded(found))
}

/// A found string that holds a whole JSON document (an object or array, as
/// strict JSON or JSON5: double-encoded tool arguments) as that document,
/// reported as [`RepairKind::DoubleEncoded`] at the string; anything else
/// as it is.
pub(crate) fn decoded(mut found: FoundJson) -> FoundJson {
    let Value::String(inner) = &found.value else {
        return found;
    };
    let inner = inner.trim();
    let bracketed = (inner.starts_with('{') && inner.ends_with('}'))
        || (inner.starts_with('[') && inner.ends_with(']'));
    if !bracketed {
        return found;
    }
    if let Ok(document) = parse_json(inner, Leniency::Json5) {
        found.value = document.value;
        found.method = JsonMethod::Repaired;
        found.repairs.push(Repair {
            kind: RepairKind::DoubleEncoded,
            offset: found.start,
        });
    }
    found
}

/// Whether a value overlaps one of the reasoning blocks (it was read from
/// blanked text, and is not what the model wrote).
pub(crate) fn overlaps(found: &FoundJson, blocks: &[std::ops::Range<usize>]) -> bool {
    blocks
        .iter()
        .any(|b| found.start < b.end && b.start < found.end.max(found.start + 1))
}

/// [`find_json`] on a text whose reasoning `blocks` are blanked out; values
/// that overlap them do not count.
pub(crate) fn find_in(text: &str, blocks: &[std::ops::Range<usize>]) -> Option<FoundJson> {
    // A template (placeholders for values) is no answer, wherever it is.
    let outside = |f: &FoundJson| !overlaps(f, blocks) && !is_template(&f.value);
    // JSON Lines are read record by record below, as find_all_json lists
    // them, so both agree on what a record is.
    let whole = whole_value(text).filter(|w| !overlaps(w, blocks));
    let whole_template = whole
        .as_ref()
        .filter(|w| is_template(&w.value))
        .map(|w| w.start..w.end);
    if let Some(whole) = whole.filter(outside).filter(|w| !is_json_lines(&w.repairs)) {
        return Some(whole);
    }
    let mut found = find_after_whole(text, &outside, whole_template)?;
    // The answer opens a value that could not be read whole: a value found
    // inside it is only a part, and says so.
    let lead = lead_len(text);
    if matches!(text.as_bytes().get(lead), Some(b'{' | b'[')) {
        let outer_end = closing_end(text, lead);
        if found.start > lead && found.end <= outer_end && found.source == JsonSource::Prose {
            found.repairs.insert(
                0,
                Repair {
                    kind: RepairKind::PartOfValue,
                    offset: found.start,
                },
            );
        }
    }
    Some(found)
}

/// [`find_in`] past the whole-text rule.
/// `whole_template`: the whole text is a template, read from there.
pub(crate) fn find_after_whole(
    text: &str,
    outside: &dyn Fn(&FoundJson) -> bool,
    whole_template: Option<std::ops::Range<usize>>,
) -> Option<FoundJson> {
    let fences = fences(text);
    let inline = inline_fences(text, &fences);
    let regions = prose_regions(text, &fences, &inline);
    let (mut left, mut most) = (MAX_JSON_VALUES, PROSE_VALUES_READ);
    let (templates, prose): (Vec<FoundJson>, Vec<FoundJson>) = regions
        .iter()
        .flat_map(|&(start, end)| prose_values(text, start, end, &mut most, &mut left))
        .partition(|p| is_template(&p.value));
    let prose: Vec<FoundJson> = prose.into_iter().filter(|p| outside(p)).collect();
    // The last resort (an empty object) is never one inside a template.
    let in_template = |f: &FoundJson| {
        whole_template
            .as_ref()
            .is_some_and(|t| t.contains(&f.start))
            || templates
                .iter()
                .any(|t| t.start <= f.start && f.start < t.end)
    };
    if let Some(found) = after_label(text, &fences, &inline, &regions, &prose, &outside) {
        return Some(found);
    }
    for tier in [JsonSource::JsonFence, JsonSource::CodeFence] {
        // The fences of this tier, block and one-line, last first: the first
        // complete value wins; the last value when none is complete.
        let mut spans: Vec<(usize, Option<&Fence>, Option<&InlineFence>)> = fences
            .iter()
            .filter(|f| fence_source(f) == Some(tier))
            .map(|f| (f.start, Some(f), None))
            .chain(
                inline
                    .iter()
                    .filter(|f| f.source == tier)
                    .map(|f| (f.start, None, Some(f))),
            )
            .collect();
        spans.sort_unstable_by_key(|s| std::cmp::Reverse(s.0));
        let mut last = None;
        for (_, block, one_line) in spans {
            let (value, closed) = match (block, one_line) {
                (Some(f), _) => {
                    // Records one per line are JSON Lines: all of them.
                    let values = fence_values(f, tier, &mut { MAX_JSON_VALUES });
                    let value = match json_lines(text, &values) {
                        Some(records) => Some(records),
                        None => values.into_iter().next(),
                    };
                    (value, f.closed)
                }
                (None, Some(f)) => (inline_value(text, f, &mut { MAX_JSON_VALUES }), true),
                (None, None) => (None, false),
            };
            let Some(mut value) = value.filter(|v| outside(v)) else {
                continue;
            };
            if closed && !value.repairs.iter().any(|r| r.kind.is_truncation()) {
                value.pick = Some(Pick::LastCompleteFence);
                return Some(value);
            }
            if last.is_none() {
                value.pick = Some(Pick::LastFence);
                last = Some(value);
            }
        }
        if last.is_some() {
            return last;
        }
    }
    // The last complete value in the prose (a draft then its correction
    // gives the correction, as fences do); else the last one. A value that
    // is a record of JSON Lines gives all the records of its run.
    let chosen = prose
        .iter()
        .rposition(|p| !truncated(p))
        .or_else(|| prose.len().checked_sub(1));
    chosen
        .and_then(|i| {
            let run = records_around(text, &prose, i);
            json_lines(text, prose.get(run.clone())?).or_else(|| prose.get(i).cloned())
        })
        .or_else(|| {
            regions
                .iter()
                .filter_map(|&(start, end)| first_object(text, start, end))
                .find(|f| outside(f) && !in_template(f))
        })
        .map(|mut p| {
            p.pick = Some(Pick::Prose);
            p
        })
}

/// The run of JSON Lines records around `values[i]`: the values next to
/// it, each alone on its lines, with nothing but line breaks and blanks
/// between them (just `i..i + 1` when it is no record).
pub(crate) fn records_around(text: &str, values: &[FoundJson], i: usize) -> std::ops::Range<usize> {
    let adjacent = |a: &FoundJson, b: &FoundJson| {
        alone_on_lines(text, a)
            && alone_on_lines(text, b)
            && text
                .get(a.end..b.start)
                .is_some_and(|gap| gap.trim().is_empty() && gap.contains('\n'))
    };
    let mut start = i;
    while let (Some(prev), Some(this)) = (
        start.checked_sub(1).and_then(|p| values.get(p)),
        values.get(start),
    ) {
        if !adjacent(prev, this) {
            break;
        }
        start -= 1;
    }
    let mut end = i + 1;
    while let (Some(this), Some(next)) = (values.get(end - 1), values.get(end)) {
        if !adjacent(this, next) {
            break;
        }
        end += 1;
    }
    start..end
}

/// Whether a value starts its line and ends its line (blanks aside).
pub(crate) fn alone_on_lines(text: &str, found: &FoundJson) -> bool {
    let before = text.get(..found.start).unwrap_or_default();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let after = text.get(found.end..).unwrap_or_default();
    let line_end = after.find('\n').unwrap_or(after.len());
    before
        .get(line_start..)
        .is_some_and(|b| b.trim().is_empty())
        && after.get(..line_end).is_some_and(|a| a.trim().is_empty())
}

/// JSON Lines: two or more records (all objects, or all arrays), each
/// alone on its lines with only line breaks between them, read as one
/// array of the records, reported as [`RepairKind::JsonLines`] at the
/// second. `None` for anything else.
pub(crate) fn json_lines(text: &str, values: &[FoundJson]) -> Option<FoundJson> {
    let (first, rest) = values.split_first()?;
    let second = rest.first()?;
    let same_kind =
        values.iter().all(|v| v.value.is_object()) || values.iter().all(|v| v.value.is_array());
    if !same_kind || records_around(text, values, 0) != (0..values.len()) {
        return None;
    }
    let last = values.last()?;
    let mut repairs: Vec<Repair> = values
        .iter()
        .flat_map(|v| v.repairs.iter().cloned())
        .collect();
    repairs.push(Repair {
        kind: RepairKind::JsonLines,
        offset: second.start,
    });
    repairs.sort_by_key(|r| r.offset);
    Some(FoundJson {
        value: Value::Array(values.iter().map(|v| v.value.clone()).collect()),
        start: first.start,
        end: last.end,
        source: first.source,
        lang: first.lang.clone(),
        method: JsonMethod::Repaired,
        repairs,
        pick: None,
        in_reasoning: first.in_reasoning,
        template: false,
    })
}

/// Whether `value` is an unfilled template, no answer: no value in it is
/// real (a number, a boolean, a string that is no placeholder), and a
/// placeholder stands for one at least — `...`, `<number>`, `[your answer]`,
/// `TODO`, or type names (two or more, with no `type` key: `{"type":
/// "string"}` is a schema).
pub(crate) fn is_template(value: &Value) -> bool {
    let (mut placeholders, mut type_names, mut typed) = (0usize, 0usize, false);
    let mut stack: Vec<(Option<&str>, &Value)> = vec![(None, value)];
    while let Some((key, v)) = stack.pop() {
        match v {
            Value::Object(map) => stack.extend(map.iter().map(|(k, v)| (Some(k.as_str()), v))),
            Value::Array(items) => stack.extend(items.iter().map(|v| (key, v))),
            Value::Null => {}
            Value::Bool(_) | Value::Number(_) => return false,
            Value::String(s) => {
                let s = s.trim();
                if placeholder(s) {
                    placeholders += 1;
                } else if TYPE_NAMES.contains(&s) {
                    type_names += 1;
                    typed |= matches!(key, Some("type" | "format"));
                } else {
                    return false;
                }
            }
        }
    }
    placeholders > 0 || (type_names >= 2 && !typed)
}

/// Type names a template writes for the value it asks for.
pub(crate) const TYPE_NAMES: [&str; 12] = [
    "string", "number", "integer", "boolean", "bool", "float", "int", "str", "array", "object",
    "list", "dict",
];

/// A string that stands for a value to fill in: an ellipsis, `<…>`, a
/// bracketed instruction (`[your answer here]`, `[0-1]`), `TODO`, `TBD`.
pub(crate) fn placeholder(s: &str) -> bool {
    // Words in one pair of brackets: no markup (`<h3>…</h3>`), no quoted
    // data (`["bar"]`), no list (`[a, b]`), no numbers alone (`[1, 2]`).
    let enclosed = |open: char, close: char| {
        let inner = s
            .strip_prefix(open)
            .and_then(|r| r.strip_suffix(close))
            .unwrap_or_default();
        s.len() <= 80
            && inner.chars().any(char::is_alphabetic)
            && !inner.contains(['<', '>', '[', ']', '"', '\'', '\\', '\n', ',', ':'])
    };
    (!s.is_empty() && s.chars().all(|c| matches!(c, '.' | '…' | ' ')))
        || enclosed('<', '>')
        || enclosed('[', ']')
        || matches!(s, "TODO" | "TBD" | "FIXME")
}

/// How many values in the prose [`find_json`] reads at the most (the last
/// complete one among them wins): an answer holds a few, and reading every
/// one of a hostile text's hundreds of thousands would cost more than the
/// rest of the search. [`find_all_json`] reads them all.
pub const PROSE_VALUES_READ: usize = 10_000;

/// Whether the end of the input cut the value off (a truncation repair).
pub(crate) fn truncated(found: &FoundJson) -> bool {
    found.repairs.iter().any(|r| r.kind.is_truncation())
}

/// Phrases that mark the value after them as the final one, superseding
/// drafts before it (matched in any case, at the start of a word, in the
/// prose outside values).
pub(crate) const FINAL_LABELS: [&str; 27] = [
    "final answer",
    "final json",
    "final output",
    "final result",
    "final response",
    "final version",
    "final object",
    "final value",
    "final data",
    "final:",
    "corrected",
    "correction:",
    "revised",
    "updated:",
    "updated json",
    "updated version",
    "fixed:",
    "fixed json",
    "fixed version",
    "no wait",
    "no, wait",
    "wait, ",
    "oops",
    "actually,",
    "let me fix",
    "let me correct",
    "on second thought",
];

/// The end of the last final-value label ([`FINAL_LABELS`]) in the prose
/// `regions`, outside the prose `values` (sorted, not overlapping).
pub(crate) fn last_label(
    text: &str,
    regions: &[(usize, usize)],
    values: &[FoundJson],
) -> Option<usize> {
    let labels = final_labels()?;
    let bytes = text.as_bytes();
    let mut last = None;
    for &(start, end) in regions {
        let Some(region) = text.get(start..end) else {
            continue;
        };
        for label in labels.find_overlapping_iter(region) {
            let at = start + label.start();
            let word_start = at
                .checked_sub(1)
                .and_then(|b| bytes.get(b))
                .is_none_or(|b| !b.is_ascii_alphanumeric());
            // The value that starts last at or before `at` is the only
            // one that may cover it.
            let before = values.partition_point(|v| v.start <= at);
            let inside = before
                .checked_sub(1)
                .and_then(|i| values.get(i))
                .is_some_and(|v| at < v.end);
            if word_start && !inside {
                last = last.max(Some(start + label.end()));
            }
        }
    }
    last
}

/// [`FINAL_LABELS`] in any ASCII case, found in one pass over a text (27
/// searches, each over the whole text, were a fifth of a small answer's
/// `find_json`). Built once; it cannot fail for these few short labels (a
/// test builds it), and were it to, no label would be found.
pub(crate) fn final_labels() -> Option<&'static aho_corasick::AhoCorasick> {
    static LABELS: std::sync::OnceLock<Option<aho_corasick::AhoCorasick>> =
        std::sync::OnceLock::new();
    LABELS
        .get_or_init(|| {
            aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(FINAL_LABELS)
                .ok()
        })
        .as_ref()
}

/// The value after the last final-value label (`Final answer:`,
/// `Corrected:`, `no wait`), when a complete one follows it: the first
/// among the fences and the prose after the label.
pub(crate) fn after_label(
    text: &str,
    fences: &[Fence],
    inline: &[InlineFence],
    regions: &[(usize, usize)],
    prose: &[FoundJson],
    outside: &dyn Fn(&FoundJson) -> bool,
) -> Option<FoundJson> {
    let label = last_label(text, regions, prose)?;
    let mut after: Vec<(FoundJson, bool)> = Vec::new();
    for fence in fences.iter().filter(|f| f.start >= label) {
        let Some(tier) = fence_source(fence) else {
            continue;
        };
        if let Some(value) = fence_values(fence, tier, &mut { MAX_JSON_VALUES })
            .into_iter()
            .next()
        {
            after.push((value, fence.closed));
        }
    }
    for fence in inline.iter().filter(|f| f.start >= label) {
        after.extend(inline_value(text, fence, &mut { MAX_JSON_VALUES }).map(|v| (v, true)));
    }
    after.extend(
        prose
            .iter()
            .filter(|p| p.start >= label)
            .map(|p| (p.clone(), true)),
    );
    // A value cut off by the end of the answer is no final value: the
    // other rules choose then.
    after.retain(|(v, closed)| *closed && !truncated(v) && outside(v));
    let (mut value, _) = after.into_iter().min_by_key(|(v, _)| v.start)?;
    value.pick = Some(Pick::AfterLabel);
    Some(value)
}

/// Every JSON value in `text`, in document order: each value in a JSON or
/// code fence (a fence may hold several, as JSON Lines; one-line fences
/// included), then the objects and arrays in the prose around them, as
/// [`find_json`] reads them. Values inside reasoning blocks are included,
/// with `in_reasoning` set.
///
/// At most [`MAX_JSON_VALUES`] values (elements, members and containers)
/// are kept across everything found, a bound on memory: past it the search
/// stops, and the last value carries a [`RepairKind::ValueLimit`] repair.
///
/// ```
/// use flexmd_detect::find_all_json;
/// use serde_json::json;
///
/// let text = "first {\"a\": 1} then\n```\n[2, 3]\n```\nand {'b': None}";
/// let values: Vec<_> = find_all_json(text).into_iter().map(|f| f.value).collect();
/// assert_eq!(values, [json!({"a": 1}), json!([2, 3]), json!({"b": null})]);
/// ```
pub fn find_all_json(text: &str) -> Vec<FoundJson> {
    let mut found = find_all_marked(text);
    for f in &mut found {
        f.template = is_template(&f.value);
    }
    found
}

/// [`find_all_json`] before templates are marked.
pub(crate) fn find_all_marked(text: &str) -> Vec<FoundJson> {
    let reasoning = reasoning_blocks(text);
    if reasoning.is_empty() {
        return find_all_in(text, &[]).into_iter().map(decoded).collect();
    }
    // Outside reasoning and inside it, each read with the other blanked
    // out, as find_json reads them.
    let outside = complement(&reasoning, text.len());
    let mut found = find_all_in(&blank_out(text, &reasoning), &reasoning);
    found.extend(
        find_all_in(&blank_out(text, &outside), &outside)
            .into_iter()
            .map(|f| FoundJson {
                in_reasoning: true,
                ..f
            }),
    );
    found.sort_by_key(|f| f.start);
    found.into_iter().map(decoded).collect()
}

/// The ranges of `0..len` outside `blocks` (sorted, not overlapping).
pub(crate) fn complement(
    blocks: &[std::ops::Range<usize>],
    len: usize,
) -> Vec<std::ops::Range<usize>> {
    let mut outside = Vec::new();
    let mut at = 0;
    for block in blocks {
        outside.push(at..block.start);
        at = block.end;
    }
    outside.push(at..len);
    outside
}

/// [`find_all_json`] on a text whose reasoning `blocks` are blanked out (or
/// that has none); values that overlap them do not count.
pub(crate) fn find_all_in(text: &str, blocks: &[std::ops::Range<usize>]) -> Vec<FoundJson> {
    let outside = |f: &FoundJson| !overlaps(f, blocks);
    if let Some(mut whole) = whole_value(text)
        .filter(outside)
        .filter(|w| !is_json_lines(&w.repairs))
    {
        whole.pick = None;
        return vec![whole];
    }
    let fences = fences(text);
    let inline = inline_fences(text, &fences);
    let mut found = Vec::new();
    // One bound on the values kept, across every fence and region.
    let mut left = MAX_JSON_VALUES;
    for fence in &fences {
        if let Some(tier) = fence_source(fence) {
            found.extend(fence_values(fence, tier, &mut left));
        }
    }
    for fence in &inline {
        found.extend(inline_value(text, fence, &mut left));
    }
    let regions = prose_regions(text, &fences, &inline);
    for &(start, end) in &regions {
        found.extend(prose_values(
            text,
            start,
            end,
            &mut { usize::MAX },
            &mut left,
        ));
    }
    found.retain(outside);
    // The last resort, as find_json takes it (templates are no answer, and
    // no empty object inside one is either).
    if found.iter().all(|f| is_template(&f.value)) {
        let in_template =
            |f: &FoundJson| found.iter().any(|t| t.start <= f.start && f.start < t.end);
        let last_resort = regions
            .iter()
            .filter_map(|&(start, end)| first_object(text, start, end))
            .find(|f| outside(f) && !in_template(f));
        found.extend(last_resort);
    }
    found.sort_by_key(|f| f.start);
    if left == 0 {
        mark_value_limit(&mut found);
    }
    found
}

/// Says on the last value that the search stopped at the bound on values
/// (unless a value was cut there and says so already).
pub(crate) fn mark_value_limit(found: &mut [FoundJson]) {
    let cut = found
        .iter()
        .any(|f| f.repairs.iter().any(|r| r.kind == RepairKind::ValueLimit));
    if let (false, Some(last)) = (cut, found.last_mut()) {
        last.repairs.push(Repair {
            kind: RepairKind::ValueLimit,
            offset: last.end,
        });
    }
}

/// Why [`find_json`] found nothing in a text that looks like one JSON
/// value (it starts with `{` or `[`): the parse error, and the byte
/// offset in the text where it breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotJson {
    /// The byte offset of the break in the whole text.
    pub offset: usize,
    /// What the parser says is wrong there.
    pub error: String,
    /// The text holds only unfilled templates ([`FoundJson::template`]);
    /// `offset` is where the first starts.
    pub template: bool,
}

impl std::fmt::Display for NotJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.template {
            write!(f, "no JSON value found: {}", self.error)
        } else {
            write!(
                f,
                "no JSON value found: the input is not JSON ({})",
                self.error
            )
        }
    }
}

/// For a text in which [`find_json`] finds nothing: where and why it is not
/// JSON, when it looks like JSON or holds only unfilled templates; `None`
/// for prose.
///
/// ```
/// use flexmd_detect::not_json;
/// let why = not_json("  {:::}").unwrap();
/// assert_eq!(
///     why.to_string(),
///     "no JSON value found: the input is not JSON (expected a key or `}` (found `:`))"
/// );
/// assert_eq!(why.offset, 3);
/// assert!(not_json("no braces here").is_none());
/// let template = not_json("Answer as {\"score\": <number>, \"why\": \"...\"}").unwrap();
/// assert!(template.template);
/// assert_eq!(template.offset, 10);
/// assert!(template.to_string().starts_with("no JSON value found: only a template was seen"));
/// ```
pub fn not_json(text: &str) -> Option<NotJson> {
    let found = find_all_json(text);
    if let Some(first) = found.first().filter(|_| found.iter().all(|f| f.template)) {
        return Some(NotJson {
            offset: first.start,
            error: "only a template was seen: placeholders such as `<number>`, `...` or `TODO` stand for its values".to_owned(),
            template: true,
        });
    }
    let trimmed = text.trim_start();
    if !trimmed.starts_with(['{', '[']) {
        return None;
    }
    let e = parse_json(trimmed, Leniency::Repair).err()?;
    Some(NotJson {
        offset: text.len() - trimmed.len() + e.offset(),
        error: e.to_string(),
        template: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fences_are_tried_before_prose_and_json_labels_first() {
        let text = "{\"prose\": 1}\n```\n{\"plain\": 2}\n```\n```JSON\n{\"json\": 3}\n```\n";
        assert_eq!(find_json(text).unwrap().value, json!({"json": 3}));
        let all: Vec<_> = find_all_json(text).into_iter().map(|f| f.source).collect();
        assert_eq!(
            all,
            [
                JsonSource::Prose,
                JsonSource::CodeFence,
                JsonSource::JsonFence
            ]
        );
    }
    #[test]
    fn json_lines_in_a_fence() {
        let text = "```jsonl\n{\"a\": 1}\n{\"a\": 2}\n```";
        let all = find_all_json(text);
        assert_eq!(all.len(), 2);
        assert_eq!(&text[all[1].start..all[1].end], "{\"a\": 2}");
    }
    #[test]
    fn prose_needs_substance() {
        assert!(find_json("see [1] and [ ] and [1, 2] or [citation needed]").is_none());
        // An empty object is the last resort.
        let empty = find_json("see [1] and {} and [1, 2]").unwrap();
        assert_eq!((empty.value, empty.start), (json!({}), 12));
        assert_eq!(
            find_json("see [1] then [\"x\"]").unwrap().value,
            json!(["x"])
        );
        assert_eq!(find_json("  [1]  ").unwrap().value, json!([1]));
    }
    #[test]
    fn the_final_labels_are_found_in_any_case_as_words() {
        assert!(final_labels().is_some());
        let text = "Draft {\"a\": 1}. FINAL Answer: {\"a\": 2}; unfixed: no";
        let regions = [(0, text.len())];
        let end = text.find("Answer").map(|i| i + "Answer".len());
        assert_eq!(last_label(text, &regions, &[]), end);
        // `fixed:` inside `unfixed:` is no word; `no wait` is.
        assert_eq!(last_label("unfixed: 1", &[(0, 10)], &[]), None);
        assert_eq!(last_label("x, No Wait {}", &[(0, 13)], &[]), Some(10));
    }
    #[test]
    fn deep_prose_is_refused_quickly() {
        let text = format!("x {}", "[".repeat(100_000));
        assert!(find_all_json(&text).is_empty());
    }
}
