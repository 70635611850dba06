// How a call crosses into the module: arguments checked and written as
// text, the JSON text that comes back read, an error envelope thrown as
// its Error subclass, a trap (a Rust panic) as a PanicError. Internal.
import { module as wasm } from "./wasm.js";
import { PanicError } from "./errors.js";
import { errorOf } from "./thrown.js";

// What a value is, for a message: `null`, `an array`, `a number`, ….
export function kindOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" || type === "undefined" ? type : `a ${type}`;
}

// The index of a lone surrogate (a UTF-16 half with no other half) in
// `value`, or -1. Strings in the module are UTF-8, which has no form for it.
function loneSurrogate(value) {
  if (typeof value.isWellFormed === "function" && value.isWellFormed()) return -1;
  const match = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(value);
  return match ? match.index : -1;
}

function surrogateError(where, value, at) {
  const unit = value.charCodeAt(at).toString(16).toUpperCase();
  return new TypeError(
    `${where} holds a lone surrogate (\\u${unit} at index ${at}), which no UTF-8 text can hold: ` +
      "call .toWellFormed() on it to read it as U+FFFD",
  );
}

export function text(name, value) {
  if (typeof value !== "string") {
    throw new TypeError(`${name} must be a string, not ${kindOf(value)}`);
  }
  const at = loneSurrogate(value);
  if (at >= 0) throw surrogateError(name, value, at);
  return value;
}

// A path into a value for messages: `data.items[2].price`.
function member(path, key) {
  if (typeof key === "number") return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

// `value` as JSON text, refusing what JSON.stringify would change silently:
// NaN and ±Infinity (written as null), a Set or Map (written as {}), a
// lone surrogate (no UTF-8 form); a BigInt gets a message that says what
// to pass. What JSON.stringify leaves out as it always does (undefined,
// functions, symbols) stays left out; toJSON (a Date) is honoured.
export function toJson(name, value) {
  // One quick pass that only notices; the pass that names the place (a
  // path per object, eight times slower) runs only when it did.
  const refused = Symbol("refused");
  try {
    return JSON.stringify(value, function (key, item) {
      if (typeof key === "string" && key !== "" && !Array.isArray(this) && loneSurrogate(key) >= 0) throw refused;
      switch (typeof item) {
        case "number":
          if (!Number.isFinite(item)) throw refused;
          break;
        case "bigint":
          throw refused;
        case "string":
          if (loneSurrogate(item) >= 0) throw refused;
          break;
        case "object":
          if (item instanceof Set || item instanceof Map) throw refused;
          break;
      }
      return item;
    });
  } catch (thrown) {
    if (thrown !== refused) throw thrown;
  }
  return refusal(name, value);
}

// Throws the TypeError that names the place of what `toJson` refused.
function refusal(name, value) {
  const paths = new Map();
  return JSON.stringify(value, function (key, item) {
    const holder = paths.get(this);
    const at = holder === undefined ? name : member(holder, Array.isArray(this) ? Number(key) : key);
    if (holder !== undefined && !Array.isArray(this)) {
      const lone = loneSurrogate(key);
      if (lone >= 0) throw surrogateError(`the key ${JSON.stringify(key)} in ${holder}`, key, lone);
    }
    switch (typeof item) {
      case "number":
        if (!Number.isFinite(item)) throw new TypeError(`${at} is ${item}, which JSON has no number for`);
        break;
      case "bigint":
        throw new TypeError(`${at} is a BigInt, which JSON has no number for: pass a Number or a string`);
      case "string": {
        const lone = loneSurrogate(item);
        if (lone >= 0) throw surrogateError(at, item, lone);
        break;
      }
      case "object":
        if (item instanceof Set) throw new TypeError(`${at} is a Set, which is not JSON: pass an array (Array.from(set))`);
        if (item instanceof Map) {
          throw new TypeError(`${at} is a Map, which is not JSON: pass an object (Object.fromEntries(map))`);
        }
        if (item !== null) paths.set(item, at);
        break;
    }
    return item;
  });
}

// A spec is its Markdown block (a string) or an OutputFormatSpec object.
export function spec(value) {
  return typeof value === "string" ? text("spec", value) : toJson("spec", value);
}

export function json(name, value) {
  if (value === null || typeof value !== "object") {
    throw new TypeError(`${name} must be an object, not ${kindOf(value)}`);
  }
  return toJson(name, value);
}

export function options(value) {
  // No options (most calls): no walk over them.
  if (value === undefined || value === null) return "{}";
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new TypeError(`options must be an object, not ${kindOf(value)}`);
  }
  return toJson("options", value);
}

// A count: a whole number ≥ 0 or undefined, else a RangeError (a TypeError
// for a value that is no number at all).
export function count(name, value) {
  if (value === undefined) return undefined;
  if (typeof value !== "number") throw new TypeError(`${name} must be a number, not ${kindOf(value)}`);
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number ≥ 0, not ${value}`);
  return value;
}

// An index as Array.prototype.slice takes it (negative counts from the
// end) or undefined.
export function index(name, value) {
  if (value === undefined) return undefined;
  if (typeof value !== "number") throw new TypeError(`${name} must be a number, not ${kindOf(value)}`);
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be a whole number, not ${value}`);
  return value;
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

