// The partial-JSON peers in Node, as chat UIs use them: after every chunk,
// the whole text so far is parsed again (partial-json's `parse`, the AI
// SDK's `parsePartialJson`). Same file, chunk size and timing loop as
// flexmd's side (benches/examples/stream_json_chunks.rs).
//
// node partial_json_peers.mjs FILE CHUNK RUNS   (packages from NODE_PATH)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(process.env.PEERS_DIR + "/package.json");
const { parse } = require("partial-json");
const { parsePartialJson } = require("@ai-sdk/ui-utils");

const [file, chunkArg, runsArg] = process.argv.slice(2);
const text = readFileSync(file, "utf8");
const chunk = Number(chunkArg);
const runs = Number(runsArg);
const whole = JSON.stringify(JSON.parse(text));

function time(name, parseOne) {
  const times = [];
  let last;
  for (let r = 0; r < runs; r++) {
    const start = process.hrtime.bigint();
    let buffer = "";
    for (let at = 0; at < text.length; at += chunk) {
      buffer += text.slice(at, at + chunk);
      last = parseOne(buffer);
    }
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const ms = times[Math.floor(times.length / 2)];
  console.log(JSON.stringify({ tool: name, ms: Number(ms.toFixed(3)), final_ok: JSON.stringify(last) === whole }));
}

time("partial-json parse (Node)", (b) => parse(b));
time("ai-sdk parsePartialJson (Node)", (b) => parsePartialJson(b).value);
