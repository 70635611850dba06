//! JSON in code fences: the fence's language picks the tier (`json` first,
//! then data-like fences), one-line fences (`` ```json {…}``` ``), the
//! values a fence holds (README rules 3–4).

use crate::answer::{FenceLang, fence_lang};
use crate::fence::Fence;
use crate::find::found::{FoundJson, JsonSource, found_at, is_json_lines, with_limit};
use crate::find::prose::prose_values;
use crate::ladder::{Leniency, parse_json, parse_within, spend};
use crate::repair::{RepairKind, blank_len, parse_lenient};
use crate::repair_kind::shift;

/// A fence the Markdown parser does not see: ```` ``` ```` in the middle of
/// a line, its language, and the closing ```` ``` ```` on the same line
/// (`Here: ```json {"a": 1}```.`).
#[derive(Debug, Clone)]
pub(crate) struct InlineFence {
    /// The opening backticks.
    pub(crate) start: usize,
    /// Just after the closing backticks.
    pub(crate) end: usize,
    /// The content between the language word and the closing backticks.
    pub(crate) content: std::ops::Range<usize>,
    pub(crate) lang: Option<String>,
    pub(crate) source: JsonSource,
}

/// The one-line fences in the prose around `fences`.
pub(crate) fn inline_fences(text: &str, fences: &[Fence]) -> Vec<InlineFence> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(i) = text
        .as_bytes()
        .get(at..)
        .and_then(|r| memchr::memmem::find(r, b"```"))
    {
        let open = at + i;
        let ticks = text
            .get(open..)
            .unwrap_or_default()
            .bytes()
            .take_while(|&b| b == b'`')
            .count();
        at = open + ticks;
        // Fences are sorted and never overlap: the one that could hold
        // `open` is the last that starts at or before it.
        let before = fences.partition_point(|f| f.start <= open);
        if before
            .checked_sub(1)
            .and_then(|i| fences.get(i))
            .is_some_and(|f| open < f.end)
        {
            continue;
        }
        let line_start = text
            .get(..open)
            .and_then(|b| b.rfind('\n'))
            .map_or(0, |i| i + 1);
        if text
            .get(line_start..open)
            .is_none_or(|b| b.trim().is_empty())
        {
            // At the start of a line: a fence the parser reads, or none.
            continue;
        }
        let after = text.get(at..).unwrap_or_default();
        let lang_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '+')))
            .unwrap_or(after.len());
        let body_start = at + lang_len;
        let line = text.get(body_start..).unwrap_or_default();
        let line = line
            .get(..line.find('\n').unwrap_or(line.len()))
            .unwrap_or_default();
        let Some(close) = memchr::memmem::find(line.as_bytes(), b"```") else {
            continue;
        };
        let close = body_start + close;
        let lang = text.get(at..body_start).filter(|l| !l.is_empty());
        let source = match fence_lang(&lang.unwrap_or_default().to_ascii_lowercase()) {
            FenceLang::Code => JsonSource::CodeFence,
            FenceLang::Json => JsonSource::JsonFence,
            FenceLang::Prose | FenceLang::Other => {
                at = close + 3;
                continue;
            }
        };
        let close_ticks = text
            .get(close..)
            .unwrap_or_default()
            .bytes()
            .take_while(|&b| b == b'`')
            .count();
        found.push(InlineFence {
            start: open,
            end: close + close_ticks,
            content: body_start..close,
            lang: lang.map(str::to_owned),
            source,
        });
        at = close + close_ticks;
    }
    found
}

/// The value of a one-line fence.
pub(crate) fn inline_value(text: &str, fence: &InlineFence, left: &mut usize) -> Option<FoundJson> {
    let content = text.get(fence.content.clone())?;
    let trimmed = content.trim();
    let lead = fence.content.start + (content.len() - content.trim_start().len());
    if *left == 0 {
        return None;
    }
    let (parsed, counted) = parse_within(trimmed, Leniency::Repair, *left).ok()?;
    spend(left, &parsed, counted);
    let mut found = found_at(lead, lead + trimmed.len(), parsed);
    found.source = fence.source;
    found.lang.clone_from(&fence.lang);
    Some(found)
}

pub(crate) fn fence_source(fence: &Fence) -> Option<JsonSource> {
    match fence_lang(&fence.lang_lower()) {
        FenceLang::Json => Some(JsonSource::JsonFence),
        FenceLang::Code => Some(JsonSource::CodeFence),
        // Markdown and plain text are prose (searched as the text around
        // fences is).
        FenceLang::Prose => None,
        // Another language's code (CSS rules, shell `{}`, an assignment, a
        // YAML mapping) is not JSON, unless the whole content is one value
        // as written: JSON, JSON5, or a literal with Python's spellings.
        FenceLang::Other => {
            written_as_data(fence.content.as_str()).then_some(JsonSource::CodeFence)
        }
    }
}

/// Whether `content` is, as a whole, one object or array written as data:
/// strict JSON or JSON5, or read with no repair but another language's
/// spelling of a literal (`True`, `None`, `u'…'`, a tuple, `NaN`).
pub(crate) fn written_as_data(content: &str) -> bool {
    let trimmed = content.trim();
    if !trimmed.starts_with(['{', '[']) {
        return false;
    }
    parse_json(trimmed, Leniency::Repair).is_ok_and(|parsed| {
        parsed.repairs.iter().all(|r| {
            matches!(
                r.kind,
                RepairKind::PythonLiteral
                    | RepairKind::StringPrefix
                    | RepairKind::PythonTuple
                    | RepairKind::NonFiniteNumber
            )
        })
    })
}

/// The values in a fence: its whole content as one value; or else values
/// one after another (JSON Lines) until something is not JSON; or else, when
/// that finds nothing (`const config = {…};`), the objects and arrays in it
/// as in prose.
///
/// Values are kept while `left` (a bound on their values) lasts.
pub(crate) fn fence_values(fence: &Fence, source: JsonSource, left: &mut usize) -> Vec<FoundJson> {
    let content = fence.content.as_str();
    let trimmed = content.trim();
    if trimmed.is_empty() {
        return Vec::new();
    }
    let lead = content.len() - content.trim_start().len();
    let in_text = |found: FoundJson| FoundJson {
        start: fence.text_offset(found.start),
        end: fence.text_offset(found.end),
        source,
        lang: fence.lang.clone(),
        repairs: shift(found.repairs, |at| fence.text_offset(at)),
        ..found
    };
    if *left == 0 {
        return Vec::new();
    }
    // One value; records of JSON Lines are listed one by one (find_json
    // reads them as one array).
    if let Ok((parsed, counted)) = parse_within(trimmed, Leniency::Repair, *left)
        && !is_json_lines(&parsed.repairs)
    {
        spend(left, &parsed, counted);
        return vec![in_text(found_at(lead, lead + trimmed.len(), parsed))];
    }
    let mut found = Vec::new();
    let mut at = lead;
    while at < content.len() && *left > 0 {
        let Ok(l) = parse_lenient(content, at, false, *left) else {
            break;
        };
        let start = at + blank_len(content.get(at..).unwrap_or_default()).0;
        let slice = content.get(start..l.end).unwrap_or_default();
        let Ok((parsed, _)) = parse_within(slice, Leniency::Repair, *left) else {
            break;
        };
        // The lenient reading of the same text counted its values.
        *left = left.saturating_sub(l.values);
        found.push(in_text(found_at(
            start,
            l.end,
            with_limit(parsed, &l, start),
        )));
        at = l.end;
        // Values may be separated by commas as well as line breaks.
        let rest = content.get(at..).unwrap_or_default();
        let gap = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        at += rest.len() - gap.len();
    }
    if found.is_empty() {
        found = prose_values(content, 0, content.len(), &mut { usize::MAX }, left)
            .into_iter()
            .map(in_text)
            .collect();
    }
    found
}

/// The stretches of `text` outside JSON and code fences (one-line fences
/// included).
pub(crate) fn prose_regions(
    text: &str,
    fences: &[Fence],
    inline: &[InlineFence],
) -> Vec<(usize, usize)> {
    // Every fence but Markdown and text: a fence of another language is
    // code, not prose.
    let mut spans: Vec<(usize, usize)> = fences
        .iter()
        .filter(|f| fence_lang(&f.lang_lower()) != FenceLang::Prose)
        .map(|f| (f.start, f.end))
        .chain(inline.iter().map(|f| (f.start, f.end)))
        .collect();
    spans.sort_unstable();
    let mut regions = Vec::new();
    let mut at = 0;
    for (start, end) in spans {
        if start > at {
            regions.push((at, start));
        }
        at = at.max(end);
    }
    if at < text.len() {
        regions.push((at, text.len()));
    }
    regions
}
