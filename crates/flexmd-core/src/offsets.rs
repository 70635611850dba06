//! Byte offsets into a text in the units a binding's language indexes
//! strings by.
//!
//! The library counts offsets in bytes of UTF-8 (as the CLI prints them); a
//! JavaScript string is indexed in UTF-16 code units, a Python `str` in code
//! points. `text[start:end]` (Python) and `text.slice(start, end)`
//! (JavaScript) must give what a result says it covers for any text, so the
//! bindings convert every offset at the boundary with [`TextOffsets`].

/// The unit a string is indexed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OffsetUnit {
    /// UTF-16 code units: JavaScript, Java, C#.
    Utf16,
    /// Unicode code points (Rust `char`s): Python's `str`.
    CodePoint,
}

impl OffsetUnit {
    /// How many units `c` takes.
    fn len(self, c: char) -> usize {
        match self {
            Self::Utf16 => c.len_utf16(),
            Self::CodePoint => 1,
        }
    }
}

/// Converts byte offsets of one text into indices in an [`OffsetUnit`].
///
/// Built in one pass over the text; each conversion is a binary search over
/// the text's non-ASCII characters (none at all for ASCII text, the common
/// case, where an offset is its own index).
#[derive(Debug)]
pub struct TextOffsets<'a> {
    text: &'a str,
    unit: OffsetUnit,
    /// Per non-ASCII character, the byte just after it and how many more
    /// bytes than units the text has up to there.
    marks: Vec<(usize, usize)>,
    /// The text's line starts, made on the first character column asked
    /// for (the library's own index: one scan, then a lookup per line).
    lines: std::cell::OnceCell<crate::LineStarts>,
}

impl<'a> TextOffsets<'a> {
    /// The converter for `text` into `unit`.
    pub fn new(text: &'a str, unit: OffsetUnit) -> Self {
        let mut marks = Vec::new();
        if !text.is_ascii() {
            let mut surplus = 0;
            for (at, c) in text.char_indices() {
                if !c.is_ascii() {
                    surplus += c.len_utf8() - unit.len(c);
                    marks.push((at + c.len_utf8(), surplus));
                }
            }
        }
        Self {
            text,
            unit,
            marks,
            lines: std::cell::OnceCell::new(),
        }
    }

    /// The converter into UTF-16 code units (JavaScript string indices).
    pub fn utf16(text: &'a str) -> Self {
        Self::new(text, OffsetUnit::Utf16)
    }

    /// The converter into code points (Python `str` indices).
    pub fn code_points(text: &'a str) -> Self {
        Self::new(text, OffsetUnit::CodePoint)
    }

    /// The index of byte offset `byte`: an offset inside a character counts
    /// as the character's start, one past the end as the end.
    ///
    /// ```
    /// use flexmd_core::TextOffsets;
    /// let text = "é😀x";
    /// let utf16 = TextOffsets::utf16(text);
    /// assert_eq!(utf16.index(0), 0);
    /// assert_eq!(utf16.index(2), 1); // after é (2 bytes, 1 unit)
    /// assert_eq!(utf16.index(6), 3); // after 😀 (4 bytes, 2 units)
    /// assert_eq!(utf16.index(7), 4);
    /// assert_eq!(utf16.index(99), 4);
    /// let chars = TextOffsets::code_points(text);
    /// assert_eq!(chars.index(6), 2); // after 😀: one code point
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

    /// A byte range as a range of indices.
    pub fn range(&self, bytes: std::ops::Range<usize>) -> std::ops::Range<usize> {
        self.index(bytes.start)..self.index(bytes.end)
    }

    /// The 1-based column of byte offset `byte` on its line (lines end at
    /// `\n`, `\r\n` or a lone `\r`), counted in the unit.
    ///
    /// ```
    /// let offsets = flexmd_core::TextOffsets::utf16("ab\n😀 x");
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

impl TextOffsets<'_> {
    /// The column, in the unit, of the `char_column`-th character (1-based)
    /// of line `line` (1-based): the library counts columns in characters,
    /// JavaScript in UTF-16 units (an emoji is one character, two units).
    ///
    /// ```
    /// let offsets = flexmd_core::TextOffsets::utf16("x\n😀😀y");
    /// assert_eq!(offsets.column_of_char(2, 3), 5);
    /// assert_eq!(offsets.column_of_char(1, 1), 1);
    /// ```
    pub fn column_of_char(&self, line: usize, char_column: usize) -> usize {
        if self.marks.is_empty() || self.unit == OffsetUnit::CodePoint {
            return char_column;
        }
        let start = self
            .lines
            .get_or_init(|| {
                let mut lines = crate::LineStarts::new();
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
            .map(|c| self.unit.len(c))
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
        let offsets = TextOffsets::utf16("plain text");
        assert_eq!(offsets.index(5), 5);
        assert_eq!(offsets.column(7), 8);
    }

    #[test]
    fn offsets_inside_a_character_count_as_its_start() {
        let offsets = TextOffsets::utf16("a😀b");
        assert_eq!(offsets.index(2), 1);
        assert_eq!(offsets.index(5), 3);
    }

    #[test]
    fn columns_restart_after_each_kind_of_line_break() {
        let text = "é\r\n😀x\ry";
        let offsets = TextOffsets::utf16(text);
        assert_eq!(offsets.column(text.find('x').unwrap_or(0)), 3);
        assert_eq!(offsets.column(text.find('y').unwrap_or(0)), 1);
    }

    proptest! {
        #[test]
        fn every_char_boundary_maps_to_the_length_before_it(text in "\\PC{0,40}") {
            let utf16 = TextOffsets::utf16(&text);
            let chars = TextOffsets::code_points(&text);
            for (at, _) in text.char_indices().chain([(text.len(), ' ')]) {
                let before = text.get(..at).unwrap_or_default();
                prop_assert_eq!(utf16.index(at), before.encode_utf16().count());
                prop_assert_eq!(chars.index(at), before.chars().count());
            }
        }
    }
}
