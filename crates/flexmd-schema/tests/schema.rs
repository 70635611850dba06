//! flexmd-schema against the seed's behaviours: the predefined schemas,
//! error shape, coercion, defaults, hints, retries, config, bad input.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use flexmd_schema::{
    ChangeKind, CommandModel, Expected, Model, ModelError, Registry, Retrier, RetryError,
    SchemaError, SchemasConfig, StopReason, TransformOptions, hints, infer_schema,
};
use serde_json::{Value, json};

fn codes(outcome: &flexmd_schema::Outcome) -> Vec<(String, String)> {
    outcome
        .errors
        .iter()
        .map(|e| (e.path.clone(), e.code.clone()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

mod predefined {
    use super::*;

    #[test]
    fn elsabros_schema_ids_reach_the_predefined_schemas() {
        let mut registry = Registry::new();
        let wrapper = json!({"type": "array", "items": {"$ref": "elsabro://schemas/plan-result"}});
        registry.register("plans", wrapper).unwrap();
        assert!(registry.validate("plans", &json!([{"phases": []}])).valid);
        assert_eq!(
            codes(&registry.validate("plans", &json!([{}]))),
            pairs(&[("[0].phases", "missing_required")])
        );
        for id in [
            "elsabro://schemas/analysis-result",
            "elsabro://schemas/analysis",
        ] {
            assert!(
                !registry.validate(id, &json!({})).valid,
                "{id} names the analysis schema"
            );
            assert_eq!(registry.get(id), registry.get("analysis"));
        }
    }

    #[test]
    fn invalid_enum_reads_as_elsabro_writes_it() {
        let schema = json!({"properties": {"r": {"enum": ["approve", "reject", 3, null]}}});
        let outcome = Registry::new()
            .validate_schema(&schema, &json!({"r": "maybe"}))
            .unwrap();
        assert_eq!(outcome.errors[0].code, "invalid_enum");
        assert_eq!(
            outcome.errors[0].message,
            "Value must be one of: approve, reject, 3, null"
        );
    }

    #[test]
    fn analysis() {
        let r = Registry::new();
        let good = json!({"summary": "The parser is linear and well tested.",
            "files": [{"path": "src/lib.rs", "purpose": "entry", "complexity": "low", "linesOfCode": 120}],
            "recommendations": [{"action": "add fuzzing", "priority": "high"}],
            "techDebt": {"score": 2.5, "issues": ["no fuzzing"]}});
        assert!(r.validate("analysis", &good).valid);
        let bad = json!({"summary": "short",
            "files": [{"path": "a.rs", "complexity": "huge", "linesOfCode": -1}],
            "recommendations": [{"action": "x", "priority": "urgent"}],
            "techDebt": {"score": 11, "issues": []}});
        let outcome = r.validate("analysis", &bad);
        assert_eq!(
            codes(&outcome),
            pairs(&[
                ("summary", "too_short"),
                ("files.[0].purpose", "missing_required"),
                ("files.[0].complexity", "invalid_enum"),
                ("files.[0].linesOfCode", "too_small"),
                ("recommendations.[0].priority", "invalid_enum"),
                ("techDebt.score", "too_big"),
            ])
        );
        let e = &outcome.errors[1];
        assert_eq!(e.message, "Missing required field: purpose");
        assert_eq!(e.pointer, "/files/0/purpose", "where the field should be");
        assert_eq!(e.schema_path, "/properties/files/items/required");
        assert_eq!(outcome.data, None);
    }

    #[test]
    fn implementation() {
        let r = Registry::new();
        let good = json!({"success": true,
            "filesCreated": [{"path": "a.rs", "purpose": "new", "linesAdded": 10}],
            "testsCreated": [{"path": "t.rs", "testCount": 3, "coverage": 81.5}],
            "decisions": [{"question": "q", "decision": "d", "reasoning": "r", "alternatives": ["x"]}],
            "errors": [{"type": "lint", "message": "m", "file": "a.rs", "line": 3}]});
        assert!(r.validate("implementation", &good).valid);
        let bad = json!({"success": "yes", "testsCreated": [{"path": "t.rs", "testCount": 0}],
            "filesModified": [{"path": "b.rs", "changes": "c", "linesAdded": 1}]});
        assert_eq!(
            codes(&r.validate("implementation", &bad)),
            pairs(&[
                ("success", "invalid_type"),
                ("testsCreated.[0].testCount", "too_small"),
                ("filesModified.[0].linesRemoved", "missing_required"),
            ])
        );
    }

    #[test]
    fn review() {
        let r = Registry::new();
        let good = json!({"approved": false,
            "issues": [{"severity": "high", "type": "bug", "file": "a.rs", "line": 4, "message": "off by one", "autoFixable": true}],
            "summary": {"critical": 0, "high": 1, "medium": 0, "low": 0, "info": 0},
            "recommendation": "request_changes"});
        assert!(r.validate("review", &good).valid);
        let bad = json!({"approved": false,
            "issues": [{"severity": "blocker", "type": "bug", "file": "a.rs", "message": "m"}],
            "summary": {"critical": 0, "high": 1.5, "medium": 0, "low": 0},
            "recommendation": "merge"});
        assert_eq!(
            codes(&r.validate("review", &bad)),
            pairs(&[
                ("issues.[0].severity", "invalid_enum"),
                ("summary.info", "missing_required"),
                ("summary.high", "invalid_type"),
                ("recommendation", "invalid_enum"),
            ])
        );
    }

    #[test]
    fn verification() {
        let r = Registry::new();
        let good = json!({"passed": true, "tests": {"total": 10, "passed": 10, "failed": 0, "skipped": 0},
            "typescript": {"passed": true, "errors": []}, "lint": {"passed": true, "warnings": 2, "errors": 0},
            "coverage": {"statements": 90, "branches": 80.5, "functions": 100, "lines": 91}});
        assert!(r.validate("verification", &good).valid);
        let bad = json!({"passed": true, "tests": {"total": -1, "passed": 0, "failed": 0, "skipped": 0},
            "typescript": {"passed": true},
            "coverage": {"lines": 120}});
        assert_eq!(
            codes(&r.validate("verification", &bad)),
            pairs(&[
                ("lint", "missing_required"),
                ("tests.total", "too_small"),
                ("coverage.lines", "too_big"),
            ])
        );
        // The seed's validator gives `typescript.errors` no item shape: any
        // list is valid, as it is there.
        let seed_valid = json!({"passed": false, "tests": {"total": 1, "passed": 0, "failed": 1, "skipped": 0},
            "typescript": {"passed": false, "errors": ["a.ts(3,1): TS2304", {"file": "b.ts"}]},
            "lint": {"passed": true}});
        assert!(r.validate("verification", &seed_valid).valid);
    }

    #[test]
    fn plan() {
        let r = Registry::new();
        let good = json!({"phases": [{"id": "p1", "name": "Parse", "description": "d",
            "tasks": [{"id": "t1", "description": "write parser", "agent": "executor", "dependencies": []}],
            "estimatedComplexity": "medium"}],
            "dependencies": [{"from": "p1", "to": "p2"}],
            "risks": [{"description": "r", "severity": "low", "mitigation": "m"}],
            "prerequisites": ["rust"]});
        assert!(r.validate("plan", &good).valid);
        let bad = json!({"phases": [{"id": 1, "tasks": [{"id": "t"}], "estimatedComplexity": "tiny"}],
            "prerequisites": [3]});
        assert_eq!(
            codes(&r.validate("plan", &bad)),
            pairs(&[
                ("phases.[0].name", "missing_required"),
                ("phases.[0].id", "invalid_type"),
                ("phases.[0].estimatedComplexity", "invalid_enum"),
                ("prerequisites.[0]", "invalid_type"),
            ])
        );
        // Tasks, dependencies and risks are lists of anything in the seed's
        // validator (no invented `severity` enum or task shape).
        let seed_valid = json!({"phases": [{"id": "p", "name": "P", "tasks": ["just text"]}],
            "dependencies": [["p", "q"]],
            "risks": [{"description": "r", "severity": "moderate", "mitigation": "m"}]});
        assert!(r.validate("plan", &seed_valid).valid);
    }

    #[test]
    fn outcome_json_is_the_seed_shape() {
        let r = Registry::new();
        let outcome = r.validate("plan", &json!({"phases": "none"}));
        assert_eq!(
            serde_json::to_value(&outcome).unwrap(),
            json!({"valid": false, "data": null, "errors": [{
                "path": "phases", "pointer": "/phases", "schemaPath": "/properties/phases/type",
                "message": "Expected array, got string", "code": "invalid_type"}], "warnings": []})
        );
    }
}

mod transform {
    use super::*;

    const BOTH: TransformOptions = TransformOptions {
        coerce: true,
        apply_defaults: true,
    };

    #[test]
    fn coercion_reaches_nested_items_and_is_reported() {
        let r = Registry::new();
        let answer = json!({"summary": 1234567890123_i64, "files": {"path": "a.rs", "purpose": "p", "linesOfCode": "42"},
            "recommendations": [{"action": "a", "priority": "low"}], "techDebt": {"score": "7.5", "issues": "one"}});
        let outcome = r.validate_and_transform(
            "analysis",
            &answer,
            TransformOptions {
                coerce: true,
                apply_defaults: false,
            },
        );
        assert!(outcome.valid, "{:?}", outcome.errors);
        assert_eq!(
            outcome.data.unwrap(),
            json!({"summary": "1234567890123", "files": [{"path": "a.rs", "purpose": "p", "linesOfCode": 42}],
                "recommendations": [{"action": "a", "priority": "low"}], "techDebt": {"score": 7.5, "issues": ["one"]}})
        );
        let changes: Vec<(ChangeKind, String, Value)> = outcome
            .changes
            .iter()
            .map(|c| (c.kind, c.path.clone(), c.to.clone()))
            .collect();
        assert_eq!(
            changes,
            [
                (
                    ChangeKind::Coerced,
                    "summary".to_owned(),
                    json!("1234567890123")
                ),
                (
                    ChangeKind::Coerced,
                    "files".to_owned(),
                    json!([{"path": "a.rs", "purpose": "p", "linesOfCode": "42"}])
                ),
                (ChangeKind::Coerced, "techDebt.score".to_owned(), json!(7.5)),
                (
                    ChangeKind::Coerced,
                    "techDebt.issues".to_owned(),
                    json!(["one"])
                ),
                (
                    ChangeKind::Coerced,
                    "files.[0].linesOfCode".to_owned(),
                    json!(42)
                ),
            ]
        );
    }

    #[test]
    fn coercion_stops_where_it_cannot_make_the_instance_valid() {
        let r = Registry::new();
        // "many" is no integer, so nothing is coerced: the errors are those
        // of the instance as given.
        let answer = json!({"passed": "true", "tests": {"total": "many", "passed": 0, "failed": 0, "skipped": 0},
            "typescript": {"passed": true}, "lint": {"passed": true}});
        let outcome = r.validate_and_transform("verification", &answer, BOTH);
        assert!(!outcome.valid);
        assert_eq!(
            codes(&outcome),
            pairs(&[("passed", "invalid_type"), ("tests.total", "invalid_type")])
        );
        assert!(
            outcome
                .changes
                .iter()
                .all(|c| c.kind == ChangeKind::Default)
        );
        // Without `coerce`, "12" stays a string.
        let plain = r.validate_and_transform(
            "plan",
            &json!({"phases": [], "prerequisites": 5}),
            TransformOptions::default(),
        );
        assert_eq!(codes(&plain), pairs(&[("prerequisites", "invalid_type")]));
    }

    #[test]
    fn coercion_through_prefix_items_and_additional_properties() {
        let r = Registry::empty();
        let schema = json!({"type": "object",
            "properties": {"point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "boolean"}]}},
            "additionalProperties": {"type": "array", "items": {"type": "integer"}}});
        let outcome = r
            .validate_and_transform_schema(
                &schema,
                &json!({"point": ["1.5", "false"], "counts": "7", "more": ["1", 2]}),
                BOTH,
            )
            .unwrap();
        assert!(outcome.valid, "{:?}", outcome.errors);
        assert_eq!(
            outcome.data.unwrap(),
            json!({"point": [1.5, false], "counts": [7], "more": [1, 2]})
        );
        let paths: Vec<&str> = outcome.changes.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(
            paths,
            ["point.[0]", "point.[1]", "counts", "more.[0]", "counts.[0]"]
        );
    }

    #[test]
    fn defaults_fill_nested_objects_and_array_items() {
        let r = Registry::new();
        let answer = json!({"approved": true,
            "issues": [{"severity": "low", "type": "style", "file": "a.rs", "message": "m"}],
            "summary": {"critical": 0, "high": 0, "medium": 0, "low": 1, "info": 0},
            "recommendation": "approve"});
        let outcome = r.validate_and_transform("review", &answer, BOTH);
        assert!(outcome.valid);
        assert_eq!(
            outcome.data.unwrap()["issues"][0]["autoFixable"],
            json!(false)
        );
        assert_eq!(
            serde_json::to_value(&outcome.changes).unwrap(),
            json!([{"kind": "default", "path": "issues.[0].autoFixable", "pointer": "/issues/0/autoFixable", "to": false}])
        );
        // A missing required key with a default is filled before judging.
        let no_issues = json!({"approved": true, "summary": {"critical": 0, "high": 0, "medium": 0, "low": 0, "info": 0},
            "recommendation": "approve"});
        let outcome = r.validate_and_transform("review", &no_issues, BOTH);
        assert!(outcome.valid);
        assert_eq!(outcome.data.unwrap()["issues"], json!([]));
    }

    #[test]
    fn defaults_through_refs_and_additional_properties() {
        let mut r = Registry::empty();
        r.register(
            "item",
            json!({"type": "object", "properties": {"qty": {"type": "integer", "default": 1}}}),
        )
        .unwrap();
        r.register("order", json!({"type": "object", "properties": {
            "lines": {"type": "array", "items": {"$ref": "flexmd://schemas/item"}},
            "extra": {"type": "object", "additionalProperties": {"$ref": "#/$defs/flag"}}},
            "$defs": {"flag": {"type": "object", "properties": {"on": {"type": "boolean", "default": true}}}}})).unwrap();
        let outcome = r.validate_and_transform(
            "order",
            &json!({"lines": [{}, {"qty": 3}], "extra": {"x": {}}}),
            BOTH,
        );
        assert_eq!(
            outcome.data.unwrap(),
            json!({"lines": [{"qty": 1}, {"qty": 3}], "extra": {"x": {"on": true}}})
        );
    }
}

#[test]
fn hints_are_precise() {
    let r = Registry::new();
    let schema = r.get("implementation").unwrap();
    let outcome = r.validate(
        "implementation",
        &json!({"filesCreated": [{"path": "a", "purpose": "b", "linesAdded": -2}], "decisions": 3}),
    );
    let texts: Vec<String> = hints(&outcome.errors, schema)
        .into_iter()
        .map(|h| h.hint)
        .collect();
    assert_eq!(
        texts,
        [
            "Fix success: Missing required field: success. Add `success` (boolean).",
            "Fix filesCreated.[0].linesAdded: Number must be >= 0. Keep it >= 0.",
            "Fix decisions: Expected array, got number. Give array of object with question: string, decision: string, reasoning: string, alternatives: array of string here.",
        ]
    );
    let unknown = r.validate("nope", &json!(1));
    assert_eq!(
        hints(&unknown.errors, &json!({}))[0].hint,
        "Fix root: Schema not found: nope. Register the schema or use a predefined one."
    );
}

mod retry {
    use super::*;

    fn script(answers: &[&str]) -> (tempdir::Dir, CommandModel) {
        let dir = tempdir::Dir::new();
        for (i, answer) in answers.iter().enumerate() {
            std::fs::write(dir.path().join(format!("answer_{}", i + 1)), answer).unwrap();
        }
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scripted_model.sh");
        let model = CommandModel::new(format!(
            "sh '{}' '{}'",
            script.display(),
            dir.path().display()
        ));
        (dir, model)
    }

    #[test]
    fn succeeds_on_the_second_attempt_with_hints_in_the_prompt() {
        let registry = Registry::new();
        let (dir, mut model) = script(&[
            "Here you go: {\"phases\": [{\"id\": \"p1\", \"name\": \"Build\"}]}",
            "```json\n{\"phases\": [{\"id\": \"p1\", \"name\": \"Build\", \"tasks\": []}]}\n```",
        ]);
        let retrier = Retrier::new(
            &registry,
            Expected::Schema(registry.get("plan").unwrap().clone()),
        );
        let accepted = retrier.run(&mut model, "Plan the build.").unwrap();
        assert_eq!(
            accepted.data,
            json!({"phases": [{"id": "p1", "name": "Build", "tasks": []}]})
        );
        assert_eq!(accepted.attempts.len(), 2);
        assert_eq!(accepted.attempts[0].errors[0].code, "missing_required");
        let second = std::fs::read_to_string(dir.path().join("prompt_2")).unwrap();
        assert!(
            second.starts_with(
                "Plan the build.\n\nReturn only JSON matching this JSON Schema:\n\n```json\n{\n  \"$schema\""
            ),
            "{second}"
        );
        assert!(second.ends_with("\nYour previous answer:\n\n````\nHere you go: {\"phases\": [{\"id\": \"p1\", \"name\": \"Build\"}]}\n````\n\nIt did not match the required structure. Answer again in full, fixing these problems:\n- Fix phases.[0].tasks: Missing required field: tasks. Add `tasks` (array, each {id, description, agent?, dependencies?}).\n"), "{second}");
    }

    /// Each retry replaces the conversation: the original prompt, the
    /// structure, the last answer only, and hints for what failed last.
    #[test]
    fn retries_replace_the_conversation_instead_of_appending() {
        let registry = Registry::new();
        let (dir, mut model) = script(&[
            "{\"phases\": 1}",
            "{\"phases\": [{\"id\": \"p1\"}]}",
            "{\"phases\": []}",
        ]);
        let retrier = Retrier::new(
            &registry,
            Expected::Schema(registry.get("plan").unwrap().clone()),
        );
        let accepted = retrier.run(&mut model, "Plan.").unwrap();
        assert_eq!(accepted.attempts.len(), 3);
        let prompt =
            |n: usize| std::fs::read_to_string(dir.path().join(format!("prompt_{n}"))).unwrap();
        let (first, third) = (prompt(1), prompt(3));
        // The third prompt holds the second answer, not the first, and only
        // the second answer's problems.
        assert!(third.contains("{\"phases\": [{\"id\": \"p1\"}]}"));
        assert!(!third.contains("{\"phases\": 1}"), "{third}");
        assert!(third.contains("Fix phases.[0].name: Missing required field: name."));
        assert!(!third.contains("Expected array, got number"));
        // So its size does not grow with the attempts: the first prompt
        // plus one answer and its hints.
        assert!(
            third.len() < first.len() + 800,
            "{} vs {}",
            third.len(),
            first.len()
        );
        assert_eq!(accepted.attempts[2].prompt, third);
        assert_eq!(accepted.attempts[0].prompt_tokens, first.len().div_ceil(4));
    }

    #[test]
    fn the_token_budget_stops_the_loop_and_the_best_attempt_is_returned() {
        let registry = Registry::new();
        let (dir, mut model) = script(&[
            "{\"phases\": [{\"id\": \"p1\"}]}",
            "{\"phases\": 7}",
            "{\"phases\": \"x\"}",
        ]);
        let mut retrier = Retrier::new(
            &registry,
            Expected::Schema(registry.get("plan").unwrap().clone()),
        );
        retrier.max_retries = 5;
        // The plan schema's prompt is about 300 estimated tokens: room for
        // two rounds, not three.
        retrier.max_tokens_total = Some(700);
        let err = retrier.run(&mut model, "Plan.").unwrap_err();
        let RetryError::Exhausted {
            attempts,
            reason,
            tokens_used,
            ..
        } = &err
        else {
            panic!("{err:?}");
        };
        assert_eq!(*reason, StopReason::TokenBudget);
        assert!(attempts.len() < 6, "the budget stopped it early");
        let sent: usize = attempts
            .iter()
            .map(|a| a.prompt_tokens + a.answer_tokens)
            .sum();
        assert_eq!(*tokens_used, sent);
        assert!(sent <= 700);
        assert!(
            !dir.path()
                .join(format!("prompt_{}", attempts.len() + 1))
                .exists()
        );
        let best = err.best_attempt().unwrap();
        let fewest = attempts.iter().map(|a| a.errors.len()).min().unwrap();
        assert_eq!(best.errors.len(), fewest);
        assert!(best.data.is_some());
        assert!(
            err.to_string()
                .ends_with("(the token budget would be passed)"),
            "{err}"
        );
    }

    #[test]
    fn the_best_attempt_has_the_fewest_violations() {
        let registry = Registry::new();
        let schema = json!({
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}, "c": {"type": "integer"}},
            "required": ["a", "b", "c"]
        });
        let (_dir, mut model) = script(&[
            "{\"a\": \"x\", \"b\": \"y\", \"c\": 3}",
            "{\"a\": 1, \"b\": \"y\", \"c\": 3}",
            "{\"a\": \"x\", \"b\": \"y\", \"c\": \"z\"}",
        ]);
        let err = Retrier::new(&registry, Expected::Schema(schema))
            .run(&mut model, "Count.")
            .unwrap_err();
        let RetryError::Exhausted { best, reason, .. } = &err else {
            panic!("{err:?}");
        };
        assert_eq!((*best, *reason), (Some(1), StopReason::Retries));
        let best = err.best_attempt().unwrap();
        assert_eq!(best.data, Some(json!({"a": 1, "b": "y", "c": 3})));
        assert_eq!(best.errors.len(), 1);
    }

    #[test]
    fn patch_mode_asks_only_for_the_failing_fields_and_merges_them() {
        let registry = Registry::new();
        let schema = json!({
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "score": {"type": "integer", "minimum": 0},
                "tags": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["title", "score", "tags"]
        });
        let (dir, mut model) = script(&[
            "{\"title\": \"A long title we keep\", \"score\": -3}",
            "{\"score\": 4, \"tags\": [\"x\"], \"title\": \"ignored\"}",
        ]);
        let mut retrier = Retrier::new(&registry, Expected::Schema(schema));
        retrier.patch = true;
        let accepted = retrier.run(&mut model, "Rate it.").unwrap();
        assert_eq!(
            accepted.data,
            json!({"title": "A long title we keep", "score": 4, "tags": ["x"]})
        );
        assert!(accepted.attempts[1].patch);
        let second = std::fs::read_to_string(dir.path().join("prompt_2")).unwrap();
        assert!(
            second.contains("Your previous answer was right except for these fields: tags, score."),
            "{second}"
        );
        assert!(
            second.contains("\"required\": [\n    \"tags\",\n    \"score\"\n  ]"),
            "{second}"
        );
        assert!(
            !second.contains("A long title"),
            "the patch prompt does not resend the answer"
        );
    }

    #[test]
    fn exhausts_its_retries_and_keeps_every_attempt() {
        let registry = Registry::new();
        let (_dir, mut model) = script(&["no json here", "{\"phases\": 1}", "{\"phases\": \"x\"}"]);
        let retrier = Retrier::new(
            &registry,
            Expected::Schema(registry.get("plan").unwrap().clone()),
        );
        let Err(RetryError::Exhausted { attempts, .. }) = retrier.run(&mut model, "Plan.") else {
            panic!("expected exhaustion");
        };
        let codes: Vec<&str> = attempts.iter().map(|a| a.errors[0].code.as_str()).collect();
        assert_eq!(codes, ["no_json", "invalid_type", "invalid_type"]);
    }

    #[test]
    fn a_spec_target_retries_on_markdown_answers() {
        let registry = Registry::new();
        let spec = flexmd_ofs::parse_spec(
            "## Output format\n- Short answer — prose\n- Steps — ordered list\n",
        )
        .value;
        let (dir, mut model) = script(&[
            "## Short answer\nYes.\n",
            "## Short answer\nYes.\n\n## Steps\n1. Parse\n2. Check\n",
        ]);
        let accepted = Retrier::new(&registry, Expected::Spec(spec))
            .run(&mut model, "Can it?")
            .unwrap();
        assert_eq!(
            accepted.data,
            json!({"Short answer": "Yes.", "Steps": ["Parse", "Check"]})
        );
        let second = std::fs::read_to_string(dir.path().join("prompt_2")).unwrap();
        assert!(second.contains("- Steps: "), "{second}");
        assert!(second.contains("Answer in this format:"));
    }

    #[test]
    fn a_failing_command_is_a_model_error() {
        let registry = Registry::new();
        let (_dir, mut model) = script(&[]);
        let retrier = Retrier::new(&registry, Expected::Schema(json!({})));
        match retrier.run(&mut model, "x") {
            Err(RetryError::Model {
                source: ModelError::Failed { status, stderr, .. },
                attempts,
            }) => {
                assert_eq!(status, "exit status: 3");
                assert_eq!(stderr, "no scripted answer 1");
                assert!(attempts.is_empty());
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_slow_command_times_out() {
        let mut model = CommandModel {
            command: "sleep 5".to_owned(),
            timeout: Duration::from_millis(200),
        };
        let started = std::time::Instant::now();
        assert!(matches!(
            model.complete("x"),
            Err(ModelError::Timeout { .. })
        ));
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "the command was stopped"
        );
    }

    /// A temporary directory removed on drop (no extra dependency).
    mod tempdir {
        pub(super) struct Dir(std::path::PathBuf);
        impl Dir {
            pub(super) fn new() -> Self {
                use std::sync::atomic::{AtomicUsize, Ordering};
                static N: AtomicUsize = AtomicUsize::new(0);
                let path = std::env::temp_dir().join(format!(
                    "flexmd-schema-test-{}-{}",
                    std::process::id(),
                    N.fetch_add(1, Ordering::SeqCst)
                ));
                std::fs::create_dir_all(&path).unwrap();
                Self(path)
            }
            pub(super) fn path(&self) -> &std::path::Path {
                &self.0
            }
        }
        impl Drop for Dir {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
    }
}

/// The conversation driven one answer at a time ([`Retrier::session`]).
mod session {
    use super::*;
    use flexmd_schema::Violation;

    fn retrier(registry: &Registry) -> Retrier<'_> {
        let schema =
            json!({"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}});
        Retrier::new(registry, Expected::Schema(schema))
    }

    #[test]
    fn an_empty_answer_is_retried_with_a_hint() {
        let registry = Registry::new();
        let retrier = retrier(&registry);
        let mut session = retrier.session("Pick n.").unwrap();
        assert_eq!(session.answer("  \n").unwrap(), None);
        assert_eq!(session.attempts()[0].errors[0].code, "empty_answer");
        assert!(
            session.prompt().contains("Fix root: The answer was empty"),
            "{}",
            session.prompt()
        );
        assert_eq!(
            session.answer(r#"{"n": "4"}"#).unwrap(),
            Some(&json!({"n": 4}))
        );
        let accepted = session.accept().unwrap();
        assert_eq!(accepted.attempts.len(), 2);
    }

    #[test]
    fn the_callers_violations_reject_valid_data_and_become_hints() {
        let registry = Registry::new();
        let retrier = retrier(&registry);
        let mut session = retrier.session("Pick an even n.").unwrap();
        assert_eq!(
            session.answer(r#"{"n": 3}"#).unwrap(),
            Some(&json!({"n": 3}))
        );
        let odd = Violation {
            path: "n".into(),
            pointer: "/n".into(),
            message: "Value error, n must be even".into(),
            code: "value_error".into(),
            ..Violation::default()
        };
        session.reject(vec![odd.clone()]).unwrap();
        assert_eq!(session.attempts()[0].errors, [odd]);
        assert!(
            session
                .prompt()
                .contains("- Fix n: Value error, n must be even")
        );
        assert_eq!(
            session.answer(r#"{"n": 4}"#).unwrap(),
            Some(&json!({"n": 4}))
        );
        assert_eq!(session.accept().unwrap().data, json!({"n": 4}));
    }

    #[test]
    fn a_rejection_with_no_retry_left_ends_the_session() {
        let registry = Registry::new();
        let mut retrier = retrier(&registry);
        retrier.max_retries = 0;
        let mut session = retrier.session("Pick n.").unwrap();
        assert!(session.answer(r#"{"n": 3}"#).unwrap().is_some());
        let error = session.reject(vec![Violation::default()]).unwrap_err();
        let RetryError::Exhausted {
            attempts, reason, ..
        } = error
        else {
            panic!("should be exhausted: {error:?}");
        };
        assert_eq!((attempts.len(), reason), (1, StopReason::Retries));
    }

    #[test]
    fn a_first_prompt_over_the_budget_is_refused() {
        let registry = Registry::new();
        let mut retrier = retrier(&registry);
        retrier.max_tokens_total = Some(3);
        let error = retrier.session("Pick n.").unwrap_err();
        assert!(matches!(
            error,
            RetryError::Exhausted {
                reason: StopReason::TokenBudget,
                ..
            }
        ));
    }
}

mod config {
    use super::*;

    #[test]
    fn the_seed_example_reads_back() {
        let text = r#"{"schemas": {"validation": {"strict": true, "coerceTypes": true, "applyDefaults": true,
            "retryOnError": true, "maxRetries": 2}, "customSchemas": {"directory": ".planning/schemas/", "autoLoad": true},
            "agentDefaults": {"elsabro-analyst": "analysis", "code-reviewer": "review"}}}"#;
        let config = SchemasConfig::from_json(text, "schemas-config.json").unwrap();
        assert_eq!(config.schemas.agent_defaults["code-reviewer"], "review");
        assert_eq!(
            config.schemas.custom_schemas.directory,
            PathBuf::from(".planning/schemas/")
        );
    }

    #[test]
    fn bad_config_names_the_field() {
        let err =
            SchemasConfig::from_json(r#"{"schemas": {"validaton": {}}}"#, "c.json").unwrap_err();
        assert_eq!(
            err.to_string(),
            "c.json: `schemas.validaton`: unknown field `validaton`, expected one of `validation`, `customSchemas`, `agentDefaults`"
        );
        let err = SchemasConfig::from_json(
            r#"{"schemas": {"customSchemas": {"autoLoad": "yes"}}}"#,
            "c.json",
        )
        .unwrap_err();
        assert!(
            matches!(&err, SchemaError::Config { field, .. } if field == "schemas.customSchemas.autoLoad"),
            "{err}"
        );
        let err = SchemasConfig::from_json("[1]", "c.json").unwrap_err();
        assert_eq!(
            err.to_string(),
            "c.json: `(root)`: expected an object `{\"schemas\": {...}}`"
        );
        let err = SchemasConfig::from_json("{", "c.json").unwrap_err();
        assert_eq!(
            err.to_string(),
            "c.json: `(root)`: EOF while parsing an object at line 1 column 1"
        );
    }

    #[test]
    fn load_dir_registers_each_file_by_its_stem() {
        let dir = std::env::temp_dir().join(format!("flexmd-schema-dir-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("ticket.json"),
            r#"{"type": "object", "required": ["id"]}"#,
        )
        .unwrap();
        std::fs::write(dir.join("notes.txt"), "ignored").unwrap();
        let mut r = Registry::new();
        assert_eq!(r.load_dir(&dir).unwrap(), ["ticket"]);
        assert!(!r.validate("ticket", &json!({})).valid);
        std::fs::write(dir.join("broken.json"), "{").unwrap();
        assert!(matches!(r.load_dir(&dir), Err(SchemaError::NotJson { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

mod bad_input {
    use super::*;

    #[test]
    fn a_schema_that_is_not_json_schema() {
        let mut r = Registry::empty();
        let err = r.register("bad", json!({"type": "strng"})).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("schema `bad` cannot be compiled: "),
            "{err}"
        );
        assert!(r.get("bad").is_none(), "nothing registered");
        assert!(
            r.validate_schema(&json!({"minLength": "ten"}), &json!("x"))
                .is_err()
        );
    }

    #[test]
    fn a_ref_to_nowhere() {
        let mut r = Registry::empty();
        let err = r
            .register(
                "dangling",
                json!({"properties": {"a": {"$ref": "https://example.com/x.json"}}}),
            )
            .unwrap_err();
        assert!(
            err.to_string().contains("flexmd never fetches schemas"),
            "{err}"
        );
        let err = r
            .register("local", json!({"$ref": "#/$defs/missing"}))
            .unwrap_err();
        assert!(matches!(err, SchemaError::Invalid { .. }));
    }

    #[test]
    fn a_hundred_thousand_deep_instance_is_refused() {
        // Built, checked and dropped on a thread with room for the recursive drop.
        let outcome = std::thread::Builder::new()
            .stack_size(512 * 1024 * 1024)
            .spawn(|| {
                let mut v = json!(1);
                for _ in 0..100_000 {
                    v = Value::Array(vec![v]);
                }
                let r = Registry::new();
                let schema = json!({"items": {"$ref": "#"}});
                r.validate_schema(&schema, &v).unwrap()
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(outcome.errors[0].code, "too_deep");
        assert_eq!(outcome.errors[0].pointer.matches('/').count(), 129);
    }

    #[test]
    fn a_text_of_more_values_than_flexmd_reads_is_not_validated() {
        // 1 000 001 objects of one member: 2 000 003 values. Only part of it
        // would be read, so its violations would be wrong.
        let text = format!("[{}{{\"a\": 1}}]", "{\"a\": 1},".repeat(1_000_000));
        let r = Registry::new();
        let schema = json!({"type": "array", "items": {"type": "object"}});
        let outcome = r
            .validate_text(&text, &schema, TransformOptions::default())
            .unwrap();
        assert!(!outcome.valid);
        assert_eq!(codes(&outcome), [(String::new(), "too_large".to_owned())]);
        assert_eq!(
            hints(&outcome.errors, &schema)[0].hint,
            "Fix root: The JSON holds more than 2000000 values, more than flexmd reads from one text (a bound on memory). Answer with a smaller value: summarise, or split it across answers."
        );
    }

    #[test]
    fn a_huge_instance_is_validated() {
        let r = Registry::new();
        let files: Vec<Value> = (0..200_000)
            .map(|i| json!({"path": format!("f{i}.rs"), "purpose": "p"}))
            .collect();
        let mut analysis =
            json!({"summary": "A summary long enough.", "files": files, "recommendations": []});
        assert!(r.validate("analysis", &analysis).valid);
        analysis["files"][199_999]["path"] = json!(5);
        assert_eq!(
            codes(&r.validate("analysis", &analysis)),
            pairs(&[("files.[199999].path", "invalid_type")])
        );
    }
}

#[test]
fn the_draft_comes_from_dollar_schema() {
    let r = Registry::empty();
    // Draft 7: `items` as a list checks positions; 2020-12 (the default)
    // spells that `prefixItems`, and `items` as a list is not a schema.
    let draft7 = json!({"$schema": "http://json-schema.org/draft-07/schema#",
        "items": [{"type": "string"}, {"type": "integer"}]});
    assert!(
        r.validate_schema(&draft7, &json!(["a", 1, true]))
            .unwrap()
            .valid
    );
    assert_eq!(
        codes(&r.validate_schema(&draft7, &json!([1, 1])).unwrap()),
        pairs(&[("[0]", "invalid_type")])
    );
    let draft2020 = json!({"items": [{"type": "string"}]});
    assert!(r.validate_schema(&draft2020, &json!(["a"])).is_err());
    let prefix = json!({"prefixItems": [{"type": "string"}], "items": false});
    assert!(!r.validate_schema(&prefix, &json!(["a", 2])).unwrap().valid);
    // Draft 7 ignores `prefixItems` (unknown there).
    let mut old = prefix.clone();
    old["$schema"] = json!("http://json-schema.org/draft-07/schema#");
    old.as_object_mut().unwrap().remove("items");
    assert!(r.validate_schema(&old, &json!([2])).unwrap().valid);
}

#[test]
fn an_inferred_schema_accepts_its_example() {
    let example = json!({"name": "Ada", "age": 36, "langs": [{"code": "en"}, {"code": "fr", "level": 2.5}], "x": null});
    let schema = infer_schema("person", &example);
    let r = Registry::new();
    assert!(r.validate_schema(&schema, &example).unwrap().valid);
    assert!(
        !r.validate_schema(&schema, &json!({"name": "Ada"}))
            .unwrap()
            .valid
    );
}
