//! flexmd-py: the native module `flexmd._flexmd` behind the `flexmd`
//! Python package. Every function here calls the library crates and
//! returns the JSON the `flexmd` CLI prints for the same input, as plain
//! Python values; `python/flexmd/__init__.py` adds what only Python has
//! (Pydantic models, provider objects). See the README.
//!
//! This file only declares the modules and lists what the module exports.
//! One module per library layer, mirroring the crates; `convert`, `errors`
//! and `gil` are shared by all and import no area:
//!
//! | module | owns |
//! |---|---|
//! | `convert` | Python data ⇄ JSON, arguments, positions in code points |
//! | `errors` | the exceptions of `flexmd._errors` |
//! | `gil` | calls without the GIL, Ctrl-C for long ones |
//! | `json` | `loads`, `find_json`, `find_json_many` (flexmd-detect) |
//! | `documents` | frames, objects, outlines (flexmd-frames, flexmd-core) |
//! | `spec` | `Spec` (flexmd-ofs) |
//! | `stream` | `StreamingExtractor`, `StreamingJson` |
//! | `schema` | validation, `find_json_as`, hints, `AskSession` (flexmd-schema) |
//! | `registry` | `Registry`, `Project` |
//! | `constrain` | provider schemas and grammars (flexmd-constrain) |
//! | `artifact` | `Artifact` (flexmd-artifact) |
//! | `tools` | `ToolSet`, `forge_tools` |
//! | `turn` | `Turn` |
//! | `report` | `report`, `frame` (flexmd-report) |

mod artifact;
mod constrain;
mod convert;
mod documents;
mod errors;
mod gil;
mod json;
mod registry;
mod report;
mod schema;
mod spec;
mod stream;
mod tools;
mod turn;

use pyo3::prelude::*;

use crate::artifact::PyArtifact;
use crate::documents::{
    detect_objects, outline, parse_any, parse_flexmd, render_outline, stringify_flexmd,
};
use crate::json::{find_json, find_json_many, loads};
use crate::registry::{PyProject, PyRegistry};
use crate::schema::{
    AskSession, find_json_as, hints, schema_names, validate_report, validate_report_many,
};
use crate::spec::Spec;
use crate::stream::{PyStreamingJson, StreamingExtractor};
use crate::tools::{ToolSet, forge_tools_for};

/// The native part of the `flexmd` package.
#[pymodule]
fn _flexmd(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(loads, m)?)?;
    m.add_function(wrap_pyfunction!(find_json, m)?)?;
    m.add_function(wrap_pyfunction!(find_json_many, m)?)?;
    m.add_function(wrap_pyfunction!(find_json_as, m)?)?;
    m.add_function(wrap_pyfunction!(parse_flexmd, m)?)?;
    m.add_function(wrap_pyfunction!(stringify_flexmd, m)?)?;
    m.add_function(wrap_pyfunction!(detect_objects, m)?)?;
    m.add_function(wrap_pyfunction!(parse_any, m)?)?;
    m.add_function(wrap_pyfunction!(outline, m)?)?;
    m.add_function(wrap_pyfunction!(render_outline, m)?)?;
    m.add_function(wrap_pyfunction!(validate_report, m)?)?;
    m.add_function(wrap_pyfunction!(validate_report_many, m)?)?;
    m.add_function(wrap_pyfunction!(report::report_answers, m)?)?;
    m.add_function(wrap_pyfunction!(hints, m)?)?;
    m.add_function(wrap_pyfunction!(schema_names, m)?)?;
    m.add_function(wrap_pyfunction!(schema::schema, m)?)?;
    m.add_function(wrap_pyfunction!(forge_tools_for, m)?)?;
    m.add_function(wrap_pyfunction!(constrain::export_schema, m)?)?;
    m.add_function(wrap_pyfunction!(constrain::schema_grammar, m)?)?;
    m.add_function(wrap_pyfunction!(constrain::validate_from, m)?)?;
    m.add_class::<Spec>()?;
    m.add_class::<AskSession>()?;
    m.add_class::<PyArtifact>()?;
    m.add_class::<ToolSet>()?;
    m.add_class::<PyRegistry>()?;
    m.add_class::<PyProject>()?;
    m.add_class::<turn::PyTurn>()?;
    m.add_class::<StreamingExtractor>()?;
    m.add_class::<PyStreamingJson>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
