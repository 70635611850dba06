// The WebAssembly module's glue the entry point loaded and initialised: the
// full module (`flexmd`) or the core one (`flexmd/core`). A live binding,
// read at each call.
export let module;

export function use(glue) {
  module = glue;
}
