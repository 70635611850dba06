//! Seed fidelity: the elsabro SchemaValidator's result shapes, paths and
//! messages, on the seed's own schemas.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use flexmd_schema::{Registry, TransformOptions};
use pretty_assertions::assert_eq;
use serde_json::json;

#[test]
fn missing_required_points_at_the_missing_property() {
    let r = Registry::new();
    let outcome = r.validate(
        "analysis",
        &json!({"files": [{"path": "a.rs"}], "recommendations": []}),
    );
    let json = serde_json::to_value(&outcome).unwrap();
    // The seed: `path: key` for a top-level field, `files.[0].purpose` inside items.
    assert_eq!(json["errors"][0]["path"], "summary");
    assert_eq!(
        json["errors"][0]["message"],
        "Missing required field: summary"
    );
    assert_eq!(json["errors"][0]["code"], "missing_required");
    assert_eq!(json["errors"][1]["path"], "files.[0].purpose");
    assert_eq!(json["errors"][1]["pointer"], "/files/0/purpose");
}

#[test]
fn validate_and_transform_says_coerced_and_keeps_changes() {
    let r = Registry::new();
    let options = TransformOptions {
        coerce: true,
        apply_defaults: true,
    };
    let outcome = r.validate_and_transform(
        "review",
        &json!({"approved": "false", "issues": [], "recommendation": "approve",
                "summary": {"critical": "0", "high": 0, "medium": 0, "low": 0, "info": 0}}),
        options,
    );
    let json = serde_json::to_value(&outcome).unwrap();
    assert_eq!(json["valid"], true);
    assert_eq!(json["coerced"], true);
    assert_eq!(json["data"]["approved"], false);
    assert_eq!(json["changes"][0]["path"], "approved");
    assert_eq!(json["changes"][1]["path"], "summary.critical");
    // Nothing coerced: no `coerced` field, as in the seed.
    let plain = r.validate_and_transform("plan", &json!({"phases": []}), options);
    assert_eq!(
        serde_json::to_value(&plain).unwrap(),
        json!({"valid": true, "data": {"phases": []}, "errors": [], "warnings": []})
    );
}

#[test]
fn type_messages_name_javascript_types() {
    let r = Registry::new();
    let outcome = r.validate("plan", &json!({"phases": 3}));
    assert_eq!(outcome.errors[0].message, "Expected array, got number");
    let outcome = r.validate("plan", &json!({"phases": 2.5}));
    assert_eq!(outcome.errors[0].message, "Expected array, got number");
}

#[test]
fn an_unknown_schema_is_the_seeds_schema_not_found_result() {
    let outcome = Registry::new().validate("nope", &json!({}));
    assert_eq!(
        serde_json::to_value(&outcome).unwrap(),
        json!({"valid": false, "data": null, "errors": [
            {"path": "", "pointer": "", "schemaPath": "", "message": "Schema not found: nope", "code": "schema_not_found"}
        ], "warnings": []})
    );
}

#[test]
fn the_config_reads_paths_from_the_project_that_holds_planning() {
    use flexmd_schema::{FlowStep, ProjectConfig};
    let root = std::env::temp_dir().join(format!("flexmd-seed-project-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join(".planning/schemas")).unwrap();
    std::fs::write(
        root.join(".planning/schemas-config.json"),
        r#"{"schemas": {"validation": {"retryOnError": false, "maxRetries": 4},
            "agentDefaults": {"elsabro-analyst": "analysis", "bot": "ticket"}}}"#,
    )
    .unwrap();
    std::fs::write(
        root.join(".planning/schemas/ticket.json"),
        r#"{"type": "object", "required": ["id"]}"#,
    )
    .unwrap();
    let project = ProjectConfig::load(&root.join(".planning/schemas-config.json")).unwrap();
    assert_eq!(project.root, root);
    assert_eq!(project.custom_schema_dir(), root.join(".planning/schemas/"));
    let registry = project.registry().unwrap();
    assert!(
        !registry
            .validate(project.schema_for_agent("bot").unwrap(), &json!({}))
            .valid
    );
    assert_eq!(
        project.schema_for_agent("nobody").unwrap_err().to_string(),
        "no schema for agent `nobody` in `schemas.agentDefaults` (agents: elsabro-analyst, bot)"
    );
    // The seed's flow step: retries from the step, else from the config.
    let step: FlowStep = serde_json::from_value(json!({
        "id": "analyze", "type": "agent", "agent": "elsabro-analyst", "outputSchema": "analysis",
        "config": {"retryOnSchemaError": true, "maxSchemaRetries": 2}
    }))
    .unwrap();
    assert_eq!(step.schema(&project).unwrap(), "analysis");
    assert_eq!(step.max_retries(&project), 2);
    let bare: FlowStep = serde_json::from_value(json!({"agent": "bot"})).unwrap();
    assert_eq!(bare.schema(&project).unwrap(), "ticket");
    assert_eq!(
        bare.max_retries(&project),
        0,
        "the config says retryOnError: false"
    );
    std::fs::remove_dir_all(&root).unwrap();
}
