//! Tool results in pages that fit a token budget: cut only between whole
//! lines or whole JSON values, said so in the page, with a cursor that the
//! same call takes to continue. Nothing is ever cut silently.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::error::ArtifactError;
use crate::kind::Artifact;
use crate::tokens::{Encoding, count_tokens};
use crate::tools::ToolSet;

/// The budget of a page when none is given: 20 000 tokens, under the
/// 25 000 at which Claude Code cuts an MCP result.
pub const DEFAULT_MAX_TOKENS: usize = 20_000;

/// The smallest budget a page may have: room for a line or a value.
pub const MIN_MAX_TOKENS: usize = 16;

/// The largest budget a page may have, whatever a call asks: 200 000
/// tokens, the largest context windows in common use. A larger
/// `max_tokens` is lowered to it and the page says so
/// ([`Page::max_tokens_capped`]): one call must not make a response of
/// hundreds of megabytes.
pub const MAX_PAGE_TOKENS: usize = 200_000;

/// One page of a tool's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Page {
    /// The page: whole lines joined with `\n`, or a JSON array of whole
    /// values (valid JSON by itself), or the whole result when it fits.
    pub text: String,
    /// The tokens in `text` (o200k_base), never more than the budget.
    pub tokens: usize,
    /// More of the result follows this page.
    pub truncated: bool,
    /// What follows this page, when it is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omitted: Option<Omitted>,
    /// Give it back with the same tool and arguments for the next page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// The `max_tokens` the call asked for, when it was above
    /// [`MAX_PAGE_TOKENS`] and the page was made within that instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tokens_capped: Option<usize>,
}

/// How much of a result a page leaves for the pages after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Omitted {
    /// What the result is made of.
    pub unit: PageUnit,
    /// How many are left; `None` when finding out would mean reading them
    /// all (the rest of a grep).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
}

/// The whole pieces a result is paged by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum PageUnit {
    /// Lines (of a file, of matches, of keys or strings).
    Lines,
    /// JSON values: each page is a JSON array of some of them.
    Items,
    /// The members of a JSON object: each page is a JSON object with some
    /// of them, in order.
    Members,
}

/// Where a page ends: the next unit, the line a grep resumes at, and which
/// call it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cursor {
    next: usize,
    resume_line: usize,
    call: u64,
}

impl Cursor {
    /// `NEXT.RESUME.CHECK`: the position, and a check over the position
    /// and the call (its tool, arguments and artifact), so an edited digit
    /// or another call's cursor is refused, never read as another place.
    fn encode(self) -> String {
        format!("{}.{}.{:016x}", self.next, self.resume_line, self.check())
    }

    /// The check of the position within the call.
    fn check(self) -> u64 {
        let mut bytes = [0u8; 24];
        let parts = [self.call, self.next as u64, self.resume_line as u64];
        for (chunk, part) in bytes.chunks_exact_mut(8).zip(parts) {
            chunk.copy_from_slice(&part.to_le_bytes());
        }
        fnv1a(0xcbf2_9ce4_8422_2325, &bytes)
    }

    fn decode(name: &str, text: &str, call: u64) -> Result<Self, ArtifactError> {
        let bad = || {
            ArtifactError::Call(format!(
                "{name}: `cursor` {text:?} is not one this call returned (it was changed, \
                 or it belongs to other arguments or another file); start again without \
                 a cursor, or give the cursor of the last page with the same arguments"
            ))
        };
        let mut parts = text.split('.');
        let (Some(next), Some(resume), Some(check), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        let cursor = Self {
            next: next.parse().map_err(|_| bad())?,
            resume_line: resume.parse().map_err(|_| bad())?,
            call,
        };
        let check = u64::from_str_radix(check, 16).map_err(|_| bad())?;
        if check == cursor.check() {
            Ok(cursor)
        } else {
            Err(bad())
        }
    }
}

/// FNV-1a of `bytes` from `hash`.
fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// `max_tokens` within [[`MIN_MAX_TOKENS`], [`MAX_PAGE_TOKENS`]]: too small
/// is an error; too large is lowered, and the asked-for budget returned.
fn budget(name: &str, max_tokens: usize) -> Result<(usize, Option<usize>), ArtifactError> {
    if max_tokens < MIN_MAX_TOKENS {
        return Err(ArtifactError::Call(format!(
            "{name}: `max_tokens` must be at least {MIN_MAX_TOKENS} (got {max_tokens})"
        )));
    }
    Ok(if max_tokens > MAX_PAGE_TOKENS {
        (MAX_PAGE_TOKENS, Some(max_tokens))
    } else {
        (max_tokens, None)
    })
}

/// FNV-1a over the tool's name and its arguments with keys sorted: a
/// cursor continues only the call it came from.
fn fingerprint(name: &str, args: &Value) -> u64 {
    let canonical = match args {
        Value::Object(map) => {
            let sorted: BTreeMap<&String, &Value> = map.iter().collect();
            serde_json::to_string(&sorted).unwrap_or_default()
        }
        other => other.to_string(),
    };
    let hash = fnv1a(0xcbf2_9ce4_8422_2325, name.as_bytes());
    fnv1a(fnv1a(hash, &[0]), canonical.as_bytes())
}

/// A result's units from some point on.
enum Units<'a> {
    /// Lines; `total` when the result's length is known.
    Lines {
        lines: Box<dyn Iterator<Item = Result<(String, usize), ArtifactError>> + 'a>,
        total: Option<usize>,
    },
    /// JSON values.
    Items {
        items: Box<dyn Iterator<Item = Value> + 'a>,
        total: Option<usize>,
    },
    /// The members of a JSON object.
    Members {
        members: Box<dyn Iterator<Item = (String, Value)> + 'a>,
        total: Option<usize>,
    },
    /// A result that is one piece (a number, a value, a text).
    Single(String),
}

fn tokens(text: &str) -> usize {
    count_tokens(text.as_bytes(), Encoding::O200kBase)
}

/// A JSON value as an item of a pretty array: indented by two spaces.
fn item_text(value: &Value) -> String {
    let pretty = serde_json::to_string_pretty(value).unwrap_or_default();
    let mut out = String::with_capacity(pretty.len() + 8);
    for (i, line) in pretty.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str("  ");
        out.push_str(line);
    }
    out
}

/// An object's member as a line of a pretty object: `  "key": value`.
fn member_text(key: &str, value: &Value) -> String {
    let key = serde_json::to_string(key).unwrap_or_default();
    let value = item_text(value);
    // `item_text` indents the value's first line too: the key takes its place.
    format!("  {key}: {}", value.get(2..).unwrap_or_default())
}

fn items_page(items: &[String]) -> String {
    if items.is_empty() {
        "[]".to_owned()
    } else {
        format!("[\n{}\n]", items.join(",\n"))
    }
}

impl ToolSet<'_> {
    /// Runs the tool `name` with `arguments` (JSON text of an object, as for
    /// [`ToolSet::call`]) and returns one page of its result within
    /// `max_tokens` (o200k_base; at least [`MIN_MAX_TOKENS`]): the first,
    /// or the one after the page whose `cursor` is given. Pages end between
    /// whole lines (line tools, grep, keys, text) or whole values (JSON and
    /// Markdown lists: each page is a JSON array); the page says when more
    /// follows and how much. Joining the pages' lines (or the arrays'
    /// values) gives the whole result, uncapped. A single line or value
    /// larger than the budget is an error that says how to narrow the call.
    ///
    /// ```
    /// use flexmd_artifact::{Artifact, MemoryReader, SpooledArtifact, forge_tools};
    ///
    /// let text: String = (0..300).map(|i| format!("line {i}\n")).collect();
    /// let artifacts = vec![("log".to_owned(), Artifact::Text(SpooledArtifact::new(MemoryReader::new(text))))];
    /// let tools = forge_tools(&artifacts);
    /// let args = r#"{"callId": "log", "pattern": "^line 1"}"#;
    /// let first = tools.call_paged("artifact_grep", args, 100, None).unwrap();
    /// assert!(first.truncated && first.tokens <= 100);
    /// let mut lines: Vec<String> = first.text.lines().map(str::to_owned).collect();
    /// let mut cursor = first.cursor;
    /// while let Some(c) = cursor {
    ///     let page = tools.call_paged("artifact_grep", args, 100, Some(&c)).unwrap();
    ///     lines.extend(page.text.lines().map(str::to_owned));
    ///     cursor = page.cursor;
    /// }
    /// assert_eq!(lines.len(), 111); // line 1, 10..19, 100..199
    /// ```
    pub fn call_paged(
        &self,
        name: &str,
        arguments: &str,
        max_tokens: usize,
        cursor: Option<&str>,
    ) -> Result<Page, ArtifactError> {
        let (max_tokens, capped) = budget(name, max_tokens)?;
        let parsed = crate::tools::parse_arguments(name, arguments)?;
        // The cursor is bound to the call and to the file as it is now: a
        // file of another size makes old cursors fail, not skip.
        let resolved = self.resolve(name, &parsed)?;
        let size = resolved.2.base().byte_length() as u64;
        let call = fnv1a(fingerprint(name, &parsed), &size.to_le_bytes());
        let start = match cursor {
            Some(text) => Cursor::decode(name, text, call)?,
            None => Cursor {
                next: 0,
                resume_line: 0,
                call,
            },
        };
        let units = self.units(name, &parsed, resolved, start)?;
        let mut page = fill(name, units, start, max_tokens, &|| self.cancelled())?;
        page.max_tokens_capped = capped;
        Ok(page)
    }

    /// The result of a call (resolved once by the caller) as units, from
    /// `start` on.
    fn units<'s>(
        &'s self,
        name: &str,
        args: &Value,
        (spec_name, checked, artifact): (&'static str, crate::tools::Args<'_>, &'s Artifact),
        start: Cursor,
    ) -> Result<Units<'s>, ArtifactError> {
        let base = artifact.base();
        let reader = base.reader();
        let line_range = |range: std::ops::Range<usize>| {
            let total = range.len();
            let from = range.start.saturating_add(start.next).min(range.end);
            let lines = reader
                .lines_from(from)
                .take(range.end - from)
                .enumerate()
                .map(move |(i, line)| Ok((line.into_owned(), from + i)));
            Units::Lines {
                lines: Box::new(lines),
                total: Some(total),
            }
        };
        let count = base.line_count();
        let values = |list: Vec<Value>| {
            let total = list.len();
            let all_strings = list.iter().all(Value::is_string);
            let rest = list.into_iter().skip(start.next);
            if all_strings && total > 0 {
                Units::Lines {
                    lines: Box::new(
                        rest.map(|v| Ok((v.as_str().unwrap_or_default().to_owned(), 0))),
                    ),
                    total: Some(total),
                }
            } else {
                Units::Items {
                    items: Box::new(rest),
                    total: Some(total),
                }
            }
        };
        let serialised = |list: &dyn erased_list::List| list.values();
        Ok(match spec_name {
            "artifact_head" => {
                let n = checked.int("n").unwrap_or(10);
                line_range(0..n.min(count))
            }
            "artifact_tail" => {
                let n = checked.int("n").unwrap_or(10);
                line_range(count.saturating_sub(n)..count)
            }
            "artifact_cat" => line_range(crate::artifact::slice_range(
                count,
                checked.signed("start"),
                checked.signed("end"),
            )),
            "artifact_grep" => {
                let pattern = crate::grep::GrepPattern::new(
                    checked.str("pattern").unwrap_or_default(),
                    crate::grep::GrepFlags::parse(checked.str("flags").unwrap_or(""))?,
                )?;
                let numbered = checked.bool("lineNumbers");
                let mut from = start.resume_line;
                let mut batch: std::vec::IntoIter<crate::grep::GrepHit> = Vec::new().into_iter();
                // Where the next batch starts: a line, and its first byte
                // once a hit has told it (no line index needed then).
                let mut at: Option<usize> = None;
                let mut done = false;
                let stop = || self.cancelled();
                let lines = std::iter::from_fn(move || {
                    loop {
                        if let Some(hit) = batch.next() {
                            let i = hit.line;
                            from = i + 1;
                            at = Some(hit.range.end + 1);
                            let line = String::from_utf8_lossy(reader.byte_range(hit.range));
                            return Some(Ok((
                                if numbered {
                                    format!("{}:{line}", i + 1)
                                } else {
                                    line.into_owned()
                                },
                                i,
                            )));
                        }
                        if done {
                            return None;
                        }
                        // Matches come in batches: a page needs a few, a
                        // 1 GB file holds millions.
                        let hits = match base.grep_hits_until(&pattern, from, at, 256, &stop) {
                            Ok(hits) => hits,
                            Err(e) => {
                                done = true;
                                return Some(Err(e));
                            }
                        };
                        done = hits.len() < 256;
                        batch = hits.into_iter();
                        if batch.len() == 0 {
                            return None;
                        }
                    }
                });
                Units::Lines {
                    lines: Box::new(lines),
                    total: None,
                }
            }
            _ => match artifact {
                Artifact::Json(a) => match spec_name {
                    "artifact_json_keys" => match a.json_keys()? {
                        Some(keys) => values(keys.into_iter().map(Value::String).collect()),
                        None => Units::Single("(undefined)".to_owned()),
                    },
                    "artifact_json_get" => values(a.json_get(checked.str("path").unwrap_or("$"))?),
                    "artifact_json_pluck" => {
                        values(a.json_pluck(checked.str("path").unwrap_or("$"))?)
                    }
                    "artifact_json_filter" => {
                        values(a.json_filter(checked.str("path").unwrap_or("$"))?)
                    }
                    "artifact_json_slice" => {
                        values(a.json_slice(checked.signed("start"), checked.signed("end"))?)
                    }
                    _ => Units::Single(self.call_unlimited(name, args)?),
                },
                Artifact::Markdown(a) => {
                    let (first, last) = (checked.int("startLine"), checked.int("endLine"));
                    let depth = checked.int("depth").and_then(|d| u8::try_from(d).ok());
                    // A whole list, from the cursor's item on.
                    let rest = |list: Vec<Value>| {
                        let total = list.len();
                        Units::Items {
                            items: Box::new(list.into_iter().skip(start.next)),
                            total: Some(total),
                        }
                    };
                    match spec_name {
                        "artifact_md_headings" => Units::Items {
                            items: Box::new(
                                a.headings(depth)
                                    .skip(start.next)
                                    .map(|h| serde_json::to_value(h).unwrap_or(Value::Null)),
                            ),
                            total: Some(a.heading_count(depth)),
                        },
                        "artifact_md_sections" => Units::Items {
                            items: Box::new(
                                a.sections(depth)
                                    .skip(start.next)
                                    .map(|s| serde_json::to_value(s).unwrap_or(Value::Null)),
                            ),
                            total: Some(a.heading_count(depth)),
                        },
                        "artifact_md_code_blocks" => {
                            rest(serialised(&a.md_code_blocks(checked.str("lang"))))
                        }
                        "artifact_md_links" => rest(serialised(&a.md_links(first, last))),
                        "artifact_md_images" => rest(serialised(&a.md_images(first, last))),
                        "artifact_md_text" => {
                            let text = a.md_text(first, last);
                            if text.is_empty() {
                                // As the plain call says it.
                                return Ok(Units::Single("(empty)".to_owned()));
                            }
                            let all: Vec<String> = text.split('\n').map(str::to_owned).collect();
                            let total = all.len();
                            Units::Lines {
                                lines: Box::new(
                                    all.into_iter().skip(start.next).map(|l| Ok((l, 0))),
                                ),
                                total: Some(total),
                            }
                        }
                        _ => Units::Single(self.call_unlimited(name, args)?),
                    }
                }
                Artifact::Text(_) => Units::Single(self.call_unlimited(name, args)?),
            },
        })
    }
}

/// One page of `result`, the whole result of the tool `name` called with
/// `arguments` (a tool of your own, not an artifact's: its result computed
/// anew for each page), within `max_tokens` (o200k_base; at least
/// [`MIN_MAX_TOKENS`]). The whole result when it fits: a string as is,
/// anything else as 2-space pretty JSON. Else a string is paged by whole
/// lines, an array by whole items (each page a JSON array), an object by
/// whole members (each page a JSON object); a `cursor` from a page gives
/// the next one. `arguments` bind the cursor to the call: leave out the
/// budget and the cursor themselves.
///
/// ```
/// use flexmd_artifact::{PageUnit, page_value};
/// use serde_json::json;
///
/// let result = json!((0..100).map(|i| json!({"id": i})).collect::<Vec<_>>());
/// let args = json!({"q": "ids"});
/// let first = page_value("list_ids", &args, &result, 100, None).unwrap();
/// assert!(first.truncated);
/// assert_eq!(first.omitted.unwrap().unit, PageUnit::Items);
/// let page: serde_json::Value = serde_json::from_str(&first.text).unwrap();
/// assert_eq!(page[0], json!({"id": 0}));
/// let next = page_value("list_ids", &args, &result, 100, first.cursor.as_deref()).unwrap();
/// let page: serde_json::Value = serde_json::from_str(&next.text).unwrap();
/// assert_eq!(page[0]["id"], json!(first.text.matches("\"id\"").count()));
/// ```
pub fn page_value(
    name: &str,
    arguments: &Value,
    result: &Value,
    max_tokens: usize,
    cursor: Option<&str>,
) -> Result<Page, ArtifactError> {
    let (max_tokens, capped) = budget(name, max_tokens)?;
    let call = fingerprint(name, arguments);
    let start = match cursor {
        Some(text) => Cursor::decode(name, text, call)?,
        None => Cursor {
            next: 0,
            resume_line: 0,
            call,
        },
    };
    let units = match result {
        Value::String(text) if !text.is_empty() => {
            let lines: Vec<&str> = text.split('\n').collect();
            let total = lines.len();
            Units::Lines {
                lines: Box::new(
                    lines
                        .into_iter()
                        .enumerate()
                        .skip(start.next)
                        .map(|(i, line)| Ok((line.to_owned(), i))),
                ),
                total: Some(total),
            }
        }
        Value::Array(items) if !items.is_empty() => Units::Items {
            items: Box::new(items.iter().skip(start.next).cloned()),
            total: Some(items.len()),
        },
        Value::Object(members) if !members.is_empty() => Units::Members {
            members: Box::new(
                members
                    .iter()
                    .skip(start.next)
                    .map(|(k, v)| (k.clone(), v.clone())),
            ),
            total: Some(members.len()),
        },
        Value::String(text) => Units::Single(text.clone()),
        other => Units::Single(serde_json::to_string_pretty(other).unwrap_or_default()),
    };
    let mut page = fill(name, units, start, max_tokens, &crate::cancel::cancelled)?;
    page.max_tokens_capped = capped;
    Ok(page)
}

/// Lists serialised item by item.
mod erased_list {
    use serde_json::Value;

    pub(super) trait List {
        fn values(&self) -> Vec<Value>;
    }

    impl<T: serde::Serialize> List for Vec<T> {
        fn values(&self) -> Vec<Value> {
            self.iter()
                .map(|item| serde_json::to_value(item).unwrap_or(Value::Null))
                .collect()
        }
    }
}

/// The page from `start`: as many whole units as fit in `max_tokens`.
fn fill(
    name: &str,
    units: Units<'_>,
    start: Cursor,
    max_tokens: usize,
    stop: &dyn Fn() -> bool,
) -> Result<Page, ArtifactError> {
    let too_big = |what: String, size: usize| ArtifactError::TooLarge {
        tool: name.to_owned(),
        piece: what,
        tokens: size,
        max_tokens,
    };
    match units {
        Units::Single(text) => {
            let size = tokens(&text);
            if size > max_tokens {
                return Err(too_big("the result".to_owned(), size));
            }
            Ok(Page {
                text,
                tokens: size,
                truncated: false,
                omitted: None,
                cursor: None,
                max_tokens_capped: None,
            })
        }
        Units::Lines { lines, total } => {
            let join = |taken: &Taken| {
                taken
                    .iter()
                    .map(|(l, _)| l.as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            let pieces = Pieces {
                unit: PageUnit::Lines,
                total,
                overhead: 0,
                name: &|index| format!("line {}", index + 1),
                join: &join,
            };
            pieces.fill(lines, start, max_tokens, &too_big, stop)
        }
        Units::Items { items, total } => {
            let join = |taken: &Taken| {
                let texts: Vec<String> = taken.iter().map(|(t, _)| t.clone()).collect();
                items_page(&texts)
            };
            let pieces = Pieces {
                unit: PageUnit::Items,
                total,
                overhead: tokens("[\n\n]"),
                name: &|index| format!("item {index}"),
                join: &join,
            };
            let numbered = items
                .enumerate()
                .map(|(i, item)| Ok((item_text(&item), start.next + i)));
            pieces.fill(numbered, start, max_tokens, &too_big, stop)
        }
        Units::Members { members, total } => {
            let join = |taken: &Taken| {
                if taken.is_empty() {
                    "{}".to_owned()
                } else {
                    let texts: Vec<&str> = taken.iter().map(|(t, _)| t.as_str()).collect();
                    format!("{{\n{}\n}}", texts.join(",\n"))
                }
            };
            let pieces = Pieces {
                unit: PageUnit::Members,
                total,
                overhead: tokens("{\n\n}"),
                name: &|index| format!("member {index}"),
                join: &join,
            };
            let numbered = members
                .enumerate()
                .map(|(i, (key, value))| Ok((member_text(&key, &value), start.next + i)));
            pieces.fill(numbered, start, max_tokens, &too_big, stop)
        }
    }
}

/// The pieces on a page, each with its index in the whole result.
type Taken = [(String, usize)];

/// How the pieces of a result are put on a page.
struct Pieces<'f> {
    unit: PageUnit,
    /// How many pieces the whole result has, when known.
    total: Option<usize>,
    /// The page's own tokens (an array's brackets).
    overhead: usize,
    /// A piece's name, by its index, for the error when it does not fit.
    name: &'f dyn Fn(usize) -> String,
    /// The page's text from its pieces.
    join: &'f dyn Fn(&Taken) -> String,
}

impl Pieces<'_> {
    /// As many whole pieces `(text, index)` as fit in `max_tokens`.
    fn fill(
        &self,
        pieces: impl Iterator<Item = Result<(String, usize), ArtifactError>>,
        start: Cursor,
        max_tokens: usize,
        too_big: &dyn Fn(String, usize) -> ArtifactError,
        stop: &dyn Fn() -> bool,
    ) -> Result<Page, ArtifactError> {
        // A cursor only ever points inside its result; past the end, the
        // result changed under it: an error, never an empty page that reads
        // as the end.
        if self.total.is_some_and(|total| start.next > total) {
            return Err(ArtifactError::Call(format!(
                "`cursor` points past the end of the result ({} of {}); the result changed \
                 since that page: start again without a cursor",
                start.next,
                self.total.unwrap_or_default()
            )));
        }
        let mut taken: Vec<(String, usize)> = Vec::new();
        // Where a grep resumes: after the last line shown, or at the first
        // line not shown.
        let mut resume = start.resume_line;
        let mut used = self.overhead;
        let mut more = false;
        for piece in pieces {
            let (text, index) = piece?;
            if stop() {
                return Err(ArtifactError::Cancelled);
            }
            let size = tokens(&text) + 1;
            if used + size > max_tokens {
                if taken.is_empty() {
                    return Err(too_big((self.name)(index), size - 1));
                }
                more = true;
                resume = index;
                break;
            }
            used += size;
            resume = index + 1;
            taken.push((text, index));
        }
        // The exact count can differ from the sum of the parts.
        let mut text = (self.join)(&taken);
        let mut size = tokens(&text);
        while size > max_tokens && taken.len() > 1 {
            if let Some((_, index)) = taken.pop() {
                resume = index;
            }
            more = true;
            text = (self.join)(&taken);
            size = tokens(&text);
        }
        let next = start.next + taken.len();
        if !more && start.next == 0 && taken.is_empty() {
            return Ok(empty());
        }
        Ok(Page {
            text,
            tokens: size,
            truncated: more,
            omitted: more.then_some(Omitted {
                unit: self.unit,
                count: self.total.map(|t| t.saturating_sub(next)),
            }),
            cursor: more.then(|| {
                Cursor {
                    next,
                    resume_line: resume,
                    call: start.call,
                }
                .encode()
            }),
            max_tokens_capped: None,
        })
    }
}

/// An empty result, as [`ToolSet::call`] says it.
fn empty() -> Page {
    let text = "(empty list)".to_owned();
    Page {
        tokens: tokens(&text),
        text,
        truncated: false,
        omitted: None,
        cursor: None,
        max_tokens_capped: None,
    }
}
