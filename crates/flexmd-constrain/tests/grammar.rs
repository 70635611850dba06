//! Every grammar checked by real engines, byte by byte: llguidance runs
//! the Lark grammars (one byte a token), regex-automata the regexes. Each
//! instance the schema accepts (generated, compact and pretty-printed) must
//! be accepted; each mutation the grammar claims to enforce must be refused.
//! GBNF and EBNF are compiled and run by llguidance's GBNF reader and
//! XGrammar in the Python suite (crates/flexmd-py/tests/test_grammar.py).

mod common;

use std::sync::Arc;

use common::{instances, schemas};
use flexmd_constrain::{GrammarFormat, schema_grammar};
use llguidance::api::TopLevelGrammar;
use llguidance::{Matcher, ParserFactory};
use proptest::prelude::*;
use serde_json::json;
use toktrie::{ApproximateTokEnv, TokEnv};

/// A matcher factory over a vocabulary of the 256 bytes.
fn factory() -> (TokEnv, Arc<ParserFactory>) {
    let env = ApproximateTokEnv::single_byte_env();
    let mut factory = ParserFactory::new_simple(&env).unwrap_or_else(|e| unreachable!("{e}"));
    factory.quiet();
    (env, Arc::new(factory))
}

/// Whether llguidance, running `lark` byte by byte, accepts exactly `text`.
fn lark_accepts(
    factory: &ParserFactory,
    env: &TokEnv,
    lark: &str,
    text: &str,
) -> Result<bool, String> {
    let grammar = TopLevelGrammar::from_lark(lark.to_owned());
    let parser = factory
        .create_parser(grammar)
        .map_err(|e| format!("{e}\n{lark}"))?;
    let mut matcher = Matcher::new(Ok(parser));
    let tokens = env.tokenize_bytes(text.as_bytes());
    for token in tokens {
        if matcher.consume_token(token).is_err() {
            return Ok(false);
        }
    }
    Ok(matcher.is_accepting().unwrap_or(false))
}

fn regex_accepts(regex: &str, text: &str) -> bool {
    let re =
        regex_automata::meta::Regex::new(regex).unwrap_or_else(|e| unreachable!("{e}: {regex}"));
    re.is_match(text)
}

#[test]
fn every_schema_compiles_in_every_format() {
    let (env, factory) = factory();
    for (name, schema) in schemas() {
        for format in GrammarFormat::ALL {
            let grammar = schema_grammar(&schema, format);
            match (format, &grammar) {
                // A regex has no recursion.
                (GrammarFormat::Regex, Err(e)) if name == "tree" => assert_eq!(
                    e.to_string(),
                    "the schema refers to itself at `/$defs/Node` (through `#/$defs/Node`) and regex takes no recursive schema"
                ),
                (_, Ok(_)) => {}
                (_, Err(e)) => unreachable!("{name} in {format}: {e}"),
            }
        }
        let lark = schema_grammar(&schema, GrammarFormat::Lark)
            .map(|g| g.grammar)
            .unwrap_or_default();
        let compiled = factory.create_parser(TopLevelGrammar::from_lark(lark.clone()));
        assert!(
            compiled.is_ok(),
            "{name}: llguidance refuses the Lark grammar: {:?}\n{lark}",
            compiled.err()
        );
        let _ = &env;
    }
}

#[test]
fn mutations_the_grammar_enforces_are_refused() {
    let (env, factory) = factory();
    let schema = json!({
        "type": "object",
        "properties": {
            "id": {"type": "integer", "minimum": 0},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 4}, "maxItems": 2},
            "kind": {"enum": ["a", "b"]},
            "note": {"type": "string"}
        },
        "required": ["id", "kind"]
    });
    let lark = schema_grammar(&schema, GrammarFormat::Lark)
        .map(|g| g.grammar)
        .unwrap_or_default();
    let regex = schema_grammar(&schema, GrammarFormat::Regex)
        .map(|g| g.grammar)
        .unwrap_or_default();
    let cases = [
        (r#"{"id": 3, "kind": "a"}"#, true),
        (
            r#"{"id": 3, "tags": ["x", "yz"], "kind": "b", "note": "n"}"#,
            true,
        ),
        ("{\n  \"id\": 0,\n  \"kind\": \"a\"\n}", true),
        (r#"{"kind": "a"}"#, false), // a required property missing
        (r#"{"id": "3", "kind": "a"}"#, false), // a string for an integer
        (r#"{"id": -1, "kind": "a"}"#, false), // minimum 0: no sign
        (r#"{"id": 3, "kind": "c"}"#, false), // not in the enum
        (r#"{"id": 3, "tags": ["x", "y", "z"], "kind": "a"}"#, false), // maxItems
        (r#"{"id": 3, "tags": ["toolong"], "kind": "a"}"#, false), // maxLength
        (r#"{"id": 3, "kind": "a", "extra": 1}"#, false), // an undeclared property
        (r#"{"id": 3, "kind": "a",}"#, false), // a trailing comma
        (r#"{"kind": "a", "id": 3}"#, false), // another order
        (r#"{"id": 3, "kind": "a"} trailing"#, false),
    ];
    for (text, accepted) in cases {
        assert_eq!(
            lark_accepts(&factory, &env, &lark, text),
            Ok(accepted),
            "llguidance on {text}\n{lark}"
        );
        assert_eq!(
            regex_accepts(&regex, text),
            accepted,
            "regex on {text}\n{regex}"
        );
    }
}

#[test]
fn recursion_runs_in_lark() {
    let (env, factory) = factory();
    let schema = schemas()
        .into_iter()
        .find(|(n, _)| n == "tree")
        .map(|(_, s)| s)
        .unwrap_or_default();
    let lark = schema_grammar(&schema, GrammarFormat::Lark)
        .map(|g| g.grammar)
        .unwrap_or_default();
    let deep = r#"{"root": {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}, {"name": "d"}]}}"#;
    assert_eq!(lark_accepts(&factory, &env, &lark, deep), Ok(true));
    assert_eq!(
        lark_accepts(&factory, &env, &lark, r#"{"root": {"children": []}}"#),
        Ok(false)
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Grammar and validator agree on valid instances: whatever the schema
    /// accepts, compact or pretty-printed, every grammar accepts.
    #[test]
    fn grammars_accept_what_the_schema_accepts(
        (index, instance) in (0..8usize).prop_flat_map(|i| {
            let all = schemas();
            let (_, schema) = all.get(i).cloned().unwrap_or_default();
            (Just(i), instances(&schema, &schema, 0))
        }),
        pretty in any::<bool>(),
    ) {
        let (env, factory) = factory();
        let (name, schema) = schemas().get(index).cloned().unwrap_or_default();
        let text = if pretty {
            serde_json::to_string_pretty(&instance).unwrap_or_default()
        } else {
            serde_json::to_string(&instance).unwrap_or_default()
        };
        let lark = schema_grammar(&schema, GrammarFormat::Lark).map(|g| g.grammar).unwrap_or_default();
        prop_assert_eq!(lark_accepts(&factory, &env, &lark, &text), Ok(true), "{}: llguidance refuses {}", name, text);
        if let Ok(regex) = schema_grammar(&schema, GrammarFormat::Regex) {
            prop_assert!(regex_accepts(&regex.grammar, &text), "{}: the regex refuses {}", name, text);
        }
    }
}

/// References that double at each level (40 levels: 2^40 copies if
/// inlined) stay one rule each in the rule dialects, and are refused by
/// name in a regex, which has to copy them (too deep, or too long); 200 000 properties pass the
/// bound on subschemas and are refused, not written.
#[test]
fn huge_schemas_are_bounded_not_hung() {
    let doubling = common::doubling_references();
    for format in [
        GrammarFormat::Lark,
        GrammarFormat::Gbnf,
        GrammarFormat::Ebnf,
    ] {
        let grammar = schema_grammar(&doubling, format);
        let size = grammar
            .as_ref()
            .map(|g| g.grammar.len())
            .unwrap_or(usize::MAX);
        assert!(size < 20_000, "{format}: {size} bytes");
    }
    // 40 levels nest deeper than a regex may; 12 do not, but their copies
    // pass the size bound.
    let regex = schema_grammar(&doubling, GrammarFormat::Regex).map(|g| g.grammar.len());
    assert_eq!(
        regex.map_err(|e| e.to_string()),
        Err(format!(
            "the regex would have more than {} nested groups (a long chain such as a numbered list with a large bound)",
            flexmd_constrain::MAX_REGEX_NESTING
        ))
    );
    let mut shallow = doubling.clone();
    if let Some(x) = shallow.pointer_mut("/properties/x") {
        *x = json!({"$ref": "#/$defs/l28"});
    }
    let regex = schema_grammar(&shallow, GrammarFormat::Regex).map(|g| g.grammar.len());
    assert_eq!(
        regex.map_err(|e| e.to_string()),
        Err(format!(
            "the regex would have more than {} characters",
            flexmd_constrain::MAX_REGEX_CHARS
        ))
    );

    let properties: serde_json::Map<String, serde_json::Value> = (0..200_000)
        .map(|i| (format!("p{i}"), json!({"type": "integer"})))
        .collect();
    let wide = json!({"type": "object", "properties": properties});
    assert_eq!(
        schema_grammar(&wide, GrammarFormat::Lark).map(|g| g.rules),
        Err(flexmd_constrain::ConstrainError::TooLarge {
            what: "the grammar",
            max: flexmd_constrain::MAX_EXPORTED_NODES,
            unit: "subschemas",
        })
    );
}

/// A value nested in values (objects of arrays of objects, 30 levels:
/// 60 schemas deep) gives a grammar that grows by about as much at each
/// level: an item or a property written twice is a rule of its own (the
/// grammar doubled at each level before, and 25 levels ran out of memory).
/// Deeper than 96 schemas is refused by name (a bound on the stack).
#[test]
fn nesting_grows_the_grammar_linearly() {
    let nested = |levels: usize| {
        let mut schema = json!({"type": "string"});
        for _ in 0..levels {
            schema = json!({"type": "object", "properties": {
                "a": {"type": "array", "items": schema},
                "b": {"type": "integer"}
            }, "required": ["a"]});
        }
        schema
    };
    for format in [
        GrammarFormat::Lark,
        GrammarFormat::Gbnf,
        GrammarFormat::Ebnf,
    ] {
        // Rules, not bytes: a rule's name holds its place, which grows
        // with the depth.
        let rules = |levels| {
            schema_grammar(&nested(levels), format)
                .map(|g| g.rules)
                .unwrap_or(usize::MAX)
        };
        let (three, thirty) = (rules(3), rules(30));
        assert!(thirty < three * 12, "{format}: {three} then {thirty} rules");
    }
    assert_eq!(
        schema_grammar(&nested(50), GrammarFormat::Lark).map(|g| g.rules),
        Err(flexmd_constrain::ConstrainError::TooLarge {
            what: "the grammar",
            max: 96,
            unit: "levels of nested schemas",
        })
    );
}
