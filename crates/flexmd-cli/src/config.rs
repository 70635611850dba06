//! Where the schema settings come from (`--config`, `$FLEXMD_CONFIG`, or
//! the nearest `.planning/`), and the project and registry they give: what
//! every command that names a schema sets up first (`schema`, `run`,
//! `json --schema`, `report --schema`, `mcp`); and `--preset`, how far a
//! value is made to fit its schema.

use std::path::PathBuf;

use clap::Args;
use flexmd_schema::{ProjectConfig, Registry, SchemaError};

use crate::error::CliError;

/// Where the schema settings come from.
#[derive(Debug, Args)]
pub(crate) struct ConfigArg {
    /// The schema settings file, `schemas-config.json`: whether to coerce
    /// types, fill defaults and fail on invalid data, where custom schemas
    /// live, and which schema each agent's output must follow. Default: $FLEXMD_CONFIG, else `.planning/schemas-config.json` in the
    /// nearest directory up from here that has a `.planning/`.
    #[arg(long, global = true, value_name = "PATH")]
    config: Option<PathBuf>,
}

/// The project config and the registry it gives (the predefined schemas
/// and the project's own).
pub(crate) struct Setup {
    pub(crate) project: ProjectConfig,
    pub(crate) registry: Registry,
}

/// Loads the settings `config` names, or finds them from the current
/// directory up.
pub(crate) fn setup(config: &ConfigArg) -> Result<Setup, CliError> {
    let project = match &config.config {
        Some(path) => ProjectConfig::load(path)?,
        None => {
            let here = std::env::current_dir().map_err(|source| SchemaError::Io {
                path: PathBuf::from("."),
                source,
            })?;
            ProjectConfig::find(&here)?
        }
    };
    let registry = project.registry()?;
    Ok(Setup { project, registry })
}

/// `--preset` values.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(crate) enum PresetArg {
    Strict,
    Standard,
    Salvage,
}

impl From<PresetArg> for flexmd_schema::Preset {
    fn from(p: PresetArg) -> Self {
        match p {
            PresetArg::Strict => Self::Strict,
            PresetArg::Standard => Self::Standard,
            PresetArg::Salvage => Self::Salvage,
        }
    }
}
