// The package's functions over the WebAssembly module. Each call hands the
// module text and gets back one JSON text: the value the `flexmd` CLI
// prints for the same input, or an error, thrown here as an Error subclass.
// All behaviour is in the Rust library; this file only converts.
import * as wasm from "./pkg/flexmd_wasm.js";

/** Every error this package throws: `code` is stable, `details` structured. */
export class FlexmdError extends Error {
  constructor(message, { code = "flexmd_error", details = null } = {}) {
    super(message);
    this.name = "FlexmdError";
    this.code = code;
    this.details = details;
  }
}

/** A spec that cannot be read; `details` has `line`, `column`, `span`. */
export class SpecError extends FlexmdError {
  constructor(message, options) {
    super(message, options);
    this.name = "SpecError";
  }
}

/** An argument of the wrong shape: a misspelt option, JSON that is not a FlexDocument. */
export class ArgumentError extends FlexmdError {
  constructor(message, options) {
    super(message, options);
    this.name = "ArgumentError";
  }
}

/** A bug in flexmd stopped the call (the module keeps working). */
export class PanicError extends FlexmdError {
  constructor(message, options) {
    super(message, options);
    this.name = "PanicError";
  }
}

/** A schema that cannot be compiled, or a schema name that is not registered. */
export class SchemaError extends FlexmdError {
  constructor(message, options) {
    super(message, options);
    this.name = "SchemaError";
  }
}

const ERRORS = { SpecError, ArgumentError, SchemaError };

function text(name, value) {
  if (typeof value !== "string") {
    throw new TypeError(`${name} must be a string, not ${value === null ? "null" : typeof value}`);
  }
  return value;
}

// A spec is its Markdown block (a string) or an OutputFormatSpec object.
function spec(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function json(name, value) {
  if (value === null || typeof value !== "object") {
    throw new TypeError(`${name} must be an object`);
  }
  return JSON.stringify(value);
}

function options(value) {
  return JSON.stringify(value ?? {});
}

function call(fn, ...args) {
  let out;
  try {
    out = fn(...args);
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) {
      const message = wasm.takePanicMessage() ?? error.message;
      throw new PanicError(`flexmd stopped on a bug (please report it): ${message}`, {
        code: "panic",
      });
    }
    throw error;
  }
  const result = JSON.parse(out);
  if (result.error) {
    const { name, code, message, details } = result.error;
    const ErrorClass = ERRORS[name] ?? FlexmdError;
    throw new ErrorClass(message, { code, details });
  }
  return result.ok;
}

export function parseFlexMd(md, opts) {
  return call(wasm.parseFlexMd, text("text", md), options(opts));
}

export function stringifyFlexMd(doc, opts) {
  return call(wasm.stringifyFlexMd, json("doc", doc), options(opts));
}

export function parseOutputFormatSpec(md) {
  return call(wasm.parseOutputFormatSpec, text("md", md));
}

export function stringifyOutputFormatSpec(ofs) {
  return call(wasm.stringifyOutputFormatSpec, spec(ofs));
}

export function enrichInstructions(ofs) {
  return call(wasm.enrichInstructions, spec(ofs));
}

export function prompt(ofs) {
  return call(wasm.prompt, spec(ofs));
}

export function makeDefaultOfs() {
  return call(wasm.makeDefaultOfs);
}

export function jsonSchema(ofs) {
  return call(wasm.jsonSchema, spec(ofs));
}

export function buildOutline(md) {
  return call(wasm.buildOutline, text("md", md));
}

export function renderOutline(outline) {
  return call(wasm.renderOutline, json("outline", outline));
}

export function validateOutput(md, ofs, opts) {
  return call(wasm.validateOutput, text("md", md), spec(ofs), options(opts));
}

export function extractOutput(md, ofs, opts) {
  return call(wasm.extractOutput, text("md", md), spec(ofs), options(opts));
}

export function check(md, ofs, opts) {
  return call(wasm.check, text("md", md), spec(ofs), options(opts));
}

export function detectObjects(input) {
  return call(wasm.detectObjects, text("text", input));
}

export function parseAny(input) {
  return call(wasm.parseAny, text("text", input));
}

export function findJson(input, opts) {
  return call(wasm.findJson, text("text", input), options(opts));
}

// A schema argument: a registered schema's name, or a schema object.
function schemaArg(value) {
  if (typeof value !== "string" && (value === null || typeof value !== "object") && typeof value !== "boolean") {
    throw new TypeError("schema must be a schema's name or a JSON Schema object");
  }
  return JSON.stringify(value);
}

/**
 * Named JSON Schemas — the five predefined ones (`analysis`,
 * `implementation`, `review`, `verification`, `plan`) and any registered —
 * and validation against them, with coercion, defaults and hints.
 */
export class SchemaValidator {
  #handle = new wasm.SchemaValidatorHandle();

  registerSchema(name, schema) {
    call((n, s) => this.#handle.registerSchema(n, s), text("name", name), json("schema", schema));
  }

  listSchemas() {
    return call(() => this.#handle.listSchemas());
  }

  getSchema(name) {
    return call((n) => this.#handle.getSchema(n), text("name", name)) ?? undefined;
  }

  validate(schemaName, data) {
    return call((n, d) => this.#handle.validate(n, d), text("schemaName", schemaName), JSON.stringify(data ?? null));
  }

  validateAndTransform(schemaName, data, opts) {
    return call(
      (n, d, o) => this.#handle.validateAndTransform(n, d, o),
      text("schemaName", schemaName),
      JSON.stringify(data ?? null),
      options(opts),
    );
  }

  generateHints(errors, schema) {
    if (!Array.isArray(errors)) throw new TypeError("errors must be an array");
    return call((e, s) => this.#handle.generateHints(e, s), JSON.stringify(errors), schemaArg(schema));
  }

  validateText(input, schema, opts) {
    return call(
      (t, s, o) => this.#handle.validateText(t, s, o),
      text("text", input),
      schemaArg(schema),
      options(opts),
    );
  }
}

let shared;

/** The process's one SchemaValidator. */
export function getValidator() {
  shared ??= new SchemaValidator();
  return shared;
}

// For the package's tests: a panic raised on purpose, to check that it
// becomes a PanicError and that the module keeps working after it.
export function __panicForTests() {
  return call(wasm.panicForTests);
}
