// `flexmd/core` in Node.js: the flex-md functions and findJson
// (no SchemaValidator, artifact classes or forgeTools), on the smaller module.
import { readFileSync } from "node:fs";
import * as glue from "./pkg/flexmd_core.js";
import { use } from "./lib/wasm.js";

glue.initSync({ module: readFileSync(new URL("./pkg/flexmd_core_bg.wasm", import.meta.url)) });
use(glue);

export * from "./lib/errors.js";
export * from "./lib/api.js";
export * from "./lib/stream.js";
