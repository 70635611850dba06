// An agent turn from JavaScript: large tool results become artifacts the
// model reads with forged tools merged into the host's, JavaScript
// functions (async too) run as tools of their own, and ending the turn
// drops the artifacts. The same inputs and texts as the Python suite's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";

import { SpooledArtifact, SpooledMarkdownArtifact, ToolCallError, Turn } from "flexmd";
import { cliJson, root } from "./cli.mjs";


const LOG = Array.from({ length: 200 }, (_, i) => `line ${i}: ${i % 10 === 3 ? "ERROR disk full" : "ok"}\n`).join("");

test("small results pass and large ones are kept", async () => {
  const turn = new Turn({ maxInlineBytes: 256 });
  assert.deepEqual(turn.addResult("call_1", "ping", "pong"), { text: "pong", spooled: false });
  assert.deepEqual(turn.definitions, []);
  const shown = turn.addResult("call_2", "read_log", LOG);
  assert.equal(shown.spooled, true);
  assert.ok(
    shown.text.startsWith("The result of `read_log` is too large to show here (2750 bytes, 201 lines, 1240 tokens)."),
    shown.text,
  );
  assert.ok(shown.text.includes('callId "call_2"'));
  assert.ok(shown.text.includes("Last 5 lines:\n  line 196: ok\n  line 197: ok\n  line 198: ok\n  line 199: ok\n  \nRead it"));
  assert.deepEqual(turn.callIds, ["call_2"]);
  const names = turn.definitions.map((d) => d.function.name);
  assert.deepEqual(names.slice(0, 4), ["artifact_head", "artifact_tail", "artifact_grep", "artifact_cat"]);
  assert.deepEqual(turn.definitions[0].function.parameters.properties.callId.enum, ["call_2"]);
  assert.equal(
    await turn.call({ name: "artifact_tail", arguments: { callId: "call_2", n: 3 } }),
    "line 198: ok\nline 199: ok\n",
  );
  const again = turn.addResult("call_3", "artifact_cat", LOG);
  assert.equal(again.spooled, false);
  assert.ok(turn.isArtifactTool("artifact_grep") && !turn.isArtifactTool("read_log"));
});

test("calls match the CLI on the same file", async () => {
  const path = `${root}examples/` + readdirSync(`${root}examples`, { recursive: true }).filter((p) => p.endsWith(".md") && !p.endsWith("README.md")).sort()[0];
  const turn = new Turn();
  const artifact = new SpooledMarkdownArtifact(readFileSync(path, "utf8"), { callId: path });
  assert.equal(turn.addArtifact(artifact, "fetch").spooled, true);
  const calls = [
    { id: "a", name: "artifact_head", arguments: { callId: path, n: 3 } },
    { id: "b", name: "artifact_grep", arguments: { callId: path, pattern: "^#" } },
    { id: "c", name: "artifact_md_headings", arguments: { callId: path } },
  ];
  const expected = cliJson(["call", path, "--call", JSON.stringify(calls)]);
  for (const [i, c] of calls.entries()) assert.equal(await turn.call(c), expected[i].result, c.name);
});

test("merged tools keep the host's own fields", () => {
  const turn = new Turn({ maxInlineBytes: 64, format: "anthropic" });
  turn.addResult("toolu_1", "read_log", LOG);
  const host = [
    { name: "search", description: "Search.", input_schema: { type: "object" }, cache_control: { type: "ephemeral" } },
    { name: "artifact_head", description: "mine", input_schema: { type: "object" } },
  ];
  const merged = turn.mergedTools(host);
  assert.deepEqual(merged[0], host[0]);
  assert.equal(merged[1].name, "artifact_head");
  assert.notEqual(merged[1].description, "mine");
  assert.deepEqual(merged[1].input_schema.properties.callId.enum, ["toolu_1"]);
  assert.deepEqual(merged.slice(2, 4).map((t) => t.name), ["artifact_tail", "artifact_grep"]);
  assert.equal(turn.format, "anthropic");
});

test("own tools run JavaScript functions, async ones too", async () => {
  const turn = new Turn({ maxInlineBytes: 64, format: "openai-responses" });
  let seen;
  turn.register({
    name: "count_lines",
    description: "Count the lines of a tool result that contain a word.",
    parameters: { type: "object", properties: { word: { type: "string" } }, required: ["word"], additionalProperties: false },
    kind: "text",
    fn: async (artifact, args) => {
      seen = artifact;
      const lines = await artifact.grep(args.word);
      return { count: lines.length, first: lines[0] ?? null };
    },
  });
  assert.deepEqual(turn.definitions, []);
  turn.addResult("call_1", "read_log", LOG, { kind: "text" });
  const tool = turn.definitions.find((d) => d.name === "count_lines");
  assert.equal(tool.type, "function");
  assert.equal(tool.strict, false);
  assert.deepEqual(tool.parameters.required, ["callId", "word"]);
  const out = await turn.call({ name: "count_lines", arguments: JSON.stringify({ callId: "call_1", word: "ERROR" }) });
  assert.deepEqual(JSON.parse(out), { count: 20, first: "line 3: ERROR disk full" });
  assert.ok(seen instanceof SpooledArtifact);
  assert.equal(seen.callId, "call_1");
  await assert.rejects(turn.call({ name: "count_lines", arguments: { callId: "call_1" } }), {
    name: "ToolCallError",
    message: "count_lines: `word` is required",
  });
  await assert.rejects(turn.call({ name: "count_lines", arguments: { callId: "call_1", word: "x", limit: 1 } }), /unknown argument `limit`/);
  turn.addResult("call_2", "list", JSON.stringify(Array.from({ length: 50 }, (_, n) => ({ n }))));
  assert.deepEqual(
    turn.definitions.find((d) => d.name === "count_lines").parameters.properties.callId.enum,
    ["call_1"],
  );
});

test("own serialiser, errors from the function, wrong arguments", async () => {
  const turn = new Turn({ maxInlineBytes: 64 });
  turn.register({
    name: "shout",
    description: "Shout the first line.",
    fn: async (artifact) => (await artifact.head(1))[0],
    serialise: (value) => value.toUpperCase(),
  });
  turn.register({ name: "broken", description: "Fails.", fn: () => { throw new Error("the tool broke"); } });
  turn.addResult("call_1", "read_log", LOG);
  assert.equal(await turn.call({ name: "shout", arguments: { callId: "call_1" } }), "LINE 0: OK");
  await assert.rejects(turn.call({ name: "broken", arguments: { callId: "call_1" } }), /the tool broke/);
  assert.throws(() => turn.register({ name: "x", description: "x", fn: "no" }), TypeError);
  assert.throws(() => turn.register({ name: "x", description: "x", fn() {}, kind: "pdf" }), { name: "ArgumentError" });
  assert.throws(() => new Turn({ maxInlineBytes: -1 }), RangeError);
  assert.throws(() => new Turn({ format: "gemini" }), /format must be/);
  assert.throws(() => turn.addResult("c", "t", "x", { kind: "yaml" }), TypeError);
  assert.throws(() => turn.addResult("c", "t", 12), TypeError);
  turn.addResult("c", "t", new TextEncoder().encode("0123456789\n".repeat(10)));
  assert.throws(() => turn.addResult("c", "t", "again and again and again and again and again and again"), ToolCallError);
});

test("end drops the artifacts and keeps own tools", async () => {
  const turn = new Turn({ maxInlineBytes: 64 });
  turn.register({ name: "noop", description: "Nothing.", fn: () => null });
  turn.addResult("call_1", "read_log", LOG);
  assert.equal(await turn.artifact("call_1").lineCount(), 201);
  assert.equal(turn.end(), 1);
  assert.deepEqual(turn.definitions, []);
  assert.equal(turn.artifact("call_1"), undefined);
  await assert.rejects(turn.call({ name: "artifact_head", arguments: { callId: "call_1" } }), ToolCallError);
  turn.addResult("call_2", "read_log", LOG);
  assert.ok(turn.definitions.some((d) => d.function.name === "noop"));
});
