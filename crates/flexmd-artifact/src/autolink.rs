//! GFM autolink literals — bare `https://…`, `www.…` and `name@domain`
//! in running text — found as remark-gfm finds them: its parse-time rules
//! for URLs (micromark's) and its text-node rules for e-mail addresses
//! (`mdast-util-gfm-autolink-literal`), so `md_links` lists the links a
//! JavaScript reader of the same Markdown gets.

use serde::{Deserialize, Serialize};

/// A link found by [`SpooledMarkdownArtifact::md_links`](crate::SpooledMarkdownArtifact::md_links): `{text, url, title?}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Link {
    /// The link text.
    pub text: String,
    /// The destination.
    pub url: String,
    /// The title, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// The autolink literals of one run of text (a text node: text outside
/// links, code and HTML, soft line breaks included), in order.
///
/// A URL is `http://` or `https://` (any case) not after an ASCII letter,
/// or `www.` at the start or after whitespace or punctuation; then a
/// domain (letters, digits, `-`, `.`, `_`; not starting with punctuation;
/// no `_` in its last two labels), then a path up to whitespace or `<`.
/// Trailing punctuation (`!"')*,.:;?_~]`) is not part of it, unless a `)`
/// closes a `(` of the link. An e-mail address is a local part of
/// letters, digits, `+`, `-`, `.`, `_` (not after one of those), `@`, and
/// a domain of two labels or more not ending in `-`, `_` or a digit.
pub(crate) fn literal_links(text: &str, out: &mut Vec<Link>) {
    let mut from = 0;
    let mut at = 0;
    // The end of a domain whose last labels were refused: a later start
    // inside it would end its domain there too, with the same labels, so it
    // is not tried again (else a long run of `www.a_b.` is quadratic).
    let mut refused_to = 0;
    while at < text.len() {
        match url_at(text, at, &mut refused_to) {
            Some((link, consumed, trail)) => {
                if let Some(before) = text.get(from..at) {
                    emails(before, out);
                }
                out.push(link);
                // The trail is text again, read for e-mails with what follows.
                from = at + consumed - trail;
                at += consumed;
            }
            None => at += char_len(text, at),
        }
    }
    if let Some(rest) = text.get(from..) {
        emails(rest, out);
    }
}

/// The URL literal starting at byte `at`: the link, the bytes the match
/// took and how many of those are the trail left as text.
fn url_at(text: &str, at: usize, refused_to: &mut usize) -> Option<(Link, usize, usize)> {
    if at < *refused_to {
        return None;
    }
    let rest = text.get(at..)?;
    let bytes = rest.as_bytes();
    let starts = |prefix: &[u8]| {
        bytes
            .get(..prefix.len())
            .is_some_and(|b| b.eq_ignore_ascii_case(prefix))
    };
    let before = text.get(..at).and_then(|t| t.chars().next_back());
    let (protocol_len, www) = if starts(b"https://") {
        (8, false)
    } else if starts(b"http://") {
        (7, false)
    } else if starts(b"www.") {
        (0, true)
    } else {
        return None;
    };
    let allowed = if www {
        before.is_none_or(|c| c.is_whitespace() || is_punctuation(c))
    } else {
        !before.is_some_and(|c| c.is_ascii_alphabetic())
    };
    if !allowed {
        return None;
    }
    let after = rest.get(protocol_len..)?;
    let domain_len: usize = after
        .chars()
        .take_while(|&c| {
            matches!(c, '-' | '.' | '_')
                || !(c.is_whitespace() || c.is_control() || is_punctuation(c))
        })
        .map(char::len_utf8)
        .sum();
    let domain = after.get(..domain_len)?;
    if domain.chars().next().is_none_or(is_punctuation) {
        return None;
    }
    if !correct_domain(domain) {
        *refused_to = at + protocol_len + domain_len;
        return None;
    }
    let path_len: usize = after
        .get(domain_len..)?
        .chars()
        .take_while(|&c| !c.is_whitespace() && c != '<')
        .map(char::len_utf8)
        .sum();
    let (kept, trail) = split_trail(after.get(..domain_len + path_len)?);
    let protocol = rest.get(..protocol_len)?;
    let prefix = if www { "http://" } else { "" };
    let link = Link {
        text: format!("{protocol}{kept}"),
        url: format!("{prefix}{protocol}{kept}"),
        title: None,
    };
    Some((link, protocol_len + domain_len + path_len, trail))
}

/// Unicode punctuation or a symbol, as micromark tells them (ASCII
/// punctuation; elsewhere what is neither a letter, a digit, a mark nor
/// whitespace). A character outside the Basic Multilingual Plane (an
/// emoji) is not, as JavaScript sees only its second UTF-16 half there.
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation()
        || (!c.is_ascii()
            && u32::from(c) <= 0xFFFF
            && !c.is_alphanumeric()
            && !c.is_whitespace()
            && !c.is_control())
}

/// No `_` in the domain's last two labels.
fn correct_domain(domain: &str) -> bool {
    !domain.rsplit('.').take(2).any(|label| label.contains('_'))
}

/// The URL without its trailing punctuation, and the trail's length: a
/// `)` of the trail stays while the URL has more `(` than `)`.
fn split_trail(url: &str) -> (&str, usize) {
    let trail_len = url
        .bytes()
        .rev()
        .take_while(|b| b"!\"')*,.:;?_~]".contains(b))
        .count();
    let mut end = url.len() - trail_len;
    let opening = url.get(..end).map_or(0, |u| u.matches('(').count());
    let mut closing = url.get(..end).map_or(0, |u| u.matches(')').count());
    while opening > closing {
        let Some(close) = url.get(end..).and_then(|t| t.find(')')) else {
            break;
        };
        end += close + 1;
        closing += 1;
    }
    (url.get(..end).unwrap_or(url), url.len() - end)
}

/// The e-mail addresses of `run` (text the URLs left).
fn emails(run: &str, out: &mut Vec<Link>) {
    let bytes = run.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let after_local = at
            .checked_sub(1)
            .and_then(|i| bytes.get(i))
            .is_some_and(|&b| is_local(b));
        if !after_local
            && let Some(end) = address_end(bytes, at)
            && let Some(address) = run.get(at..end)
        {
            out.push(Link {
                text: address.to_owned(),
                url: format!("mailto:{address}"),
                title: None,
            });
            at = end;
        } else {
            at += 1;
        }
    }
}

/// `[A-Za-z0-9_]`, `+`, `-` or `.`: a byte of an address's local part.
fn is_local(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'-' | b'.')
}

/// The end of the address whose local part starts at `local`: the local
/// part, `@`, labels of letters, digits, `_`, `-` joined by periods (two
/// at least), the last byte not `-`, `_` or a digit.
fn address_end(bytes: &[u8], local: usize) -> Option<usize> {
    let is_label = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-');
    let run = |from: usize, f: &dyn Fn(&u8) -> bool| {
        bytes
            .get(from..)
            .map_or(0, |b| b.iter().take_while(|c| f(c)).count())
    };
    let local_end = local + run(local, &|b| is_local(*b));
    if local_end == local || bytes.get(local_end) != Some(&b'@') {
        return None;
    }
    let first = run(local_end + 1, &is_label);
    if first == 0 {
        return None;
    }
    let mut end = local_end + 1 + first;
    let mut labels = 1;
    while bytes.get(end) == Some(&b'.') && run(end + 1, &is_label) > 0 {
        end += 1 + run(end + 1, &is_label);
        labels += 1;
    }
    let last = *bytes.get(end.checked_sub(1)?)?;
    (labels >= 2 && !(last.is_ascii_digit() || last == b'-' || last == b'_')).then_some(end)
}

/// The length in bytes of the character at byte `at` (1 past the end).
fn char_len(text: &str, at: usize) -> usize {
    text.get(at..)
        .and_then(|t| t.chars().next())
        .map_or(1, char::len_utf8)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;

    fn links(text: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        literal_links(text, &mut out);
        out.into_iter().map(|l| (l.text, l.url)).collect()
    }

    /// Expected values are what remark-gfm 4.0.1 (remark-parse 11) gives
    /// for the same text; the npm tests compare the two on documents.
    #[test]
    fn links_as_remark_gfm_finds_them() {
        let cases: [(&str, &[(&str, &str)]); 14] = [
            (
                "See https://example.com/a?b=1. Or www.commonmark.org/a.b, then (www.x.org/q=(y)).",
                &[
                    ("https://example.com/a?b=1", "https://example.com/a?b=1"),
                    ("www.commonmark.org/a.b", "http://www.commonmark.org/a.b"),
                    ("www.x.org/q=(y)", "http://www.x.org/q=(y)"),
                ],
            ),
            (
                "www.google.com/search?q=Markup+(business)))",
                &[(
                    "www.google.com/search?q=Markup+(business)",
                    "http://www.google.com/search?q=Markup+(business)",
                )],
            ),
            ("see www. here", &[("www", "http://www")]),
            (
                "http://localhost:3000/x",
                &[("http://localhost:3000/x", "http://localhost:3000/x")],
            ),
            (
                "😀https://example.com",
                &[("https://example.com", "https://example.com")],
            ),
            (
                "a/b@example.com",
                &[("b@example.com", "mailto:b@example.com")],
            ),
            (
                "Write to foo.bar+baz@example.co.uk, or (ops@example.org).",
                &[
                    (
                        "foo.bar+baz@example.co.uk",
                        "mailto:foo.bar+baz@example.co.uk",
                    ),
                    ("ops@example.org", "mailto:ops@example.org"),
                ],
            ),
            (
                "https://x.org/u/a@b.com and é@ok.com",
                &[("https://x.org/u/a@b.com", "https://x.org/u/a@b.com")],
            ),
            (
                "mailto:a@b.com and xmpp:c@d.org",
                &[("a@b.com", "mailto:a@b.com"), ("c@d.org", "mailto:c@d.org")],
            ),
            (
                "HTTPS://UP.COM/X",
                &[("HTTPS://UP.COM/X", "HTTPS://UP.COM/X")],
            ),
            (
                "www.example.com/?q=a&b=c;",
                &[(
                    "www.example.com/?q=a&b=c",
                    "http://www.example.com/?q=a&b=c",
                )],
            ),
            (
                "Visit https://a.com/path_(x) now",
                &[("https://a.com/path_(x)", "https://a.com/path_(x)")],
            ),
            (
                "text\nhttps://next.line.com/x\nmore",
                &[("https://next.line.com/x", "https://next.line.com/x")],
            ),
            (
                "https://github.com/o/r/issues/12#issue-1.",
                &[(
                    "https://github.com/o/r/issues/12#issue-1",
                    "https://github.com/o/r/issues/12#issue-1",
                )],
            ),
        ];
        for (text, expected) in cases {
            let expected: Vec<(String, String)> = expected
                .iter()
                .map(|(t, u)| ((*t).to_owned(), (*u).to_owned()))
                .collect();
            assert_eq!(links(text), expected, "{text}");
        }
    }

    /// A long run of refused domains is read once, not once per `www.`
    /// (it took 6.5 s for 200 KB, quadratic), and a link after it is found.
    #[test]
    fn refused_domains_are_not_read_again() {
        let text = format!("{} www.ok.org", "www.a_b.".repeat(250_000));
        assert_eq!(
            links(&text),
            [("www.ok.org".to_owned(), "http://www.ok.org".to_owned())]
        );
    }

    #[test]
    fn not_links() {
        for text in [
            "www.a_b.c_d.com",
            "xhttp://example.com",
            "me@example.c0m1",
            "a.b@c.d.e-",
            "foo@bar.baz_",
            "http://-bad.com http://_x.com http://a.b_c",
        ] {
            assert_eq!(links(text), [], "{text}");
        }
    }
}
