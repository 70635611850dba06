//! The rules written in each engine's dialect.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use crate::error::ConstrainError;
use crate::grammar::format::GrammarFormat;
use crate::grammar::ir::{Expr, Rules};

/// The most characters a regex written for the `regex` format (or a Lark
/// terminal) may have: copying every rule into one expression multiplies
/// its size.
pub const MAX_REGEX_CHARS: usize = 1 << 20;

/// The most rules one regex nests inside each other: regex engines refuse
/// deeper nesting (the `regex` crate's default limit is 250 groups), and
/// copying rules is recursive, so the bound keeps every thread's stack
/// safe.
pub const MAX_REGEX_NESTING: usize = 50;

/// A regex past [`MAX_REGEX_CHARS`].
fn regex_too_large() -> ConstrainError {
    ConstrainError::TooLarge {
        what: "the regex",
        max: MAX_REGEX_CHARS,
        unit: "characters",
    }
}

/// The rules as text in `format`.
pub(crate) fn render(rules: &Rules, format: GrammarFormat) -> Result<String, ConstrainError> {
    match format {
        GrammarFormat::Regex => {
            let mut inliner = Inliner::new(rules);
            let regex = inliner.regex(0)?;
            Ok(format!("^{regex}$"))
        }
        GrammarFormat::Lark => lark(rules),
        GrammarFormat::Gbnf | GrammarFormat::Ebnf => Ok(bnf(rules, format)),
    }
}

/// Names fit for the dialect, unique, the start rule first.
fn names(rules: &Rules, format: GrammarFormat) -> Vec<String> {
    let mut used: HashSet<String> = HashSet::new();
    let mut out = Vec::with_capacity(rules.len());
    for (id, logical) in rules.names.iter().enumerate() {
        let base = if id == 0 {
            match format {
                GrammarFormat::Lark => "start".to_owned(),
                _ => "root".to_owned(),
            }
        } else {
            let sep = if format == GrammarFormat::Gbnf {
                '-'
            } else {
                '_'
            };
            let mut name = String::new();
            for c in logical.chars() {
                let c = if format == GrammarFormat::Lark {
                    c.to_ascii_lowercase()
                } else {
                    c
                };
                if c.is_ascii_alphanumeric() {
                    name.push(c);
                } else if !name.ends_with(sep) {
                    name.push(sep);
                }
            }
            let name = name.trim_matches(sep).to_owned();
            // A letter first (Lark treats a leading `_` as "inline me"),
            // and never a name the dialect reserves.
            let name = if name.is_empty()
                || !name.starts_with(|c: char| c.is_ascii_alphabetic())
                || matches!(name.as_str(), "root" | "start")
            {
                format!("r{sep}{name}")
            } else {
                name
            };
            name.trim_end_matches(sep).to_owned()
        };
        let mut name = base.clone();
        let mut n = 2;
        while !used.insert(name.clone()) {
            let sep = if format == GrammarFormat::Gbnf {
                '-'
            } else {
                '_'
            };
            name = format!("{base}{sep}{n}");
            n += 1;
        }
        out.push(name);
    }
    out
}

/// The rules reachable from the start: only those are written (engines
/// warn about, or refuse, rules nothing uses).
pub(crate) fn reachable(rules: &Rules) -> Vec<bool> {
    let mut seen = vec![false; rules.len()];
    let mut stack = vec![0];
    while let Some(id) = stack.pop() {
        if let Some(flag) = seen.get_mut(id)
            && !*flag
        {
            *flag = true;
            if let Some(body) = rules.body(id) {
                crate::grammar::ir::refs(body, &mut stack);
            }
        }
    }
    seen
}

/// GBNF (llama.cpp) and XGrammar's EBNF: `name ::= expr`, one rule a line.
fn bnf(rules: &Rules, format: GrammarFormat) -> String {
    let names = names(rules, format);
    let used = reachable(rules);
    let mut out = String::new();
    for (id, name) in names.iter().enumerate() {
        if !used.get(id).copied().unwrap_or(false) {
            continue;
        }
        let body = rules
            .body(id)
            .map(|b| bnf_expr(b, &names, 0))
            .unwrap_or_default();
        let _ = writeln!(out, "{name} ::= {body}");
    }
    out
}

fn bnf_expr(expr: &Expr, names: &[String], parent: u8) -> String {
    match expr {
        Expr::Lit(text) => bnf_literal(text),
        Expr::Class { ranges, negated } => bnf_class(ranges, *negated),
        Expr::Ref(id) => names.get(*id).cloned().unwrap_or_default(),
        Expr::Seq(items) if items.is_empty() => "\"\"".to_owned(),
        Expr::Seq(items) => {
            let text = items
                .iter()
                .map(|i| bnf_expr(i, names, 2))
                .collect::<Vec<_>>()
                .join(" ");
            if parent >= 3 {
                format!("({text})")
            } else {
                text
            }
        }
        Expr::Alt(items) => {
            let text = items
                .iter()
                .map(|i| bnf_expr(i, names, 1))
                .collect::<Vec<_>>()
                .join(" | ");
            if parent >= 1 {
                format!("({text})")
            } else {
                text
            }
        }
        Expr::Rep { expr, min, max } => {
            // A quantifier on a quantified item needs parentheses (`x{1,3}?`
            // means something else, or nothing, in every dialect).
            let text = format!("{}{}", bnf_expr(expr, names, 3), quantifier(*min, *max));
            if parent >= 3 {
                format!("({text})")
            } else {
                text
            }
        }
        Expr::Token(inner) => bnf_expr(inner, names, parent),
    }
}

fn quantifier(min: u32, max: Option<u32>) -> String {
    match (min, max) {
        (0, None) => "*".to_owned(),
        (1, None) => "+".to_owned(),
        (0, Some(1)) => "?".to_owned(),
        (m, None) => format!("{{{m},}}"),
        (m, Some(n)) if m == n => format!("{{{m}}}"),
        (m, Some(n)) => format!("{{{m},{n}}}"),
    }
}

/// `text` as a double-quoted literal: quotes, backslashes and line breaks
/// escaped as both dialects write them, other control characters by
/// `control` (GBNF's `\xNN`, Lark's `\uNNNN`).
fn quoted(text: &str, control: fn(&mut String, u32)) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => control(&mut out, c as u32),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn bnf_literal(text: &str) -> String {
    quoted(text, |out, c| {
        let _ = write!(out, "\\x{c:02X}");
    })
}

fn bnf_class(ranges: &[(char, char)], negated: bool) -> String {
    let mut out = String::from("[");
    if negated {
        out.push('^');
    }
    let one = |out: &mut String, c: char| match c {
        ']' | '[' | '\\' | '-' | '^' | '"' => {
            let _ = write!(out, "\\x{:02X}", c as u32);
        }
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if (c as u32) < 0x20 || c == '\u{7f}' => {
            let _ = write!(out, "\\x{:02X}", c as u32);
        }
        c if (c as u32) > 0xFFFF => {
            let _ = write!(out, "\\U{:08X}", c as u32);
        }
        c => out.push(c),
    };
    for &(lo, hi) in ranges {
        one(&mut out, lo);
        if hi != lo {
            out.push('-');
            one(&mut out, hi);
        }
    }
    out.push(']');
    out
}

/// Lark as llguidance reads it: rules in lowercase; tokens (whitespace, a
/// string's characters) as regex terminals in uppercase; and every piece of
/// a rule that is regular and more than a literal (a string value, a
/// number) as one inline `/regex/`, so the lexer reads it in one piece.
fn lark(rules: &Rules) -> Result<String, ConstrainError> {
    let names = names(rules, GrammarFormat::Lark);
    let used = reachable(rules);
    let mut inliner = Inliner::new(rules);
    let mut out = String::new();
    let mut terminals = String::new();
    for (id, name) in names.iter().enumerate() {
        if !used.get(id).copied().unwrap_or(false) {
            continue;
        }
        if rules.is_lexical(id) {
            let regex = match optional_token(rules, id) {
                Some(inner) => inliner.expr(inner, 0)?,
                None => inliner.regex(id)?,
            };
            let _ = writeln!(terminals, "{}: /{}/", name.to_ascii_uppercase(), regex);
            continue;
        }
        let body = match rules.body(id) {
            Some(b) => lark_expr(b, &names, &mut inliner, 0)?,
            None => String::new(),
        };
        let _ = writeln!(out, "{name}: {body}");
    }
    out.push_str(&terminals);
    Ok(out)
}

fn lark_expr(
    expr: &Expr,
    names: &[String],
    inliner: &mut Inliner<'_>,
    parent: u8,
) -> Result<String, ConstrainError> {
    Ok(match expr {
        Expr::Token(inner) => format!("/{}/", inliner.expr(inner, 0)?),
        Expr::Lit(text) => lark_literal(text),
        Expr::Class { ranges, negated } => format!("/{}/", regex_class(ranges, *negated)),
        Expr::Ref(id) => {
            let name = names.get(*id).cloned().unwrap_or_default();
            if !inliner.rules.is_lexical(*id) {
                name
            } else if optional_token(inliner.rules, *id).is_some() {
                // A lexeme never matches the empty text: the terminal is
                // the non-empty part, made optional here.
                format!("{}?", name.to_ascii_uppercase())
            } else {
                name.to_ascii_uppercase()
            }
        }
        Expr::Seq(items) if items.is_empty() => "\"\"".to_owned(),
        Expr::Seq(items) => {
            let mut parts = Vec::with_capacity(items.len());
            for item in items {
                parts.push(lark_expr(item, names, inliner, 2)?);
            }
            let text = parts.join(" ");
            if parent >= 3 {
                format!("({text})")
            } else {
                text
            }
        }
        Expr::Alt(items) => {
            let mut parts = Vec::with_capacity(items.len());
            for item in items {
                parts.push(lark_expr(item, names, inliner, 1)?);
            }
            let text = parts.join(" | ");
            if parent >= 1 {
                format!("({text})")
            } else {
                text
            }
        }
        Expr::Rep { expr, min, max } => {
            let inner = lark_expr(expr, names, inliner, 3)?;
            let text = match (min, max) {
                (0, None) => format!("{inner}*"),
                (1, None) => format!("{inner}+"),
                (0, Some(1)) => format!("{inner}?"),
                (m, None) => format!("{inner}~{m} {inner}*"),
                (m, Some(n)) if m == n => format!("{inner}~{m}"),
                (m, Some(n)) => format!("{inner}~{m}..{n}"),
            };
            if parent >= 3 {
                format!("({text})")
            } else {
                text
            }
        }
    })
}

/// For a token rule that is `x?`: the `x`.
fn optional_token(rules: &Rules, id: usize) -> Option<&Expr> {
    match rules.body(id) {
        Some(Expr::Rep {
            expr,
            min: 0,
            max: Some(1),
        }) => Some(expr),
        _ => None,
    }
}

fn lark_literal(text: &str) -> String {
    quoted(text, |out, c| {
        let _ = write!(out, "\\u{c:04x}");
    })
}

/// Rules copied into one regex, for the `regex` format and Lark terminals.
struct Inliner<'a> {
    rules: &'a Rules,
    /// Per rule, whether it reaches recursion (so has no regex).
    cyclic: Vec<bool>,
    cache: HashMap<usize, String>,
    /// How many rule references deep the copy is now.
    depth: usize,
}

impl<'a> Inliner<'a> {
    fn new(rules: &'a Rules) -> Self {
        Inliner {
            rules,
            cyclic: rules.reaches_cycle(),
            cache: HashMap::new(),
            depth: 0,
        }
    }

    /// Whether the rule reaches no recursion (so it is a regular language).
    fn is_regular(&self, id: usize) -> bool {
        self.cyclic.get(id) == Some(&false)
    }

    fn regex(&mut self, id: usize) -> Result<String, ConstrainError> {
        if !self.is_regular(id) {
            let culprit = self.rules.first_recursive(id).unwrap_or(id);
            let place = self.rules.places.get(culprit).cloned().unwrap_or_default();
            if self.rules.names.get(culprit).is_some_and(|n| n == "value") {
                return Err(ConstrainError::Unsupported {
                    provider: "regex",
                    pointer: place,
                    reason: "it accepts any JSON value, and a regex cannot follow nesting: give it a type (or use lark, gbnf or ebnf)".to_owned(),
                });
            }
            return Err(ConstrainError::Recursive {
                provider: "regex",
                pointer: place.clone(),
                reference: format!("#{place}"),
            });
        }
        if let Some(done) = self.cache.get(&id) {
            return Ok(done.clone());
        }
        if self.depth >= MAX_REGEX_NESTING {
            return Err(ConstrainError::TooLarge {
                what: "the regex",
                max: MAX_REGEX_NESTING,
                unit: "nested groups (a long chain such as a numbered list with a large bound)",
            });
        }
        let body = self
            .rules
            .body(id)
            .cloned()
            .unwrap_or(Expr::Seq(Vec::new()));
        self.depth += 1;
        let text = self.expr(&body, 0);
        self.depth -= 1;
        let text = text?;
        if text.len() > MAX_REGEX_CHARS {
            return Err(regex_too_large());
        }
        self.cache.insert(id, text.clone());
        Ok(text)
    }

    fn expr(&mut self, expr: &Expr, parent: u8) -> Result<String, ConstrainError> {
        Ok(match expr {
            Expr::Lit(text) => {
                let escaped = regex_literal(text);
                if parent >= 3 && text.chars().count() > 1 {
                    format!("(?:{escaped})")
                } else {
                    escaped
                }
            }
            Expr::Class { ranges, negated } => regex_class(ranges, *negated),
            Expr::Ref(id) => {
                let inner = self.regex(*id)?;
                if parent >= 1 {
                    format!("(?:{inner})")
                } else {
                    inner
                }
            }
            Expr::Seq(items) => {
                let mut text = String::new();
                for item in items {
                    text.push_str(&self.expr(item, 2)?);
                    if text.len() > MAX_REGEX_CHARS {
                        return Err(regex_too_large());
                    }
                }
                if parent >= 3 {
                    format!("(?:{text})")
                } else {
                    text
                }
            }
            Expr::Alt(items) => {
                let mut parts = Vec::with_capacity(items.len());
                for item in items {
                    parts.push(self.expr(item, 1)?);
                }
                let text = parts.join("|");
                if parent >= 1 {
                    format!("(?:{text})")
                } else {
                    text
                }
            }
            Expr::Rep { expr, min, max } => {
                // `x{1,3}?` would be a lazy quantifier: group first.
                let text = format!("{}{}", self.expr(expr, 3)?, quantifier(*min, *max));
                if parent >= 3 {
                    format!("(?:{text})")
                } else {
                    text
                }
            }
            Expr::Token(inner) => self.expr(inner, parent)?,
        })
    }
}

/// A literal with every regex metacharacter (and `/`, Lark's delimiter)
/// escaped.
fn regex_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        regex_char(&mut out, c, false);
    }
    out
}

fn regex_char(out: &mut String, c: char, in_class: bool) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if (c as u32) < 0x20 || c == '\u{7f}' => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        '\\' | '/' | '[' | ']' | '^' | '-' if in_class => {
            out.push('\\');
            out.push(c);
        }
        '.' | '^' | '$' | '|' | '?' | '*' | '+' | '(' | ')' | '[' | ']' | '{' | '}' | '\\'
        | '/'
            if !in_class =>
        {
            out.push('\\');
            out.push(c);
        }
        c => out.push(c),
    }
}

fn regex_class(ranges: &[(char, char)], negated: bool) -> String {
    let mut out = String::from("[");
    if negated {
        out.push('^');
    }
    for &(lo, hi) in ranges {
        regex_char(&mut out, lo, true);
        if hi != lo {
            out.push('-');
            regex_char(&mut out, hi, true);
        }
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn sample() -> Rules {
        let mut rules = Rules::default();
        let (root, _) = rules.declare("root", "root");
        let (digit, _) = rules.declare("digit", "my digit");
        rules.define(
            root,
            Expr::seq(vec![
                Expr::lit("n=\"/"),
                Expr::rep(Expr::Ref(digit), 1, Some(3)),
                Expr::alt(vec![Expr::lit("."), Expr::lit("!")]),
            ]),
        );
        rules.define(digit, Expr::class(&[('0', '9'), ('-', '-')]));
        rules
    }

    #[test]
    fn each_dialect_writes_the_same_rules() {
        let rules = sample();
        assert_eq!(
            render(&rules, GrammarFormat::Gbnf).ok(),
            Some(
                "root ::= \"n=\\\"/\" my-digit{1,3} (\".\" | \"!\")\nmy-digit ::= [0-9\\x2D]\n"
                    .to_owned()
            )
        );
        assert_eq!(
            render(&rules, GrammarFormat::Ebnf).ok(),
            Some(
                "root ::= \"n=\\\"/\" my_digit{1,3} (\".\" | \"!\")\nmy_digit ::= [0-9\\x2D]\n"
                    .to_owned()
            )
        );
        assert_eq!(
            render(&rules, GrammarFormat::Lark).ok(),
            Some(
                "start: \"n=\\\"/\" my_digit~1..3 (\".\" | \"!\")\nmy_digit: /[0-9\\-]/\n"
                    .to_owned()
            )
        );
        assert_eq!(
            render(&rules, GrammarFormat::Regex).ok(),
            Some("^n=\"\\/(?:[0-9\\-]){1,3}(?:\\.|!)$".to_owned())
        );
    }

    #[test]
    fn a_quantified_item_quantified_again_is_grouped() {
        let mut rules = Rules::default();
        let (root, _) = rules.declare("root", "root");
        rules.define(
            root,
            Expr::opt(Expr::rep(Expr::class(&[('a', 'z')]), 2, Some(3))),
        );
        assert_eq!(
            render(&rules, GrammarFormat::Gbnf).ok(),
            Some("root ::= ([a-z]{2,3})?\n".to_owned())
        );
        assert_eq!(
            render(&rules, GrammarFormat::Regex).ok(),
            Some("^(?:[a-z]{2,3})?$".to_owned())
        );
        assert_eq!(
            render(&rules, GrammarFormat::Lark).ok(),
            Some("start: (/[a-z]/~2..3)?\n".to_owned())
        );
        // `(x{1,3})?` is written `x{0,3}`.
        assert_eq!(
            Expr::opt(Expr::rep(Expr::lit("x"), 1, Some(3))),
            Expr::rep(Expr::lit("x"), 0, Some(3))
        );
    }

    #[test]
    fn names_fit_each_dialect() {
        let mut rules = Rules::default();
        for (key, name) in [
            ("a", "root"),
            ("b", "9 lives"),
            ("c", "_x"),
            ("d", "root"),
            ("e", "a.b"),
            ("f", "a-b"),
        ] {
            let (id, _) = rules.declare(key, name);
            rules.define(id, Expr::lit("x"));
        }
        assert_eq!(
            names(&rules, GrammarFormat::Gbnf),
            ["root", "r-9-lives", "x", "r-root", "a-b", "a-b-2"]
        );
        assert_eq!(
            names(&rules, GrammarFormat::Lark),
            ["start", "r_9_lives", "x", "r_root", "a_b", "a_b_2"]
        );
    }

    #[test]
    fn recursion_has_no_regex() {
        let mut rules = Rules::default();
        let (root, _) = rules.declare("root", "root");
        rules.define(
            root,
            Expr::alt(vec![
                Expr::lit("x"),
                Expr::seq(vec![Expr::lit("("), Expr::Ref(root), Expr::lit(")")]),
            ]),
        );
        assert!(matches!(
            render(&rules, GrammarFormat::Regex),
            Err(ConstrainError::Recursive { .. })
        ));
        assert_eq!(
            render(&rules, GrammarFormat::Gbnf).ok(),
            Some("root ::= \"x\" | \"(\" root \")\"\n".to_owned())
        );
    }
}
