// Artifacts and forged tools against `flexmd tools` and `flexmd call`: the
// same definitions, and every tool's result text the same as the CLI's for
// the same call on the same file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { panicCount } from "../pkg/flexmd_wasm.js";
import {
  ArtifactError,
  SpooledArtifact,
  SpooledJsonArtifact,
  SpooledMarkdownArtifact,
  ToolCallError,
  forgeTools,
} from "flexmd";
import { cliJson, root } from "./cli.mjs";


// Each file's callId in the CLI is its path as given: the same here.
const files = {
  log: ["examples/agent/build.log", SpooledArtifact],
  md: ["examples/responses/nested.md", SpooledMarkdownArtifact],
  json: ["examples/streaming/answer.chunks.jsonl", SpooledJsonArtifact],
};
// The CLI reads a file by its extension: the same kinds here.
const KINDS = { SpooledArtifact: "text", SpooledMarkdownArtifact: "markdown", SpooledJsonArtifact: "jsonl" };
const open = (path, Class) => new Class(readFileSync(`${root}${path}`, "utf8"), { callId: path, kind: KINDS[Class.name] });

test("tool definitions are the CLI's, in every format", () => {
  const artifacts = Object.values(files).map(([path, Class]) => open(path, Class));
  const paths = Object.values(files).map(([path]) => path);
  for (const format of ["openai", "openai-responses", "anthropic"]) {
    const tools = forgeTools(artifacts, { format });
    assert.deepEqual(tools.definitions, cliJson(["tools", "--format", format, ...paths]), format);
  }
  assert.throws(() => forgeTools(artifacts, { format: "gemini" }), /openai/);
  assert.throws(() => forgeTools([artifacts[0], artifacts[0]]), /callId/);
});

test("every call gives the CLI's result text", () => {
  const [logPath] = files.log;
  const [mdPath] = files.md;
  const [jsonPath] = files.json;
  const tools = forgeTools([
    open(logPath, SpooledArtifact),
    open(mdPath, SpooledMarkdownArtifact),
    open(jsonPath, SpooledJsonArtifact),
  ]);
  const calls = [
    { name: "artifact_head", arguments: { callId: logPath, n: 3 } },
    { name: "artifact_tail", arguments: { callId: logPath, n: 2 } },
    { name: "artifact_grep", arguments: { callId: logPath, pattern: "warn(ing)?:", flags: "i", lineNumbers: true } },
    { name: "artifact_cat", arguments: { callId: logPath, start: -3 } },
    { name: "artifact_line_count", arguments: { callId: logPath } },
    { name: "artifact_estimate_tokens", arguments: { callId: mdPath, encoding: "cl100k_base" } },
    { name: "artifact_md_headings", arguments: { callId: mdPath } },
    { name: "artifact_md_sections", arguments: { callId: mdPath, depth: 2 } },
    { name: "artifact_md_text", arguments: { callId: mdPath, startLine: 0, endLine: 5 } },
    { name: "artifact_json_length", arguments: { callId: jsonPath } },
    { name: "artifact_json_pluck", arguments: { callId: jsonPath, path: "$.delta" } },
    { name: "artifact_json_slice", arguments: { callId: jsonPath, start: 0, end: 2 } },
  ];
  for (const c of calls) {
    const expected = cliJson(["call", logPath, mdPath, jsonPath, "--json", "--call", JSON.stringify(c)]);
    assert.equal(tools.call(c), expected.result, c.name);
    // The provider shapes reach the same tool.
    const openai = { id: "call_1", type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } };
    assert.equal(tools.call(openai), expected.result, `${c.name} (OpenAI shape)`);
  }
  const all = tools.callAll({ role: "assistant", content: [
    { type: "tool_use", id: "t1", name: "artifact_line_count", input: { callId: logPath } },
    { type: "tool_use", id: "t2", name: "artifact_json_keys", input: { callId: logPath } },
  ] });
  assert.equal(all[0].id, "t1");
  assert.match(all[0].result, /^\d+$/);
  assert.ok(all[1].error, "a JSON tool on a text artifact is an error for the model");
  assert.throws(
    () => tools.call({ name: "artifact_grep", arguments: { callId: logPath, pattern: "(?<=x)y" } }),
    (e) => e instanceof ToolCallError && e.code === "artifact::pattern",
  );
});

test("paged calls are the CLI's pages", () => {
  const [logPath] = files.log;
  const tools = forgeTools([open(logPath, SpooledArtifact)]);
  const c = { name: "artifact_grep", arguments: { callId: logPath, pattern: "." } };
  let cursor;
  let pages = 0;
  do {
    const args = ["call", logPath, "--json", "--max-tokens", "200", "--call", JSON.stringify(c)];
    if (cursor) args.push("--cursor", cursor);
    const expected = cliJson(args);
    const page = tools.callPage(c, { maxTokens: 200, cursor });
    assert.deepEqual(page, expected);
    cursor = page.cursor;
    pages += 1;
  } while (cursor && pages < 50);
  assert.ok(pages > 1, "the log takes more than one page of 200 tokens");
});

test("artifact methods return values", async () => {
  const log = new SpooledArtifact("first\nsecond error\nthird\nERROR again", "log");
  assert.equal(log.callId, "log");
  assert.equal(log.kind, "text");
  assert.deepEqual(await log.head(2), ["first", "second error"]);
  assert.deepEqual(await log.tail(1), ["ERROR again"]);
  assert.deepEqual(await log.grep(/error/i), ["second error", "ERROR again"]);
  assert.deepEqual(await log.grep("^t"), ["third"]);
  assert.deepEqual(await log.cat(1, -1), ["second error", "third"]);
  assert.equal(await log.lineCount(), 4);
  assert.equal(await log.byteLength(), 36);
  assert.equal(await log.asString(), "first\nsecond error\nthird\nERROR again");
  assert.ok((await log.estimateTokens()) > 3);

  const rows = new SpooledJsonArtifact('{"id": 1, "ok": true}\n{"id": 2, "ok": false}\n', "jsonl");
  assert.equal(await rows.json_type(), "jsonl");
  assert.equal(await rows.json_length(), 2);
  assert.deepEqual(await rows.json_pluck("$.id"), [1, 2]);
  assert.deepEqual(await rows.json_filter("$[?@.ok == true]"), [{ id: 1, ok: true }]);
  assert.deepEqual(await rows.json_slice(-1), [{ id: 2, ok: false }]);
  assert.deepEqual(await rows.json_keys(), ["id", "ok"]);
  const doc = new SpooledJsonArtifact('{"a": {"b": [1, 2]}}');
  assert.deepEqual(await doc.json_get("$.a.b[*]"), [1, 2]);

  const md = new SpooledMarkdownArtifact("---\ntitle: T\n---\n# One\ntext [x](http://a.b)\n## Two\n```js\nx\n```\n");
  assert.deepEqual(await md.md_frontmatter(), { title: "T" });
  assert.deepEqual((await md.md_headings()).map((h) => [h.depth, h.text]), [[1, "One"], [2, "Two"]]);
  assert.deepEqual((await md.md_code_blocks("js")).length, 1);
  assert.deepEqual(await md.md_links(), [{ text: "x", url: "http://a.b" }]);
  assert.equal((await md.md_ast(3, 5)).type, "root");
  assert.ok(SpooledMarkdownArtifact.isSpooledMarkdownArtifact(md) && SpooledArtifact.isSpooledArtifact(md));

  assert.throws(() => new SpooledJsonArtifact("not json at all"), ArtifactError);
  // A JSON class told to read Markdown: its JSON queries say so.
  const misread = new SpooledJsonArtifact("# Title\n", { kind: "markdown", callId: "notes" });
  await assert.rejects(misread.json_keys(), (e) => e instanceof ArtifactError && /`notes` is read as markdown, not JSON/.test(e.message));
});

test("hostile artifacts and queries never panic", async () => {
  const before = panicCount();
  // Long runs are where tokenizers break (one letter, digit or space).
  for (const unit of ["a", "7", " ", "😀", "\n"]) {
    const big = new SpooledArtifact(unit.repeat(300_000));
    for (const encoding of ["o200k_base", "cl100k_base", "gpt2", "p50k_base"]) {
      assert.ok((await big.estimateTokens(encoding)) > 0, `${unit} ${encoding}`);
    }
    await big.grep(/(a*)*b/);
  }
  const deep = new SpooledJsonArtifact("[".repeat(100_000) + "]".repeat(100_000));
  await assert.rejects(deep.json_keys(), (e) => e instanceof ArtifactError || e instanceof ToolCallError);
  const rows = new SpooledJsonArtifact('{"a": 1}\n' + "{broken\n".repeat(1000), "jsonl");
  await rows.json_pluck("$.a").catch((e) => assert.ok(e instanceof ArtifactError, e));
  await assert.rejects(rows.json_get("$" + "[0]".repeat(20_000)), ToolCallError);
  await assert.rejects(rows.json_get("$[?(((((".repeat(2_000)), ToolCallError);
  await assert.rejects(new SpooledArtifact("x").grep("(".repeat(10_000)), ToolCallError);
  const md = new SpooledMarkdownArtifact("> ".repeat(50_000) + "x\n" + "- ".repeat(50_000) + "y\n");
  await md.md_headings();
  await md.md_sections();
  await md.md_text();
  await md.md_ast(0, 1).catch((e) => assert.ok(e instanceof ToolCallError || e instanceof ArtifactError, e));
  const tools = forgeTools([md]);
  assert.throws(() => tools.call("{not json"), (e) => e instanceof ToolCallError || e.name === "ArgumentError");
  assert.throws(() => tools.call({ name: "artifact_head", arguments: { callId: "nope" } }), ToolCallError);
  assert.throws(() => tools.callPage({ name: "artifact_cat", arguments: { callId: "artifact" } }, { cursor: "garbage" }), ToolCallError);
  assert.equal(panicCount(), before);
});

test("the ADK's statics: toolMethods, isSpooledArtifactConstructor, fromReader, defaultSerialise", async () => {
  const { defaultSerialise } = await import("flexmd");
  // Each class lists only its own tools, as the ADK's descriptors.
  assert.deepEqual(
    SpooledArtifact.toolMethods.map((d) => [d.name, d.method]),
    [
      ["artifact_head", "head"],
      ["artifact_tail", "tail"],
      ["artifact_grep", "grep"],
      ["artifact_cat", "cat"],
      ["artifact_byte_length", "byteLength"],
      ["artifact_line_count", "lineCount"],
      ["artifact_estimate_tokens", "estimateTokens"],
    ],
  );
  assert.deepEqual(SpooledArtifact.toolMethods[2].argsSchema.required, ["pattern"]);
  assert.equal(SpooledArtifact.toolMethods[2].argsSchema.properties.callId, undefined);
  assert.ok(Object.isFrozen(SpooledArtifact.toolMethods) && Object.isFrozen(SpooledArtifact.toolMethods[0]));
  assert.ok(SpooledJsonArtifact.toolMethods.every((d) => d.name.startsWith("artifact_json_") && d.method.startsWith("json_")));
  assert.ok(SpooledMarkdownArtifact.toolMethods.some((d) => d.name === "artifact_md_sections" && d.method === "md_sections"));
  // Every descriptor names a method the class has.
  for (const cls of [SpooledArtifact, SpooledJsonArtifact, SpooledMarkdownArtifact]) {
    for (const d of cls.toolMethods) assert.equal(typeof cls.prototype[d.method], "function", d.method);
  }

  class MyArtifact extends SpooledMarkdownArtifact {}
  assert.equal(SpooledArtifact.isSpooledArtifactConstructor(SpooledArtifact), true);
  assert.equal(SpooledArtifact.isSpooledArtifactConstructor(MyArtifact), true);
  // A class from another copy of the package, by its methods.
  class Foreign {}
  for (const m of ["head", "tail", "grep", "cat", "byteLength", "lineCount", "estimateTokens"]) Foreign.prototype[m] = () => {};
  assert.equal(SpooledArtifact.isSpooledArtifactConstructor(Foreign), true);
  for (const value of [new SpooledArtifact("x"), class {}, () => {}, null, "SpooledArtifact"]) {
    assert.equal(SpooledArtifact.isSpooledArtifactConstructor(value), false, String(value));
  }

  const md = await MyArtifact.fromReader({ readAll: async () => new TextEncoder().encode("# A\n## B\n") }, "doc");
  assert.ok(md instanceof MyArtifact);
  assert.equal(md.callId, "doc");
  assert.deepEqual((await md.md_headings()).map((h) => h.text), ["A", "B"]);
  const log = await SpooledArtifact.fromReader({ readAll: () => "a\nb" });
  assert.deepEqual(await log.tail(1), ["b"]);
  await assert.rejects(SpooledArtifact.fromReader({}), { name: "TypeError", message: "reader must be a SpoolReader (an object with readAll()), not object" });
  await assert.rejects(SpooledArtifact.fromReader({ readAll: () => 3 }), { name: "TypeError", message: "reader.readAll() must give a string or bytes, not a number" });

  // The CLI's tool results read the same way.
  assert.equal(defaultSerialise("as is"), "as is");
  assert.equal(defaultSerialise(["a", "b"]), "a\nb");
  assert.equal(defaultSerialise(42), "42");
  assert.equal(defaultSerialise({ a: [1] }), '{\n  "a": [\n    1\n  ]\n}');
  assert.equal(defaultSerialise([]), "(empty list)");
  assert.equal(defaultSerialise(undefined), "(undefined)");
  assert.equal(defaultSerialise([""]), "(1 empty line)");
});
