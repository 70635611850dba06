//! The grammar every dialect is written from: named rules of literals,
//! character classes, sequences, alternatives and bounded repetition.

use std::collections::HashMap;

use serde::Serialize;

/// What a grammar enforces at one place, and what it leaves to validation
/// after the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Coverage {
    /// Where: a JSON Pointer into the schema (`""` is the root), or a
    /// section of a spec.
    pub place: String,
    /// The keywords (or rules) the grammar enforces there.
    pub enforced: Vec<String>,
    /// The keywords (or rules) it does not: validation after the answer
    /// checks them.
    pub unenforced: Vec<String>,
}

/// One expression of a rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Expr {
    /// Exactly this text.
    Lit(String),
    /// One character in (or, negated, not in) these inclusive ranges.
    Class {
        ranges: Vec<(char, char)>,
        negated: bool,
    },
    /// Each in turn.
    Seq(Vec<Expr>),
    /// Any one of them.
    Alt(Vec<Expr>),
    /// `min` to `max` (unbounded when `None`) times.
    Rep {
        expr: Box<Expr>,
        min: u32,
        max: Option<u32>,
    },
    /// Another rule, by index.
    Ref(usize),
    /// One token of the answer (a string, a number): Lark writes it as one
    /// regex lexeme; the other dialects as its content. Never empty, and
    /// refers only to token rules.
    Token(Box<Expr>),
}

impl Expr {
    pub(crate) fn lit(text: impl Into<String>) -> Expr {
        Expr::Lit(text.into())
    }

    pub(crate) fn class(ranges: &[(char, char)]) -> Expr {
        Expr::Class {
            ranges: ranges.to_vec(),
            negated: false,
        }
    }

    pub(crate) fn not_class(ranges: &[(char, char)]) -> Expr {
        Expr::Class {
            ranges: ranges.to_vec(),
            negated: true,
        }
    }

    pub(crate) fn seq(items: Vec<Expr>) -> Expr {
        let mut flat = Vec::with_capacity(items.len());
        for item in items {
            match item {
                Expr::Seq(inner) => flat.extend(inner),
                Expr::Lit(text) if text.is_empty() => {}
                other => flat.push(other),
            }
        }
        // Adjacent literals as one: fewer, longer lexemes.
        let mut merged: Vec<Expr> = Vec::with_capacity(flat.len());
        for item in flat {
            match (merged.last_mut(), item) {
                (Some(Expr::Lit(last)), Expr::Lit(text)) => last.push_str(&text),
                (_, item) => merged.push(item),
            }
        }
        if merged.len() == 1 {
            merged.pop().unwrap_or(Expr::Seq(Vec::new()))
        } else {
            Expr::Seq(merged)
        }
    }

    pub(crate) fn alt(items: Vec<Expr>) -> Expr {
        let mut flat: Vec<Expr> = Vec::with_capacity(items.len());
        for item in items {
            match item {
                Expr::Alt(inner) => flat.extend(inner),
                other => {
                    if !flat.contains(&other) {
                        flat.push(other);
                    }
                }
            }
        }
        if flat.len() == 1 {
            flat.pop().unwrap_or(Expr::Alt(Vec::new()))
        } else {
            Expr::Alt(flat)
        }
    }

    pub(crate) fn token(expr: Expr) -> Expr {
        Expr::Token(Box::new(expr))
    }

    pub(crate) fn opt(expr: Expr) -> Expr {
        Expr::rep(expr, 0, Some(1))
    }

    pub(crate) fn star(expr: Expr) -> Expr {
        Expr::rep(expr, 0, None)
    }

    pub(crate) fn rep(expr: Expr, min: u32, max: Option<u32>) -> Expr {
        if max == Some(1) && min == 1 {
            return expr;
        }
        // `(x{1,n})?` is `x{0,n}`: one quantifier, which every dialect (and
        // every converter between them) reads the same way.
        if let (
            0,
            Some(1),
            Expr::Rep {
                expr: inner,
                min: 1,
                max: inner_max,
            },
        ) = (min, max, &expr)
        {
            return Expr::Rep {
                expr: inner.clone(),
                min: 0,
                max: *inner_max,
            };
        }
        Expr::Rep {
            expr: Box::new(expr),
            min,
            max,
        }
    }
}

/// Named rules; rule 0 is the start.
#[derive(Debug, Clone, Default)]
pub(crate) struct Rules {
    /// Each rule's logical name (made fit for a dialect when rendered).
    pub(crate) names: Vec<String>,
    /// Each rule's body; `None` while it is being built.
    pub(crate) bodies: Vec<Option<Expr>>,
    /// Rules that are tokens (whitespace, a string's character): Lark
    /// writes them as regex terminals, copied into the regexes around them.
    pub(crate) lexical: Vec<bool>,
    /// Where each rule comes from, for errors: a JSON Pointer (a `$ref`'s
    /// target, or the first place a value of any kind is allowed).
    pub(crate) places: Vec<String>,
    by_key: HashMap<String, usize>,
}

impl Rules {
    /// A rule for `key` (a stable identity, such as a schema pointer),
    /// named `name`: the existing one, or a new empty one (`true` when new).
    pub(crate) fn declare(&mut self, key: &str, name: &str) -> (usize, bool) {
        if let Some(&id) = self.by_key.get(key) {
            return (id, false);
        }
        let id = self.names.len();
        self.names.push(name.to_owned());
        self.bodies.push(None);
        self.lexical.push(false);
        self.places
            .push(key.strip_prefix('#').unwrap_or(key).to_owned());
        self.by_key.insert(key.to_owned(), id);
        (id, true)
    }

    /// Marks rule `id` as a token (see [`Rules::lexical`]): its body must
    /// refer to no rule but other tokens.
    pub(crate) fn mark_lexical(&mut self, id: usize) {
        if let Some(flag) = self.lexical.get_mut(id) {
            *flag = true;
        }
    }

    pub(crate) fn is_lexical(&self, id: usize) -> bool {
        self.lexical.get(id).copied().unwrap_or(false)
    }

    pub(crate) fn define(&mut self, id: usize, body: Expr) {
        if let Some(slot) = self.bodies.get_mut(id) {
            *slot = Some(body);
        }
    }

    /// The rule reachable from `id` (or `id` itself) that refers to itself.
    pub(crate) fn first_recursive(&self, id: usize) -> Option<usize> {
        let mut seen = vec![false; self.len()];
        let mut stack = vec![id];
        while let Some(next) = stack.pop() {
            if self.is_recursive(next) {
                return Some(next);
            }
            if let Some(flag) = seen.get_mut(next)
                && !*flag
            {
                *flag = true;
                if let Some(body) = self.body(next) {
                    refs(body, &mut stack);
                }
            }
        }
        None
    }

    pub(crate) fn body(&self, id: usize) -> Option<&Expr> {
        self.bodies.get(id).and_then(Option::as_ref)
    }

    pub(crate) fn len(&self) -> usize {
        self.names.len()
    }

    /// For every rule, whether it reaches a cycle (itself or a rule that
    /// refers to itself): one depth-first walk over all rules, without
    /// recursion, so a chain of thousands of rules costs what it holds.
    pub(crate) fn reaches_cycle(&self) -> Vec<bool> {
        const NEW: u8 = 0;
        const OPEN: u8 = 1;
        const DONE: u8 = 2;
        let n = self.len();
        let mut state = vec![NEW; n];
        let mut bad = vec![false; n];
        let children = |id: usize| {
            let mut out = Vec::new();
            if let Some(body) = self.body(id) {
                refs(body, &mut out);
            }
            out
        };
        for root in 0..n {
            if state.get(root) != Some(&NEW) {
                continue;
            }
            // (rule, its children, how many have been looked at)
            let mut stack = vec![(root, children(root), 0usize)];
            if let Some(s) = state.get_mut(root) {
                *s = OPEN;
            }
            while let Some((id, kids, at)) = stack.last_mut() {
                let id = *id;
                let Some(&child) = kids.get(*at) else {
                    if let Some(s) = state.get_mut(id) {
                        *s = DONE;
                    }
                    stack.pop();
                    if let Some(&(parent, _, _)) = stack.last()
                        && bad.get(id) == Some(&true)
                        && let Some(b) = bad.get_mut(parent)
                    {
                        *b = true;
                    }
                    continue;
                };
                *at += 1;
                match state.get(child).copied() {
                    Some(NEW) => {
                        if let Some(s) = state.get_mut(child) {
                            *s = OPEN;
                        }
                        let grandchildren = children(child);
                        stack.push((child, grandchildren, 0));
                    }
                    // A child still open closes a cycle: every open rule
                    // from it down reaches it, and so does `id`.
                    Some(OPEN) => {
                        if let Some(b) = bad.get_mut(id) {
                            *b = true;
                        }
                    }
                    Some(_) => {
                        if bad.get(child) == Some(&true)
                            && let Some(b) = bad.get_mut(id)
                        {
                            *b = true;
                        }
                    }
                    None => {}
                }
            }
        }
        bad
    }

    /// Whether rule `id` can reach itself.
    pub(crate) fn is_recursive(&self, id: usize) -> bool {
        let mut seen = vec![false; self.len()];
        let mut stack: Vec<usize> = Vec::new();
        if let Some(body) = self.body(id) {
            refs(body, &mut stack);
        }
        while let Some(next) = stack.pop() {
            if next == id {
                return true;
            }
            if let Some(flag) = seen.get_mut(next)
                && !*flag
            {
                *flag = true;
                if let Some(body) = self.body(next) {
                    refs(body, &mut stack);
                }
            }
        }
        false
    }
}

/// The rules `expr` refers to.
pub(crate) fn refs(expr: &Expr, out: &mut Vec<usize>) {
    match expr {
        Expr::Ref(id) => out.push(*id),
        Expr::Seq(items) | Expr::Alt(items) => {
            for item in items {
                refs(item, out);
            }
        }
        Expr::Rep { expr, .. } | Expr::Token(expr) => refs(expr, out),
        Expr::Lit(_) | Expr::Class { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_flatten_and_join_literals() {
        let e = Expr::seq(vec![
            Expr::lit("a"),
            Expr::seq(vec![Expr::lit("b"), Expr::Ref(1)]),
            Expr::lit(""),
            Expr::lit("c"),
            Expr::lit("d"),
        ]);
        assert_eq!(
            e,
            Expr::Seq(vec![Expr::lit("ab"), Expr::Ref(1), Expr::lit("cd")])
        );
        assert_eq!(
            Expr::alt(vec![Expr::lit("x"), Expr::lit("x")]),
            Expr::lit("x")
        );
    }

    #[test]
    fn recursion_is_found_through_other_rules() {
        let mut rules = Rules::default();
        let (a, _) = rules.declare("a", "a");
        let (b, _) = rules.declare("b", "b");
        let (c, _) = rules.declare("c", "c");
        rules.define(a, Expr::seq(vec![Expr::lit("("), Expr::Ref(b)]));
        rules.define(b, Expr::opt(Expr::Ref(a)));
        rules.define(c, Expr::lit("c"));
        assert!(rules.is_recursive(a));
        assert!(rules.is_recursive(b));
        assert!(!rules.is_recursive(c));
        let cycle = rules.reaches_cycle();
        assert_eq!(
            (cycle.get(a), cycle.get(b), cycle.get(c)),
            (Some(&true), Some(&true), Some(&false))
        );
    }
}
