// The package's functions over the WebAssembly module the entry point
// loaded (lib/wasm.js). Each call hands the module text and gets back one
// JSON text: the value the `flexmd` CLI prints for the same input, or an
// error, thrown as an Error subclass. All behaviour is in the Rust library;
// this file only converts.
import { module as wasm } from "./wasm.js";
import { call, json, kindOf, options, spec, text } from "./call.js";

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

export function findJsonMany(inputs, opts) {
  if (!Array.isArray(inputs)) throw new TypeError(`texts must be an array of strings, not ${kindOf(inputs)}`);
  inputs.forEach((input, i) => text(`texts[${i}]`, input));
  return call(wasm.findJsonMany, JSON.stringify(inputs), options(opts));
}
