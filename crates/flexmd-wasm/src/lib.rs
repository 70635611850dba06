//! flexmd-wasm: the WebAssembly module behind the npm package `flexmd`
//! (`npm/flexmd`, built by `cargo xtask js`).
//!
//! Every export takes text (answers, specs, options as JSON text) and
//! returns one JSON text: `{"ok": value}` with the value the `flexmd` CLI
//! prints for the same input, or `{"error": {name, code, message,
//! details}}`. The package's JavaScript turns that into values and `Error`
//! subclasses, under the names of the TypeScript libraries flexmd replaces.
//! Offsets, spans and columns are UTF-16 code units, as JavaScript strings
//! count them ([`flexmd_core::TextOffsets`]).
//!
//! A panic must never reach JavaScript as a bare trap: the hook installed
//! at start-up keeps its message, which the package throws as a
//! `PanicError` (and the tests check it never fires on hostile input).

mod api;
#[cfg(feature = "artifacts")]
mod artifacts;
#[cfg(feature = "schema")]
mod constrain;
#[cfg(target_arch = "wasm32")]
mod growth;
#[cfg(feature = "schema")]
mod schema;
mod stream;
#[cfg(feature = "artifacts")]
mod turn;

use std::cell::{Cell, RefCell};

/// Memory grows in large steps (see `growth`): thousands of small growths
/// made large artifacts a hundred times slower to read.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: growth::GrowInSteps = growth::GrowInSteps;

use wasm_bindgen::prelude::wasm_bindgen;

use crate::api::envelope;

pub use api::{BindingError, Outcome, Place, PlaceSpan};
#[cfg(feature = "artifacts")]
pub use artifacts::{ArtifactHandle, ToolBox};
#[cfg(feature = "schema")]
pub use schema::{AskSession, SchemaValidator};

/// The functions of the package, callable from Rust (the host tests).
pub mod calls {
    pub use crate::api::{
        build_outline, check, detect_objects, enrich_instructions, extract_output, find_json,
        find_json_many, json_schema, make_default_ofs, parse_any, parse_flexmd,
        parse_output_format_spec, prompt, render_outline, stringify_flexmd,
        stringify_output_format_spec, validate_output,
    };
}

thread_local! {
    /// The message of the last panic, until JavaScript takes it.
    static PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
    /// Panics since start-up.
    static PANICS: Cell<u32> = const { Cell::new(0) };
}

/// Installs the panic hook (wasm-bindgen runs this when the module starts).
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        PANICS.with(|n| n.set(n.get().saturating_add(1)));
        PANIC.with(|slot| {
            if let Ok(mut slot) = slot.try_borrow_mut() {
                *slot = Some(message);
            }
        });
    }));
}

/// The message of the panic that stopped the last call, once.
#[wasm_bindgen(js_name = takePanicMessage)]
pub fn take_panic_message() -> Option<String> {
    PANIC.with(|slot| slot.try_borrow_mut().ok().and_then(|mut s| s.take()))
}

/// How many panics there have been since the module started (the tests
/// check it stays 0).
#[wasm_bindgen(js_name = panicCount)]
pub fn panic_count() -> u32 {
    PANICS.with(Cell::get)
}

/// Panics on purpose: the package's tests check that a panic becomes a
/// `PanicError` and the module keeps working. Not part of the API.
#[wasm_bindgen(js_name = panicForTests)]
pub fn panic_for_tests() {
    // A panic from the standard library, as a bug would raise one (the
    // workspace's lints keep `panic!` out of library code).
    let cell = RefCell::new("a panic raised on purpose by the tests");
    let _first = cell.borrow_mut();
    let _second = cell.borrow_mut();
}

/// Exports `$call` to JavaScript as `$js`, its arguments passed through.
macro_rules! export {
    ($(#[doc = $doc:literal])* $js:literal => $name:ident($($arg:ident),*)) => {
        $(#[doc = $doc])*
        #[wasm_bindgen(js_name = $js)]
        pub fn $name($($arg: &str),*) -> String {
            envelope(api::$name($($arg),*))
        }
    };
}

export!(
    /// FlexMD frames to a FlexDocument.
    "parseFlexMd" => parse_flexmd(text, options)
);
export!(
    /// A FlexDocument (JSON) written as FlexMD.
    "stringifyFlexMd" => stringify_flexmd(document, options)
);
export!(
    /// A spec (Markdown block or JSON) as OutputFormatSpec.
    "parseOutputFormatSpec" => parse_output_format_spec(spec)
);
export!(
    /// A spec as its canonical Markdown block.
    "stringifyOutputFormatSpec" => stringify_output_format_spec(spec)
);
export!(
    /// The prompt rules a spec needs.
    "enrichInstructions" => enrich_instructions(spec)
);
export!(
    /// The spec block and its rules, for a prompt.
    "prompt" => prompt(spec)
);
export!(
    /// The JSON Schema of a spec's plain object.
    "jsonSchema" => json_schema(spec)
);
export!(
    /// The heading outline of Markdown.
    "buildOutline" => build_outline(markdown)
);
export!(
    /// An outline (JSON) written as Markdown.
    "renderOutline" => render_outline(outline)
);
export!(
    /// An answer checked against a spec.
    "validateOutput" => validate_output(answer, spec, options)
);
export!(
    /// An answer extracted along a spec.
    "extractOutput" => extract_output(answer, spec, options)
);
export!(
    /// Checked and extracted in one read.
    "check" => check(answer, spec, options)
);
export!(
    /// The structured objects in any text.
    "detectObjects" => detect_objects(text)
);
export!(
    /// The best reading of any text.
    "parseAny" => parse_any(text)
);
export!(
    /// The JSON in an LLM answer, found and repaired.
    "findJson" => find_json(text, options)
);
export!(
    /// `findJson` on each text of an array (JSON text), in one call.
    "findJsonMany" => find_json_many(texts, options)
);

/// Named JSON Schemas and the calls over them, for the package's
/// `SchemaValidator` class (each method returns one JSON text, as the
/// functions do).
#[cfg(feature = "schema")]
#[wasm_bindgen]
pub struct SchemaValidatorHandle(SchemaValidator);

#[cfg(feature = "schema")]
#[wasm_bindgen]
impl SchemaValidatorHandle {
    /// The five predefined schemas.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self(SchemaValidator::new())
    }

    /// Registers (or replaces) a schema.
    #[wasm_bindgen(js_name = registerSchema)]
    pub fn register_schema(&mut self, name: &str, schema: &str) -> String {
        envelope(self.0.register_schema(name, schema))
    }

    /// The schemas' names.
    #[wasm_bindgen(js_name = listSchemas)]
    pub fn list_schemas(&self) -> String {
        envelope(self.0.list_schemas())
    }

    /// A schema by name, or `null`.
    #[wasm_bindgen(js_name = getSchema)]
    pub fn get_schema(&self, name: &str) -> String {
        envelope(self.0.get_schema(name))
    }

    /// Data validated against a named schema.
    pub fn validate(&self, name: &str, data: &str) -> String {
        self.0.validate_envelope(name, data)
    }

    /// Whether JSON text holds data valid against a named schema: `true`
    /// or `false`, judged as the text is read.
    #[wasm_bindgen(js_name = isValidJson)]
    pub fn is_valid_json(&self, name: &str, text: &str) -> String {
        envelope(self.0.is_valid_json(name, text))
    }

    /// Data validated after coercion and defaults.
    #[wasm_bindgen(js_name = validateAndTransform)]
    pub fn validate_and_transform(&self, name: &str, data: &str, options: &str) -> String {
        envelope(self.0.validate_and_transform(name, data, options))
    }

    /// Each error with a hint.
    #[wasm_bindgen(js_name = generateHints)]
    pub fn generate_hints(&self, errors: &str, schema: &str) -> String {
        envelope(self.0.generate_hints(errors, schema))
    }

    /// The JSON in a text found, repaired and validated.
    #[wasm_bindgen(js_name = validateText)]
    pub fn validate_text(&self, text: &str, schema: &str, options: &str) -> String {
        envelope(self.0.validate_text(text, schema, options))
    }

    /// The value in a text that fits a schema best, coerced to it.
    #[wasm_bindgen(js_name = findJsonAs)]
    pub fn find_json_as(&self, text: &str, schema: &str, options: &str) -> String {
        envelope(self.0.find_json_as(text, schema, options))
    }

    /// The request fragment that makes a provider constrain its answer.
    #[wasm_bindgen(js_name = exportSchema)]
    pub fn export_schema(&self, schema: &str, provider: &str, options: &str) -> String {
        envelope(self.0.export_schema(schema, provider, options))
    }

    /// A grammar for a schema, with what it leaves to validation.
    pub fn grammar(&self, schema: &str, options: &str) -> String {
        envelope(self.0.grammar(schema, options))
    }
}

/// A grammar for the answers a spec accepts, with what it leaves to
/// validation.
#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = specGrammar)]
pub fn spec_grammar(spec: &str, options: &str) -> String {
    envelope(constrain::spec_grammar(spec, options))
}

/// A retry session of the package's `ask`.
#[cfg(feature = "schema")]
#[wasm_bindgen(js_name = AskSessionHandle)]
pub struct AskSessionExport(schema::AskSession);

#[cfg(feature = "schema")]
#[wasm_bindgen(js_class = AskSessionHandle)]
impl AskSessionExport {
    /// Starts a session (throws the envelope when the options are wrong).
    #[wasm_bindgen(constructor)]
    pub fn new(prompt: &str, options: &str) -> Result<AskSessionExport, String> {
        schema::AskSession::new(prompt, options)
            .map(Self)
            .map_err(|e| envelope::<()>(Err(e)))
    }

    /// The prompt to send now.
    pub fn prompt(&self) -> String {
        envelope(self.0.prompt())
    }

    /// Judges the model's reply.
    pub fn answer(&mut self, answer: &str) -> String {
        envelope(self.0.answer(answer))
    }

    /// Rejects the last data with the caller's errors.
    pub fn reject(&mut self, errors: &str) -> String {
        envelope(self.0.reject(errors))
    }

    /// Accepts the last data.
    pub fn accept(&mut self) -> String {
        envelope(self.0.accept())
    }
}

#[cfg(feature = "schema")]
impl Default for SchemaValidatorHandle {
    fn default() -> Self {
        Self::new()
    }
}

/// An artifact over text in memory, for the package's `SpooledArtifact`
/// classes.
#[cfg(feature = "artifacts")]
#[wasm_bindgen(js_name = ArtifactHandle)]
pub struct ArtifactExport(ArtifactHandle);

#[cfg(feature = "artifacts")]
#[wasm_bindgen(js_class = ArtifactHandle)]
impl ArtifactExport {
    /// Reads UTF-8 `bytes` (the package encodes the text: a native copy,
    /// where passing a string walked it character by character in
    /// JavaScript) as `kind`; the envelope's error when they cannot be
    /// read so (a JSON artifact whose text is not JSON).
    pub fn open(bytes: Vec<u8>, kind: &str, call_id: &str) -> Result<ArtifactExport, String> {
        ArtifactHandle::from_bytes(bytes, kind, call_id)
            .map(Self)
            .map_err(|e| envelope::<()>(Err(e)))
    }

    /// The id tool calls name it by.
    #[wasm_bindgen(getter, js_name = callId)]
    pub fn call_id(&self) -> String {
        self.0.call_id()
    }

    /// How it is read.
    #[wasm_bindgen(getter)]
    pub fn kind(&self) -> String {
        self.0.kind()
    }

    /// Runs one of the artifact's methods.
    pub fn query(&self, method: &str, args: &str) -> String {
        envelope(self.0.query(method, args))
    }
}

/// An answer checked and extracted while it streams in, for the
/// package's `StreamingExtractor` (each method returns one JSON text).
#[wasm_bindgen]
pub struct StreamingExtractorHandle(stream::Extractor);

#[wasm_bindgen]
impl StreamingExtractorHandle {
    /// A stream over a spec (the envelope's error for a bad spec or options).
    pub fn open(spec: &str, options: &str) -> Result<StreamingExtractorHandle, String> {
        stream::Extractor::new(spec, options)
            .map(Self)
            .map_err(|e| envelope::<()>(Err(e)))
    }

    /// The events the next piece settled.
    pub fn push(&mut self, text: &str) -> String {
        envelope(self.0.push(text))
    }

    /// The last events and `finished`.
    pub fn finish(&mut self) -> String {
        envelope(self.0.finish())
    }

    /// Everything pushed so far.
    pub fn text(&self) -> String {
        envelope(self.0.text())
    }

    /// A prompt to write a violation's section again.
    pub fn correction(&self, issue: &str) -> String {
        envelope(self.0.correction(issue))
    }
}

/// The JSON in an answer while it streams in, for the package's
/// `StreamingJson`.
#[wasm_bindgen]
pub struct StreamingJsonHandle(stream::Json);

#[wasm_bindgen]
impl StreamingJsonHandle {
    /// A stream before any text.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self(stream::Json::new())
    }

    /// The update the next piece made (`null`: none).
    pub fn push(&mut self, text: &str) -> String {
        envelope(self.0.push(text))
    }

    /// The partial value so far.
    pub fn value(&self) -> String {
        envelope(self.0.value())
    }

    /// How far a JSON Pointer is read.
    pub fn state(&self, pointer: &str) -> String {
        envelope(self.0.state(pointer))
    }

    /// The `finished` event.
    pub fn finish(&mut self, repairs: bool) -> String {
        envelope(self.0.finish(repairs))
    }
}

impl Default for StreamingJsonHandle {
    fn default() -> Self {
        Self::new()
    }
}

/// The `toolMethods` descriptors of an artifact class (`text`, `json`,
/// `markdown`).
#[cfg(feature = "artifacts")]
#[wasm_bindgen(js_name = toolMethods)]
pub fn tool_methods(reads: &str) -> String {
    envelope(artifacts::tool_methods(reads))
}

/// A tool's return value (JSON text) as the model reads it.
#[cfg(feature = "artifacts")]
#[wasm_bindgen(js_name = defaultSerialise)]
pub fn default_serialise(value: &str) -> String {
    envelope(artifacts::serialise(value))
}

/// The tools forged over artifacts, for the package's `forgeTools`.
#[cfg(feature = "artifacts")]
#[wasm_bindgen]
pub struct ToolBoxHandle(ToolBox);

#[cfg(feature = "artifacts")]
#[wasm_bindgen]
impl ToolBoxHandle {
    /// No artifacts yet.
    pub fn open(format: &str) -> Result<ToolBoxHandle, String> {
        ToolBox::new(format)
            .map(Self)
            .map_err(|e| envelope::<()>(Err(e)))
    }

    /// Adds an artifact (the envelope's error for a call id given twice).
    pub fn add(&mut self, artifact: &ArtifactExport) -> String {
        envelope(self.0.add(&artifact.0).map(|()| serde_json::Value::Null))
    }

    /// The tool definitions.
    pub fn definitions(&self) -> String {
        envelope(self.0.definitions())
    }

    /// Runs one call.
    pub fn call(&self, call: &str) -> String {
        envelope(self.0.call(call))
    }

    /// Runs every call.
    #[wasm_bindgen(js_name = callAll)]
    pub fn call_all(&self, calls: &str) -> String {
        envelope(self.0.call_all(calls))
    }

    /// One page of a call's result.
    #[wasm_bindgen(js_name = callPage)]
    pub fn call_page(&self, call: &str, options: &str) -> String {
        envelope(self.0.call_page(call, options))
    }
}

/// One agent turn, for the package's `Turn` (each method returns one JSON
/// text, an envelope).
#[cfg(feature = "artifacts")]
#[wasm_bindgen]
pub struct TurnHandle(turn::TurnBox);

#[cfg(feature = "artifacts")]
#[wasm_bindgen]
impl TurnHandle {
    /// A turn (the envelope's error for bad options).
    pub fn open(options: &str) -> Result<TurnHandle, String> {
        turn::TurnBox::new(options)
            .map(Self)
            .map_err(|e| envelope::<()>(Err(e)))
    }

    /// A tool result (UTF-8 bytes): `{text, spooled}`.
    #[wasm_bindgen(js_name = addResult)]
    pub fn add_result(
        &mut self,
        call_id: &str,
        tool_name: &str,
        content: Vec<u8>,
        kind: &str,
    ) -> String {
        envelope(self.0.add_result(call_id, tool_name, content, kind))
    }

    /// An artifact the package holds, as a tool result.
    #[wasm_bindgen(js_name = addArtifact)]
    pub fn add_artifact(&mut self, artifact: &ArtifactExport, tool_name: &str) -> String {
        envelope(self.0.add_artifact(&artifact.0, tool_name))
    }

    /// Registers a tool the package runs.
    pub fn register(
        &mut self,
        name: &str,
        description: &str,
        parameters: &str,
        kind: &str,
    ) -> String {
        envelope(self.0.register(name, description, parameters, kind))
    }

    /// The artifact tools' definitions.
    pub fn definitions(&self) -> String {
        envelope(self.0.definitions())
    }

    /// The host's tools with the artifact tools merged in.
    #[wasm_bindgen(js_name = mergedTools)]
    pub fn merged_tools(&self, host: &str) -> String {
        envelope(self.0.merged_tools(host))
    }

    /// The definitions' format.
    #[wasm_bindgen(getter)]
    pub fn format(&self) -> String {
        self.0.format()
    }

    /// Whether `name` is an artifact tool.
    #[wasm_bindgen(js_name = isArtifactTool)]
    pub fn is_artifact_tool(&self, name: &str) -> bool {
        self.0.is_artifact_tool(name)
    }

    /// The artifacts' call ids.
    #[wasm_bindgen(js_name = callIds)]
    pub fn call_ids(&self) -> String {
        envelope(self.0.call_ids())
    }

    /// The artifact of a call id, if the turn holds one.
    pub fn artifact(&self, call_id: &str) -> Option<ArtifactExport> {
        self.0.artifact(call_id).map(ArtifactExport)
    }

    /// A call of a tool the package runs, checked; `null` for an artifact tool.
    pub fn prepare(&self, call: &str) -> String {
        envelope(self.0.prepare(call))
    }

    /// Runs a call of an artifact tool.
    pub fn call(&self, call: &str) -> String {
        envelope(self.0.call(call))
    }

    /// The text of a value a package-run tool returned.
    pub fn finish(&self, tool: &str, value: &str) -> String {
        envelope(self.0.finish(tool, value))
    }

    /// A text a package-run tool's serialiser gave, within the caps.
    #[wasm_bindgen(js_name = finishText)]
    pub fn finish_text(&self, text: &str) -> String {
        envelope(self.0.finish_text(text))
    }

    /// Ends the turn.
    pub fn end(&mut self) -> String {
        envelope(self.0.end())
    }
}

/// The five-section spec.
#[wasm_bindgen(js_name = makeDefaultOfs)]
pub fn make_default_ofs() -> String {
    envelope(api::make_default_ofs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_and_errors_come_in_one_envelope() {
        assert_eq!(find_json("say {\"a\": 1}", "{}"), r#"{"ok":{"a":1}}"#);
        let error: serde_json::Value =
            serde_json::from_str(&parse_output_format_spec("Just say hello.")).unwrap_or_default();
        assert_eq!(error["error"]["name"], "SpecError");
        assert_eq!(error["error"]["code"], "ofs::not_a_spec");
    }
}
