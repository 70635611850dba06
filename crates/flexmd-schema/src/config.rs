//! `.planning/schemas-config.json`: the seed's configuration file.

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::error::SchemaError;
use crate::registry::Registry;

/// Where the seed keeps the config, relative to the project directory.
pub const DEFAULT_CONFIG_PATH: &str = ".planning/schemas-config.json";

/// The whole file: `{"schemas": {...}}`. Every field is optional and
/// defaults to the seed's example values; an unknown field is an error, so
/// a typo does not pass silently.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchemasConfig {
    /// The settings.
    #[serde(default)]
    pub schemas: SchemasSettings,
}

/// `schemas`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SchemasSettings {
    /// `schemas.validation`.
    #[serde(default)]
    pub validation: ValidationSettings,
    /// `schemas.customSchemas`.
    #[serde(default)]
    pub custom_schemas: CustomSchemas,
    /// `schemas.agentDefaults`: agent id → schema name.
    #[serde(default)]
    pub agent_defaults: IndexMap<String, String>,
}

/// `schemas.validation`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase", default)]
pub struct ValidationSettings {
    /// Violations fail the command (exit 1); when `false` they are reported
    /// as warnings and the data is printed anyway.
    pub strict: bool,
    /// Coerce types (`"42"` → 42) before judging.
    pub coerce_types: bool,
    /// Fill `default`s before judging.
    pub apply_defaults: bool,
    /// Ask the model again, with hints, when its answer does not fit.
    pub retry_on_error: bool,
    /// Retries after the first attempt.
    pub max_retries: u32,
}

impl Default for ValidationSettings {
    fn default() -> Self {
        Self {
            strict: true,
            coerce_types: true,
            apply_defaults: true,
            retry_on_error: true,
            max_retries: 2,
        }
    }
}

/// `schemas.customSchemas`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase", default)]
pub struct CustomSchemas {
    /// The directory of `NAME.json` schema files, relative to the current
    /// directory unless absolute.
    pub directory: PathBuf,
    /// Register every schema in `directory` on start.
    pub auto_load: bool,
}

impl Default for CustomSchemas {
    fn default() -> Self {
        Self {
            directory: PathBuf::from(".planning/schemas/"),
            auto_load: true,
        }
    }
}

impl SchemasConfig {
    /// Reads a config file. A missing file at `path` is an error; use
    /// [`SchemasConfig::load_or_default`] for the default location.
    ///
    /// ```
    /// use flexmd_schema::SchemasConfig;
    /// let config = SchemasConfig::from_json(r#"{"schemas": {"validation": {"maxRetries": 5}}}"#, "c.json").unwrap();
    /// assert_eq!(config.schemas.validation.max_retries, 5);
    /// assert!(config.schemas.validation.coerce_types, "defaults fill the rest");
    /// let bad = SchemasConfig::from_json(r#"{"schemas": {"validation": {"maxRetries": "two"}}}"#, "c.json");
    /// assert_eq!(
    ///     bad.unwrap_err().to_string(),
    ///     "c.json: `schemas.validation.maxRetries`: invalid type: string \"two\", expected u32"
    /// );
    /// ```
    pub fn load(path: &Path) -> Result<Self, SchemaError> {
        let text = std::fs::read_to_string(path).map_err(|source| SchemaError::Io {
            path: path.to_owned(),
            source,
        })?;
        Self::from_json(&text, path)
    }

    /// The config at `path` if that file exists, else the defaults.
    pub fn load_or_default(path: &Path) -> Result<Self, SchemaError> {
        if path.exists() {
            Self::load(path)
        } else {
            Ok(Self::default())
        }
    }

    /// Reads a config from JSON text; `path` names it in errors.
    pub fn from_json(text: &str, path: impl AsRef<Path>) -> Result<Self, SchemaError> {
        let error = |field: &str, message: String| SchemaError::Config {
            path: path.as_ref().to_owned(),
            field: field.to_owned(),
            message,
        };
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| error("(root)", e.to_string()))?;
        if !value.is_object() {
            return Err(error(
                "(root)",
                "expected an object `{\"schemas\": {...}}`".to_owned(),
            ));
        }
        serde_path_to_error::deserialize(value).map_err(|e| {
            let field = e.path().to_string();
            error(&field, e.into_inner().to_string())
        })
    }
}

impl Registry {
    /// Registers every `*.json` file of `dir` under its file stem; returns
    /// the names, in file-name order. The first file that is not JSON or not
    /// a valid schema stops the load with an error naming it.
    pub fn load_dir(&mut self, dir: &Path) -> Result<Vec<String>, SchemaError> {
        let io = |source| SchemaError::Io {
            path: dir.to_owned(),
            source,
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(io)?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        let mut names = Vec::new();
        for file in files {
            let Some(name) = file.file_stem().and_then(|s| s.to_str()).map(str::to_owned) else {
                continue;
            };
            let text = std::fs::read_to_string(&file).map_err(|source| SchemaError::Io {
                path: file.clone(),
                source,
            })?;
            let schema = serde_json::from_str(&text).map_err(|e| SchemaError::NotJson {
                path: file.clone(),
                message: e.to_string(),
            })?;
            self.register(&name, schema)?;
            names.push(name);
        }
        Ok(names)
    }
}
