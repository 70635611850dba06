//! `.planning/schemas-config.json`: elsabro's configuration file.

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::error::SchemaError;
use crate::registry::Registry;

/// Where elsabro keeps the config, relative to the project directory.
pub const DEFAULT_CONFIG_PATH: &str = ".planning/schemas-config.json";

/// The environment variable that names a config file, overriding the search
/// for `.planning/` (see [`ProjectConfig::find`]).
pub const CONFIG_ENV: &str = "FLEXMD_CONFIG";

/// The whole file: `{"schemas": {...}}`. Every field is optional and
/// defaults to elsabro's example values; an unknown field is an error, so
/// a typo does not pass silently.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SchemasConfig {
    /// The settings.
    #[serde(default)]
    pub schemas: SchemasSettings,
}

/// `schemas`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
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

/// A config as a project uses it: the settings, the file they came from (if
/// any), and the directory relative paths in it are read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectConfig {
    /// The settings (elsabro's defaults where the file is silent).
    pub config: SchemasConfig,
    /// The file read, if one was.
    pub path: Option<PathBuf>,
    /// The project directory: the one that holds `.planning/` (for a config
    /// file elsewhere, the file's own directory). Relative paths in the
    /// config (`customSchemas.directory`) are read from here.
    pub root: PathBuf,
}

impl ProjectConfig {
    /// Finds the config as git finds its repository: the file named by
    /// [`CONFIG_ENV`] (`FLEXMD_CONFIG`) when set; otherwise, walking up from
    /// `start`, the nearest directory with a `.planning/` directory, and its
    /// `.planning/schemas-config.json` (elsabro's defaults when that file
    /// does not exist). Without any `.planning/`, the defaults, with
    /// `start` as the root.
    ///
    /// ```
    /// use flexmd_schema::ProjectConfig;
    /// let dir = std::env::temp_dir().join(format!("flexmd-doc-find-{}", std::process::id()));
    /// std::fs::create_dir_all(dir.join(".planning")).unwrap();
    /// std::fs::create_dir_all(dir.join("src/deep")).unwrap();
    /// std::fs::write(
    ///     dir.join(".planning/schemas-config.json"),
    ///     r#"{"schemas": {"agentDefaults": {"bot": "review"}}}"#,
    /// ).unwrap();
    /// # if std::env::var_os("FLEXMD_CONFIG").is_none() {
    /// let found = ProjectConfig::find(&dir.join("src/deep")).unwrap();
    /// assert_eq!(found.root, dir);
    /// assert_eq!(found.schema_for_agent("bot").unwrap(), "review");
    /// # }
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn find(start: &Path) -> Result<Self, SchemaError> {
        if let Some(path) = std::env::var_os(CONFIG_ENV).filter(|p| !p.is_empty()) {
            return Self::load(Path::new(&path));
        }
        for dir in start.ancestors() {
            if dir.join(".planning").is_dir() {
                let path = dir.join(DEFAULT_CONFIG_PATH);
                return Ok(Self {
                    config: SchemasConfig::load_or_default(&path)?,
                    path: path.is_file().then_some(path),
                    root: dir.to_owned(),
                });
            }
        }
        Ok(Self {
            config: SchemasConfig::default(),
            path: None,
            root: start.to_owned(),
        })
    }

    /// Reads the config file at `path` (which must exist). Its root is the
    /// directory holding the `.planning/` it sits in, else its own directory.
    pub fn load(path: &Path) -> Result<Self, SchemaError> {
        let config = SchemasConfig::load(path)?;
        let dir = path.parent().unwrap_or(Path::new(""));
        let root = if dir.file_name().is_some_and(|n| n == ".planning") {
            dir.parent().unwrap_or(Path::new(""))
        } else {
            dir
        };
        Ok(Self {
            config,
            path: Some(path.to_owned()),
            root: root.to_owned(),
        })
    }

    /// The custom schema directory, resolved against [`ProjectConfig::root`].
    pub fn custom_schema_dir(&self) -> PathBuf {
        self.root
            .join(&self.config.schemas.custom_schemas.directory)
    }

    /// The registry this project validates with: the predefined schemas,
    /// and those of the custom directory when `autoLoad` is on and it
    /// exists.
    pub fn registry(&self) -> Result<Registry, SchemaError> {
        let mut registry = Registry::new();
        let dir = self.custom_schema_dir();
        if self.config.schemas.custom_schemas.auto_load && dir.is_dir() {
            registry.load_dir(&dir)?;
        }
        Ok(registry)
    }

    /// The schema `agentDefaults` gives `agent` (`elsabro-analyst` →
    /// `analysis`), or an error listing the agents it knows.
    pub fn schema_for_agent(&self, agent: &str) -> Result<&str, SchemaError> {
        let defaults = &self.config.schemas.agent_defaults;
        defaults
            .get(agent)
            .map(String::as_str)
            .ok_or_else(|| SchemaError::UnknownAgent {
                agent: agent.to_owned(),
                known: if defaults.is_empty() {
                    "none".to_owned()
                } else {
                    defaults.keys().cloned().collect::<Vec<_>>().join(", ")
                },
            })
    }
}

/// One agent step of an elsabro flow, as elsabro declares it:
///
/// ```json
/// {"id": "analyze", "type": "agent", "agent": "elsabro-analyst",
///  "outputSchema": "analysis",
///  "config": {"retryOnSchemaError": true, "maxSchemaRetries": 2}}
/// ```
///
/// Fields flexmd does not use (`id`, `type`, other `config` keys) are
/// accepted and ignored: a flow file carries more than one step needs.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FlowStep {
    /// The step's id.
    #[serde(default)]
    pub id: Option<String>,
    /// The agent that runs it; its `agentDefaults` schema is the fallback
    /// for `outputSchema`.
    #[serde(default)]
    pub agent: Option<String>,
    /// The schema its output must match.
    #[serde(default)]
    pub output_schema: Option<String>,
    /// `config`: the retry settings.
    #[serde(default)]
    pub config: FlowStepConfig,
}

/// `config` of a [`FlowStep`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct FlowStepConfig {
    /// Ask again, with hints, when the output does not fit.
    #[serde(default)]
    pub retry_on_schema_error: Option<bool>,
    /// Retries after the first attempt.
    #[serde(default)]
    pub max_schema_retries: Option<u32>,
}

impl FlowStep {
    /// The schema the step's output must match: `outputSchema`, else the
    /// agent's `agentDefaults` entry.
    ///
    /// ```
    /// use flexmd_schema::{FlowStep, ProjectConfig, SchemasConfig};
    /// let step: FlowStep = serde_json::from_str(
    ///     r#"{"id": "analyze", "type": "agent", "agent": "elsabro-analyst",
    ///         "config": {"retryOnSchemaError": true, "maxSchemaRetries": 1}}"#,
    /// ).unwrap();
    /// let project = ProjectConfig {
    ///     config: SchemasConfig::from_json(
    ///         r#"{"schemas": {"agentDefaults": {"elsabro-analyst": "analysis"}}}"#, "c.json").unwrap(),
    ///     path: None,
    ///     root: ".".into(),
    /// };
    /// assert_eq!(step.schema(&project).unwrap(), "analysis");
    /// assert_eq!(step.max_retries(&project), 1);
    /// ```
    pub fn schema<'a>(&'a self, project: &'a ProjectConfig) -> Result<&'a str, SchemaError> {
        match (&self.output_schema, &self.agent) {
            (Some(schema), _) => Ok(schema),
            (None, Some(agent)) => project.schema_for_agent(agent),
            (None, None) => Err(SchemaError::StepWithoutSchema),
        }
    }

    /// Retries after the first attempt: 0 when `retryOnSchemaError` is
    /// `false`; else `maxSchemaRetries`, falling back on the config's
    /// `validation.retryOnError` / `maxRetries`.
    pub fn max_retries(&self, project: &ProjectConfig) -> u32 {
        let validation = &project.config.schemas.validation;
        let retry = self
            .config
            .retry_on_schema_error
            .unwrap_or(validation.retry_on_error);
        if retry {
            self.config
                .max_schema_retries
                .unwrap_or(validation.max_retries)
        } else {
            0
        }
    }
}

/// Checks a name for a new schema: `[A-Za-z0-9_-]+`, so that it names a file
/// inside the schema directory (no `..`, no `/`) and a registry entry.
///
/// ```
/// use flexmd_schema::check_schema_name;
/// assert!(check_schema_name("ticket_v2").is_ok());
/// assert!(check_schema_name("../evil").is_err());
/// assert!(check_schema_name("").is_err());
/// ```
pub fn check_schema_name(name: &str) -> Result<(), SchemaError> {
    let ok = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(SchemaError::BadName {
            name: name.to_owned(),
        })
    }
}
