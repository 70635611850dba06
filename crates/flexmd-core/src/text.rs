//! Text helpers shared by every layer: title normalisation for matching, and
//! slug keys with de-duplication.

use std::hash::BuildHasher;

use hashbrown::HashTable;

/// Normalises a heading or section name for case-insensitive matching.
///
/// Trims, lowercases and drops what models add around a name: surrounding
/// `**`/`__`/`*`/`_` emphasis, trailing `:`, `-`, `–`, `—` in any order, and
/// runs of whitespace (collapsed to one space).
///
/// ```
/// use flexmd_core::normalize_title;
/// assert_eq!(normalize_title("  **Short Answer:**  "), "short answer");
/// assert_eq!(normalize_title("Reasoning —"), "reasoning");
/// assert_eq!(normalize_title("__Unknowns__:"), "unknowns");
/// ```
pub fn normalize_title(title: &str) -> String {
    let mut s = title.trim();
    loop {
        let before = s.len();
        s = s.trim_end_matches([':', '-', '–', '—']).trim();
        for marker in ["**", "__", "*", "_"] {
            if let Some(inner) = s
                .strip_prefix(marker)
                .and_then(|rest| rest.strip_suffix(marker))
                .filter(|inner| !inner.trim().is_empty())
            {
                s = inner.trim();
                break;
            }
        }
        if s.len() == before {
            break;
        }
    }
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        if word.is_ascii() {
            // Most titles: lowercased a byte at a time, not a char at a time.
            let from = out.len();
            out.push_str(word);
            if let Some(added) = out.get_mut(from..) {
                added.make_ascii_lowercase();
            }
        } else {
            out.extend(word.chars().flat_map(char::to_lowercase));
        }
    }
    out
}

/// Turns a title into a slug key: lowercase letters and digits of any script,
/// words joined by `-`, other punctuation dropped. An empty result becomes
/// `section`.
///
/// ```
/// use flexmd_core::slugify;
/// assert_eq!(slugify("Short answer"), "short-answer");
/// assert_eq!(slugify("Step 2 — Reasoning!"), "step-2-reasoning");
/// assert_eq!(slugify("Überblick & Ziele"), "überblick-ziele");
/// assert_eq!(slugify("???"), "section");
/// ```
pub fn slugify(title: &str) -> String {
    let mut slug = String::with_capacity(title.len());
    push_slug(&mut slug, title);
    slug
}

/// Appends the slug of `title` to `slug` (empty on entry).
fn push_slug(slug: &mut String, title: &str) {
    let mut pending_dash = false;
    for c in title.chars() {
        if c.is_alphanumeric() {
            if pending_dash && !slug.is_empty() {
                slug.push('-');
            }
            pending_dash = false;
            if c.is_ascii() {
                slug.push(c.to_ascii_lowercase());
            } else {
                slug.extend(c.to_lowercase());
            }
        } else if c.is_whitespace() || c == '-' || c == '_' {
            pending_dash = true;
        }
        // Other punctuation is dropped without separating words ("don't" -> "dont").
    }
    if slug.is_empty() {
        slug.push_str("section");
    }
}

/// Hands out unique slug keys: the first `Short answer` gets `short-answer`,
/// the next `short-answer-2`, then `short-answer-3`.
///
/// ```
/// use flexmd_core::KeyAllocator;
/// let mut keys = KeyAllocator::default();
/// assert_eq!(keys.allocate("Notes"), "notes");
/// assert_eq!(keys.allocate("notes"), "notes-2");
/// assert_eq!(keys.allocate("Notes 2"), "notes-2-2");
/// ```
#[derive(Default)]
pub struct KeyAllocator {
    /// Every slug seen, back to back: the table points into it, so
    /// remembering one costs no allocation of its own.
    arena: String,
    /// One entry per distinct slug (not per key: `notes-7` is known from
    /// `notes` and its next suffix), so a document that repeats a few titles
    /// thousands of times keeps a table that fits in cache. Key allocation was
    /// most of `build_outline`'s own cost on large documents (docs/benchmarks.md).
    table: HashTable<SlugEntry>,
    hasher: foldhash::fast::RandomState,
    /// Reused buffer for the slug being looked up.
    scratch: String,
}

/// A slug's place in the arena, and the next suffix to try when it comes
/// again (so many equal titles cost linear, not quadratic, time): every
/// `slug-n` with `2 <= n < next_suffix` has been handed out or skipped.
struct SlugEntry {
    start: usize,
    len: u32,
    next_suffix: u32,
}

impl SlugEntry {
    fn range(&self) -> std::ops::Range<usize> {
        self.start..self.start + self.len as usize
    }
}

impl std::fmt::Debug for KeyAllocator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyAllocator")
            .field("slugs", &self.table.len())
            .finish()
    }
}

impl KeyAllocator {
    /// Returns a key for `title` that no earlier call returned.
    pub fn allocate(&mut self, title: &str) -> String {
        let mut slug = std::mem::take(&mut self.scratch);
        slug.clear();
        push_slug(&mut slug, title);
        let hash = self.hasher.hash_one(slug.as_str());
        let key = if self.find(hash, &slug).is_some() {
            self.next_suffixed(hash, &mut slug)
        } else {
            // A new slug may still equal a key handed out with a suffix
            // (`Notes 2` after two `Notes`): then it is suffixed itself.
            let taken = self.is_handed_out_suffixed(&slug);
            self.remember(hash, &slug);
            if taken {
                self.next_suffixed(hash, &mut slug)
            } else {
                slug.clone()
            }
        };
        self.scratch = slug;
        key
    }

    /// `slug-n` for the slug's next free `n`; `slug` (whose hash is `hash`)
    /// is known. Leaves `slug` as scratch.
    fn next_suffixed(&mut self, hash: u64, slug: &mut String) -> String {
        let base_len = slug.len();
        let mut suffix = self.find(hash, slug).map_or(2, |e| e.next_suffix);
        slug.push('-');
        loop {
            slug.truncate(base_len + 1);
            push_decimal(slug, u64::from(suffix));
            suffix = suffix.saturating_add(1);
            // `slug-n` parses only as (slug, n), and n is past what `slug`
            // has handed out, so it can only clash with a known slug.
            let candidate_hash = self.hasher.hash_one(slug.as_str());
            if self.find(candidate_hash, slug).is_none() {
                let arena = self.arena.as_bytes();
                let base = slug.as_bytes().get(..base_len);
                if let Some(entry) = self.table.find_mut(hash, |e| arena.get(e.range()) == base) {
                    entry.next_suffix = suffix;
                }
                return slug.clone();
            }
        }
    }

    /// Whether `slug` is `base-n` for a known `base` that has handed out `n`.
    fn is_handed_out_suffixed(&self, slug: &str) -> bool {
        let Some((base, digits)) = slug.rsplit_once('-') else {
            return false;
        };
        // Suffixes are written without leading zeros, from 2 up.
        if digits.is_empty()
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return false;
        }
        let Ok(n) = digits.parse::<u32>() else {
            return false;
        };
        let hash = self.hasher.hash_one(base);
        self.find(hash, base)
            .is_some_and(|e| n >= 2 && n < e.next_suffix)
    }

    fn find(&self, hash: u64, slug: &str) -> Option<&SlugEntry> {
        let arena = self.arena.as_bytes();
        let slug = slug.as_bytes();
        self.table
            .find(hash, |e| arena.get(e.range()) == Some(slug))
    }

    fn remember(&mut self, hash: u64, slug: &str) {
        let entry = SlugEntry {
            start: self.arena.len(),
            // A slug longer than 4 GiB cannot come from a heading line that
            // fits in memory twice; saturate rather than wrap.
            len: u32::try_from(slug.len()).unwrap_or(u32::MAX),
            next_suffix: 2,
        };
        self.arena.push_str(slug);
        let (arena, hasher) = (&self.arena, &self.hasher);
        self.table.insert_unique(hash, entry, |e| {
            hasher.hash_one(arena.get(e.range()).unwrap_or_default())
        });
    }
}

/// Appends `n` in decimal (cheaper than `format!` on the hot path).
fn push_decimal(out: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut len = 0;
    let mut rest = n;
    loop {
        if let Some(d) = digits.get_mut(len) {
            *d = b'0' + (rest % 10) as u8;
        }
        len += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for d in digits.iter().take(len).rev() {
        out.push(char::from(*d));
    }
}

/// One line of a text: `start..end` without its line ending; the next line
/// starts at `next`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineSpan {
    /// Offset of the line's first byte.
    pub start: usize,
    /// Offset just past the line's last byte, before its line ending.
    pub end: usize,
    /// Offset of the next line (past `\n`, `\r\n` or `\r`).
    pub next: usize,
}

/// The length in bytes of a byte order mark (U+FEFF) at the start of
/// `bytes`: 3 when there is one, else 0.
///
/// Some editors and Windows tools start UTF-8 files with one. It is not
/// content: every flexmd reader starts after it (a heading on the first line
/// is still a heading), and offsets still index the text as given.
///
/// ```
/// assert_eq!(flexmd_core::bom_len("\u{feff}# Title".as_bytes()), 3);
/// assert_eq!(flexmd_core::bom_len(b"# Title"), 0);
/// ```
pub fn bom_len(bytes: &[u8]) -> usize {
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        3
    } else {
        0
    }
}

/// The lines of `text`, split at `\n`, `\r\n` and a lone `\r` as CommonMark
/// does. A final line ending starts no extra line; empty text has no lines.
/// A leading byte order mark is not part of the first line (see
/// [`bom_len`]).
///
/// ```
/// use flexmd_core::line_spans;
/// let text = "a\r\nbc\rd\n";
/// let lines: Vec<&str> = line_spans(text).map(|l| &text[l.start..l.end]).collect();
/// assert_eq!(lines, ["a", "bc", "d"]);
/// assert_eq!(line_spans(text).nth(1).unwrap().next, 6);
/// assert_eq!(line_spans("\u{feff}a\n").next().unwrap().start, 3);
/// ```
pub fn line_spans(text: &str) -> impl Iterator<Item = LineSpan> + '_ {
    let bytes = text.as_bytes();
    let mut start = bom_len(bytes);
    std::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let rel = bytes
            .get(start..)
            .and_then(|rest| memchr::memchr2(b'\n', b'\r', rest));
        let (end, next) = match rel {
            Some(i) => {
                let end = start + i;
                let crlf = bytes.get(end) == Some(&b'\r') && bytes.get(end + 1) == Some(&b'\n');
                (end, end + if crlf { 2 } else { 1 })
            }
            None => (text.len(), text.len()),
        };
        let line = LineSpan { start, end, next };
        start = next;
        Some(line)
    })
}

/// `line` without its line break (`\n`, `\r\n` or `\r`, and any run of
/// them): what `trim_end_matches(['\n', '\r'])` gives, read by bytes (the
/// char-pattern search was a tenth of a line scan).
pub(crate) fn without_line_break(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut end = bytes.len();
    while let Some(b'\n' | b'\r') = end.checked_sub(1).and_then(|i| bytes.get(i)) {
        end -= 1;
    }
    line.get(..end).unwrap_or(line)
}

/// Whether `line` is empty or white space only, as `line.trim().is_empty()`
/// says, without decoding characters when every byte is ASCII.
pub(crate) fn is_blank(line: &str) -> bool {
    if line.is_ascii() {
        line.bytes().all(|b| b.is_ascii_whitespace() || b == 0x0b)
    } else {
        line.trim().is_empty()
    }
}

/// Returns the byte offset of the start of the line holding `offset` (the
/// first line starts after a byte order mark).
pub(crate) fn line_start(text: &str, offset: usize) -> usize {
    let head = text.as_bytes().get(..offset).unwrap_or_default();
    head.iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(bom_len(text.as_bytes()).min(offset), |i| i + 1)
}

/// `text[range]`, or `""` when the range is not a valid slice of `text`.
pub(crate) fn slice(text: &str, range: std::ops::Range<usize>) -> &str {
    text.get(range).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_break_and_blank_read_by_bytes_agree_with_trim() {
        for line in [
            "", "a", "a\n", "a\r\n", "a\r", "a\n\r\n", " \t\n", "\u{b}", "\u{c}\r", "\u{3000}",
            "é\r\n", "\u{85}", " x ", "\r\n\r\n",
        ] {
            assert_eq!(
                without_line_break(line),
                line.trim_end_matches(['\n', '\r']),
                "{line:?}"
            );
            assert_eq!(is_blank(line), line.trim().is_empty(), "{line:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn line_break_and_blank_agree_with_trim_on_any_text(line in "[ \t\r\n\u{b}\u{c}\u{85}\u{3000}ax]{0,12}") {
            proptest::prop_assert_eq!(without_line_break(&line), line.trim_end_matches(['\n', '\r']));
            proptest::prop_assert_eq!(is_blank(&line), line.trim().is_empty());
        }
    }

    #[test]
    fn normalize_strips_emphasis_colons_and_dashes_in_any_order() {
        assert_eq!(normalize_title("**Short answer**:"), "short answer");
        assert_eq!(normalize_title("**Short answer:**"), "short answer");
        assert_eq!(normalize_title("_Assumptions_ –"), "assumptions");
        assert_eq!(normalize_title("Long   answer"), "long answer");
        assert_eq!(normalize_title(""), "");
        assert_eq!(normalize_title("**"), "**", "a lone marker is not emphasis");
    }

    #[test]
    fn normalize_lowercases_non_ascii() {
        assert_eq!(normalize_title("ÜBERBLICK:"), "überblick");
    }

    #[test]
    fn slug_keeps_digits_and_non_latin_scripts() {
        assert_eq!(slugify("日本語 の 見出し"), "日本語-の-見出し");
        assert_eq!(slugify("  --a--b--  "), "a-b");
        assert_eq!(slugify("Don't panic"), "dont-panic");
        assert_eq!(slugify("snake_case"), "snake-case");
    }

    #[test]
    fn allocator_never_repeats_a_key() {
        let mut keys = KeyAllocator::default();
        let got: Vec<String> = ["A", "a-2", "A", "A", ""]
            .iter()
            .map(|t| keys.allocate(t))
            .collect();
        assert_eq!(got, ["a", "a-2", "a-3", "a-4", "section"]);
    }

    #[test]
    fn line_start_handles_crlf_and_lone_cr() {
        assert_eq!(line_start("ab\r\ncd", 5), 4);
        assert_eq!(line_start("ab\rcd", 4), 3);
        assert_eq!(line_start("abcd", 3), 0);
        assert_eq!(line_start("ab", 99), 0, "out of range falls back to 0");
    }
}
