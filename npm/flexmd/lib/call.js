// How a call crosses into the module: arguments checked and written as
// text, the JSON text that comes back read, an error envelope thrown as
// its Error subclass, a trap (a Rust panic) as a PanicError. Internal.
import { module as wasm } from "./wasm.js";
import { PanicError, errorOf } from "./errors.js";

export function text(name, value) {
  if (typeof value !== "string") {
    throw new TypeError(`${name} must be a string, not ${value === null ? "null" : typeof value}`);
  }
  return value;
}

// A spec is its Markdown block (a string) or an OutputFormatSpec object.
export function spec(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function json(name, value) {
  if (value === null || typeof value !== "object") {
    throw new TypeError(`${name} must be an object`);
  }
  return JSON.stringify(value);
}

export function options(value) {
  return JSON.stringify(value ?? {});
}

export function call(fn, ...args) {
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
  if (result.error) throw errorOf(result.error);
  return result.ok;
}

