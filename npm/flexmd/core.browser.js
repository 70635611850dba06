// `flexmd/core` in browsers and bundlers: the flex-md functions and findJson
// (no SchemaValidator, artifact classes or forgeTools), on the smaller
// module: what the playground loads.
import init, * as glue from "./pkg/flexmd_core.js";
import { use } from "./lib/wasm.js";

await init({ module_or_path: new URL("./pkg/flexmd_core_bg.wasm", import.meta.url) });
use(glue);

export * from "./lib/errors.js";
export * from "./lib/api.js";
export * from "./lib/stream.js";
