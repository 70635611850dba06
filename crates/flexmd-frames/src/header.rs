//! The frame header grammar (nom): `[[type key=value key="quoted value"]] title`,
//! optionally behind an ATX heading marker (`## [[type ...]]`).

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{char, none_of, space0};
use nom::combinator::{map, recognize, value};
use nom::sequence::delimited;
use nom::{IResult, Parser};

/// A parsed header line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Header {
    pub(crate) frame_type: String,
    /// Attributes in written order, with the byte offset of each key in the line.
    pub(crate) attributes: Vec<(String, String, usize)>,
    /// The text after `]]`, trimmed; `None` when empty.
    pub(crate) title: Option<String>,
}

/// Why a line that opens a header (`[[` at its start) is not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HeaderError {
    /// Byte offset in the line where reading stopped.
    pub(crate) offset: usize,
    pub(crate) message: String,
    /// `true` when the line has no `]]`: an unterminated header.
    pub(crate) unterminated: bool,
}

/// Reads `line` (without its line ending) as a frame header.
///
/// `Ok(None)`: the line is not a header attempt (no `[[` after at most three
/// spaces and an optional `#`–`######` marker). `Err`: it opens a header but
/// breaks the grammar; the caller keeps the line as text.
pub(crate) fn parse_header(line: &str) -> Result<Option<Header>, HeaderError> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return Ok(None);
    }
    let rest = line.get(indent..).unwrap_or_default();
    let rest = strip_heading_marker(rest);
    let Some(after_open) = rest.strip_prefix("[[") else {
        return Ok(None);
    };
    let base = line.len() - after_open.len();
    let error = |at: &str, message: &str| HeaderError {
        offset: line.len() - at.len(),
        message: message.to_owned(),
        unterminated: false,
    };
    if !after_open.contains("]]") {
        return Err(HeaderError {
            offset: base - 2,
            message: "frame header is not closed with `]]`".to_owned(),
            unterminated: true,
        });
    }
    let (mut input, _) =
        space0::<&str, ()>(after_open).map_err(|_| error(after_open, "bad header"))?;
    let (after_type, frame_type) = identifier(input).map_err(|_| {
        error(
            input,
            "a frame header starts with its type, e.g. `[[message`",
        )
    })?;
    input = after_type;
    let mut attributes: Vec<(String, String, usize)> = Vec::new();
    loop {
        let (after_space, spaces) =
            space0::<&str, ()>(input).map_err(|_| error(input, "bad header"))?;
        if let Some(after_close) = after_space.strip_prefix("]]") {
            let title = after_close.trim();
            return Ok(Some(Header {
                frame_type: frame_type.to_owned(),
                attributes,
                title: (!title.is_empty()).then(|| title.to_owned()),
            }));
        }
        if spaces.is_empty() {
            return Err(error(
                after_space,
                "expected a space, then `key=value` or `]]`",
            ));
        }
        let key_offset = line.len() - after_space.len();
        match attribute(after_space) {
            Ok((after_attr, (key, val))) => {
                attributes.push((key.to_owned(), val, key_offset));
                input = after_attr;
            }
            Err(_) => {
                return Err(error(
                    after_space,
                    "expected `key=value` (quote values with spaces: key=\"a b\") or `]]`",
                ));
            }
        }
    }
}

fn strip_heading_marker(line: &str) -> &str {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    if (1..=6).contains(&hashes) {
        let after = line.get(hashes..).unwrap_or_default();
        let trimmed = after.trim_start_matches([' ', '\t']);
        if trimmed.len() < after.len() {
            return trimmed;
        }
    }
    line
}

/// `[A-Za-z_][A-Za-z0-9_.-]*`
pub(crate) fn identifier(input: &str) -> IResult<&str, &str> {
    recognize((
        take_while1(|c: char| c.is_ascii_alphabetic() || c == '_'),
        take_while(|c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')),
    ))
    .parse(input)
}

fn attribute(input: &str) -> IResult<&str, (&str, String)> {
    let (input, key) = identifier(input)?;
    let (input, _) = char('=').parse(input)?;
    let (input, val) = alt((quoted, map(bare, str::to_owned))).parse(input)?;
    Ok((input, (key, val)))
}

/// Anything up to whitespace, `"` or `]`.
fn bare(input: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !c.is_whitespace() && c != '"' && c != ']').parse(input)
}

/// `"..."` with `\"`, `\\`, `\n`, `\t`, `\r` escapes.
fn quoted(input: &str) -> IResult<&str, String> {
    let escape = alt((
        value('"', tag("\\\"")),
        value('\\', tag("\\\\")),
        value('\n', tag("\\n")),
        value('\t', tag("\\t")),
        value('\r', tag("\\r")),
    ));
    let chars = nom::multi::many0(alt((escape, none_of("\\\""))));
    map(delimited(char('"'), chars, char('"')), |cs: Vec<char>| {
        cs.into_iter().collect()
    })
    .parse(input)
}

/// Writes a value so [`parse_header`] reads it back: bare when it can be,
/// quoted with escapes otherwise.
pub(crate) fn write_value(out: &mut String, value: &str) {
    let bare_ok = !value.is_empty()
        && value
            .chars()
            .all(|c| !c.is_whitespace() && c != '"' && c != ']' && c != '\\');
    if bare_ok {
        out.push_str(value);
        return;
    }
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            _ => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Header {
        parse_header(line).unwrap().unwrap()
    }

    #[test]
    fn bracket_and_heading_forms() {
        let h = ok("[[message role=user id=m1 ts=2024-01-01T10:00:00Z]]");
        assert_eq!(h.frame_type, "message");
        assert_eq!(
            h.attributes,
            [
                ("role".to_owned(), "user".to_owned(), 10),
                ("id".to_owned(), "m1".to_owned(), 20),
                ("ts".to_owned(), "2024-01-01T10:00:00Z".to_owned(), 26)
            ]
        );
        assert_eq!(h.title, None);
        let h = ok("### [[section id=s1]]  Intro text ");
        assert_eq!(h.frame_type, "section");
        assert_eq!(h.title.as_deref(), Some("Intro text"));
        assert_eq!(ok("   [[ note ]]").frame_type, "note");
    }

    #[test]
    fn quoted_values_keep_spaces_and_escapes() {
        let h = ok(r#"[[message title="a \"b\" c" path="C:\\x" empty=""]]"#);
        let values: Vec<&str> = h.attributes.iter().map(|a| a.1.as_str()).collect();
        assert_eq!(values, [r#"a "b" c"#, r"C:\x", ""]);
    }

    #[test]
    fn not_headers() {
        assert_eq!(parse_header("text [[message]]"), Ok(None));
        assert_eq!(parse_header("    [[message]]"), Ok(None), "indented code");
        assert_eq!(parse_header("#[[message]]"), Ok(None), "no space after #");
        assert_eq!(parse_header("####### [[message]]"), Ok(None), "seven #");
    }

    #[test]
    fn broken_headers_say_where() {
        let e = parse_header("[[message role=user").unwrap_err();
        assert!(e.unterminated);
        assert_eq!(e.offset, 0);
        let e = parse_header("## [[Some Page]]").unwrap_err();
        assert!(!e.unterminated);
        assert_eq!(e.offset, 10, "at `Page`");
        let e = parse_header("[[message role=\"open]]").unwrap_err();
        assert_eq!(e.offset, 10);
        assert!(parse_header("[[ ]]").is_err());
        assert!(parse_header("[[message role=user]x]]").is_err());
    }

    #[test]
    fn write_value_round_trips() {
        for v in [
            "user",
            "a b",
            "",
            "q\"x",
            "back\\slash",
            "line\nbreak",
            "br]acket",
            "ünï",
        ] {
            let mut line = String::from("[[m k=");
            write_value(&mut line, v);
            line.push_str("]]");
            assert_eq!(ok(&line).attributes[0].1, v, "{line}");
        }
    }
}
