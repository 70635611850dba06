//! What the repair parser changed: [`Repair`] and its [`RepairKind`].

use serde::{Deserialize, Serialize};

/// One change the repair parser made to read the text as JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Repair {
    /// What was repaired.
    pub kind: RepairKind,
    /// Byte offset in the searched text where it was repaired.
    pub offset: usize,
}

macro_rules! repair_kinds {
    ($($(#[doc = $doc:literal])* $kind:ident = $name:literal, $describe:literal;)*) => {
        /// The repairs the last step of the ladder makes. None of them
        /// invents a key: truncated members are dropped, not completed.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
        #[serde(rename_all = "snake_case")]
        pub enum RepairKind {
            $($(#[doc = $doc])* $kind,)*
        }

        impl RepairKind {
            /// Every kind, in declaration order.
            pub const ALL: &'static [RepairKind] = &[$(Self::$kind,)*];

            /// The kind's name, as in JSON (`missing_comma`).
            ///
            /// ```
            /// use flexmd_detect::RepairKind;
            /// assert_eq!(RepairKind::MissingComma.name(), "missing_comma");
            /// ```
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$kind => $name,)*
                }
            }

            /// A short description, for reports.
            ///
            /// ```
            /// use flexmd_detect::RepairKind;
            /// assert_eq!(RepairKind::MissingComma.describe(), "inserted a missing comma");
            /// ```
            pub fn describe(self) -> &'static str {
                match self {
                    $(Self::$kind => $describe,)*
                }
            }
        }
    };
}

repair_kinds! {
    /// A string delimited by typographic quotes (`“…”`, `‘…’`).
    SmartQuotes = "smart_quotes", "read typographic quotes as string quotes";
    /// Python's `True`, `False` or `None` read as `true`, `false`, `null`.
    PythonLiteral = "python_literal", "read a Python literal (True/False/None) as JSON";
    /// `TRUE`, `Null` and other spellings of a literal in another case.
    LiteralCase = "literal_case", "read a literal written in another case (TRUE, Null)";
    /// JavaScript's `undefined`, read as `null`.
    Undefined = "undefined", "read undefined as null";
    /// A raw line break inside a string, kept as a `\n` in the value.
    UnescapedNewline = "unescaped_newline", "kept a raw line break inside a string";
    /// A quote inside a string that does not end it (what follows cannot
    /// follow a string there), kept as a character of the string.
    UnescapedQuote = "unescaped_quote", "kept a quote inside a string as a character";
    /// A string with no quotes (`{city: New York}`, `[a, b]`), read up to
    /// the next delimiter.
    UnquotedString = "unquoted_string", "read text without quotes as a string";
    /// A string missing its opening or its closing quote (`{"a": b"}`,
    /// `{"a": "b, "c": 1}`): ended where the next member or the closing
    /// brackets begin.
    MissingQuote = "missing_quote", "added a missing quote";
    /// A string in doubled or tripled quotes (`""text""`, `"""text"""`).
    DoubledQuotes = "doubled_quotes", "read a string in doubled or tripled quotes";
    /// A Python string prefix (`u'…'`, `b'…'`, `r'…'`), left out.
    StringPrefix = "string_prefix", "left out a Python string prefix";
    /// A JavaScript template string in backticks (`` `ls -la` ``), read as
    /// a string (line breaks kept).
    BacktickString = "backtick_string", "read a backtick string as a string";
    /// Strings joined with `+` (`"a" + "b"`), read as one.
    StringConcat = "string_concat", "joined strings concatenated with +";
    /// A whole answer written as an escaped string (`{\"a\": 1}`), read
    /// unescaped.
    EscapedJson = "escaped_json", "read an escaped answer unescaped";
    /// A JSON string holding a whole JSON document (double-encoded tool
    /// arguments, `"{\"a\": 1}"`): the document is read (at the string).
    DoubleEncoded = "double_encoded", "read a JSON string holding a JSON document as the document";
    /// A comma inserted between two members or elements.
    MissingComma = "missing_comma", "inserted a missing comma";
    /// A colon inserted between a key and its value.
    MissingColon = "missing_colon", "inserted a missing colon";
    /// A leading, doubled, or trailing comma left out.
    ExtraComma = "extra_comma", "left out an extra comma";
    /// A container left open before its parent closes (`[{"a": 1]`), or an
    /// object missing its `{` (`["a": 1]`): the bracket is added.
    MissingBracket = "missing_bracket", "added a missing bracket";
    /// A closing bracket that closes nothing, left out (`[1]}`), or the
    /// members after a root object closed early merged into it.
    ExtraBracket = "extra_bracket", "left out an extra closing bracket";
    /// A `]` closing an object or a `}` closing an array, read as the
    /// right bracket.
    MismatchedBracket = "mismatched_bracket", "read a mismatched closing bracket as the right one";
    /// An ellipsis (`...`, `…`) standing for left-out elements, left out.
    Ellipsis = "ellipsis", "left out an ellipsis";
    /// A Python tuple `(1, 2)`, read as an array.
    PythonTuple = "python_tuple", "read a Python tuple as an array";
    /// A value wrapped in a call: JSONP `callback({...});`, MongoDB
    /// `NumberLong(2)`, `ObjectId("…")`: the value inside is kept.
    FunctionWrapper = "function_wrapper", "unwrapped a value from a function call";
    /// A regular-expression literal (`/ab+c/`), read as a string.
    RegexLiteral = "regex_literal", "read a regular-expression literal as a string";
    /// Something number-like that is no number (`1.2.3`, `10-20`, a date, a
    /// UUID, `007`), read as a string.
    NumberAsString = "number_as_string", "read a malformed number as a string";
    /// A number written with a unit, digit grouping or spacing that JSON
    /// numbers cannot hold (`5 km`, `1,250,000 USD`, `+1 415 555 0100`),
    /// read as a string.
    FormattedNumber = "formatted_number", "read a number with a unit or formatting as a string";
    /// Digit separators in a number (`1_000`), left out.
    DigitSeparator = "digit_separator", "left out digit separators in a number";
    /// A `#` comment, left out.
    HashComment = "hash_comment", "left out a # comment";
    /// Zero-width or other whitespace JSON does not allow, read as
    /// whitespace.
    SpecialWhitespace = "special_whitespace", "read special whitespace as a space";
    /// Text between members that is neither key nor value (`COMMENT`),
    /// left out.
    DroppedText = "dropped_text", "left out text between members";
    /// Several root values separated by commas, read as one array.
    MultipleValues = "multiple_values", "read several comma-separated values as an array";
    /// JSON Lines: objects (or arrays) one per line, read as an array of
    /// them (at the second record).
    JsonLines = "json_lines", "read JSON Lines (one value per line) as an array";
    /// Only a part was read: the value found sits inside a larger one that
    /// opens the answer and could not be read whole (at the part).
    PartOfValue = "part_of_value", "read only a part of a value that could not be read whole";
    /// The input ends inside a string: the string is closed there.
    UnclosedString = "unclosed_string", "closed a string cut off by the end of the input";
    /// The input ends inside an array: it is closed there.
    UnclosedArray = "unclosed_array", "closed an array cut off by the end of the input";
    /// The input ends inside an object: it is closed there.
    UnclosedObject = "unclosed_object", "closed an object cut off by the end of the input";
    /// The input ends inside a `/* … */` comment.
    UnclosedComment = "unclosed_comment", "ended a comment cut off by the end of the input";
    /// A member or element cut off by the end of the input (a key without a
    /// value, `tru`, `-`) is left out.
    DroppedIncomplete = "dropped_incomplete", "left out a member cut off by the end of the input";
    /// The text holds more values than flexmd builds from one text
    /// ([`flexmd_core::MAX_JSON_VALUES`], a bound on memory): it is read as
    /// if it ended here, and nothing after it is searched.
    ValueLimit = "value_limit", "stopped reading at the limit of values one text may hold";
    /// `Infinity` or `NaN`, which JSON cannot hold, became `null`.
    NonFiniteNumber = "non_finite_number", "replaced Infinity or NaN by null";
    /// An escape JSON does not define (`\s`, `\1`, a lone surrogate): the
    /// backslash is kept with the character (a lone surrogate becomes
    /// U+FFFD).
    InvalidEscape = "invalid_escape", "kept an invalid escape as written";
}

impl RepairKind {
    /// Whether the repair closes what the end of the input cut off (the
    /// value may be incomplete), rather than mending how it was written.
    ///
    /// ```
    /// use flexmd_detect::RepairKind;
    /// assert!(RepairKind::UnclosedArray.is_truncation());
    /// assert!(!RepairKind::MissingComma.is_truncation());
    /// ```
    pub fn is_truncation(self) -> bool {
        matches!(
            self,
            Self::UnclosedString
                | Self::UnclosedArray
                | Self::UnclosedObject
                | Self::UnclosedComment
                | Self::DroppedIncomplete
                | Self::ValueLimit
        )
    }
}

pub(crate) fn shift(repairs: Vec<Repair>, map: impl Fn(usize) -> usize) -> Vec<Repair> {
    repairs
        .into_iter()
        .map(|r| Repair {
            kind: r.kind,
            offset: map(r.offset),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn kind_names_are_the_json_names() {
        for &kind in RepairKind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), json!(kind.name()));
        }
        assert_eq!(RepairKind::ALL.len(), 41);
    }
}
