// The `schema` row's JavaScript peer: ajv (compiled) on the instances that
// `schema_timing OUT_DIR` wrote, as values already parsed and as text
// (JSON.parse, then validate, as model output arrives), timed in this
// process: the median of RUNS rounds, per instance.
//
//   node benches/scripts/schema_peers.mjs PEERS_DIR DATA_DIR [RUNS]
//
// Prints one JSON line per measure: {"tool", "op", "seconds_per_op", "invalid"}.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const [peers, data, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 5);
const require = createRequire(join(peers, "package.json"));
const Ajv2020 = require("ajv/dist/2020").default;
const ajvVersion = require("ajv/package.json").version;

const schema = JSON.parse(readFileSync(join(data, "review_schema.json"), "utf8"));
const instances = JSON.parse(readFileSync(join(data, "review_instances.json"), "utf8"));
const texts = instances.map((i) => JSON.stringify(i));
// allErrors: every violation is reported, as flexmd and jsonschema do.
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

function time(round) {
  const times = [];
  let invalid = 0;
  for (let r = 0; r < runs; r++) {
    const start = process.hrtime.bigint();
    invalid = round();
    times.push(Number(process.hrtime.bigint() - start) / 1e9 / instances.length);
  }
  times.sort((a, b) => a - b);
  return { seconds_per_op: times[Math.floor(times.length / 2)], invalid };
}

const print = (tool, op, measured) => console.log(JSON.stringify({ tool, op, ...measured }));
print(`ajv ${ajvVersion} (Node ${process.versions.node})`, "values", time(() => {
  let invalid = 0;
  for (const i of instances) if (!validate(i)) invalid++;
  return invalid;
}));
print(`ajv ${ajvVersion} + JSON.parse (Node ${process.versions.node})`, "text", time(() => {
  let invalid = 0;
  for (const t of texts) if (!validate(JSON.parse(t))) invalid++;
  return invalid;
}));
