//! An Output Format Spec as grammar rules: the answers `flexmd validate
//! --strict` accepts, in one canonical layout.

use flexmd_core::{OutputFormatSpec, SectionKind, TableKind};

use crate::error::ConstrainError;
use crate::grammar::ir::{Coverage, Expr, Rules};

/// How a spec's grammar lays the answer out, and what it bounds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecGrammarOptions {
    /// The level of every section heading (1 to 6; default 2: `## Name`).
    pub heading_level: u8,
    /// Allow a leading `<think>…</think>` block of at most this many lines
    /// (reasoning models that write their reasoning first); `None`: no
    /// block.
    pub think_lines: Option<u32>,
    /// The most items a list section may have; with a bound, a numbered
    /// list's numbers `1.` … `N.` are enforced too.
    pub max_items: Option<u32>,
    /// The most rows a table may have; with a bound, an ordered table's `#`
    /// column `1` … `N` is enforced too.
    pub max_rows: Option<u32>,
}

impl Default for SpecGrammarOptions {
    fn default() -> Self {
        SpecGrammarOptions {
            heading_level: 2,
            think_lines: None,
            max_items: None,
            max_rows: None,
        }
    }
}

/// The most a bound in [`SpecGrammarOptions`] may be: each numbered item or
/// row up to the bound is a rule of its own.
pub const MAX_SPEC_BOUND: u32 = 1000;

/// The longest line a `<think>` block may have, in characters.
pub const THINK_LINE_CHARS: u32 = 400;

pub(crate) struct SpecRules {
    pub(crate) rules: Rules,
    pub(crate) coverage: Vec<Coverage>,
}

fn bad_option(reason: String) -> ConstrainError {
    ConstrainError::Unsupported {
        provider: "grammar",
        pointer: String::new(),
        reason,
    }
}

impl SpecRules {
    pub(crate) fn build(
        spec: &OutputFormatSpec,
        options: &SpecGrammarOptions,
    ) -> Result<SpecRules, ConstrainError> {
        if !(1..=6).contains(&options.heading_level) {
            return Err(bad_option(format!(
                "a heading level is 1 to 6, not {}",
                options.heading_level
            )));
        }
        for (name, bound) in [
            ("think lines", options.think_lines),
            ("list items", options.max_items),
            ("table rows", options.max_rows),
        ] {
            if bound.is_some_and(|b| b > MAX_SPEC_BOUND) {
                return Err(bad_option(format!(
                    "at most {MAX_SPEC_BOUND} {name} can be written into a grammar"
                )));
            }
        }
        if spec.sections.is_empty() && spec.tables.is_empty() {
            return Err(bad_option(
                "the spec has no sections and no tables".to_owned(),
            ));
        }
        let mut rules = Rules::default();
        let (root, _) = rules.declare("answer", "root");
        let text = Expr::token(Expr::seq(vec![
            Expr::not_class(&[(' ', ' '), ('\t', '\t'), ('\n', '\n'), ('\r', '\r')]),
            Expr::star(Expr::not_class(&[('\n', '\n'), ('\r', '\r')])),
        ]));
        let (line_text, _) = rules.declare("text", "text");
        rules.define(line_text, text);
        let mut this = SpecRules {
            rules,
            coverage: Vec::new(),
        };
        let mut parts: Vec<Expr> = Vec::new();
        if let Some(lines) = options.think_lines {
            parts.push(Expr::opt(this.think(lines)));
        }
        let hashes = "#".repeat(usize::from(options.heading_level));
        for (i, section) in spec.sections.iter().enumerate() {
            let body = this.body(spec, section.kind, &section.name, options, line_text)?;
            let (id, _) = this.rules.declare(
                &format!("section/{i}"),
                &format!("section {}", section.name),
            );
            this.rules.define(
                id,
                Expr::seq(vec![
                    Expr::lit(format!("{hashes} {}\n", section.name)),
                    Expr::opt(Expr::lit("\n")),
                    body,
                ]),
            );
            if i > 0 {
                parts.push(Expr::lit("\n"));
            }
            parts.push(Expr::Ref(id));
        }
        for (i, table) in spec.tables.iter().enumerate() {
            let expr = this.table(table.kind, &table.columns, options, line_text, i)?;
            let block = if spec.sections.is_empty() && i == 0 {
                expr
            } else {
                Expr::seq(vec![Expr::lit("\n"), expr])
            };
            parts.push(if spec.tables_optional {
                Expr::opt(block)
            } else {
                block
            });
        }
        this.rules.define(root, Expr::seq(parts));
        Ok(this)
    }

    /// `<think>` + lines without a blank one (a blank line would end the
    /// HTML block and let Markdown read the rest as the answer) + `</think>`.
    fn think(&mut self, lines: u32) -> Expr {
        let (id, _) = self.rules.declare("think", "think");
        let line = Expr::token(Expr::seq(vec![
            Expr::rep(
                Expr::alt(vec![
                    Expr::not_class(&[('<', '<'), ('\n', '\n'), ('\r', '\r')]),
                    Expr::seq(vec![
                        Expr::lit("<"),
                        Expr::not_class(&[('/', '/'), ('\n', '\n'), ('\r', '\r')]),
                    ]),
                ]),
                1,
                Some(THINK_LINE_CHARS),
            ),
            Expr::lit("\n"),
        ]));
        self.rules.define(
            id,
            Expr::seq(vec![
                Expr::lit("<think>\n"),
                Expr::rep(line, 0, Some(lines)),
                Expr::lit("</think>\n\n"),
            ]),
        );
        self.coverage.push(Coverage {
            place: "<think>".to_owned(),
            enforced: vec![
                format!("at most {lines} lines of at most {THINK_LINE_CHARS} characters"),
                "no blank line".to_owned(),
            ],
            unenforced: Vec::new(),
        });
        Expr::Ref(id)
    }

    fn body(
        &mut self,
        spec: &OutputFormatSpec,
        kind: SectionKind,
        name: &str,
        options: &SpecGrammarOptions,
        text: usize,
    ) -> Result<Expr, ConstrainError> {
        let none = spec
            .empty_section_value
            .as_ref()
            .map(|value| Expr::lit(format!("{value}\n")));
        let mut enforced = vec!["heading".to_owned()];
        let mut unenforced = Vec::new();
        let content = match kind {
            SectionKind::Prose => {
                enforced.push("not empty".to_owned());
                self.prose(text)
            }
            SectionKind::List => {
                enforced.push("`-` bullets".to_owned());
                let item = self.bullet_item(text);
                match options.max_items {
                    Some(n) => {
                        enforced.push(format!("at most {n} items"));
                        Expr::rep(item, 1, Some(n.max(1)))
                    }
                    None => Expr::rep(item, 1, None),
                }
            }
            SectionKind::OrderedList => {
                enforced.push("`1.` numbering".to_owned());
                match options.max_items {
                    Some(n) => {
                        enforced.push(format!("numbers 1 to {n} in order"));
                        self.numbered(name, n.max(1), text)
                    }
                    None => {
                        unenforced.push("numbers in order".to_owned());
                        Expr::rep(
                            Expr::seq(vec![
                                Expr::token(Expr::seq(vec![
                                    Expr::class(&[('1', '9')]),
                                    Expr::rep(Expr::class(&[('0', '9')]), 0, Some(4)),
                                    Expr::lit(". "),
                                ])),
                                Expr::Ref(text),
                                Expr::lit("\n"),
                            ]),
                            1,
                            None,
                        )
                    }
                }
            }
        };
        let body = match none {
            Some(none) if kind != SectionKind::Prose => {
                enforced.push("the empty value".to_owned());
                Expr::alt(vec![none, content])
            }
            _ => content,
        };
        self.coverage.push(Coverage {
            place: name.to_owned(),
            enforced,
            unenforced,
        });
        Ok(body)
    }

    /// Lines of prose and fenced code blocks; no line that Markdown would
    /// read as a heading, a setext underline, a table, an HTML block or an
    /// unclosed fence (each could swallow or invent a section).
    fn prose(&mut self, text: usize) -> Expr {
        let (id, new) = self.rules.declare("prose", "prose");
        if !new {
            return Expr::Ref(id);
        }
        let (line, _) = self.rules.declare("prose line", "prose line");
        self.rules.define(
            line,
            Expr::alt(vec![
                Expr::seq(vec![
                    Expr::token(Expr::seq(vec![
                        Expr::not_class(&[
                            ('#', '#'),
                            ('|', '|'),
                            ('`', '`'),
                            ('~', '~'),
                            ('<', '<'),
                            ('=', '='),
                            ('-', '-'),
                            (' ', ' '),
                            ('\t', '\t'),
                            ('\n', '\n'),
                            ('\r', '\r'),
                        ]),
                        Expr::star(Expr::not_class(&[('\n', '\n'), ('\r', '\r')])),
                    ])),
                    Expr::lit("\n"),
                ]),
                // A bullet is prose too; a bare `-` line is not (it would
                // underline the line before into a heading).
                Expr::seq(vec![Expr::lit("- "), Expr::Ref(text), Expr::lit("\n")]),
            ]),
        );
        let (fence, _) = self.rules.declare("fence", "fence");
        let code_line = Expr::seq(vec![
            Expr::opt(Expr::token(Expr::seq(vec![
                Expr::not_class(&[('`', '`'), ('\n', '\n'), ('\r', '\r')]),
                Expr::star(Expr::not_class(&[('\n', '\n'), ('\r', '\r')])),
            ]))),
            Expr::lit("\n"),
        ]);
        self.rules.define(
            fence,
            Expr::seq(vec![
                Expr::lit("```"),
                // The info string (a language): at most 32 characters.
                Expr::rep(
                    Expr::class(&[
                        ('a', 'z'),
                        ('A', 'Z'),
                        ('0', '9'),
                        ('+', '+'),
                        ('-', '-'),
                        ('_', '_'),
                    ]),
                    0,
                    Some(32),
                ),
                Expr::lit("\n"),
                Expr::star(code_line),
                Expr::lit("```\n"),
            ]),
        );
        let block = Expr::alt(vec![Expr::Ref(line), Expr::Ref(fence)]);
        self.rules.define(
            id,
            Expr::seq(vec![
                block.clone(),
                Expr::star(Expr::alt(vec![block, Expr::lit("\n")])),
            ]),
        );
        Expr::Ref(id)
    }

    /// `- text`, with `  - ` and `    - ` children.
    fn bullet_item(&mut self, text: usize) -> Expr {
        let (id, new) = self.rules.declare("bullet", "bullet");
        if !new {
            return Expr::Ref(id);
        }
        let item = |indent: &str| {
            Expr::seq(vec![
                Expr::lit(format!("{indent}- ")),
                Expr::Ref(text),
                Expr::lit("\n"),
            ])
        };
        let third = item("    ");
        let second = Expr::seq(vec![item("  "), Expr::star(third)]);
        self.rules
            .define(id, Expr::seq(vec![item(""), Expr::star(second)]));
        Expr::Ref(id)
    }

    /// `1. text` … up to `n.`, in order: item k is followed by item k+1 or
    /// by nothing.
    fn numbered(&mut self, name: &str, n: u32, text: usize) -> Expr {
        let mut rest = Expr::Seq(Vec::new());
        for k in (1..=n).rev() {
            let (id, _) = self
                .rules
                .declare(&format!("numbered/{name}/{k}"), &format!("{name} item {k}"));
            let item = Expr::seq(vec![
                Expr::lit(format!("{k}. ")),
                Expr::Ref(text),
                Expr::lit("\n"),
            ]);
            let body = if k == n {
                item
            } else {
                Expr::seq(vec![item, Expr::opt(rest)])
            };
            self.rules.define(id, body);
            rest = Expr::Ref(id);
        }
        rest
    }

    fn table(
        &mut self,
        kind: TableKind,
        columns: &[String],
        options: &SpecGrammarOptions,
        text: usize,
        index: usize,
    ) -> Result<Expr, ConstrainError> {
        let _ = text;
        if columns.is_empty() {
            return Err(bad_option(format!("table {} has no columns", index + 1)));
        }
        let ordered = kind == TableKind::OrderedTable;
        let mut header = String::from("|");
        if ordered {
            header.push_str(" # |");
        }
        for column in columns {
            header.push_str(&format!(" {} |", column.trim()));
        }
        header.push('\n');
        let width = columns.len() + usize::from(ordered);
        header.push('|');
        header.push_str(&"---|".repeat(width));
        header.push('\n');
        // A cell: ` text |`, one token (the text may hold spaces, so only
        // the `|` can end it), the text without `|` or spaces at its ends.
        let inner = Expr::not_class(&[('|', '|'), ('\n', '\n'), ('\r', '\r')]);
        let edge = Expr::not_class(&[('|', '|'), (' ', ' '), ('\n', '\n'), ('\r', '\r')]);
        let cell = Expr::token(Expr::seq(vec![
            Expr::lit(" "),
            edge.clone(),
            Expr::opt(Expr::seq(vec![Expr::star(inner), edge])),
            Expr::lit(" |"),
        ]));
        let cells = Expr::rep(
            cell,
            u32::try_from(columns.len()).unwrap_or(u32::MAX),
            Some(u32::try_from(columns.len()).unwrap_or(u32::MAX)),
        );
        let place = format!("table ({})", columns.join(", "));
        let mut enforced = vec!["header".to_owned(), format!("{} cells a row", width)];
        let mut unenforced = Vec::new();
        let rows = match (ordered, options.max_rows) {
            (false, bound) => {
                let row = Expr::seq(vec![Expr::lit("|"), cells, Expr::lit("\n")]);
                if let Some(n) = bound {
                    enforced.push(format!("at most {n} rows"));
                }
                Expr::rep(row, 0, bound)
            }
            (true, Some(n)) => {
                enforced.push(format!("`#` numbered 1 to {n} in order"));
                let mut rest = Expr::Seq(Vec::new());
                for k in (1..=n.max(1)).rev() {
                    let (id, _) = self.rules.declare(
                        &format!("table/{index}/row/{k}"),
                        &format!("table {index} row {k}"),
                    );
                    let row = Expr::seq(vec![
                        Expr::lit(format!("| {k} |")),
                        cells.clone(),
                        Expr::lit("\n"),
                    ]);
                    self.rules.define(
                        id,
                        if k == n {
                            row
                        } else {
                            Expr::seq(vec![row, Expr::opt(rest)])
                        },
                    );
                    rest = Expr::Ref(id);
                }
                Expr::opt(rest)
            }
            (true, None) => {
                unenforced.push("`#` numbered 1 to N (give a row bound to enforce it)".to_owned());
                let number = Expr::token(Expr::seq(vec![
                    Expr::class(&[('1', '9')]),
                    Expr::rep(Expr::class(&[('0', '9')]), 0, Some(5)),
                ]));
                let row = Expr::seq(vec![
                    Expr::lit("| "),
                    number,
                    Expr::lit(" |"),
                    cells,
                    Expr::lit("\n"),
                ]);
                Expr::star(row)
            }
        };
        let (id, _) = self
            .rules
            .declare(&format!("table/{index}"), &format!("table {index}"));
        self.rules
            .define(id, Expr::seq(vec![Expr::lit(header), rows]));
        self.coverage.push(Coverage {
            place,
            enforced,
            unenforced,
        });
        Ok(Expr::Ref(id))
    }
}
