//! The repair parser's strings: any quote (smart quotes and backticks too),
//! raw line breaks, unescaped inner quotes, doubled quotes, a missing
//! closing quote (cut where the context says), a key that lost its opening
//! quote.
//!
//! **Reads:** ``string = quote { char | escape | line break } [quote] ; quote = '"' | "'" | "`" | smart quote``
//!
//! **Repairs:** `BacktickString`, `DoubledQuotes`, `MissingQuote`,
//! `SmartQuotes`, `UnclosedString`, `UnescapedNewline`, `UnescapedQuote`.

use serde_json::Value;

use crate::repair::lookahead::{
    after_blank, bare_member_with_string, blank_len, closing_tail, is_key_char, is_quote,
    key_then_colon, member_start, plain_run, quoted_member_start, starts_value_at, window,
};
use crate::repair::{Context, Failure, Parser, RepairKind, Step};

impl<'a> Parser<'a> {
    pub(super) fn string(&mut self, context: Context) -> Result<Step, Failure> {
        let open_at = self.pos;
        let Some(open) = self.peek() else {
            return Ok(Step::Cut);
        };
        let closers: &[char] = match open {
            '"' => &['"'],
            '\'' => &['\''],
            '“' | '”' | '„' => &['”', '“'],
            _ => &['’', '‘'],
        };
        if !matches!(open, '"' | '\'') {
            self.repair(RepairKind::SmartQuotes, open_at);
        }
        self.pos += open.len_utf8();
        if let Some(step) = self.doubled_quotes(open, open_at, context) {
            return Ok(step);
        }
        let mut out = String::new();
        let mut read = StringRead {
            start: self.pos,
            ..StringRead::default()
        };
        loop {
            let rest = self.rest();
            // Copy the plain run in one step.
            let run = match open {
                // ASCII stops: bytes, not a char at a time (most of a long
                // string's cost).
                '"' => plain_run(rest, b'"'),
                '\'' => plain_run(rest, b'\''),
                _ => rest
                    .find(|c: char| {
                        matches!(c, '\\' | '\n' | '\r' | '{' | '}' | '[' | ']' | ',' | ':')
                            || closers.contains(&c)
                    })
                    .unwrap_or(rest.len()),
            };
            out.push_str(rest.get(..run).unwrap_or_default());
            self.pos += run;
            if run > 0 {
                continue;
            }
            let Some(c) = self.peek() else {
                return Ok(self.string_cut(context, out, &read));
            };
            let at = self.pos;
            self.pos += c.len_utf8();
            match c {
                '\\' => {
                    if !self.escape(&mut out, at, open) {
                        return Ok(self.string_cut(context, out, &read));
                    }
                }
                '\n' | '\r' => {
                    if context == Context::Key {
                        return Err(self.fail_at(at, "a key cannot span lines"));
                    }
                    if context == Context::Member
                        && open == '"'
                        && quoted_member_start(after_blank(window(self.rest())), '"')
                    {
                        // `"first line\n"next": 2`: the string ran into the
                        // next member; its closing quote is missing.
                        self.repair(RepairKind::MissingQuote, at);
                        self.pos = at;
                        return Ok(Step::Value(Value::String(out)));
                    }
                    self.repair(RepairKind::UnescapedNewline, at);
                    out.push(c);
                }
                '{' | '[' => {
                    read.nesting(c, 1);
                    out.push(c);
                }
                '}' | ']' => {
                    read.nesting(c, -1);
                    out.push(c);
                }
                ':' => {
                    if context == Context::Key && read.colon.is_none() {
                        read.colon = Some((at, out.len()));
                    }
                    out.push(c);
                }
                ',' => {
                    if context == Context::Member && open == '"' {
                        let after = after_blank(self.rest());
                        if quoted_member_start(after, '"') || bare_member_with_string(after) {
                            // `{"a": "b, "c": 1}`: the string ended at the comma.
                            self.repair(RepairKind::MissingQuote, at);
                            self.pos = at;
                            return Ok(Step::Value(Value::String(out)));
                        }
                        if read.member.is_none() && member_start(after) {
                            read.member = Some((at, out.len()));
                        }
                    }
                    out.push(c);
                }
                _ => {
                    if context == Context::Key
                        && read.colon.is_some()
                        && !after_blank(self.rest()).starts_with(':')
                    {
                        // `{"key:"value"}`: the key ended at its colon.
                        return Ok(self.key_at_colon(out, &read));
                    }
                    if self.ends_string(context, open, &out, &read) {
                        return Ok(Step::Value(Value::String(out)));
                    }
                    if context == Context::Member
                        && open == '"'
                        && read.curly == 0
                        && read.square == 0
                        && out.chars().next_back().is_some_and(char::is_alphanumeric)
                        && key_then_colon(self.rest())
                    {
                        // `"Ada"age": 36`: the string ended at this quote,
                        // and the next key lost its opening quote.
                        return Ok(Step::Value(Value::String(out)));
                    }
                    self.repair(RepairKind::UnescapedQuote, at);
                    read.inner_quote(&out, self.peek());
                    out.push(c);
                }
            }
        }
    }

    /// `` `text` ``: a JavaScript template string, read as written up to
    /// the next backtick (line breaks kept); the end of the input closes it.
    pub(super) fn backtick_string(&mut self) -> Step {
        let start = self.pos;
        self.repair(RepairKind::BacktickString, start);
        let body = self.rest().get(1..).unwrap_or_default();
        match body.find('`') {
            Some(end) => {
                self.pos += 1 + end + 1;
                Step::Value(Value::String(
                    body.get(..end).unwrap_or_default().to_owned(),
                ))
            }
            None => {
                self.repair(RepairKind::UnclosedString, self.text.len());
                self.pos = self.text.len();
                Step::Value(Value::String(body.to_owned()))
            }
        }
    }

    /// A string opened with a doubled or tripled quote: `""` (empty),
    /// `""text""`, `"""text"""`.
    pub(super) fn doubled_quotes(
        &mut self,
        open: char,
        open_at: usize,
        context: Context,
    ) -> Option<Step> {
        if !matches!(open, '"' | '\'') || self.peek() != Some(open) {
            return None;
        }
        let after_two = self.rest().get(1..).unwrap_or_default();
        let pair: String = [open, open].iter().collect();
        if after_two.starts_with(open) {
            // `"""text"""`
            let body = after_two.get(1..).unwrap_or_default();
            let triple: String = [open, open, open].iter().collect();
            let end = body.find(triple.as_str())?;
            self.repair(RepairKind::DoubledQuotes, open_at);
            self.pos += 2 + end + 3;
            return Some(Step::Value(Value::String(
                body.get(..end).unwrap_or_default().to_owned(),
            )));
        }
        if context == Context::Key {
            // `""home": …`: a doubled quote opening a key.
            let word = after_two.find(|c: char| !is_key_char(c)).unwrap_or(0);
            let after_word = after_two.get(word..).unwrap_or_default();
            if word > 0
                && after_word.starts_with(open)
                && after_blank(after_word.get(1..).unwrap_or_default()).starts_with(':')
            {
                self.repair(RepairKind::DoubledQuotes, open_at);
                self.pos += 1 + word + 1;
                return Some(Step::Value(Value::String(
                    after_two.get(..word).unwrap_or_default().to_owned(),
                )));
            }
        }
        let next = after_blank(after_two).chars().next();
        let empty = match next {
            None => true,
            Some(':') => context == Context::Key,
            Some(c) => matches!(c, ',' | '}' | ']' | ')') || is_quote(c),
        };
        if !empty
            && let Some(end) = after_two.find(pair.as_str())
            && !after_two.get(..end).unwrap_or_default().contains('\n')
        {
            // `""text""`
            self.repair(RepairKind::DoubledQuotes, open_at);
            self.pos += 1 + end + 2;
            return Some(Step::Value(Value::String(
                after_two.get(..end).unwrap_or_default().to_owned(),
            )));
        }
        self.pos += 1;
        Some(Step::Value(Value::String(String::new())))
    }

    /// Whether the quote just read ends the string: what follows it must be
    /// able to follow a string there.
    pub(super) fn ends_string(
        &self,
        context: Context,
        open: char,
        out: &str,
        read: &StringRead,
    ) -> bool {
        let rest = self.rest();
        let window = window(rest);
        let (gap, _) = blank_len(window);
        let after = window.get(gap..).unwrap_or_default();
        let crossed_line = window
            .get(..gap)
            .is_some_and(|gap| gap.contains(['\n', '\r']));
        if after.is_empty() || after.starts_with("```") {
            return true;
        }
        let Some(next) = after.chars().next() else {
            return true;
        };
        match context {
            // Keys hold no quotes: reading on would swallow the text.
            Context::Key => true,
            _ => match next {
                '}' => read.curly == 0,
                ']' => read.square == 0,
                ')' => self.open.contains(&b'('),
                ':' => context != Context::Member,
                ',' => {
                    let rest = after.get(1..).unwrap_or_default();
                    let follow = after_blank(rest);
                    !read.inner_open
                        || follow.is_empty()
                        || follow.starts_with(['}', ']'])
                        || starts_value_at(follow)
                        || member_start(follow)
                }
                '+' => after_blank(after.get(1..).unwrap_or_default())
                    .chars()
                    .next()
                    .is_some_and(is_quote),
                c if is_quote(c) && quoted_member_start(after, c) => true,
                _ if context == Context::Element && open == '"' => {
                    // `["a" "b"]`, `["a" 2]`, `["a" b"]`: a comma is missing;
                    // `["say "hi" now"]` keeps its inner quotes.
                    let closing = gap > 0 && !out.ends_with(char::is_whitespace);
                    is_quote(next)
                        || next.is_ascii_digit()
                        || (closing && !read.inner_open && is_key_char(next))
                }
                // A value or member on the next line: a comma is missing,
                // not a quote.
                _ => crossed_line && (starts_value_at(after) || member_start(after)),
            },
        }
    }

    /// The input ended inside a string.
    pub(super) fn string_cut(
        &mut self,
        context: Context,
        mut out: String,
        read: &StringRead,
    ) -> Step {
        if context == Context::Key {
            if read.colon.is_some() {
                return self.key_at_colon(out, read);
            }
            return Step::Cut;
        }
        // The text ends in closing brackets: the closing quote is missing
        // before them (`{"a": "b]}`), or before the member that starts at a
        // comma (`{"a": "b, c: 1}`). The closing run holds no escapes, so it
        // ends the value as it ends the text.
        let tail = closing_tail(self.text);
        let run = self.text.len() - tail;
        let at_tail = (tail > read.start && run <= out.len()).then(|| (tail, out.len() - run));
        let cut = if tail < self.text.len() {
            read.member.or(at_tail)
        } else {
            None
        };
        match cut {
            Some((at, len)) => {
                out.truncate(len);
                let kept = out.trim_end().len();
                out.truncate(kept);
                // Line breaks read past the cut are no longer in the value.
                self.repairs
                    .retain(|r| r.offset < at || r.kind != RepairKind::UnescapedNewline);
                self.repair(RepairKind::MissingQuote, at);
                self.pos = at;
            }
            None => self.repair(RepairKind::UnclosedString, self.text.len()),
        }
        Step::Value(Value::String(out))
    }

    /// A key that ran past its colon (`{"key:"value"}`, `{"key:value}`):
    /// it ends at the colon, which the object then reads.
    pub(super) fn key_at_colon(&mut self, mut out: String, read: &StringRead) -> Step {
        let Some((at, len)) = read.colon else {
            return Step::Cut;
        };
        out.truncate(len);
        self.repair(RepairKind::MissingQuote, at);
        self.pos = at;
        Step::Value(Value::String(out))
    }
}

/// What a string read remembers to decide where it ends.
#[derive(Default)]
pub(super) struct StringRead {
    /// Brackets opened inside the string and not yet closed there: a quote
    /// followed by `}` does not end `"see {"a": 1} here"`.
    curly: usize,
    square: usize,
    /// A quote that looks like an opening inner quote (`say "hi`) is waiting
    /// for its closing one.
    inner_open: bool,
    /// Where the string's content starts.
    start: usize,
    /// The first comma followed by a bare member (`, key:`).
    member: Option<(usize, usize)>,
    /// In a key, the first colon.
    colon: Option<(usize, usize)>,
}

impl StringRead {
    fn nesting(&mut self, c: char, delta: isize) {
        let count = if matches!(c, '{' | '}') {
            &mut self.curly
        } else {
            &mut self.square
        };
        *count = count.saturating_add_signed(delta);
    }

    /// Tracks inner quotes: one after a space and before a word opens,
    /// one after a word closes.
    fn inner_quote(&mut self, before: &str, next: Option<char>) {
        let after_space = before
            .chars()
            .next_back()
            .is_none_or(|c| c.is_whitespace() || matches!(c, '(' | '[' | '{'));
        let before_word = next.is_some_and(|c| !c.is_whitespace());
        if after_space && before_word {
            self.inner_open = true;
        } else if !after_space {
            self.inner_open = false;
        }
    }
}
