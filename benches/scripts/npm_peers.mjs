// The npm package beside the JavaScript libraries it replaces, in one Node
// process, on the same inputs: the outline and the validate+extract path
// against mdast-util-from-markdown with GFM (the parser under @nhtio/adk's
// Markdown artifact), find-JSON against jsonrepair on the llm-json cases.
//
//   node benches/scripts/npm_peers.mjs PEERS_NODE_DIR [CASES_JSONL] [RUNS]
//
// Prints a Markdown table; benches/scripts/npm_peers.sh installs the peers
// and builds the package first.
import { readFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { time as timeRuns } from "./timing.mjs";

const [peersDir, casesPath, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 5);
const time = (work) => timeRuns(work, runs);
const root = new URL("../../", import.meta.url);
const flexmd = await import(new URL("npm/flexmd/node.js", root).href);
const peer = async (name) => import(pathToFileURL(createRequire(`${peersDir}/`).resolve(name)).href);
const { fromMarkdown } = await peer("mdast-util-from-markdown");
const { gfmFromMarkdown } = await peer("mdast-util-gfm");
const { gfm } = await peer("micromark-extension-gfm");
const { jsonrepair } = await peer("jsonrepair");
const version = (name) => JSON.parse(readFileSync(`${peersDir}/node_modules/${name}/package.json`, "utf8")).version;

// The same document as flexmd_benches::document: the example answers under
// numbered chapter headings, front matter kept only at the start.
const answers = ["clean", "quirks", "nested"].map((n) => readFileSync(new URL(`examples/responses/${n}.md`, root), "utf8"));
function documentOf(bytes) {
  let doc = "";
  for (let chapter = 1; doc.length < bytes; chapter++) {
    for (const answer of answers) {
      const at = answer.indexOf("---\n# ");
      const body = at >= 0 ? answer.slice(at + 4) : answer;
      doc += `# Chapter ${chapter}\n\nSome prose before the answer.\n\n${body}\n`;
    }
  }
  return doc;
}

const spec = readFileSync(new URL("examples/specs/answer.md", root), "utf8");
const mdast = (text) => fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
const show = (s) => (s >= 1 ? `${s.toFixed(2)} s` : s >= 1e-3 ? `${(s * 1e3).toFixed(2)} ms` : `${(s * 1e6).toFixed(1)} µs`);
const rows = [];
for (const [label, bytes] of [["20 KB answer", 20_000], ["1 MB document", 1_000_000]]) {
  const text = documentOf(bytes);
  const peerTime = time(() => mdast(text));
  const outline = time(() => flexmd.buildOutline(text));
  const checked = time(() => flexmd.check(text, spec));
  rows.push([`${label}: outline (\`buildOutline\`) vs mdast parse + GFM`, outline, peerTime]);
  rows.push([`${label}: validate + extract (\`check\`) vs mdast parse + GFM alone`, checked, peerTime]);
}

// find-JSON: every llm-json case through each, time per case, cases right.
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
let right = "";
if (casesPath && existsSync(casesPath)) {
  const cases = readFileSync(casesPath, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  const ours = (input) => flexmd.findJson(input);
  const theirs = (input) => {
    try {
      return JSON.parse(jsonrepair(input));
    } catch {
      return undefined;
    }
  };
  const score = (run) => cases.filter((c) => same(run(c.input), c.expected)).length;
  const perCase = (run) => time(() => cases.forEach((c) => run(c.input))) / cases.length;
  rows.push([`${cases.length} llm-json cases: \`findJson\` vs jsonrepair, per case`, perCase(ours), perCase(theirs)]);
  right = `\nCases right: flexmd ${score(ours)}/${cases.length}, jsonrepair ${score(theirs)}/${cases.length}.`;
} else {
  console.error("llm-json cases not found: the find-JSON row is left out");
}

console.log(`Node ${process.versions.node}; mdast-util-from-markdown ${version("mdast-util-from-markdown")}, ` +
  `mdast-util-gfm ${version("mdast-util-gfm")}, micromark-extension-gfm ${version("micromark-extension-gfm")}, ` +
  `jsonrepair ${version("jsonrepair")}; medians of ${runs} runs.\n`);
console.log("| work, same input | flexmd (npm, WebAssembly) | peer | ratio (flexmd ÷ peer) |");
console.log("|---|---|---|---|");
for (const [what, ours, theirs] of rows) {
  console.log(`| ${what} | ${show(ours)} | ${show(theirs)} | ${(ours / theirs).toFixed(3)} |`);
}
console.log(right);
