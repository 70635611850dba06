// Streams: StreamingExtractor and StreamingJson give the events `flexmd
// extract --stream` and `flexmd json --stream` print for the same input
// (offsets in UTF-16 units), and streamOutput / streamJson read a
// ReadableStream, an async iterable or a provider SDK's chunks cut
// anywhere — inside a UTF-8 sequence or a UTF-16 pair — to the same end.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { StreamingExtractor, StreamingJson, streamJson, streamOutput, FlexmdError } from "flexmd";
import * as core from "flexmd/core";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = process.env.FLEXMD_BIN ?? `${root}target/debug/flexmd`;
const example = (path) => `${root}examples/${path}`;
const SPEC = example("specs/answer.md");
const spec = readFileSync(SPEC, "utf8");
const answers = [
  ...readdirSync(example("responses")).map((f) => `responses/${f}`),
  "agent/review_answer.md",
  "agent/messy_review.md",
];

function lines(args) {
  let out;
  try {
    out = execFileSync(bin, args, { encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
  } catch (error) {
    if (error.status !== 1) throw error;
    out = error.stdout;
  }
  return out.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

const utf16 = (text, byte) => Buffer.from(text, "utf8").subarray(0, byte).toString("utf8").length;
function column(text, byte) {
  const at = utf16(text, byte);
  return at - (text.lastIndexOf("\n", at - 1) + 1) + 1;
}
function issueInUtf16(issue, text) {
  issue.column = column(text, issue.span.start);
  issue.span = { start: utf16(text, issue.span.start), end: utf16(text, issue.span.end) };
}
function inUtf16(events, text) {
  for (const e of events) {
    if (e.event === "violation") issueInUtf16(e, text);
    if (e.event === "finished") for (const i of [...e.report.details.errors, ...e.report.details.warnings]) issueInUtf16(i, text);
  }
  return events;
}

// `text` cut every `size` UTF-16 units (pairs split too) or, as bytes,
// every `size` bytes (UTF-8 sequences split too).
const cutText = (text, size) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
function cutBytes(text, size) {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.slice(i, i + size));
      controller.close();
    },
  });
}
async function* slowly(pieces) {
  for (const piece of pieces) {
    await new Promise((resolve) => setImmediate(resolve));
    yield piece;
  }
}
async function collect(generator) {
  const all = [];
  for await (const item of generator) all.push(item);
  return all;
}

test("StreamingExtractor gives the CLI's extract --stream events", () => {
  for (const path of answers) {
    const text = readFileSync(example(path), "utf8");
    for (const [flags, opts] of [[[], {}], [["--as-json", "--strict"], { asJson: true, strict: true }]]) {
      const stream = new StreamingExtractor(spec, opts);
      const events = [...stream.push(text), ...stream.finish()];
      assert.deepEqual(events, inUtf16(lines(["extract", "--stream", ...flags, "--spec", SPEC, example(path)]), text), `${path} ${flags}`);
      assert.throws(() => stream.push("more"), (e) => e instanceof FlexmdError && e.code === "stream::finished");
    }
  }
});

test("streamOutput reads a ReadableStream of bytes, an async iterable and provider chunks to the same end", async () => {
  const text = "## Short answer\nCafé ☕ 😀 yes.\n\n## Reasoning\n1. the 🦀 is fast\n2. 見て\n";
  const whole = new StreamingExtractor(spec, { asJson: true });
  const expected = [...whole.push(text), ...whole.finish()].at(-1);
  for (const source of [
    cutBytes(text, 3),
    slowly(cutText(text, 1)),
    cutText(text, 5),
    slowly(cutText(text, 4).map((content) => ({ choices: [{ delta: { content } }] }))),
    slowly(cutText(text, 6).map((delta) => ({ type: "response.output_text.delta", delta }))),
    slowly([{ type: "message_start" }, ...cutText(text, 2).map((t) => ({ type: "content_block_delta", delta: { type: "text_delta", text: t } })), { type: "message_stop" }]),
  ]) {
    const events = await collect(streamOutput(source, spec, { asJson: true }));
    assert.deepEqual(events.at(-1), expected);
    assert.deepEqual(events.at(-1).result["Short answer"], "Café ☕ 😀 yes.");
  }
  await assert.rejects(collect(streamOutput(42, spec)), { name: "TypeError", message: "source must be a ReadableStream or an (async) iterable of text, not a number" });
  await assert.rejects(collect(streamOutput([{ nope: 1 }], spec)), { name: "TypeError", message: "a stream's chunk must be text, bytes or a provider's delta, not object" });
});

test("StreamingJson gives the CLI's json --stream events, and streamJson reads any source", async () => {
  for (const path of answers) {
    const text = readFileSync(example(path), "utf8");
    const stream = new StreamingJson();
    const update = stream.push(text);
    const events = [...(update ? [update] : []), stream.finish({ repairs: true })];
    const cli = lines(["json", "--stream", "--repairs", example(path)]);
    const found = cli.at(-1).found;
    if (found) {
      found.start = utf16(text, found.start);
      found.end = utf16(text, found.end);
      for (const repair of found.repairs) repair.offset = utf16(text, repair.offset);
    }
    assert.deepEqual(events, cli, path);
  }
  const text = 'Sure 😀: {"title": "Caché 🦀", "tags": ["a", "b"]}';
  const updates = await collect(streamJson(cutBytes(text, 2)));
  assert.deepEqual(updates.at(-1), { event: "finished", patches: [], value: { title: "Caché 🦀", tags: ["a", "b"] } });
  assert.ok(updates.slice(0, -1).every((u) => u.event === "update"));
  const partial = new core.StreamingJson();
  partial.push('{"title": "Ca');
  assert.equal(partial.state("/title"), "partial");
  assert.equal(partial.state("/nope"), undefined);
  assert.deepEqual(partial.value, { title: "Ca" });
});
