//! Finding a spec's sections in an answer: headings first,
//! then the lenient fallbacks real models need.

use std::collections::{HashMap, HashSet};

/// Maps keyed by titles from the answer: hashed fast (SipHash was a tenth
/// of a long answer's check), still seeded per process.
type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

use flexmd_core::{MdNode, MdOutline, Span, line_spans, normalize_title};

/// How a section was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    /// A heading with the section's name.
    Heading,
    /// A heading like `1. Reasoning` or `Step 2 — Reasoning`.
    NumberedHeading,
    /// A bold line such as `**Short answer:**` used as a heading.
    BoldLabel,
    /// A `Short answer:` label opening a paragraph.
    LabelLine,
}

/// A section of the answer, found for one spec section.
#[derive(Debug, Clone)]
pub(crate) struct Located {
    pub(crate) node_key: String,
    /// 0 for a lenient label: no heading.
    pub(crate) node_level: u8,
    /// The raw content (merged in order for same-level duplicates).
    pub(crate) content: String,
    /// Where the (first) heading or label is.
    pub(crate) heading: Span,
    /// Where the (first) content is.
    pub(crate) content_span: Span,
    /// Where each merged part of the content is, in order.
    pub(crate) content_spans: Vec<Span>,
    pub(crate) found: Found,
    /// How many same-level headings were merged (1 when unique).
    pub(crate) merged: usize,
    /// The whole subtree (merged in order), when the section has
    /// sub-headings: `content` is then the text before the first one.
    pub(crate) subtree: Option<String>,
    /// The section's own content is empty and `content` is read from its
    /// sub-headings' (a lenient reading).
    pub(crate) in_subsections: bool,
}

/// A section name for matching: [`normalize_title`], then without leading
/// numbering (`1.`, `2)`, `Step 2 —`, `Part 3:`).
pub(crate) fn strip_numbering(key: &str) -> &str {
    let after_word = ["step ", "part ", "section "]
        .iter()
        .find_map(|w| key.strip_prefix(w))
        .unwrap_or(key);
    let digits = after_word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return key;
    }
    let after_number = after_word.get(digits..).unwrap_or_default();
    let spaced = after_number.trim_start();
    // `2024 plan` is a title, not numbering: a bare number needs a separator.
    let has_word = after_word.len() != key.len();
    let separated = spaced.starts_with(['.', ')', ':', '—', '–', '-'])
        || (has_word && spaced.len() < after_number.len());
    let rest = spaced.trim_start_matches(['.', ')', ':', '—', '–', '-', ' ']);
    if !separated || rest.is_empty() {
        return key;
    }
    rest
}

/// Every node of the outline in document order.
fn nodes(outline: &MdOutline) -> Vec<&MdNode> {
    let mut out = Vec::new();
    let mut stack: Vec<&MdNode> = outline.nodes.iter().rev().collect();
    while let Some(node) = stack.pop() {
        out.push(node);
        stack.extend(node.children.iter().rev());
    }
    out
}

/// Finds each of `names` in the answer, in order; `None` where absent.
/// `code_blocks` are the answer's code block spans, in order: a label line
/// inside one is literal text.
pub(crate) fn locate(
    response: &str,
    outline: &MdOutline,
    code_blocks: &[Span],
    names: &[&str],
) -> Vec<Option<Located>> {
    let all = nodes(outline);
    let heading_starts: Vec<usize> = all
        .iter()
        .filter_map(|n| n.source.as_ref().map(|s| s.heading.start))
        .collect();
    // Nodes by normalised title, and by title without numbering: one pass,
    // so many sections and many headings stay linear.
    let mut exact: FastMap<String, Vec<usize>> = FastMap::default();
    let mut numbered: FastMap<String, Vec<usize>> = FastMap::default();
    for (i, node) in all.iter().enumerate() {
        let title = normalize_title(&node.title);
        let stripped = strip_numbering(&title);
        if stripped != title {
            numbered.entry(stripped.to_owned()).or_default().push(i);
        }
        exact.entry(title).or_default().push(i);
    }
    // A section ends where another spec section's heading starts, even a
    // nested one: `# Reasoning` holding `## Short answer` does not own it.
    let keys: Vec<String> = names.iter().map(|n| normalize_title(n)).collect();
    let mut section_nodes: Vec<usize> = keys
        .iter()
        .flat_map(|k| {
            exact
                .get(k)
                .into_iter()
                .chain(numbered.get(k))
                .flatten()
                .copied()
        })
        .collect();
    section_nodes.sort_unstable();
    section_nodes.dedup();
    let section_starts: Vec<usize> = section_nodes
        .iter()
        .filter_map(|&i| all.get(i)?.source.as_ref().map(|s| s.heading.start))
        .collect();
    let subtree_ends = subtree_ends(response.len(), &all);
    let own_ends: Vec<usize> = (0..all.len())
        .map(|i| {
            all.get(i + 1)
                .and_then(|n| n.source.as_ref())
                .map_or(response.len(), |s| s.heading.start)
        })
        .collect();
    let heads: Vec<Head<'_>> = all.iter().map(|n| Head::of(n)).collect();
    let mut labels: Option<Vec<Label>> = None;
    keys.iter()
        .map(|key| {
            let (candidates, found) = match exact.get(key) {
                Some(nodes) => (nodes.as_slice(), Found::Heading),
                None => (
                    numbered.get(key).map_or(&[][..], Vec::as_slice),
                    Found::NumberedHeading,
                ),
            };
            if !candidates.is_empty() {
                let bounds = Bounds {
                    subtree_ends: &subtree_ends,
                    own_ends: &own_ends,
                    section_starts: &section_starts,
                };
                return from_headings(response, &heads, &bounds, candidates, found);
            }
            let labels = labels
                .get_or_insert_with(|| find_labels(response, &heading_starts, code_blocks, &keys));
            from_label(response, labels, &heading_starts, key)
        })
        .collect()
}

/// For each node (in document order), where its subtree ends: the start of
/// the next heading at its level or above. One pass with a stack, so many
/// duplicate sections stay linear.
fn subtree_ends(len: usize, all: &[&MdNode]) -> Vec<usize> {
    let mut ends = vec![len; all.len()];
    let mut open: Vec<usize> = Vec::new();
    for (j, node) in all.iter().enumerate() {
        let start = node.source.as_ref().map_or(len, |s| s.heading.start);
        while let Some(&i) = open.last() {
            if all.get(i).is_some_and(|n| n.level >= node.level) {
                if let Some(end) = ends.get_mut(i) {
                    *end = start;
                }
                open.pop();
            } else {
                break;
            }
        }
        open.push(j);
    }
    ends
}

/// What [`from_headings`] needs of a heading: the outline's nodes in a
/// whole answer, the headings read so far in a stream.
pub(crate) struct Head<'a> {
    pub(crate) level: u8,
    pub(crate) key: &'a str,
    /// The heading's span and where its content starts; `None` for a node
    /// not built from source text.
    pub(crate) source: Option<(Span, usize)>,
}

impl<'a> Head<'a> {
    fn of(node: &'a MdNode) -> Self {
        Head {
            level: node.level,
            key: &node.key,
            source: node
                .source
                .as_ref()
                .map(|s| (s.heading.clone(), s.content.start)),
        }
    }
}

/// Where sections end: subtrees, and the headings of spec sections.
pub(crate) struct Bounds<'a> {
    /// Per heading, where its subtree ends (past the text when not yet known).
    pub(crate) subtree_ends: &'a [usize],
    /// Per heading, where the next heading of any level starts (past the
    /// text when there is none yet): where its own content ends.
    pub(crate) own_ends: &'a [usize],
    /// Heading starts of every node that is a spec section, in order.
    pub(crate) section_starts: &'a [usize],
}

/// Duplicates: the highest level wins; equal levels merge in order. A
/// section's content is the chosen node's own content (flex-md's
/// `content_md`): the text after its heading, up to the next heading of
/// any level. When that is empty but its sub-headings hold text, the
/// content is its subtree (the text and sub-headings up to the next heading
/// at its level or above, or the next heading of any spec section,
/// whichever comes first), read leniently (`in_subsections`).
pub(crate) fn from_headings(
    response: &str,
    all: &[Head<'_>],
    bounds: &Bounds<'_>,
    candidates: &[usize],
    found: Found,
) -> Option<Located> {
    let level = candidates
        .iter()
        .filter_map(|&i| all.get(i))
        .map(|n| n.level)
        .min()?;
    let chosen: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&i| all.get(i).is_some_and(|n| n.level == level))
        .collect();
    let own_end = |i: usize, span: &Span| -> Span {
        let end = bounds.own_ends.get(i).copied().unwrap_or(span.end);
        span.start..end.clamp(span.start, span.end)
    };
    let subtree = |i: usize| -> Option<(Span, Span)> {
        let (heading, content_start) = all.get(i)?.source.clone()?;
        let end = bounds
            .subtree_ends
            .get(i)
            .copied()
            .unwrap_or(response.len());
        let after = bounds
            .section_starts
            .partition_point(|&start| start <= heading.start);
        let next_section = bounds
            .section_starts
            .get(after)
            .copied()
            .unwrap_or(response.len());
        let end = end.min(next_section).min(response.len()).max(content_start);
        Some((heading, content_start..end))
    };
    let first = all.get(*chosen.first()?)?;
    let (heading, _) = subtree(*chosen.first()?)?;
    let subtree_spans: Vec<Span> = chosen
        .iter()
        .filter_map(|&i| subtree(i).map(|(_, span)| span))
        .collect();
    let own_spans: Vec<Span> = chosen
        .iter()
        .zip(&subtree_spans)
        .map(|(&i, span)| own_end(i, span))
        .collect();
    let text_of = |spans: &[Span]| -> String {
        spans
            .iter()
            .filter_map(|span| response.get(span.clone()))
            .collect()
    };
    let has_subsections = own_spans.iter().zip(&subtree_spans).any(|(own, all)| {
        response
            .get(own.end..all.end)
            .is_some_and(|rest| !rest.trim().is_empty())
    });
    let own = text_of(&own_spans);
    let (content, content_spans, subtree, in_subsections) = if !has_subsections {
        (own, own_spans, None, false)
    } else if own.trim().is_empty() {
        let whole = text_of(&subtree_spans);
        (whole.clone(), subtree_spans, Some(whole), true)
    } else {
        (own, own_spans, Some(text_of(&subtree_spans)), false)
    };
    Some(Located {
        node_key: first.key.to_owned(),
        node_level: level,
        content,
        heading,
        content_span: content_spans.first()?.clone(),
        content_spans,
        found,
        merged: chosen.len(),
        subtree,
        in_subsections,
    })
}

/// A line that labels a section without a heading.
#[derive(Debug, Clone)]
struct Label {
    key: String,
    found: Found,
    line: Span,
    content_start: usize,
}

/// Label lines for any of `names`, outside code blocks, in document order.
fn find_labels(
    response: &str,
    heading_starts: &[usize],
    blocks: &[Span],
    keys: &[String],
) -> Vec<Label> {
    let known: HashSet<&str, foldhash::fast::RandomState> =
        keys.iter().map(String::as_str).collect();
    let matches = |candidate: &str| {
        let key = normalize_title(candidate);
        if known.contains(key.as_str()) {
            return Some(key);
        }
        let stripped = strip_numbering(&key);
        known.contains(stripped).then(|| stripped.to_owned())
    };
    // Blocks are in document order and lines come in order: one cursor
    // walks the blocks (checking every block per line was quadratic).
    let mut block = 0;
    // Heading starts are in order too: a second cursor.
    let mut heading = 0;
    let mut labels = Vec::new();
    for line in line_spans(response) {
        while blocks.get(block).is_some_and(|b| b.end <= line.start) {
            block += 1;
        }
        while heading_starts.get(heading).is_some_and(|&h| h < line.start) {
            heading += 1;
        }
        let is_heading = heading_starts.get(heading) == Some(&line.start);
        let in_block = blocks.get(block).is_some_and(|b| b.start <= line.start);
        let text = response.get(line.start..line.end).unwrap_or_default();
        let indent = text.len() - text.trim_start_matches(' ').len();
        if indent > 3 || in_block || is_heading {
            continue;
        }
        let body = text.get(indent..).unwrap_or_default();
        let label = bold_label(body)
            .map(|(inner, after)| (inner, after, Found::BoldLabel))
            .or_else(|| plain_label(body).map(|(name, after)| (name, after, Found::LabelLine)));
        let Some((name, after, found)) = label else {
            continue;
        };
        if let Some(key) = matches(name) {
            labels.push(Label {
                key,
                found,
                line: line.start..line.end,
                content_start: line.start + indent + after,
            });
        }
    }
    labels
}

/// `**Name:**`, `**Name**:`, `__Name__` at the start of a line: the name and
/// the offset after the label (and a colon after it).
fn bold_label(line: &str) -> Option<(&str, usize)> {
    let marker = if line.starts_with("**") {
        "**"
    } else if line.starts_with("__") {
        "__"
    } else {
        return None;
    };
    let inner_start = marker.len();
    let close = line.get(inner_start..)?.find(marker)? + inner_start;
    let inner = line.get(inner_start..close)?;
    let mut after = close + marker.len();
    if line.get(after..)?.starts_with(':') {
        after += 1;
    }
    (!inner.trim().is_empty()).then_some((inner, after))
}

/// `Name:` opening a line (the name has no markup and at most eight words).
fn plain_label(line: &str) -> Option<(&str, usize)> {
    let colon = line.find(':')?;
    let name = line.get(..colon)?;
    let plain = !name.trim().is_empty()
        && name.split_whitespace().count() <= 8
        && !name.contains(['*', '_', '`', '[', '#', '|', '>'])
        && !name.starts_with(['-', '+'])
        && !name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() && name.contains(". "));
    plain.then_some((name, colon + 1))
}

/// The content after a label, up to the next label or heading.
fn from_label(
    response: &str,
    labels: &[Label],
    heading_starts: &[usize],
    key: &str,
) -> Option<Located> {
    let index = labels.iter().position(|l| l.key == key)?;
    let label = labels.get(index)?;
    let next_label = labels
        .get(index + 1)
        .map_or(response.len(), |l| l.line.start);
    let next_heading = heading_starts
        .iter()
        .copied()
        .find(|&h| h >= label.content_start)
        .unwrap_or(response.len());
    let end = next_label.min(next_heading).max(label.content_start);
    let content = response.get(label.content_start..end)?;
    Some(Located {
        node_key: flexmd_core::slugify(key),
        node_level: 0,
        content: content.trim_start_matches([' ', '\t']).to_owned(),
        heading: label.line.clone(),
        content_span: label.content_start..end,
        content_spans: std::iter::once(label.content_start..end).collect(),
        found: label.found,
        merged: 1,
        subtree: None,
        in_subsections: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_is_stripped_only_when_it_is_numbering() {
        assert_eq!(strip_numbering("1. reasoning"), "reasoning");
        assert_eq!(strip_numbering("2) reasoning"), "reasoning");
        assert_eq!(strip_numbering("step 2 — reasoning"), "reasoning");
        assert_eq!(strip_numbering("part 3: assumptions"), "assumptions");
        assert_eq!(
            strip_numbering("2024 plan"),
            "2024 plan",
            "a year is not numbering"
        );
        assert_eq!(strip_numbering("3"), "3");
        assert_eq!(strip_numbering("step 4 summary"), "summary");
        assert_eq!(strip_numbering("2 — reasoning"), "reasoning");
        assert_eq!(strip_numbering("reasoning"), "reasoning");
    }

    #[test]
    fn labels() {
        assert_eq!(
            bold_label("**Short answer:** yes"),
            Some(("Short answer:", 17))
        );
        assert_eq!(
            bold_label("**Short answer**: yes"),
            Some(("Short answer", 17))
        );
        assert_eq!(bold_label("**bold** text"), Some(("bold", 8)));
        assert_eq!(bold_label("****"), None);
        assert_eq!(
            plain_label("Short answer: Yes."),
            Some(("Short answer", 13))
        );
        assert_eq!(plain_label("- item: x"), None);
        assert_eq!(
            plain_label("https://x"),
            Some(("https", 6)),
            "filtered later by name"
        );
    }

    #[test]
    fn label_lines_in_code_blocks_and_headings_are_not_labels() {
        let md = "```\nVerdict: in code\n```\n\n    Verdict: indented code\n\n## Verdict: a heading\n\nVerdict: the label\n";
        let parts = flexmd_core::read_markdown(md);
        assert_eq!(parts.code_blocks, vec![0..24, 30..53]);
        let located = locate(md, &parts.outline, &parts.code_blocks, &["Verdict"]);
        let found = located
            .first()
            .cloned()
            .flatten()
            .map(|l| (l.content, l.found));
        assert_eq!(found, Some(("the label\n".to_owned(), Found::LabelLine)));
    }
}
