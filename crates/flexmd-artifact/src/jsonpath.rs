//! JSONPath for artifact queries: RFC 9535 (the IETF standard, which the
//! JSONPath Compliance Test Suite checks), behind guards on length and
//! nesting, with the JSONPath-Plus forms models write (the JavaScript
//! dialect flex-md's artifacts speak) rewritten to it.

use std::borrow::Cow;

use serde_json_path::JsonPath;

use crate::error::ArtifactError;

/// The longest JSONPath accepted, in bytes.
pub const MAX_PATH_LEN: usize = 4096;

/// The deepest bracket or parenthesis nesting accepted in a JSONPath (the
/// parser recurses on it; at 5 000 it overflows the stack).
pub const MAX_PATH_NESTING: usize = 64;

/// The deepest nesting of filter selectors (`[?…]` inside `[?…]`) accepted.
/// Parsing a path costs about twice as much for each nested filter
/// (serde_json_path 0.7, measured: 12 levels 20 ms, 14 levels 60 ms, 18
/// levels 0.8 s, 22 levels 6 s); at 8 it stays under a millisecond.
pub const MAX_FILTER_NESTING: usize = 8;

/// The offset of a `\u` escape in a quoted name of `path` that is not four
/// hex digits, or a high surrogate without its low half.
fn bad_unicode_escape(path: &str) -> Option<usize> {
    let bytes = path.as_bytes();
    let hex4 = |at: usize| {
        bytes
            .get(at..at + 4)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok())
    };
    let mut quote = None;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match quote {
            None if b == b'\'' || b == b'"' => quote = Some(b),
            None => {}
            Some(q) if b == q => quote = None,
            Some(_) if b == b'\\' && bytes.get(i + 1) == Some(&b'u') => {
                let Some(code) = hex4(i + 2) else {
                    return Some(i);
                };
                if (0xD800..=0xDBFF).contains(&code) {
                    let low = bytes
                        .get(i + 6..i + 8)
                        .filter(|u| *u == b"\\u")
                        .and_then(|_| hex4(i + 8))
                        .filter(|l| (0xDC00..=0xDFFF).contains(l));
                    if low.is_none() {
                        return Some(i);
                    }
                    i += 6;
                }
                i += 6;
                continue;
            }
            // Any other escape: skip the escaped character.
            Some(_) if b == b'\\' => i += 1,
            Some(_) => {}
        }
        i += 1;
    }
    None
}

/// Compiles a JSONPath: RFC 9535, after the length and nesting guard.
///
/// A path RFC 9535 refuses is read again as JSONPath-Plus, the dialect of
/// flex-md's artifacts, with the forms models write rewritten to RFC 9535:
/// `===` and `!==` (and a lone `=`) compare as `==` and `!=`, `@root` is
/// `$`, and `@.name.match(/re/i)` or `/re/i.test(@.name)` become
/// `search(@.name, '(?i)re')`. (`[?(…)]`, a filter in parentheses, is RFC
/// 9535 already.) What has no RFC 9535 form gets an error that says so,
/// with the equivalent where there is one (`[(@.length-1)]` is `[-1]`).
///
/// ```
/// use flexmd_artifact::compile_path;
/// assert!(compile_path("$.store.book[?@.price < 10].title").is_ok());
/// assert!(compile_path(r#"$[?(@.status === "active")]"#).is_ok());
/// let err = compile_path("$.book[(@.length-1)]").unwrap_err().to_string();
/// assert!(err.contains("`[-1]`"), "{err}");
/// let deep = format!("$[?{}@.a{}]", "(".repeat(100), ")".repeat(100));
/// assert!(compile_path(&deep).unwrap_err().to_string().contains("nests deeper"));
/// let filters = format!("{}@{}", "$[?".repeat(9), "]".repeat(9));
/// assert!(compile_path(&filters).unwrap_err().to_string().contains("more than 8 filters"));
/// assert!(compile_path("store.book").is_err());
/// let cut = compile_path("$[\"\\u").unwrap_err().to_string();
/// assert!(cut.contains("needs four hex digits"), "{cut}");
/// assert!(compile_path("$[\"D\\uD").is_err());
/// assert!(compile_path("$[\"\\uD83D\\uDE00\"]").is_ok());
/// ```
pub fn compile_path(path: &str) -> Result<JsonPath, ArtifactError> {
    guard(path)?;
    let first = match parse(path) {
        Ok(compiled) => return Ok(compiled),
        Err(e) => e,
    };
    if let Some(rewritten) = from_jsonpath_plus(path) {
        guard(&rewritten)?;
        if let Ok(compiled) = parse(&rewritten) {
            return Ok(compiled);
        }
    }
    let hint = unsupported(path).unwrap_or_else(|| {
        "paths start with `$`: `$.items[0].name`, `$..name`, `$[?@.price < 10]`".to_owned()
    });
    Err(ArtifactError::JsonPath(format!(
        "{first}; {hint} (JSONPath as in RFC 9535, plus the JSONPath-Plus forms `===`, `!==`, `@root`, `.match(/re/)`)"
    )))
}

/// Length, nesting and escape checks, before any parser sees `path`.
fn guard(path: &str) -> Result<(), ArtifactError> {
    if path.len() > MAX_PATH_LEN {
        return Err(ArtifactError::JsonPath(format!(
            "the path is {} bytes; at most {MAX_PATH_LEN} are allowed",
            path.len()
        )));
    }
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    // For each open `[`: whether it holds a filter selector.
    let mut brackets: Vec<bool> = Vec::new();
    for c in path.chars() {
        if let Some(q) = quote {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                _ if c == q => quote = None,
                _ => {}
            }
            continue;
        }
        match c {
            '\'' | '"' => quote = Some(c),
            '(' | '[' => {
                depth += 1;
                if depth > MAX_PATH_NESTING {
                    return Err(ArtifactError::JsonPath(format!(
                        "the path nests deeper than {MAX_PATH_NESTING} brackets or parentheses"
                    )));
                }
                if c == '[' {
                    brackets.push(false);
                }
            }
            ')' => depth = depth.saturating_sub(1),
            ']' => {
                depth = depth.saturating_sub(1);
                brackets.pop();
            }
            '?' => {
                if let Some(filter) = brackets.last_mut() {
                    *filter = true;
                }
                if brackets.iter().filter(|&&f| f).count() > MAX_FILTER_NESTING {
                    return Err(ArtifactError::JsonPath(format!(
                        "the path nests more than {MAX_FILTER_NESTING} filters (`[?…]`) inside each other"
                    )));
                }
            }
            _ => {}
        }
    }
    if let Some(at) = bad_unicode_escape(path) {
        return Err(ArtifactError::JsonPath(format!(
            "the `\\u` escape at byte {at} needs four hex digits (and a surrogate pair both halves)"
        )));
    }
    Ok(())
}

/// Parses a guarded path; the parser's message on failure.
fn parse(path: &str) -> Result<JsonPath, String> {
    // serde_json_path 0.7 reaches an `unreachable!` on some cut escapes
    // (`$["\u`, caught by the guard): should another one get there, a panic
    // must not end the process.
    std::panic::catch_unwind(|| JsonPath::parse(path))
        .map_err(|_| "the path could not be parsed (an escape is cut off or invalid)".to_owned())?
        .map_err(|e| e.to_string())
}

/// `path` with the JSONPath-Plus forms rewritten to RFC 9535, or `None`
/// when there is nothing to rewrite (or a regex literal cannot be read).
/// String literals are copied as they are.
fn from_jsonpath_plus(path: &str) -> Option<String> {
    let mut out = String::with_capacity(path.len() + 16);
    let mut changed = false;
    let mut rest = path;
    while let Some(c) = rest.chars().next() {
        if c == '\'' || c == '"' {
            let len = quoted_len(rest);
            out.push_str(rest.get(..len)?);
            rest = rest.get(len..)?;
            continue;
        }
        let (text, used): (Cow<'_, str>, usize) = if rest.starts_with("===") {
            ("==".into(), 3)
        } else if rest.starts_with("!==") {
            ("!=".into(), 3)
        } else if rest.starts_with("==") || rest.starts_with("!=") {
            (rest.get(..2)?.into(), 2)
        } else if c == '=' && !out.ends_with(['<', '>']) {
            ("==".into(), 1)
        } else if rest.starts_with("@root") && !continues_name(rest.get(5..)?) {
            ("$".into(), 5)
        } else if let Some(after) = rest.strip_prefix(".match(/") {
            // `RECEIVER.match(/re/flags)`: the receiver is already in `out`.
            let start = receiver_start(&out)?;
            let receiver = out.split_off(start);
            let (pattern, after) = regex_literal(after)?;
            let after = after.strip_prefix(')')?;
            (
                format!("search({receiver}, {pattern})").into(),
                rest.len() - after.len(),
            )
        } else if let Some(after) = rest.strip_prefix('/') {
            // `/re/flags.test(RECEIVER)`.
            let (pattern, after) = regex_literal(after)?;
            let after = after.strip_prefix(".test(")?;
            let close = after.find(')')?;
            let receiver = after.get(..close)?.trim();
            (
                format!("search({receiver}, {pattern})").into(),
                rest.len() - after.len() + close + 1,
            )
        } else {
            let len = c.len_utf8();
            out.push_str(rest.get(..len)?);
            rest = rest.get(len..)?;
            continue;
        };
        changed |= text != rest.get(..used).unwrap_or_default();
        out.push_str(&text);
        rest = rest.get(used..)?;
    }
    changed.then_some(out)
}

/// The length of the quoted string at the start of `s` (through its
/// closing quote, or all of `s` when it is not closed).
fn quoted_len(s: &str) -> usize {
    let mut chars = s.char_indices();
    let Some((_, quote)) = chars.next() else {
        return 0;
    };
    let mut escaped = false;
    for (i, c) in chars {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            _ if c == quote => return i + c.len_utf8(),
            _ => {}
        }
    }
    s.len()
}

/// Whether `s` starts with a character that continues a name (`@rootx`).
fn continues_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_alphanumeric() || c == '_')
}

/// Where the singular query that ends `out` starts (`@.a.b`, `@['a']`,
/// `$.x`): the last `@` or `$` such that only name characters, dots and
/// brackets follow.
fn receiver_start(out: &str) -> Option<usize> {
    let start = out
        .char_indices()
        .rev()
        .take_while(|&(_, c)| {
            c.is_alphanumeric() || matches!(c, '_' | '.' | '[' | ']' | '@' | '$' | '\'' | '"' | '-')
        })
        .filter(|&(_, c)| c == '@' || c == '$')
        .last()
        .map(|(i, _)| i)?;
    Some(start)
}

/// A JavaScript regex literal after its opening `/`: the pattern as an
/// RFC 9535 string literal (flags `i`, `m`, `s` as inline groups; `g`, `u`
/// and `y` change nothing for a test), and the text after the flags.
fn regex_literal(s: &str) -> Option<(String, &str)> {
    let mut pattern = String::new();
    let mut in_class = false;
    let mut chars = s.char_indices();
    let end = loop {
        let (i, c) = chars.next()?;
        match c {
            '\\' => {
                let (_, next) = chars.next()?;
                // `\/` is a slash; any other escape stays for the regex.
                if next != '/' {
                    pattern.push('\\');
                }
                pattern.push(next);
            }
            '[' => {
                in_class = true;
                pattern.push(c);
            }
            ']' => {
                in_class = false;
                pattern.push(c);
            }
            '/' if !in_class => break i + 1,
            _ => pattern.push(c),
        }
    };
    let after = s.get(end..)?;
    let flag_len = after.chars().take_while(char::is_ascii_alphabetic).count();
    let mut inline = String::new();
    for flag in after.get(..flag_len)?.chars() {
        match flag {
            'i' | 'm' | 's' => inline.push(flag),
            'g' | 'u' | 'y' => {}
            _ => return None,
        }
    }
    if !inline.is_empty() {
        pattern.insert_str(0, &format!("(?{inline})"));
    }
    let literal = pattern.replace('\\', "\\\\").replace('\'', "\\'");
    Some((format!("'{literal}'"), after.get(flag_len..)?))
}

/// `path` with its string literals blanked (`''`): what is code.
fn code_of(path: &str) -> String {
    let mut code = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(c) = rest.chars().next() {
        let len = if c == '\'' || c == '"' {
            code.push_str("''");
            quoted_len(rest)
        } else {
            code.push(c);
            c.len_utf8()
        };
        rest = rest.get(len..).unwrap_or_default();
    }
    code
}

/// For a path ending in JSONPath-Plus's `.length` outside any bracket
/// (`$.items.length`), the path before it (`$.items`).
///
/// ```
/// use flexmd_artifact::trailing_length;
/// assert_eq!(trailing_length("$.items.length"), Some("$.items"));
/// assert_eq!(trailing_length("$[?@.a == 'x.length']"), None);
/// assert_eq!(trailing_length("$..length"), None);
/// assert_eq!(trailing_length("$.length"), Some("$"));
/// ```
pub fn trailing_length(path: &str) -> Option<&str> {
    let trimmed = path.trim_end();
    let parent = trimmed.strip_suffix(".length")?;
    if parent.is_empty() || parent.ends_with('.') {
        return None;
    }
    // The `.length` must be code at depth 0, not inside a string or a
    // bracket.
    let code = code_of(parent);
    let mut depth = 0i64;
    for c in code.chars() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            _ => {}
        }
    }
    (depth == 0 && code_of(trimmed).ends_with(".length")).then_some(parent)
}

/// Whether `path` uses `.length` inside a filter (`[?@.tags.length > 1]`),
/// where RFC 9535 reads a member named `length`.
pub(crate) fn length_in_filter(path: &str) -> bool {
    let code = code_of(path);
    code.find("[?")
        .is_some_and(|at| code.get(at..).unwrap_or_default().contains(".length"))
}

/// What in `path` has no RFC 9535 form, and its equivalent where there is
/// one.
fn unsupported(path: &str) -> Option<String> {
    // Outside string literals only.
    let code = code_of(path);
    if let Some(at) = code.find("(@.length-") {
        let n: String = code
            .get(at + 10..)
            .unwrap_or_default()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        return Some(if n.is_empty() {
            "script expressions `[(…)]` are JavaScript, not JSONPath".to_owned()
        } else {
            format!("`[(@.length-{n})]` is `[-{n}]` in RFC 9535")
        });
    }
    for name in ["@parentProperty", "@parent", "@property", "@path"] {
        if code.contains(name) {
            return Some(format!(
                "`{name}` is JSONPath-Plus only and has no RFC 9535 form"
            ));
        }
    }
    if code.contains('~') {
        return Some(
            "`~` (property names) is JSONPath-Plus only; list keys with artifact_json_keys"
                .to_owned(),
        );
    }
    if code.contains(".length") {
        return Some("`@.x.length` is `length(@.x)` in RFC 9535".to_owned());
    }
    for method in [".includes(", ".indexOf(", ".startsWith(", ".endsWith("] {
        if code.contains(method) {
            return Some(format!(
                "JavaScript's `{method}…)` is not JSONPath; use `search(@.x, 'text')` or `match(@.x, 'regex')`"
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewrite(path: &str) -> Option<String> {
        from_jsonpath_plus(path)
    }

    #[test]
    fn jsonpath_plus_comparisons_become_rfc_9535() {
        assert_eq!(
            rewrite(r#"$[?(@.status === "active")]"#).as_deref(),
            Some(r#"$[?(@.status == "active")]"#)
        );
        assert_eq!(
            rewrite("$[?(@.a !== 1 && @.b = 'x=y' && @.c >= 2)]").as_deref(),
            Some("$[?(@.a != 1 && @.b == 'x=y' && @.c >= 2)]")
        );
        assert_eq!(rewrite("$[?(@.a == 1)]"), None, "nothing to rewrite");
        assert_eq!(
            rewrite("$..[?(@.id == @root.current)]").as_deref(),
            Some("$..[?(@.id == $.current)]")
        );
        assert_eq!(rewrite("$[?@.rooted]"), None);
    }

    #[test]
    fn regex_methods_become_search() {
        assert_eq!(
            rewrite("$[?(@.name.match(/^ab\\/c/i))]").as_deref(),
            Some("$[?(search(@.name, '(?i)^ab/c'))]")
        );
        assert_eq!(
            rewrite("$[?(/x\\d+/.test(@['file name']))]").as_deref(),
            Some("$[?(search(@['file name'], 'x\\\\d+'))]")
        );
        assert_eq!(rewrite("$[?(@.a.match(/x/q))]"), None, "unknown flag");
        assert_eq!(rewrite("$[?(@.a.match(/unclosed"), None);
    }

    #[test]
    fn every_rewrite_compiles_and_selects_as_jsonpath_plus_does() {
        let data = serde_json::json!([
            {"status": "active", "name": "Abc"},
            {"status": "idle", "name": "xyz"}
        ]);
        for path in [
            r#"$[?(@.status === "active")]"#,
            "$[?(@.status !== 'idle')]",
            "$[?(@.status = 'active')]",
            "$[?(@.name.match(/^a/i))]",
            "$[?(/B/i.test(@.name))]",
        ] {
            let found = compile_path(path).unwrap().query(&data).all();
            assert_eq!(found, [&data[0]], "{path}");
        }
    }

    #[test]
    fn forms_without_an_equivalent_say_so() {
        let err = |p: &str| compile_path(p).unwrap_err().to_string();
        assert!(err("$..book[(@.length-2)]").contains("`[(@.length-2)]` is `[-2]`"));
        // `@.tags.length` is valid RFC 9535 (a member named `length`), so it
        // compiles; only where the path fails anyway is the hint given.
        assert!(err("$[?(@.tags.length() > 1)]").contains("`length(@.x)`"));
        assert!(err("$..*[?(@property === 'a')]").contains("`@property` is JSONPath-Plus only"));
        assert!(err("$.*~").contains("artifact_json_keys"));
        let plain = err("store.book");
        assert!(plain.contains("paths start with `$`"), "{plain}");
        assert!(plain.contains("RFC 9535"), "{plain}");
    }
}
