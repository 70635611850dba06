// The `outline` row's JavaScript peer: mdast-util-from-markdown with GFM
// (the parser under @nhtio/adk's Markdown artifact) on the inputs that
// `outline_timing RUNS DATA_DIR` wrote, timed in this process like flexmd:
// each parse repeated until a round takes 50 ms, the median of RUNS rounds
// (a parse of a second or more: timed once).
//
//   node benches/scripts/outline_peers.mjs PEERS_DIR DATA_DIR [RUNS]
//
// Prints one JSON line per input: {"tool", "op", "input", "file", "seconds_per_op"}.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { time as timeRuns } from "./timing.mjs";

const [peers, data, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 5);
const time = (work) => timeRuns(work, runs);
const require = createRequire(join(peers, "package.json"));
const load = async (name) => import(pathToFileURL(require.resolve(name)).href);
const { fromMarkdown } = await load("mdast-util-from-markdown");
const { gfmFromMarkdown } = await load("mdast-util-gfm");
const { gfm } = await load("micromark-extension-gfm");
const version = JSON.parse(
  readFileSync(join(peers, "node_modules/mdast-util-from-markdown/package.json"), "utf8"),
).version;
const mdast = (text) => fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

// Not the 5 MB document: one parse of it took more than 7 minutes here
// (1 MB: 12 s), so the row stops at 1 MB for mdast.
for (const [input, file] of [["20 KB answer", "answer-20k.md"], ["1 MB document", "document-1m.md"]]) {
  const text = readFileSync(join(data, file), "utf8");
  console.log(JSON.stringify({
    tool: `mdast-util-from-markdown ${version} + GFM (Node ${process.versions.node})`,
    op: "parse",
    input,
    file,
    seconds_per_op: time(() => mdast(text)),
  }));
}
