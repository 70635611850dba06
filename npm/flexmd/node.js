// The package's entry in Node.js: the WebAssembly module is read from the
// package folder and compiled once, when the package is first imported.
import { readFileSync } from "node:fs";
import { initSync } from "./pkg/flexmd_wasm.js";

initSync({ module: readFileSync(new URL("./pkg/flexmd_wasm_bg.wasm", import.meta.url)) });

export * from "./api.js";
