// The package's entry in browsers and bundlers: the full module (artifacts
// and tools included; `flexmd/core` is a sixth of the size without them),
// fetched from beside this file and compiled before the import resolves.
import init, * as glue from "./pkg/flexmd_wasm.js";
import { use } from "./lib/wasm.js";

await init({ module_or_path: new URL("./pkg/flexmd_wasm_bg.wasm", import.meta.url) });
use(glue);

export * from "./lib/errors.js";
export * from "./lib/api.js";
export * from "./lib/stream.js";
export * from "./lib/schema.js";
export * from "./lib/artifacts.js";
