// The package's entry in Node.js: the full module (artifacts and tools
// included), read from the package folder and compiled once, when the
// package is first imported.
import { readFileSync } from "node:fs";
import * as glue from "./pkg/flexmd_wasm.js";
import { use } from "./lib/wasm.js";

glue.initSync({ module: readFileSync(new URL("./pkg/flexmd_wasm_bg.wasm", import.meta.url)) });
use(glue);

export * from "./lib/errors.js";
export * from "./lib/api.js";
export * from "./lib/stream.js";
export * from "./lib/schema.js";
export * from "./lib/artifacts.js";
