// For the package's own tests, not exported by its entry points: a panic
// raised on purpose, to check that it becomes a PanicError and that the
// module keeps working after it.
import { module as wasm } from "./wasm.js";
import { call } from "./call.js";

export function __panicForTests() {
  return call(wasm.panicForTests);
}
