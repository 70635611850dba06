// `flexmd/core`: the same functions on the smaller module, without
// SchemaValidator and the artifact classes; both entry points in one
// process keep working.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";

import * as core from "flexmd/core";
import * as full from "flexmd";

test("the core entry point has every function but the schema and artifact ones", () => {
  const missing = Object.keys(full).filter((name) => !(name in core));
  assert.deepEqual(missing.sort(), [
    "SchemaValidator",
    "SpooledArtifact",
    "SpooledJsonArtifact",
    "SpooledMarkdownArtifact",
    "Turn",
    "ask",
    "defaultSerialise",
    "exportSchema",
    "findJsonAs",
    "forgeTools",
    "getValidator",
    "grammar",
    "specGrammar",
  ]);
  const answer = "## Short answer\nYes 😀.\n\n## Reasoning\n1) because\n";
  const spec = core.makeDefaultOfs();
  assert.deepEqual(core.validateOutput(answer, spec), full.validateOutput(answer, spec));
  assert.deepEqual(core.extractOutput(answer, spec), full.extractOutput(answer, spec));
  assert.deepEqual(core.findJson("x {a: 1,}", { repairs: true }), full.findJson("x {a: 1,}", { repairs: true }));
  // One set of error classes, whichever entry point threw.
  assert.throws(() => core.parseOutputFormatSpec("nothing"), full.SpecError);
});

test("the core module is much smaller than the full one", () => {
  const size = (name) => statSync(new URL(`../pkg/${name}_bg.wasm`, import.meta.url)).size;
  const [coreBytes, fullBytes] = [size("flexmd_core"), size("flexmd_wasm")];
  console.log(`core module ${coreBytes} bytes, full module ${fullBytes} bytes`);
  assert.ok(coreBytes * 5 < fullBytes, `${coreBytes} vs ${fullBytes}`);
});

// The entry points export the API only, and the TypeScript usage file that
// `tsc --strict` checks touches every export of both.
test("every export is public API, and types.ts uses each one", async () => {
  const usage = readFileSync(new URL("./types.ts", import.meta.url), "utf8");
  for (const [entry, names] of [["flexmd", Object.keys(full)], ["flexmd/core", Object.keys(core)]]) {
    for (const name of names) {
      assert.ok(!name.startsWith("_") && !["ERRORS", "errorOf", "raise"].includes(name), `${entry} exports ${name}`);
      assert.match(usage, new RegExp(`\\b${name}\\b`), `test/types.ts does not use ${entry}'s ${name}`);
    }
  }
});
