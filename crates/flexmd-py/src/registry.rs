//! Named schemas and the project config from Python: `Registry` (the
//! predefined schemas and your own, `$ref`s between them) and `Project`
//! (`.planning/schemas-config.json`: settings, custom schema directory,
//! `agentDefaults`, flow steps), thin over `flexmd_schema`'s types.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use flexmd_schema::{FlowStep, ProjectConfig, Registry};
use pyo3::prelude::*;
use pyo3::types::PyString;
use serde_json::Value;

use crate::convert::{from_py, to_py};
use crate::errors::schema_error;

/// The predefined schemas, one registry for the process.
pub(crate) fn predefined() -> &'static Arc<Registry> {
    static REGISTRY: OnceLock<Arc<Registry>> = OnceLock::new();
    REGISTRY.get_or_init(|| Arc::new(Registry::new()))
}

/// The registry a call resolves names and `$ref`s with: the caller's, else
/// the predefined schemas.
pub(crate) fn registry_of(given: Option<&Bound<'_, PyRegistry>>) -> Arc<Registry> {
    match given {
        Some(registry) => registry.get().snapshot(),
        None => Arc::clone(predefined()),
    }
}

/// A schema given as a Python value: a JSON Schema dict, or a Pydantic
/// model class (its `model_json_schema()`).
pub(crate) fn schema_json(schema: &Bound<'_, PyAny>) -> PyResult<Value> {
    let is_model = schema.is_instance_of::<pyo3::types::PyType>()
        && schema.hasattr("model_json_schema")?
        && schema.hasattr("model_validate")?;
    let value = if is_model {
        schema.call_method0("model_json_schema")?
    } else {
        schema.clone()
    };
    // Named as the schema in errors, so a bad key points at the argument.
    crate::convert::python_to_json(&value).map_err(|e| e.into_err(value.py(), "the schema"))
}

/// A set of named JSON Schemas: the five predefined ones (`analysis`,
/// `implementation`, `review`, `verification`, `plan`) unless made empty,
/// and your own, registered by name or loaded from a directory. Give it as
/// `registry=` to `validate`, `loads`, `find_json_as`, `hints` and `ask`:
/// names and `$ref`s (`flexmd://schemas/NAME`, `elsabro://schemas/NAME`)
/// then resolve in it.
#[pyclass(name = "Registry", module = "flexmd", frozen)]
pub(crate) struct PyRegistry {
    /// Replaced, never changed in place, so calls and sessions that took a
    /// snapshot keep the schemas they started with.
    current: Mutex<Arc<Registry>>,
}

impl PyRegistry {
    fn new_from(registry: Registry) -> Self {
        Self {
            current: Mutex::new(Arc::new(registry)),
        }
    }

    /// The schemas as they are now.
    pub(crate) fn snapshot(&self) -> Arc<Registry> {
        match self.current.lock() {
            Ok(current) => Arc::clone(&current),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    /// Applies `change` to a copy and keeps it when it succeeds: a failed
    /// change leaves the registry as it was.
    fn change<T>(
        &self,
        change: impl FnOnce(&mut Registry) -> Result<T, flexmd_schema::SchemaError>,
        py: Python<'_>,
    ) -> PyResult<T> {
        let mut guard = self.current.lock().unwrap_or_else(|p| p.into_inner());
        let mut next = Registry::clone(&guard);
        let out = change(&mut next).map_err(|e| schema_error(py, &e))?;
        *guard = Arc::new(next);
        Ok(out)
    }
}

#[pymethods]
impl PyRegistry {
    /// The predefined schemas (none with `predefined=False`).
    #[new]
    #[pyo3(signature = (predefined = true))]
    fn new(predefined: bool) -> Self {
        Self::new_from(if predefined {
            Registry::new()
        } else {
            Registry::empty()
        })
    }

    /// Registers `schema` (a JSON Schema dict or a Pydantic model class)
    /// under `name`, replacing a schema of that name. A schema that is not
    /// valid JSON Schema, or whose `$ref`s do not resolve, is a
    /// `SchemaError`, and nothing changes.
    fn register(&self, py: Python<'_>, name: &str, schema: &Bound<'_, PyAny>) -> PyResult<()> {
        let schema = schema_json(schema)?;
        self.change(|r| r.register(name, schema), py)
    }

    /// Registers every `*.json` file of `directory` under its file name
    /// without `.json`; returns the names. The first file that is not JSON
    /// or not a valid schema is a `SchemaError`, and nothing changes.
    fn load_dir(&self, py: Python<'_>, directory: PathBuf) -> PyResult<Vec<String>> {
        self.change(|r| r.load_dir(&directory), py)
    }

    /// The registered names, in registration order.
    fn names(&self) -> Vec<String> {
        self.snapshot().names().map(str::to_owned).collect()
    }

    /// The schema registered as `name` (or a URI naming it); an unknown
    /// name is a `SchemaError` listing the known ones.
    fn schema<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let registry = self.snapshot();
        to_py(py, &named(py, &registry, name)?)
    }

    /// Each schema's `{name, title, description}`, as `flexmd schema list`
    /// prints them.
    fn summaries<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.snapshot().summaries())
    }

    fn __contains__(&self, name: &str) -> bool {
        self.snapshot().get(name).is_some()
    }

    fn __len__(&self) -> usize {
        self.snapshot().names().count()
    }

    fn __repr__(&self) -> String {
        format!("Registry(names={:?})", self.names())
    }
}

/// The schema `registry` holds as `name`, or a `SchemaError` listing the
/// names it knows.
pub(crate) fn named<'r>(py: Python<'_>, registry: &'r Registry, name: &str) -> PyResult<&'r Value> {
    registry.get(name).ok_or_else(|| {
        crate::errors::flexmd_error(
            py,
            "SchemaError",
            format!(
                "no schema named `{name}` (known: {})",
                registry.names().collect::<Vec<_>>().join(", ")
            ),
            None,
        )
    })
}

/// A schema given by name (resolved in `registry`) or as a value.
/// A schema given by name is borrowed from the registry, not copied.
pub(crate) fn schema_value<'r>(
    py: Python<'_>,
    schema: &Bound<'_, PyAny>,
    registry: &'r Registry,
) -> PyResult<std::borrow::Cow<'r, Value>> {
    match schema.cast::<PyString>() {
        Ok(name) => named(py, registry, &name.to_cow()?).map(std::borrow::Cow::Borrowed),
        Err(_) => schema_json(schema).map(std::borrow::Cow::Owned),
    }
}

/// A project's schema settings, as elsabro keeps them in
/// `.planning/schemas-config.json`: whether to coerce, fill defaults and
/// fail on invalid data (`validation`), the directory of custom schemas,
/// and which schema each agent's output must follow (`agentDefaults`).
#[pyclass(name = "Project", module = "flexmd", frozen)]
pub(crate) struct PyProject {
    project: ProjectConfig,
}

#[pymethods]
impl PyProject {
    /// Finds the config as `flexmd` does: the file `$FLEXMD_CONFIG` names;
    /// else, walking up from `start` (default: the current directory), the
    /// nearest directory with a `.planning/`, and its
    /// `.planning/schemas-config.json` (the defaults when that file does
    /// not exist); else the defaults. A malformed file is a `SchemaError`.
    #[staticmethod]
    #[pyo3(signature = (start = None))]
    fn find(py: Python<'_>, start: Option<PathBuf>) -> PyResult<Self> {
        let start = match start {
            Some(start) => start,
            None => std::env::current_dir()?,
        };
        let project = ProjectConfig::find(&start).map_err(|e| schema_error(py, &e))?;
        Ok(Self { project })
    }

    /// Reads the config file at `path` (which must exist).
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let project = ProjectConfig::load(&path).map_err(|e| schema_error(py, &e))?;
        Ok(Self { project })
    }

    /// The file read, or `None` when the settings are the defaults.
    #[getter]
    fn path(&self) -> Option<PathBuf> {
        self.project.path.clone()
    }

    /// The project directory (the one holding `.planning/`): relative
    /// paths in the config are read from here.
    #[getter]
    fn root(&self) -> PathBuf {
        self.project.root.clone()
    }

    /// The settings as the file spells them, the defaults filled in:
    /// `{"schemas": {"validation": {...}, "customSchemas": {...},
    /// "agentDefaults": {...}}}`.
    #[getter]
    fn config<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.project.config)
    }

    /// The registry this project validates with: the predefined schemas,
    /// and those of the custom directory when `autoLoad` is on.
    fn registry(&self, py: Python<'_>) -> PyResult<PyRegistry> {
        let registry = self.project.registry().map_err(|e| schema_error(py, &e))?;
        Ok(PyRegistry::new_from(registry))
    }

    /// The schema `agentDefaults` gives `agent`; an unknown agent is a
    /// `SchemaError` listing the known ones.
    fn schema_for_agent(&self, py: Python<'_>, agent: &str) -> PyResult<String> {
        self.project
            .schema_for_agent(agent)
            .map(str::to_owned)
            .map_err(|e| schema_error(py, &e))
    }

    /// The schema a flow step's output must match (a dict as the flow file
    /// has it: `outputSchema`, else its `agent`'s `agentDefaults` entry).
    fn step_schema(&self, py: Python<'_>, step: &Bound<'_, PyAny>) -> PyResult<String> {
        let step = flow_step(step)?;
        step.schema(&self.project)
            .map(str::to_owned)
            .map_err(|e| schema_error(py, &e))
    }

    /// The retries a flow step allows after the first attempt: 0 when
    /// `retryOnSchemaError` is false; else its `maxSchemaRetries`, falling
    /// back on the config's `retryOnError` and `maxRetries`.
    fn step_retries(&self, step: &Bound<'_, PyAny>) -> PyResult<u32> {
        Ok(flow_step(step)?.max_retries(&self.project))
    }

    fn __repr__(&self) -> String {
        format!(
            "Project(root={:?}, path={:?})",
            self.project.root, self.project.path
        )
    }
}

/// A flow step from its dict.
fn flow_step(step: &Bound<'_, PyAny>) -> PyResult<FlowStep> {
    from_py(
        step,
        "not a flow step (a dict with `agent`, `outputSchema`, `config`)",
    )
}
