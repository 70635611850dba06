// The `npm` row of `cargo xtask bench`: the flexmd npm package
// (WebAssembly) per call beside the JavaScript libraries it replaces, in
// one Node process on the same inputs. Every flexmd time includes the
// crossing into the module and back, as a caller's does.
//
//   node benches/scripts/npm_calls.mjs PEERS_DIR DATA_DIR CASES_JSONL [RUNS]
//
// - the llm-json cases: `findJson` beside jsonrepair (`JSON.parse(jsonrepair(text))`),
//   per case, and the cases each gets right; and all the cases in one
//   `findJsonMany` call, per case;
// - the `schema` row's `review` instances (`schema_timing DATA_DIR` writes
//   them): `SchemaValidator.validate` (elsabro's outcome: valid, data,
//   errors) beside ajv (compiled, allErrors), on values and on JSON text
//   (JSON.parse first, for both); and `isValidJson` (the verdict, from the
//   text) beside ajv + JSON.parse.
//
// Prints one JSON line per measure: {"tool", "op", "seconds_per_op",
// "right"?, "invalid"?}: the median of RUNS rounds, per call.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { time as timeRuns } from "./timing.mjs";

const [peers, data, casesPath, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 5);
const require = createRequire(join(peers, "package.json"));
const root = new URL("../../", import.meta.url);
const flexmd = await import(new URL("npm/flexmd/node.js", root).href);
const { jsonrepair } = require("jsonrepair");
const Ajv2020 = require("ajv/dist/2020").default;
const version = (name) => JSON.parse(readFileSync(join(peers, "node_modules", name, "package.json"), "utf8")).version;
const node = `Node ${process.versions.node}`;
const print = (tool, op, fields) => console.log(JSON.stringify({ tool, op, ...fields }));

function same(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  }
  if (a && b && typeof a === "object" && typeof b === "object") {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return a === b;
}

const cases = readFileSync(casesPath, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
const quiet = (run) => (input) => {
  try {
    return run(input);
  } catch {
    return undefined;
  }
};
const right = (run) =>
  cases.filter((c) => {
    const got = run(c.input);
    return "expected" in c ? same(got, c.expected) : got === undefined || got === null || got === "";
  }).length;
for (const [tool, run] of [
  ["flexmd findJson (npm, WebAssembly)", quiet((t) => flexmd.findJson(t))],
  [`jsonrepair ${version("jsonrepair")} (${node})`, quiet((t) => JSON.parse(jsonrepair(t)))],
]) {
  const seconds = timeRuns(() => cases.forEach((c) => run(c.input)), runs) / cases.length;
  print(tool, "per case", { seconds_per_op: seconds, right: `${right(run)}/${cases.length}` });
}
{
  const inputs = cases.map((c) => c.input);
  const found = flexmd.findJsonMany(inputs);
  const rightMany = cases.filter((c, i) => ("expected" in c ? same(found[i], c.expected) : found[i] === null)).length;
  print("flexmd findJsonMany (npm, WebAssembly; one call for every case)", "per case", {
    seconds_per_op: timeRuns(() => flexmd.findJsonMany(inputs), runs) / cases.length,
    right: `${rightMany}/${cases.length}`,
  });
}

const schema = JSON.parse(readFileSync(join(data, "review_schema.json"), "utf8"));
const instances = JSON.parse(readFileSync(join(data, "review_instances.json"), "utf8"));
const texts = instances.map((i) => JSON.stringify(i));
const ajv = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
const validator = new flexmd.SchemaValidator();
const perInstance = (round) => timeRuns(round, runs) / instances.length;
const count = (items, judge) => items.filter((i) => !judge(i)).length;
for (const [op, items, load] of [
  ["values", instances, (i) => i],
  ["text", texts, (t) => JSON.parse(t)],
]) {
  const ours = (i) => validator.validate("review", load(i)).valid;
  const theirs = (i) => ajv(load(i));
  const suffix = op === "text" ? " + JSON.parse" : "";
  print(`flexmd SchemaValidator.validate (npm, WebAssembly)${suffix}`, op, {
    seconds_per_op: perInstance(() => items.forEach(ours)),
    invalid: count(items, ours),
  });
  print(`ajv ${version("ajv")}${suffix} (${node})`, op, {
    seconds_per_op: perInstance(() => items.forEach(theirs)),
    invalid: count(items, theirs),
  });
}
// The verdict from JSON text, as ajv + JSON.parse gives it (ajv's errors
// are kept on the side; this gives the verdict alone).
const verdict = (t) => validator.isValidJson("review", t);
print("flexmd SchemaValidator.isValidJson (npm, WebAssembly), text in", "text", {
  seconds_per_op: perInstance(() => texts.forEach(verdict)),
  invalid: count(texts, verdict),
});
