//! Grammars for Output Format Specs, run by real engines byte by byte
//! (llguidance for Lark, regex-automata for the regex): every answer in the
//! canonical layout that `flexmd validate --strict` accepts is accepted —
//! the bundled example that is strictly valid, and generated ones — and
//! the mutations the grammar claims to enforce are refused (and refused by
//! validation too, or listed as left to it).

use std::path::Path;

use flexmd_constrain::{GrammarFormat, SpecGrammarOptions, spec_grammar};
use flexmd_core::{OutputFormatSpec, SectionKind, TableKind};
use flexmd_ofs::{ExtractOptions, check, read_spec};
use llguidance::api::TopLevelGrammar;
use llguidance::{Matcher, ParserFactory};
use proptest::prelude::*;
use toktrie::{ApproximateTokEnv, TokEnv};

fn spec(path: &str) -> OutputFormatSpec {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_default();
    read_spec(&text)
        .map(|p| p.value)
        .unwrap_or_else(|e| unreachable!("{path}: {e}"))
}

fn specs() -> Vec<(&'static str, OutputFormatSpec)> {
    vec![
        ("answer", spec("../../examples/specs/answer.md")),
        ("ten", spec("tests/fixtures/specs/ten.md")),
        ("review", spec("tests/fixtures/specs/review.md")),
    ]
}

fn strictly_valid(spec: &OutputFormatSpec, answer: &str) -> bool {
    let (report, _) = check(answer, spec, &ExtractOptions::default());
    report.into_strict().ok
}

struct Engines {
    env: TokEnv,
    factory: ParserFactory,
}

impl Engines {
    fn new() -> Self {
        let env = ApproximateTokEnv::single_byte_env();
        let mut factory = ParserFactory::new_simple(&env).unwrap_or_else(|e| unreachable!("{e}"));
        factory.quiet();
        Engines { env, factory }
    }

    fn lark(&self, lark: &str, text: &str) -> bool {
        let parser = self
            .factory
            .create_parser(TopLevelGrammar::from_lark(lark.to_owned()))
            .unwrap_or_else(|e| unreachable!("llguidance refuses the grammar: {e}\n{lark}"));
        let mut matcher = Matcher::new(Ok(parser));
        for token in self.env.tokenize_bytes(text.as_bytes()) {
            if matcher.consume_token(token).is_err() {
                return false;
            }
        }
        matcher.is_accepting().unwrap_or(false)
    }
}

fn regex(regex: &str, text: &str) -> bool {
    regex_automata::meta::Regex::new(regex)
        .unwrap_or_else(|e| unreachable!("{e}"))
        .is_match(text)
}

/// Both engines' verdicts on `text` for `spec` with `options`.
fn verdicts(
    engines: &Engines,
    spec: &OutputFormatSpec,
    options: &SpecGrammarOptions,
    text: &str,
) -> (bool, bool) {
    let lark = spec_grammar(spec, GrammarFormat::Lark, options)
        .map(|g| g.grammar)
        .unwrap_or_default();
    let re = spec_grammar(spec, GrammarFormat::Regex, options)
        .map(|g| g.grammar)
        .unwrap_or_default();
    (engines.lark(&lark, text), regex(&re, text))
}

#[test]
fn the_strictly_valid_bundled_answer_is_accepted() {
    let engines = Engines::new();
    let answer_spec = spec("../../examples/specs/answer.md");
    let mut accepted = 0;
    for entry in
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/responses"))
            .into_iter()
            .flatten()
            .flatten()
    {
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        if !strictly_valid(&answer_spec, &text) {
            continue;
        }
        assert_eq!(
            verdicts(
                &engines,
                &answer_spec,
                &SpecGrammarOptions::default(),
                &text
            ),
            (true, true),
            "{}",
            entry.path().display()
        );
        accepted += 1;
    }
    assert_eq!(
        accepted, 1,
        "clean.md is the one strictly valid bundled answer"
    );
}

#[test]
fn mutations_are_refused_by_grammar_and_validation() {
    let engines = Engines::new();
    let answer_spec = spec("../../examples/specs/answer.md");
    let good = "## Short answer\nYes.\n\n## Long answer\nBecause.\n\n```sh\n# not a heading\n```\n\n## Reasoning\n1. one\n2. two\n\n## Assumptions\n- a\n  - a.1\n\n## Unknowns\nNone\n\n| property1 | property2 | property3 |\n|---|---|---|\n| a | b | c |\n";
    let options = SpecGrammarOptions::default();
    assert!(
        strictly_valid(&answer_spec, good),
        "the base answer is valid"
    );
    assert_eq!(
        verdicts(&engines, &answer_spec, &options, good),
        (true, true)
    );
    let mutations = [
        (
            "a missing section",
            good.replace("## Unknowns\nNone\n\n", ""),
        ),
        ("a `*` bullet", good.replace("- a\n", "* a\n")),
        ("`1)` numbering", good.replace("1. one", "1) one")),
        (
            "prose in a list section",
            good.replace("- a\n  - a.1\n", "Some prose.\n"),
        ),
        ("an empty list section", good.replace("None\n", "")),
        (
            "a wrong table column",
            good.replace(
                "| property1 | property2 | property3 |",
                "| property1 | property2 | other |",
            ),
        ),
        (
            "an unclosed fence",
            good.replace("# not a heading\n```\n", "# not a heading\n"),
        ),
        (
            "a bold pseudo-heading",
            good.replace("## Reasoning\n", "**Reasoning:**\n"),
        ),
    ];
    for (what, text) in mutations {
        assert_eq!(
            verdicts(&engines, &answer_spec, &options, &text),
            (false, false),
            "the grammars accept {what}:\n{text}"
        );
        assert!(
            !strictly_valid(&answer_spec, &text),
            "validation accepts {what}:\n{text}"
        );
    }
    // The canonical layout is stricter than validation: a short table row
    // (GFM fills it) and another order of sections are accepted by
    // validation and refused by the grammar (documented).
    let short_row = good.replace("| a | b | c |", "| a | b |");
    assert!(strictly_valid(&answer_spec, &short_row));
    assert_eq!(
        verdicts(&engines, &answer_spec, &options, &short_row),
        (false, false)
    );
    let swapped = good
        .replacen(
            "## Short answer\nYes.\n\n## Long answer\nBecause.\n\n```sh\n# not a heading\n```\n\n",
            "",
            1,
        )
        .replacen(
            "## Reasoning",
            "## Long answer\nBecause.\n\n## Short answer\nYes.\n\n## Reasoning",
            1,
        );
    assert!(strictly_valid(&answer_spec, &swapped));
    assert_eq!(
        verdicts(&engines, &answer_spec, &options, &swapped),
        (false, false)
    );
}

#[test]
fn bounds_enforce_numbering_and_think_blocks_stay_reasoning() {
    let engines = Engines::new();
    let review = spec("tests/fixtures/specs/review.md");
    let options = SpecGrammarOptions {
        max_items: Some(3),
        think_lines: Some(4),
        ..SpecGrammarOptions::default()
    };
    let answer = "<think>\nThe user wants a review.\nCheck <b> tags.\n</think>\n\n## Verdict\nShip it.\n\n## Findings\n- fine\n\n## Follow-ups\n1. tests\n2. docs\n";
    assert!(strictly_valid(&review, answer));
    assert_eq!(verdicts(&engines, &review, &options, answer), (true, true));
    for (what, text) in [
        ("numbers out of order", answer.replace("2. docs", "3. docs")),
        (
            "a fourth item",
            answer.replace("2. docs\n", "2. docs\n3. c\n4. d\n"),
        ),
        (
            "a blank line in the think block",
            answer.replace("review.\n", "review.\n\n"),
        ),
        (
            "five think lines",
            answer.replace("<think>\n", "<think>\na\nb\nc\n"),
        ),
        (
            "an empty section (no empty value in this spec)",
            answer.replace("- fine\n", ""),
        ),
    ] {
        assert_eq!(
            verdicts(&engines, &review, &options, &text),
            (false, false),
            "accepts {what}:\n{text}"
        );
    }
}

/// Answers in the canonical layout, from the spec.
fn answers(spec: &OutputFormatSpec) -> BoxedStrategy<String> {
    let word = "[A-Za-z][a-z]{0,7}";
    let sentence = proptest::collection::vec(word, 1..6).prop_map(|w| w.join(" ") + ".");
    let empty = spec.empty_section_value.clone();
    let mut parts: Vec<BoxedStrategy<String>> = Vec::new();
    for (i, section) in spec.sections.iter().enumerate() {
        let heading = format!("{}## {}\n", if i > 0 { "\n" } else { "" }, section.name);
        let body: BoxedStrategy<String> = match section.kind {
            SectionKind::Prose => proptest::collection::vec(sentence.clone(), 1..4)
                .prop_map(|s| {
                    s.into_iter()
                        .map(|l| l + "\n")
                        .collect::<Vec<_>>()
                        .join("\n")
                })
                .boxed(),
            SectionKind::List => proptest::collection::vec(
                (sentence.clone(), proptest::option::of(sentence.clone())),
                1..4,
            )
            .prop_map(|items| {
                items
                    .into_iter()
                    .map(|(a, b)| match b {
                        Some(b) => format!("- {a}\n  - {b}\n"),
                        None => format!("- {a}\n"),
                    })
                    .collect()
            })
            .boxed(),
            SectionKind::OrderedList => proptest::collection::vec(sentence.clone(), 1..4)
                .prop_map(|items| {
                    items
                        .iter()
                        .enumerate()
                        .map(|(k, t)| format!("{}. {t}\n", k + 1))
                        .collect()
                })
                .boxed(),
        };
        let body = match (&empty, section.kind) {
            (Some(value), SectionKind::List | SectionKind::OrderedList) => {
                let none = format!("{value}\n");
                prop_oneof![3 => body, 1 => Just(none)].boxed()
            }
            _ => body,
        };
        parts.push(
            (any::<bool>(), body)
                .prop_map(move |(blank, b)| {
                    format!("{heading}{}{b}", if blank { "\n" } else { "" })
                })
                .boxed(),
        );
    }
    for table in &spec.tables {
        let ordered = table.kind == TableKind::OrderedTable;
        let mut header = String::from("|");
        if ordered {
            header.push_str(" # |");
        }
        for c in &table.columns {
            header.push_str(&format!(" {c} |"));
        }
        header.push('\n');
        header.push('|');
        header.push_str(&"---|".repeat(table.columns.len() + usize::from(ordered)));
        header.push('\n');
        let n = table.columns.len();
        let rows = proptest::collection::vec(proptest::collection::vec(word, n..=n), 0..3)
            .prop_map(move |rows| {
                rows.iter()
                    .enumerate()
                    .map(|(k, cells)| {
                        let number = if ordered {
                            format!("| {} ", k + 1)
                        } else {
                            String::new()
                        };
                        format!("{number}| {} |\n", cells.join(" | "))
                    })
                    .collect::<String>()
            });
        let optional = spec.tables_optional;
        parts.push(
            (any::<bool>(), rows)
                .prop_map(move |(include, rows)| {
                    if include || !optional {
                        format!("\n{header}{rows}")
                    } else {
                        String::new()
                    }
                })
                .boxed(),
        );
    }
    parts.prop_map(|p| p.concat()).boxed()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Grammar and validator tied together: a generated answer is strictly
    /// valid, and every engine accepts it.
    #[test]
    fn generated_valid_answers_are_accepted(
        (index, answer) in (0..3usize).prop_flat_map(|i| {
            let (_, spec) = specs().swap_remove(i);
            (Just(i), answers(&spec))
        })
    ) {
        let (name, spec) = specs().swap_remove(index);
        prop_assert!(strictly_valid(&spec, &answer), "{}: the generator wrote an invalid answer:\n{}", name, answer);
        let engines = Engines::new();
        prop_assert_eq!(verdicts(&engines, &spec, &SpecGrammarOptions::default(), &answer), (true, true), "{}:\n{}", name, answer);
    }
}

/// A spec of 20 000 sections gives grammars whose size grows with it, about
/// as much per section as a small spec's: nothing in a spec multiplies. A
/// regex holds every section in one expression, so past a megabyte (about
/// 6 000 sections) it is refused by name, not written.
#[test]
fn a_huge_spec_gives_a_grammar_of_linear_size() {
    let text = |n: usize| {
        let mut text = String::from("## Output format (Markdown)\n\n");
        for i in 0..n {
            let kind = ["prose", "list", "ordered list"]
                .get(i % 3)
                .copied()
                .unwrap_or("prose");
            text.push_str(&format!("- Part {i} — {kind}\n"));
        }
        text
    };
    let options = SpecGrammarOptions::default();
    let grammar = |n: usize, format| {
        read_spec(&text(n))
            .map_err(|e| e.to_string())
            .and_then(|s| spec_grammar(&s.value, format, &options).map_err(|e| e.to_string()))
            .map(|g| g.grammar.len())
    };
    for format in GrammarFormat::ALL {
        let huge = if format == GrammarFormat::Regex {
            5_000
        } else {
            20_000
        };
        let sizes = (grammar(30, format), grammar(huge, format));
        let (Ok(small), Ok(large)) = &sizes else {
            unreachable!("{format}: {sizes:?}");
        };
        let (small, large) = (*small, *large);
        // Per section, at most 10 % more than the small spec's (less is
        // the shared rules spread over more sections).
        let ratio = (large as f64 / huge as f64) / (small as f64 / 30.0);
        assert!((0.5..=1.1).contains(&ratio), "{format}: {ratio}");
    }
    assert_eq!(
        grammar(20_000, GrammarFormat::Regex),
        Err(format!(
            "the regex would have more than {} characters",
            flexmd_constrain::MAX_REGEX_CHARS
        ))
    );
}

/// A numbered list's bound nests one rule per number: in a regex up to the
/// nesting bound (which regex engines take: regex-automata's limit is 250
/// groups), past it an error named at once, never a stack overflow or a
/// slow walk (found by the fuzzer: 462 items took seconds, 1 000 overflowed
/// the stack). The rule dialects take any bound up to 1 000.
#[test]
fn large_numbering_bounds_are_written_or_refused_at_once() {
    let engines = Engines::new();
    let spec = read_spec("## Output format\n- Steps — ordered list\n")
        .map(|s| s.value)
        .unwrap_or_default();
    let answer = |n: usize| {
        let mut text = String::from("## Steps\n");
        for i in 1..=n {
            text.push_str(&format!("{i}. step\n"));
        }
        text
    };
    let bounded = |max| SpecGrammarOptions {
        max_items: Some(max),
        ..SpecGrammarOptions::default()
    };
    let near = flexmd_constrain::MAX_REGEX_NESTING as u32 - 5;
    let re = spec_grammar(&spec, GrammarFormat::Regex, &bounded(near))
        .map(|g| g.grammar)
        .unwrap_or_default();
    assert!(regex(&re, &answer(near as usize)));
    assert!(!regex(&re, &answer(near as usize + 1)));
    assert_eq!(
        spec_grammar(&spec, GrammarFormat::Regex, &bounded(1000)).map(|g| g.rules),
        Err(flexmd_constrain::ConstrainError::TooLarge {
            what: "the regex",
            max: flexmd_constrain::MAX_REGEX_NESTING,
            unit: "nested groups (a long chain such as a numbered list with a large bound)",
        })
    );
    let lark = spec_grammar(&spec, GrammarFormat::Lark, &bounded(1000))
        .map(|g| g.grammar)
        .unwrap_or_default();
    // llguidance walks the chain recursively: a debug build needs more
    // than a test thread's 2 MiB for 1 000 rules (a main thread has 8).
    let verdicts = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            (
                engines.lark(&lark, &answer(1000)),
                engines.lark(&lark, &answer(1001)),
            )
        })
        .ok()
        .and_then(|t| t.join().ok());
    assert_eq!(verdicts, Some((true, false)));
}
