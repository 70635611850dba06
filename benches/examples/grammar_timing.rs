//! The `constrain` figures of docs/benchmarks.md: how flexmd's grammars
//! grow with the spec or schema, and what they cost the engine that runs
//! them.
//!
//! `cargo run --release -p flexmd-benches --example grammar_timing -- [RUNS]`
//!
//! 1. Scaling: specs of 10 to 320 sections and schemas of 10 to 320
//!    properties; per size, the Lark grammar's bytes and rules, the time
//!    flexmd takes to write it and the time llguidance takes to compile it.
//! 2. Mask time: llguidance's time per token to compute the mask of allowed
//!    tokens and take the next one, over the o200k vocabulary (GPT-4o's,
//!    200 000 tokens, from bpe-openai), while a valid answer is fed token by
//!    token. For the 10-section spec beside a grammar written by hand for
//!    the same sections; for each predefined schema beside llguidance's own
//!    JSON Schema compiler (what vLLM and SGLang use for a JSON schema).
//!
//! Prints one JSON line per measure.

#[path = "../../crates/flexmd-constrain/tests/common/mod.rs"]
mod common;

use std::sync::Arc;
use std::time::Instant;

use flexmd_constrain::{GrammarFormat, SpecGrammarOptions, schema_grammar, spec_grammar};
use llguidance::api::TopLevelGrammar;
use llguidance::{Matcher, ParserFactory};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use serde_json::{Value, json};
use toktrie::{ApproximateTokEnv, TokEnv, TokRxInfo, TokTrie};

type Failure = Box<dyn std::error::Error>;

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times.get(times.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The median of `runs` timings of `work`, in seconds.
fn time<T>(runs: usize, mut work: impl FnMut() -> T) -> f64 {
    median(
        (0..runs.max(1))
            .map(|_| {
                let start = Instant::now();
                std::hint::black_box(work());
                start.elapsed().as_secs_f64()
            })
            .collect(),
    )
}

/// o200k's tokens as llguidance's vocabulary, with an end-of-text token.
fn o200k() -> TokEnv {
    let bpe = &bpe_openai::o200k_base().bpe;
    let mut words: Vec<Vec<u8>> = (0..bpe.num_tokens())
        .map(|id| bpe.token_bytes(u32::try_from(id).unwrap_or(0)).to_vec())
        .collect();
    words.push(b"\xFF<|endoftext|>".to_vec());
    let count = u32::try_from(words.len()).unwrap_or(u32::MAX);
    let info = TokRxInfo::new(count, count - 1);
    Arc::new(ApproximateTokEnv::new(TokTrie::from(&info, &words)))
}

/// A spec of `n` sections, cycling through the kinds of the 10-section
/// fixture, with its two tables.
fn spec_of(n: usize) -> String {
    let kinds = ["prose", "list", "ordered list", "list", "prose"];
    let mut spec = String::from("## Output format (Markdown)\n\n");
    for i in 0..n {
        let kind = kinds.get(i % kinds.len()).copied().unwrap_or("prose");
        spec.push_str(&format!("- Section {i} — {kind}\n"));
    }
    spec.push_str(
        "\nTables:\n- (step, owner, due — ordered table)\n- (metric, target — table)\n\nEmpty sections:\n- If a section is empty, write `None`.\n",
    );
    spec
}

/// A schema of `n` properties: strings, integers, enums, arrays and a
/// nested object, one in five required.
fn schema_of(n: usize) -> Value {
    let mut properties = serde_json::Map::new();
    let mut required = Vec::new();
    for i in 0..n {
        let name = format!("field_{i}");
        let schema = match i % 5 {
            0 => json!({"type": "string", "maxLength": 200}),
            1 => json!({"type": "integer", "minimum": 0}),
            2 => json!({"enum": ["low", "medium", "high"]}),
            3 => json!({"type": "array", "items": {"type": "string"}}),
            _ => {
                json!({"type": "object", "properties": {"id": {"type": "string"}, "ok": {"type": "boolean"}}, "required": ["id"]})
            }
        };
        if i % 5 == 0 {
            required.push(Value::from(name.clone()));
        }
        properties.insert(name, schema);
    }
    json!({"type": "object", "properties": properties, "required": required})
}

/// The 10-section fixture and a grammar a user would write by hand for it:
/// the headings in order, each body any lines that are not headings, the
/// tables' header rows then any rows.
const TEN: &str = include_str!("../../crates/flexmd-constrain/tests/fixtures/specs/ten.md");

fn hand_written_ten() -> String {
    let sections = [
        "Summary",
        "Context",
        "Goals",
        "Non-goals",
        "Plan",
        "Risks",
        "Mitigations",
        "Open questions",
        "Decision",
        "Next steps",
    ];
    let mut grammar = String::from("start: ");
    for i in 0..sections.len() {
        grammar.push_str(&format!("s{i} "));
    }
    grammar.push_str("t0 t1\n");
    for (i, name) in sections.iter().enumerate() {
        grammar.push_str(&format!("s{i}: \"## {name}\\n\" \"\\n\"? LINE+ \"\\n\"\n"));
    }
    grammar.push_str(
        "t0: \"| # | step | owner | due |\\n|---|---|---|---|\\n\" ROW* \"\\n\"\n\
         t1: \"| metric | target |\\n|---|---|\\n\" ROW*\n\
         LINE: /[^#|\\n][^\\n]*\\n/\n\
         ROW: /\\|[^\\n]*\\|\\n/\n",
    );
    grammar
}

/// A grammar written by hand for the `review` schema's compact JSON: the
/// properties in the schema's order, the optional ones maybe, the enums
/// as alternatives, strings and numbers as JSON's own terminals.
const HAND_WRITTEN_REVIEW: &str = r#"start: "{\"approved\":" BOOL ",\"issues\":" issues ",\"summary\":" summary ",\"recommendation\":" REC "}"
issues: "[" (issue ("," issue)*)? "]"
issue: "{\"severity\":" SEV ",\"type\":" KIND ",\"file\":" STRING (",\"line\":" NUMBER)? ",\"message\":" STRING (",\"suggestion\":" STRING)? (",\"autoFixable\":" BOOL)? "}"
summary: "{\"critical\":" INT ",\"high\":" INT ",\"medium\":" INT ",\"low\":" INT ",\"info\":" INT "}"
BOOL: "true" | "false"
SEV: "\"critical\"" | "\"high\"" | "\"medium\"" | "\"low\"" | "\"info\""
KIND: "\"bug\"" | "\"security\"" | "\"performance\"" | "\"style\"" | "\"maintainability\""
REC: "\"approve\"" | "\"request_changes\"" | "\"needs_discussion\""
STRING: /"([^"\\\x00-\x1f]|\\["\\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/
NUMBER: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/
INT: /0|[1-9][0-9]*/
"#;

/// A valid answer to the 10-section fixture (`flexmd validate --strict`
/// accepts it).
const TEN_ANSWER: &str = "## Summary
We move the billing service to the new queue before the March freeze, in three steps.

## Context
The current queue drops about one message in ten thousand under load, and the vendor ends support in June.

## Goals
- No lost invoices
  - every message acknowledged after it is written
- Same latency as today

## Non-goals
- Changing the invoice format

## Plan
1. Mirror traffic to the new queue
2. Switch readers one region at a time
3. Remove the old queue

## Risks
- The new client library is young
- Regions switch at different times

## Mitigations
- Pin the library version and read its changelog
- A runbook per region

## Open questions
None

## Decision
Go, starting with the smallest region.

## Next steps
1. Write the mirroring job
2. Book the switch windows

| # | step | owner | due |
|---|---|---|---|
| 1 | mirror traffic | Ana | 2027-01-15 |
| 2 | switch readers | Bo | 2027-02-10 |
| 3 | remove old queue | Ana | 2027-03-01 |

| metric | target |
|---|---|
| lost messages | 0 |
| p99 latency | 120 ms |
";

/// llguidance's time per token to compute the mask and take the token, and
/// whether it accepted the whole text.
fn mask_time(
    factory: &ParserFactory,
    env: &TokEnv,
    grammar: &TopLevelGrammar,
    text: &str,
    runs: usize,
) -> Result<(f64, usize, bool), Failure> {
    let tokens = env.tokenize_bytes(text.as_bytes());
    let mut accepted = true;
    let mut times = Vec::new();
    for _ in 0..runs.max(1) {
        let mut matcher = Matcher::new(factory.create_parser(grammar.clone()));
        let start = Instant::now();
        for &token in &tokens {
            let allowed = matcher.compute_mask().map(|m| m.is_allowed(token));
            if allowed.ok() != Some(true) || matcher.consume_token(token).is_err() {
                accepted = false;
                break;
            }
        }
        times.push(start.elapsed().as_secs_f64());
        accepted &= matcher.is_accepting().unwrap_or(false);
    }
    Ok((
        median(times) / tokens.len().max(1) as f64,
        tokens.len(),
        accepted,
    ))
}

fn main() -> Result<(), Failure> {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let env = o200k();
    let mut factory = ParserFactory::new_simple(&env)?;
    factory.quiet();

    // 1. Scaling.
    let options = SpecGrammarOptions::default();
    for n in [10, 20, 40, 80, 160, 320] {
        let spec = flexmd_ofs::read_spec(&spec_of(n))?.value;
        let grammar = spec_grammar(&spec, GrammarFormat::Lark, &options)?;
        let write = time(runs, || spec_grammar(&spec, GrammarFormat::Lark, &options));
        let lark = TopLevelGrammar::from_lark(grammar.grammar.clone());
        let compile = time(runs, || factory.create_parser(lark.clone()).is_ok());
        println!(
            "{}",
            json!({"measure": "scaling", "of": "spec", "size": n, "bytes": grammar.grammar.len(),
                   "rules": grammar.rules, "write_seconds": write, "compile_seconds": compile})
        );
        let schema = schema_of(n);
        let grammar = schema_grammar(&schema, GrammarFormat::Lark)?;
        let write = time(runs, || schema_grammar(&schema, GrammarFormat::Lark));
        let lark = TopLevelGrammar::from_lark(grammar.grammar.clone());
        let compile = time(runs, || factory.create_parser(lark.clone()).is_ok());
        println!(
            "{}",
            json!({"measure": "scaling", "of": "schema", "size": n, "bytes": grammar.grammar.len(),
                   "rules": grammar.rules, "write_seconds": write, "compile_seconds": compile})
        );
    }

    // 2. Mask time per token.
    let spec = flexmd_ofs::read_spec(TEN)?.value;
    let ours =
        TopLevelGrammar::from_lark(spec_grammar(&spec, GrammarFormat::Lark, &options)?.grammar);
    let theirs = TopLevelGrammar::from_lark(hand_written_ten());
    for (grammar, by) in [(&ours, "flexmd"), (&theirs, "hand-written")] {
        let (seconds, tokens, accepted) = mask_time(&factory, &env, grammar, TEN_ANSWER, runs)?;
        println!(
            "{}",
            json!({"measure": "mask", "of": "ten-section spec", "grammar": by,
                   "seconds_per_token": seconds, "tokens": tokens, "accepted": accepted})
        );
    }
    let registry = flexmd_schema::Registry::new();
    let mut runner = TestRunner::deterministic();
    for name in [
        "analysis",
        "implementation",
        "review",
        "verification",
        "plan",
    ] {
        let schema = registry.get(name).ok_or("no such schema")?.clone();
        // The largest of 20 generated instances.
        let strategy = common::instances(&schema, &schema, 0);
        let instance = (0..20)
            .filter_map(|_| strategy.new_tree(&mut runner).ok().map(|t| t.current()))
            .filter(|v| {
                registry
                    .validate_value(
                        v,
                        &schema,
                        flexmd_schema::TransformOptions {
                            coerce: false,
                            apply_defaults: false,
                        },
                    )
                    .is_ok_and(|o| o.valid)
            })
            .max_by_key(|v| v.to_string().len())
            .ok_or("no instance")?;
        let text = instance.to_string();
        let ours =
            TopLevelGrammar::from_lark(schema_grammar(&schema, GrammarFormat::Lark)?.grammar);
        let theirs = TopLevelGrammar::from_json_schema(schema.clone());
        let mut peers = vec![(ours, "flexmd"), (theirs, "llguidance json")];
        if name == "review" {
            peers.push((
                TopLevelGrammar::from_lark(HAND_WRITTEN_REVIEW.to_owned()),
                "hand-written",
            ));
        }
        for (grammar, by) in &peers {
            let (seconds, tokens, accepted) = mask_time(&factory, &env, grammar, &text, runs)?;
            println!(
                "{}",
                json!({"measure": "mask", "of": name, "grammar": by,
                       "seconds_per_token": seconds, "tokens": tokens, "accepted": accepted})
            );
        }
    }
    Ok(())
}
