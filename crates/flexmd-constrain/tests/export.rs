//! Exports of realistic schemas (Pydantic's output, recursion, unions,
//! maps) for every provider, against the expected files beside them.

mod common;

use std::path::Path;

use flexmd_constrain::{Action, ConstrainError, Provider, Rule, export};
use flexmd_schema::Registry;
use pretty_assertions::assert_eq;
use serde_json::{Map, Value, json};

/// Each `*.schema.json` gives `*.exports.json`: per provider the export
/// (`request` and `changes`), or the error's message.
#[test]
fn fixtures_export_as_expected() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/export");
    let cases =
        flexmd_testkit::check_fixture_files(&dir, ".schema.json", ".exports.json", |_, text| {
            let schema: Value = serde_json::from_str(text).unwrap_or_default();
            let mut all = Map::new();
            for provider in Provider::ALL {
                let result = match export(&schema, provider, "answer") {
                    Ok(e) => json!({"request": e.request, "changes": e.changes}),
                    Err(e) => json!({"error": e.to_string()}),
                };
                all.insert(provider.name().to_owned(), result);
            }
            let mut text = serde_json::to_string_pretty(&Value::Object(all)).unwrap_or_default();
            text.push('\n');
            text
        });
    assert_eq!(cases.len(), 4, "should check every fixture schema");
}

/// Every exported schema is itself a valid JSON Schema (it compiles).
#[test]
fn exports_compile() {
    let registry = Registry::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/export");
    for name in ["invoice", "tree", "shapes"] {
        let text =
            std::fs::read_to_string(dir.join(format!("{name}.schema.json"))).unwrap_or_default();
        let schema: Value = serde_json::from_str(&text).unwrap_or_default();
        for provider in Provider::ALL {
            let Ok(exported) = export(&schema, provider, name) else {
                continue;
            };
            let outcome = registry.validate_schema(&exported.schema, &json!({}));
            assert!(
                outcome.is_ok(),
                "{name} for {provider} should compile: {outcome:?}"
            );
        }
    }
}

#[test]
fn the_predefined_schemas_export_to_every_provider() {
    let registry = Registry::new();
    for name in [
        "analysis",
        "implementation",
        "review",
        "verification",
        "plan",
    ] {
        let Some(schema) = registry.get(name) else {
            unreachable!("{name} is predefined")
        };
        for provider in Provider::ALL {
            let exported = export(schema, provider, name);
            assert!(exported.is_ok(), "{name} for {provider}: {exported:?}");
        }
    }
}

#[test]
fn recursion_is_kept_where_the_provider_takes_it() {
    let schema = json!({
        "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}, "v": {"type": "integer"}}, "required": ["v"]}},
        "type": "object",
        "properties": {"head": {"$ref": "#/$defs/node"}},
        "required": ["head"]
    });
    let Ok(openai) = export(&schema, Provider::OpenAi, "list") else {
        unreachable!("OpenAI takes recursion")
    };
    assert_eq!(
        openai.schema["$defs"]["node"]["properties"]["next"],
        json!({"anyOf": [{"$ref": "#/$defs/node"}, {"type": "null"}]}),
        "should keep the self-reference, nullable since `next` is optional"
    );
    assert_eq!(
        export(&schema, Provider::Anthropic, "list"),
        Err(ConstrainError::Recursive {
            provider: "anthropic",
            pointer: "/$defs/node/properties/next".to_owned(),
            reference: "#/$defs/node".to_owned(),
        })
    );
    // The root referring to itself.
    let root = json!({"type": "object", "properties": {"sub": {"$ref": "#"}}});
    let Ok(gemini) = export(&root, Provider::Gemini, "r") else {
        unreachable!("Gemini takes recursion")
    };
    assert_eq!(gemini.schema["properties"]["sub"], json!({"$ref": "#"}));
}

#[test]
fn limits_are_errors_that_name_them() {
    let properties: Map<String, Value> = (0..5001)
        .map(|i| (format!("p{i}"), json!({"type": "integer"})))
        .collect();
    let wide = json!({"type": "object", "properties": properties});
    assert_eq!(
        export(&wide, Provider::OpenAi, "wide").map(|_| ()),
        Err(ConstrainError::Limit {
            provider: "openai",
            limit: "object properties in all",
            found: 5001,
            max: 5000,
        })
    );
    assert!(
        export(&wide, Provider::Gemini, "wide").is_ok(),
        "Gemini documents no such limit"
    );

    let mut deep = json!({"type": "object", "properties": {"leaf": {"type": "string"}}});
    for _ in 0..10 {
        deep = json!({"type": "object", "properties": {"d": deep}});
    }
    assert_eq!(
        export(&deep, Provider::OpenAiTool, "deep").map(|_| ()),
        Err(ConstrainError::Limit {
            provider: "openai",
            limit: "levels of object nesting",
            found: 11,
            max: 10,
        })
    );

    let scalar = json!({"type": "string"});
    let refused = export(&scalar, Provider::OpenAi, "s").map(|_| ());
    assert!(
        matches!(&refused, Err(ConstrainError::Unsupported { pointer, .. }) if pointer.is_empty()),
        "a string root should be refused: {refused:?}"
    );
    assert!(
        export(&scalar, Provider::Gemini, "s").is_ok(),
        "Gemini takes any root"
    );
}

#[test]
fn copying_references_is_bounded() {
    let schema = common::doubling_references();
    assert_eq!(
        export(&schema, Provider::Gemini, "big").map(|_| ()),
        Err(ConstrainError::TooLarge {
            what: "the exported schema",
            max: flexmd_constrain::MAX_EXPORTED_NODES,
            unit: "subschemas (references are copied where they are used)",
        })
    );
}

#[test]
fn every_change_names_its_place_once() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/export/invoice.schema.json"),
    )
    .unwrap_or_default();
    let schema: Value = serde_json::from_str(&text).unwrap_or_default();
    let Ok(exported) = export(&schema, Provider::Anthropic, "invoice") else {
        unreachable!("the invoice exports")
    };
    let unenforced: Vec<(&str, Option<&str>)> = exported
        .unenforced()
        .map(|c| (c.pointer.as_str(), c.keyword.as_deref()))
        .collect();
    assert_eq!(
        unenforced,
        [
            ("/$defs/LineItem/properties/description", Some("maxLength")),
            ("/$defs/LineItem/properties/quantity", Some("minimum")),
            (
                "/$defs/LineItem/properties/unit_price",
                Some("exclusiveMinimum")
            ),
        ],
        "Anthropic enforces pattern, format and minItems 1 itself"
    );
    assert!(
        exported.changes.iter().all(|c| c.action != Action::Dropped
            || matches!(c.rule, Rule::AnnotationDropped | Rule::DefaultDropped)),
        "only annotations and defaults are dropped"
    );
}

/// `schema` is refused with `expected` by every provider and every grammar
/// format.
fn refused_everywhere(schema: &Value, expected: &ConstrainError) {
    for provider in Provider::ALL {
        assert_eq!(
            export(schema, provider, "bad").map(|_| ()),
            Err(expected.clone()),
            "{provider}"
        );
    }
    for format in flexmd_constrain::GrammarFormat::ALL {
        assert_eq!(
            flexmd_constrain::schema_grammar(schema, format).map(|_| ()),
            Err(expected.clone()),
            "{format}"
        );
    }
}

/// A `pattern` (or a `patternProperties` name) that flexmd's validator cannot
/// compile is refused at its place: the answer could not be checked
/// against it afterwards (found by the fuzzer: `^INV-[5-9]{4nnn}$` went to
/// OpenAI as it was). A property named `pattern` is a name, not a regex.
#[test]
fn a_pattern_that_does_not_compile_is_refused_at_its_place() {
    let schema = json!({"type": "object", "properties": {
        "pattern": {"type": "string", "enum": ["(", "["]},
        "number": {"type": "string", "pattern": "^INV-[5-9]{4nnn}$"}
    }});
    let expected = ConstrainError::NotASchema {
        pointer: "/properties/number/pattern".to_owned(),
        found: "`^INV-[5-9]{4nnn}$` is not a regular expression flexmd can check".to_owned(),
    };
    refused_everywhere(&schema, &expected);
    let names = json!({"type": "object", "patternProperties": {"^a(": {"type": "string"}}});
    assert_eq!(
        export(&names, Provider::Gemini, "bad").map_err(|e| e.to_string()),
        Err("not a schema at `/patternProperties/^a(`: `^a(` is not a regular expression flexmd can check".to_owned())
    );
    let fine = json!({"type": "object", "properties": {"pattern": {"type": "string", "pattern": "^[a-z]+$"}}});
    assert!(export(&fine, Provider::OpenAi, "fine").is_ok());
}

/// A `type` that names no JSON type, or any keyword of the wrong shape, is
/// not a schema: refused at its place, never passed on to the provider or
/// into a grammar (found by the fuzzer: `"type": "object\": \"object"` and
/// `"required": [{…}]` went to Gemini as they were).
#[test]
fn a_type_that_names_no_type_is_refused_at_its_place() {
    let schema = json!({"type": "object", "properties": {
        "a": {"type": "object\": \"object", "additionalProperties": {"type": "integer"}},
        "b": {"type": ["string", 3]},
        "c": {"type": []}
    }});
    let expected = ConstrainError::NotASchema {
        pointer: "/properties/a/type".to_owned(),
        found: "`object\": \"object` where a type name (null, boolean, object, array, number, string, integer) or an array of them is expected".to_owned(),
    };
    refused_everywhere(&schema, &expected);
    // Any keyword of the wrong shape, checked against the meta-schema.
    let required = json!({"type": "object", "required": [{"r": 1}]});
    assert_eq!(
        export(&required, Provider::Gemini, "bad").map(|_| ()),
        Err(ConstrainError::NotASchema {
            pointer: "/required/0".to_owned(),
            found: "{\"r\":1} is not of type \"string\"".to_owned(),
        })
    );
    for (property, found) in [("b", "an array"), ("c", "an array")] {
        let one =
            json!({"type": "object", "properties": {property: schema["properties"][property]}});
        let error = export(&one, Provider::OpenAi, "bad")
            .map(|_| ())
            .map_err(|e| e.to_string());
        assert_eq!(
            error,
            Err(format!(
                "not a schema at `/properties/{property}/type`: {found} where a type name (null, boolean, object, array, number, string, integer) or an array of them is expected"
            ))
        );
    }
}
