//! The property that ties export and the way back together: for an
//! instance valid under the original schema, what the provider would send
//! is valid under the exported schema, and mapping it back gives the
//! instance again (and validating it gives what validating the instance
//! gives, defaults filled in).

mod common;

use common::{instances, schemas};
use flexmd_constrain::{Provider, export, from_provider, to_provider, validate_from};
use flexmd_schema::{Registry, TransformOptions};
use proptest::prelude::*;
use serde_json::Value;

fn check(
    name: &str,
    original: &Value,
    provider: Provider,
    instance: &Value,
) -> Result<(), TestCaseError> {
    let registry = Registry::new();
    let valid = registry
        .validate_schema(original, instance)
        .map(|o| o.valid)
        .ok();
    prop_assert_eq!(
        valid,
        Some(true),
        "{}: the generated instance should be valid: {}",
        name,
        instance
    );
    let Ok(exported) = export(original, provider, name) else {
        // Refused for this provider (recursion for Anthropic): nothing to map.
        return Ok(());
    };
    let sent = to_provider(original, provider, instance);
    let outcome = registry.validate_schema(&exported.schema, &sent);
    prop_assert!(
        outcome.as_ref().is_ok_and(|o| o.valid),
        "{} for {}: {} should be valid under the export: {:?}",
        name,
        provider,
        sent,
        outcome.map(|o| o.errors)
    );
    let back = from_provider(original, sent.clone());
    prop_assert_eq!(
        &back.value,
        instance,
        "{} for {}: back from {}",
        name,
        provider,
        sent
    );
    let options = TransformOptions {
        coerce: false,
        apply_defaults: true,
    };
    let checked = validate_from(&registry, original, &sent, options).map(|v| v.outcome.data);
    let direct = registry
        .validate_and_transform_schema(original, instance, options)
        .map(|o| o.data);
    prop_assert_eq!(
        checked.ok(),
        direct.ok(),
        "{} for {}: defaults",
        name,
        provider
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn export_and_back_round_trip(
        (index, instance) in (0..8usize).prop_flat_map(|i| {
            let all = schemas();
            let (_, schema) = all.get(i).cloned().unwrap_or_default();
            (Just(i), instances(&schema, &schema, 0))
        }),
        provider in proptest::sample::select(Provider::ALL.to_vec()),
    ) {
        let all = schemas();
        let (name, schema) = all.get(index).cloned().unwrap_or_default();
        check(&name, &schema, provider, &instance)?;
    }
}
