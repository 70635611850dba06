// The package's entry in browsers and bundlers: the WebAssembly module is
// fetched from beside this file and compiled before the import resolves.
import init from "./pkg/flexmd_wasm.js";

await init({ module_or_path: new URL("./pkg/flexmd_wasm_bg.wasm", import.meta.url) });

export * from "./api.js";
