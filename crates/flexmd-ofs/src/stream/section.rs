//! A section's life in the stream: a heading opens it, its text streams
//! as deltas and its lists as items, and it completes when the next
//! heading at its level or above (or the end) arrives, checked as
//! `check` checks it.

use std::sync::Arc;

use flexmd_core::{ParsedList, SectionKind, Span, StreamHeading, TopLevelList, normalize_title};

use crate::check::{Issue, check_section, extracted_section};
use crate::locate::{Bounds, Found, Head, from_headings, strip_numbering};
use crate::stream::event::StreamEvent;
use crate::stream::state::{Read, Seen, State};

/// The lists within `spans`, merged in order (as the whole-answer check
/// merges a section's lists).
pub(crate) fn merged_lists(lists: &[TopLevelList], spans: &[Span]) -> Option<ParsedList> {
    let mut merged: Option<ParsedList> = None;
    for span in spans {
        let first = lists.partition_point(|l| l.span.start < span.start);
        let inside = lists
            .get(first..)
            .unwrap_or_default()
            .iter()
            .take_while(|l| l.span.end <= span.end);
        for top in inside {
            match merged.as_mut() {
                None => merged = Some(top.list.clone()),
                Some(all) => all.items.extend(top.list.items.iter().cloned()),
            }
        }
    }
    merged
}

/// Section `i`'s shared name.
pub(crate) fn name_of(names: &[Arc<str>], i: usize) -> Arc<str> {
    names.get(i).cloned().unwrap_or_else(|| Arc::from(""))
}

/// A JSON Pointer reference token: `~` → `~0`, `/` → `~1`.
/// The JSON Pointer of item `n` of section `i`, from the sections' pointers.
pub(crate) fn item_path(pointers: &[String], i: usize, n: usize) -> String {
    let prefix = pointers.get(i).map_or("", String::as_str);
    // `itoa`, not `write!`: the formatter cost more than the rest of
    // sending an item.
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(n);
    let mut path = String::with_capacity(prefix.len() + digits.len());
    path.push_str(prefix);
    path.push_str(digits);
    path
}

impl State {
    pub(super) fn on_heading(
        &mut self,
        read: &Read<'_>,
        h: &StreamHeading,
        events: &mut Vec<StreamEvent>,
    ) {
        let index = self.seen.len();
        let title = normalize_title(&h.title);
        let stripped = strip_numbering(&title);
        let section = match self.keys.get(&title) {
            Some(&i) => Some((i, Found::Heading)),
            None if stripped != title => self
                .keys
                .get(stripped)
                .map(|&i| (i, Found::NumberedHeading)),
            None => None,
        };
        // Subtrees at this level or below end here.
        while let Some(&top) = self.open.last() {
            if self.seen.get(top).is_some_and(|s| s.level >= h.level) {
                if let Some(end) = self.ends.get_mut(top) {
                    *end = h.heading.start;
                }
                self.open.pop();
            } else {
                break;
            }
        }
        // A numbered heading is a section boundary for its name too.
        let names_section =
            section.is_some() || (stripped != title && self.keys.contains_key(stripped));
        if names_section {
            self.section_starts.push(h.heading.start);
        }
        self.seen.push(Seen {
            level: h.level,
            // Only a section's heading is ever looked up by its key.
            key: if section.is_some() {
                compact_str::CompactString::new(&h.key)
            } else {
                compact_str::CompactString::default()
            },
            heading: h.heading.clone(),
            section,
        });
        self.ends.push(usize::MAX);
        self.open.push(index);
        if let Some((open, _)) = self.current {
            let closed = names_section || self.ends.get(open).is_some_and(|&e| e != usize::MAX);
            if closed {
                self.send_delta(read.text, h.heading.start, events);
                self.current = None;
                self.own_ended = false;
                self.complete(read, open, events);
            } else if !self.own_ended && index == open + 1 {
                // Its first sub-heading ends the section's own content. When it has
                // some, that is the section; else the section is read from
                // its subsections, and they stream as its text.
                let own_start = self.seen.get(open).map_or(0, |s| s.heading.end);
                let has_own = read
                    .text
                    .get(own_start..h.heading.start)
                    .is_some_and(|own| !own.trim().is_empty());
                if has_own {
                    self.send_delta(read.text, h.heading.start, events);
                    self.own_ended = true;
                }
            }
        }
        if let Some((i, _)) = section {
            if i < self.spec.sections.len() {
                events.push(StreamEvent::SectionStarted {
                    name: name_of(&self.names, i),
                    level: h.level,
                });
            }
            self.current = Some((index, h.heading.end));
            self.own_ended = false;
        }
    }

    /// The spec section open in the answer, when its lists' items are
    /// sent (a list kind, or prose with `lists_in_prose`).
    pub(super) fn open_list_section(&self) -> Option<usize> {
        if self.own_ended {
            return None;
        }
        let (open, _) = self.current?;
        let (i, _) = self.seen.get(open)?.section?;
        let section = self.spec.sections.get(i)?;
        (section.kind != SectionKind::Prose || self.options.lists_in_prose).then_some(i)
    }

    /// Items of a list in the open section, when its kind is a list.
    pub(super) fn on_list(&mut self, list: &TopLevelList, events: &mut Vec<StreamEvent>) {
        let Some(i) = self.open_list_section() else {
            return;
        };
        let Some(sent) = self.items_sent.get_mut(i) else {
            return;
        };
        // The first items may have been sent before the piece was parsed.
        let early = std::mem::take(&mut self.early.sent);
        let skip = early.min(list.list.items.len());
        self.early.sent = early - skip;
        for item in list.list.items.iter().skip(skip) {
            events.push(StreamEvent::ListItem {
                section: name_of(&self.names, i),
                path: item_path(&self.pointers, i, *sent),
                item: item.clone(),
            });
            *sent += 1;
        }
    }

    /// Sends the open section's text up to `end`.
    pub(super) fn send_delta(&mut self, text: &str, end: usize, events: &mut Vec<StreamEvent>) {
        let Some((open, from)) = self.current else {
            return;
        };
        if self.own_ended {
            return;
        }
        if end <= from {
            return;
        }
        let Some(name) = self
            .seen
            .get(open)
            .and_then(|s| s.section)
            .map(|(i, _)| name_of(&self.names, i))
        else {
            return;
        };
        if let Some(piece) = text.get(from..end) {
            events.push(StreamEvent::SectionDelta {
                name,
                text: compact_str::CompactString::new(piece),
            });
            self.current = Some((open, end));
        }
    }

    /// The section of heading `open` is complete: its value and violations,
    /// as the text so far decides them.
    pub(super) fn complete(&mut self, read: &Read<'_>, open: usize, events: &mut Vec<StreamEvent>) {
        let Read {
            text,
            lines,
            lists,
            tables,
        } = *read;
        let Some((i, _)) = self.seen.get(open).and_then(|s| s.section) else {
            return;
        };
        let Some(section) = self.spec.sections.get(i) else {
            return;
        };
        // A section is completed while streaming once, at its first
        // occurrence; repeats (merged, or replaced by a higher level) are
        // settled by `finish`. Completing each repeat with the merged value
        // would cost the whole section again each time: quadratic.
        if self.completed.get(i).is_some_and(Option::is_some) {
            return;
        }
        let (exact, numbered): (Vec<usize>, Vec<usize>) = {
            let mut exact = Vec::new();
            let mut numbered = Vec::new();
            for (j, seen) in self.seen.iter().enumerate() {
                match seen.section {
                    Some((k, Found::Heading)) if k == i => exact.push(j),
                    Some((k, _)) if k == i => numbered.push(j),
                    _ => {}
                }
            }
            (exact, numbered)
        };
        let (candidates, found) = if exact.is_empty() {
            (numbered, Found::NumberedHeading)
        } else {
            (exact, Found::Heading)
        };
        // Only the candidates' headings and subtree ends, renumbered.
        let heads: Vec<Head<'_>> = candidates
            .iter()
            .filter_map(|&j| self.seen.get(j))
            .map(|s| Head {
                level: s.level,
                key: s.key.as_str(),
                source: Some((s.heading.clone(), s.heading.end)),
            })
            .collect();
        let ends: Vec<usize> = candidates
            .iter()
            .map(|&j| self.ends.get(j).copied().unwrap_or(usize::MAX))
            .collect();
        // Own content ends at the next heading seen (none yet: open).
        let own_ends: Vec<usize> = candidates
            .iter()
            .map(|&j| {
                self.seen
                    .get(j + 1)
                    .map_or(usize::MAX, |next| next.heading.start)
            })
            .collect();
        let candidates: Vec<usize> = (0..heads.len()).collect();
        let bounds = Bounds {
            subtree_ends: &ends,
            own_ends: &own_ends,
            section_starts: &self.section_starts,
        };
        let Some(located) = from_headings(text, &heads, &bounds, &candidates, found) else {
            return;
        };
        let issue = |code: &str, section: Option<&str>, message: String, span: Span| {
            let place = lines.line_col(text, span.start);
            Issue::at(code, section, message, span, place)
        };
        let spans = located.content_spans.clone();
        let checked = check_section(
            text,
            &self.spec,
            &section.name,
            section.kind,
            &located,
            tables,
            || merged_lists(lists, &spans),
            &issue,
        );
        let value = extracted_section(
            section.kind,
            located,
            checked.list,
            checked.is_none,
            &self.options,
        );
        let changed = self
            .completed
            .get(i)
            .is_none_or(|last| last.as_ref() != Some(&value));
        if changed {
            events.push(StreamEvent::SectionCompleted {
                name: name_of(&self.names, i),
                value: value.clone(),
            });
            if let Some(slot) = self.completed.get_mut(i) {
                *slot = Some(value);
            }
        }
        for error in checked.errors {
            if !self.violations_sent.contains(&error) {
                self.violations_sent.push(error.clone());
                events.push(StreamEvent::Violation(error));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_paths_are_json_pointers_with_the_item_number() {
        let pointers = vec!["/Risks/".to_owned(), "/a~1b/".to_owned()];
        assert_eq!(item_path(&pointers, 0, 0), "/Risks/0");
        assert_eq!(item_path(&pointers, 0, 7), "/Risks/7");
        assert_eq!(item_path(&pointers, 1, 10), "/a~1b/10");
        assert_eq!(item_path(&pointers, 0, 1_234_509), "/Risks/1234509");
        assert_eq!(
            item_path(&pointers, 0, usize::MAX),
            format!("/Risks/{}", usize::MAX)
        );
        assert_eq!(item_path(&pointers, 5, 3), "3");
    }
}
