// elsabro's SchemaValidator over the full module (the core entry point
// leaves JSON Schema validation out: its Unicode tables are most of the
// module's size).
import { module as wasm } from "./wasm.js";
import { call, json, options, text } from "./call.js";

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

  findJsonAs(input, schema, opts) {
    return call(
      (t, s, o) => this.#handle.findJsonAs(t, s, o),
      text("text", input),
      schemaArg(schema),
      options(opts),
    );
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

/**
 * The value in `text` that fits `schema` (a predefined schema's name or a
 * JSON Schema object) best, fitted to it: `flexmd json --schema S --repairs`.
 * `null` when no value fits at all.
 */
export function findJsonAs(input, schema, opts) {
  return getValidator().findJsonAs(input, schema, opts);
}

