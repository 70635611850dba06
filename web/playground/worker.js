// The playground's reader: runs flexmd (WebAssembly) off the page's thread,
// so a 1 MB answer never freezes typing. Each message is one request; the
// reply carries its `id` so the page drops replies that are out of date.
import * as flexmd from "./flexmd/core.browser.js";

function attempt(work) {
  try {
    return { value: work() };
  } catch (error) {
    return { error: { name: error.name, code: error.code ?? null, message: error.message, details: error.details ?? null } };
  }
}

self.onmessage = ({ data }) => {
  const { id, spec, answer } = data;
  const started = performance.now();
  const parsedSpec = attempt(() => flexmd.parseOutputFormatSpec(spec));
  const reply = { id, spec: parsedSpec };
  if (parsedSpec.value) {
    reply.prompt = attempt(() => flexmd.prompt(parsedSpec.value));
    reply.schema = attempt(() => flexmd.jsonSchema(parsedSpec.value));
    reply.check = attempt(() => flexmd.check(answer, parsedSpec.value));
  }
  reply.json = attempt(() => flexmd.findJson(answer, { all: true, repairs: true }));
  reply.frames = attempt(() => flexmd.parseFlexMd(answer));
  reply.tookMs = performance.now() - started;
  self.postMessage(reply);
};

self.postMessage({ ready: true });
