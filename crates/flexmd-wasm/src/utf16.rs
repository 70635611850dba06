//! Byte offsets into a text as JavaScript string indices.
//!
//! The library counts offsets in bytes of UTF-8; a JavaScript string is
//! indexed in UTF-16 code units. `text.slice(obj.start, obj.end)` must give
//! the object for any text, so every offset is converted at the boundary.

/// Converts byte offsets of one text into UTF-16 code-unit indices.
///
/// Built in one pass over the text; each conversion is a binary search over
/// the text's non-ASCII characters (none at all for ASCII text, the common
/// case, where an offset is its own index).
#[derive(Debug)]
pub struct Utf16Offsets<'a> {
    text: &'a str,
    /// Per non-ASCII character, the byte just after it and how many more
    /// bytes than UTF-16 units the text has up to there.
    marks: Vec<(usize, usize)>,
    /// The text's line starts, made on the first character column asked
    /// for (the library's own index: one scan, then a lookup per line).
    lines: std::cell::OnceCell<flexmd_core::LineStarts>,
}

impl<'a> Utf16Offsets<'a> {
    /// The converter for `text`.
    pub fn new(text: &'a str) -> Self {
        let mut marks = Vec::new();
        if !text.is_ascii() {
            let mut surplus = 0;
            for (at, c) in text.char_indices() {
                if !c.is_ascii() {
                    surplus += c.len_utf8() - c.len_utf16();
                    marks.push((at + c.len_utf8(), surplus));
                }
            }
        }
        Self {
            text,
            marks,
            lines: std::cell::OnceCell::new(),
        }
    }

    /// The UTF-16 index of byte offset `byte`: an offset inside a character
    /// counts as the character's start, one past the end as the end.
    ///
    /// ```
    /// let text = "é😀x";
    /// let offsets = flexmd_wasm::Utf16Offsets::new(text);
    /// assert_eq!(offsets.index(0), 0);
    /// assert_eq!(offsets.index(2), 1); // after é (2 bytes, 1 unit)
    /// assert_eq!(offsets.index(6), 3); // after 😀 (4 bytes, 2 units)
    /// assert_eq!(offsets.index(7), 4);
    /// assert_eq!(offsets.index(99), 4);
    /// ```
    pub fn index(&self, byte: usize) -> usize {
        let mut byte = byte.min(self.text.len());
        while !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        if self.marks.is_empty() {
            return byte;
        }
        let before = self.marks.partition_point(|&(end, _)| end <= byte);
        let surplus = before
            .checked_sub(1)
            .and_then(|k| self.marks.get(k))
            .map_or(0, |&(_, surplus)| surplus);
        byte - surplus
    }

    /// The 1-based UTF-16 column of byte offset `byte` on its line (lines
    /// end at `\n`, `\r\n` or a lone `\r`), as editors in JavaScript count
    /// it.
    ///
    /// ```
    /// let offsets = flexmd_wasm::Utf16Offsets::new("ab\n😀 x");
    /// assert_eq!(offsets.column(1), 2);
    /// assert_eq!(offsets.column(8), 4);
    /// ```
    pub fn column(&self, byte: usize) -> usize {
        let byte = byte.min(self.text.len());
        let line_start = self
            .text
            .as_bytes()
            .get(..byte)
            .and_then(|before| before.iter().rposition(|&b| b == b'\n' || b == b'\r'))
            .map_or(0, |at| at + 1);
        self.index(byte) - self.index(line_start) + 1
    }
}

impl Utf16Offsets<'_> {
    /// The UTF-16 column of the `char_column`-th character (1-based) of
    /// line `line` (1-based): the library counts columns in characters,
    /// JavaScript in UTF-16 units (an emoji is one character, two units).
    ///
    /// ```
    /// let offsets = flexmd_wasm::Utf16Offsets::new("x\n😀😀y");
    /// assert_eq!(offsets.column_of_char(2, 3), 5);
    /// assert_eq!(offsets.column_of_char(1, 1), 1);
    /// ```
    pub fn column_of_char(&self, line: usize, char_column: usize) -> usize {
        if self.marks.is_empty() {
            return char_column;
        }
        let start = self
            .lines
            .get_or_init(|| {
                let mut lines = flexmd_core::LineStarts::new();
                lines.extend(self.text);
                lines
            })
            .line_start(line.saturating_sub(1));
        let units: usize = self
            .text
            .get(start..)
            .unwrap_or_default()
            .chars()
            .take(char_column.saturating_sub(1))
            .map(char::len_utf16)
            .sum();
        units + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ascii_offsets_are_indices() {
        let offsets = Utf16Offsets::new("plain text");
        assert_eq!(offsets.index(5), 5);
        assert_eq!(offsets.column(7), 8);
    }

    #[test]
    fn offsets_inside_a_character_count_as_its_start() {
        let offsets = Utf16Offsets::new("a😀b");
        assert_eq!(offsets.index(2), 1);
        assert_eq!(offsets.index(5), 3);
    }

    #[test]
    fn columns_restart_after_each_kind_of_line_break() {
        let text = "é\r\n😀x\ry";
        let offsets = Utf16Offsets::new(text);
        assert_eq!(offsets.column(text.find('x').unwrap_or(0)), 3);
        assert_eq!(offsets.column(text.find('y').unwrap_or(0)), 1);
    }

    proptest! {
        #[test]
        fn every_char_boundary_maps_to_the_utf16_length_before_it(text in "\\PC{0,40}") {
            let offsets = Utf16Offsets::new(&text);
            for (at, _) in text.char_indices().chain([(text.len(), ' ')]) {
                let expected = text.get(..at).map_or(0, |s| s.encode_utf16().count());
                prop_assert_eq!(offsets.index(at), expected);
            }
        }
    }
}
