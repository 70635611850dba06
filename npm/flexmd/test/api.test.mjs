// The package against the `flexmd` CLI: every function on the bundled
// examples gives the JSON the CLI prints for the same input, offsets
// converted from UTF-8 bytes (the CLI's) to UTF-16 units (JavaScript's).
// FLEXMD_BIN names the CLI (default: the workspace's debug build).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

import * as flexmd from "flexmd";
import { panicCount } from "../pkg/flexmd_wasm.js";
import { __panicForTests } from "../lib/testing.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = process.env.FLEXMD_BIN ?? `${root}target/debug/flexmd`;
const example = (path) => `${root}examples/${path}`;
const read = (path) => readFileSync(example(path), "utf8");
const responses = readdirSync(example("responses")).map((f) => `responses/${f}`);
const answers = [...responses, "agent/review_answer.md", "agent/messy_review.md"];
const SPEC = "specs/answer.md";

/** The CLI's output for `args` (exit 1 means "read, but invalid": still JSON). */
function cli(args, input) {
  let out;
  try {
    out = execFileSync(bin, args, { input, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
  } catch (error) {
    if (error.status !== 1) throw error;
    out = error.stdout;
  }
  return out;
}
const cliJson = (args, input) => JSON.parse(cli(args, input));

/** The UTF-16 index of UTF-8 byte offset `byte` of `text`. */
function utf16(text, byte) {
  return Buffer.from(text, "utf8").subarray(0, byte).toString("utf8").length;
}

/** The 1-based UTF-16 column of UTF-8 byte offset `byte`. */
function column(text, byte) {
  const at = utf16(text, byte);
  const lineStart = Math.max(text.lastIndexOf("\n", at - 1), text.lastIndexOf("\r", at - 1)) + 1;
  return at - lineStart + 1;
}

/** A CLI validation report with its offsets in UTF-16 units. */
function reportInUtf16(report, text) {
  for (const issue of [...report.details.errors, ...report.details.warnings]) {
    issue.column = column(text, issue.span.start);
    issue.span = { start: utf16(text, issue.span.start), end: utf16(text, issue.span.end) };
  }
  return report;
}

function foundInUtf16(found, text) {
  found.start = utf16(text, found.start);
  found.end = utf16(text, found.end);
  for (const repair of found.repairs) repair.offset = utf16(text, repair.offset);
  return found;
}

test("parseFlexMd and stringifyFlexMd give the CLI's frames", () => {
  const text = read("frames/chat.md");
  const doc = flexmd.parseFlexMd(text);
  assert.deepEqual(doc, cliJson(["frames", "parse", example("frames/chat.md")]));
  assert.equal(doc.frames[0].role, "user");
  assert.equal(flexmd.stringifyFlexMd(doc), cli(["frames", "stringify"], JSON.stringify(doc)));
  const inferred = flexmd.parseFlexMd("[[item]]\n@count: 3\n@ok: true\n", { metaTypeMode: "infer" });
  assert.deepEqual(inferred.frames[0].meta, { count: 3, ok: true });
  assert.deepEqual(
    inferred,
    cliJson(["frames", "parse", "--meta", "infer"], "[[item]]\n@count: 3\n@ok: true\n"),
  );
  assert.match(flexmd.stringifyFlexMd(doc, { headingLevel: 2 }), /^## \[\[message/m);
});

test("every declared MetaType is one metaSchema takes", () => {
  const text = "[[m]]\n@s: x\n@n: 1.5\n@i: 2\n@b: true\n@l: a, b\n";
  const metaSchema = { s: "string", n: "number", i: "integer", b: "boolean", l: "strings" };
  const doc = flexmd.parseFlexMd(text, { metaTypeMode: "schema", metaSchema });
  assert.deepEqual(doc.frames[0].meta, { s: "x", n: 1.5, i: 2, b: true, l: ["a", "b"] });
  for (const refused of ["null", "string[]"]) {
    assert.throws(() => flexmd.parseFlexMd(text, { metaTypeMode: "schema", metaSchema: { s: refused } }), { name: "ArgumentError" });
  }
});

test("specs read, render and enrich as the CLI does", () => {
  const md = read(SPEC);
  const spec = flexmd.parseOutputFormatSpec(md);
  assert.deepEqual(spec, cliJson(["ofs", "parse", example(SPEC)]));
  assert.equal(spec.descriptorType, "output_format_spec");
  assert.equal(flexmd.stringifyOutputFormatSpec(spec), cli(["ofs", "render", example(SPEC)]));
  assert.equal(flexmd.stringifyOutputFormatSpec(md), flexmd.stringifyOutputFormatSpec(spec));
  const prompt = flexmd.prompt(spec);
  assert.equal(prompt, cli(["ofs", "enrich", example(SPEC)]));
  const rules = flexmd.enrichInstructions(spec);
  assert.ok(rules.startsWith("Rules:\n") && prompt.endsWith(rules), rules);
  assert.deepEqual(flexmd.makeDefaultOfs(), cliJson(["ofs", "default", "--json"]));
  assert.deepEqual(flexmd.makeDefaultOfs().sections.map((s) => s.kind), [
    "prose",
    "prose",
    "ordered_list",
    "list",
    "list",
  ]);
});

test("outlines are the CLI's, and render back", () => {
  for (const path of answers) {
    const outline = flexmd.buildOutline(read(path));
    assert.deepEqual(outline, cliJson(["outline", example(path)]), path);
    assert.equal(
      flexmd.renderOutline(outline),
      cli(["outline", "render"], JSON.stringify(outline)),
      path,
    );
  }
});

test("validateOutput, extractOutput and check agree with the CLI on every example", () => {
  const spec = read(SPEC);
  for (const path of answers) {
    const text = read(path);
    const expected = reportInUtf16(cliJson(["validate", "--json", "--spec", example(SPEC), example(path)]), text);
    assert.deepEqual(flexmd.validateOutput(text, spec), expected, path);
    const strict = reportInUtf16(
      cliJson(["validate", "--json", "--strict", "--spec", example(SPEC), example(path)]),
      text,
    );
    assert.deepEqual(flexmd.validateOutput(text, spec, { strict: true }), strict, path);
    assert.deepEqual(
      flexmd.extractOutput(text, spec),
      cliJson(["extract", "--spec", example(SPEC), example(path)]),
      path,
    );
    const plain = cliJson(["extract", "--as-json", "--spec", example(SPEC), example(path)]);
    assert.deepEqual(flexmd.extractOutput(text, spec, { asJson: true }), plain, path);
    assert.deepEqual(flexmd.check(text, spec), { report: expected, result: plain }, path);
  }
  const quirks = flexmd.validateOutput(read("responses/quirks.md"), spec);
  assert.deepEqual(quirks.warnings, [
    "lenient_heading:Short answer",
    "lenient_numbering:Reasoning",
    "lenient_bullets:Assumptions",
  ]);
});

test("detectObjects, parseAny and findJson agree with the CLI", () => {
  for (const path of ["mixed/session.md", "mixed/tool_call.md", "frames/chat.md", "agent/build.log"]) {
    const text = read(path);
    const objects = cliJson(["detect", example(path)]);
    for (const o of objects) Object.assign(o, { start: utf16(text, o.start), end: utf16(text, o.end) });
    assert.deepEqual(flexmd.detectObjects(text), objects, path);
    assert.deepEqual(flexmd.parseAny(text), cliJson(["parse-any", example(path)]), path);
    assert.deepEqual(flexmd.findJson(text), JSON.parse(cli(["json", example(path)]) || "null"), path);
    // With nothing found the CLI prints nothing (exit 1); the package gives [].
    const all = JSON.parse(cli(["json", "--all", "--repairs", example(path)]) || "[]");
    assert.deepEqual(
      flexmd.findJson(text, { all: true, repairs: true }),
      all.map((f) => foundInUtf16(f, text)),
      path,
    );
  }
  const broken = "Sure — here it is: {name: 'Zoë', tags: ['a', 'b',], done: True";
  const found = flexmd.findJson(broken, { repairs: true });
  assert.deepEqual(found, foundInUtf16(cliJson(["json", "--repairs"], broken), broken));
  assert.deepEqual(found.value, { name: "Zoë", tags: ["a", "b"], done: true });
  assert.equal(flexmd.findJson("no JSON here"), null);
});

test("findJsonMany gives what the CLI's json --jsonl gives, record by record", () => {
  const texts = [
    ...["mixed/session.md", "mixed/tool_call.md", "agent/review_answer.md", "agent/messy_review.md"].map(read),
    "Sure — here it is: {name: 'Zoë', tags: ['a', 'b',], done: True",
    "no JSON here",
    "",
    '```json\n{"a": [1, 2\n```',
  ];
  const records = (args) =>
    cli(["json", "--jsonl", ...args], texts.map((t) => JSON.stringify(t)).join("\n"))
      .split("\n")
      .filter((line) => line)
      .map((line) => JSON.parse(line).result);
  assert.deepEqual(flexmd.findJsonMany(texts), records([]));
  const found = flexmd.findJsonMany(texts, { repairs: true });
  assert.deepEqual(
    found,
    records(["--repairs"]).map((f, i) => f && foundInUtf16(f, texts[i])),
  );
  assert.deepEqual(found[4].value, { name: "Zoë", tags: ["a", "b"], done: true });
  assert.deepEqual(flexmd.findJsonMany(texts, { all: true }), texts.map((t) => flexmd.findJson(t, { all: true })));
  assert.deepEqual(flexmd.findJsonMany([]), []);
  assert.throws(() => flexmd.findJsonMany("{}"), { name: "TypeError", message: "texts must be an array of strings, not a string" });
  assert.throws(() => flexmd.findJsonMany(["{}", 3]), { name: "TypeError", message: "texts[1] must be a string, not a number" });
  assert.throws(
    () => flexmd.findJsonMany(["ok", "{\"a\": \"\ud800\"}"]),
    { name: "TypeError", message: "texts[1] holds a lone surrogate (\\uD800 at index 7), which no UTF-8 text can hold: call .toWellFormed() on it to read it as U+FFFD" },
  );
  assert.throws(() => flexmd.findJsonMany(["{}"], { all: -1 }), flexmd.ArgumentError);
});

test("errors are Error subclasses with a code and details", () => {
  assert.throws(
    () => flexmd.parseOutputFormatSpec("- Résumé — orderd list\n"),
    (e) =>
      e instanceof flexmd.SpecError &&
      e instanceof flexmd.FlexmdError &&
      e.code === "ofs::invalid_spec_line" &&
      e.details.line === 1 &&
      /ordered list/.test(e.message),
  );
  assert.throws(
    () => flexmd.validateOutput("## A\n", "Just say hello."),
    (e) => e instanceof flexmd.SpecError && e.code === "ofs::not_a_spec" && e.details === null,
  );
  assert.throws(
    () => flexmd.findJson("{}", { repair: true }),
    (e) => e instanceof flexmd.ArgumentError && e.code === "invalid_argument" && /repair/.test(e.message),
  );
  assert.throws(() => flexmd.stringifyFlexMd({ frames: "no" }), flexmd.ArgumentError);
  assert.throws(() => flexmd.buildOutline(42), TypeError);
});

test("a panic becomes a PanicError and the module keeps working", () => {
  assert.throws(
    () => __panicForTests(),
    (e) => e instanceof flexmd.PanicError && e.code === "panic" && /already (mutably )?borrowed/.test(e.message),
  );
  assert.deepEqual(flexmd.findJson('{"still": "working"}'), { still: "working" });
});

test("hostile input never panics", () => {
  const before = panicCount();
  const deep = (open, n) => open.repeat(n);
  const inputs = [
    deep("[", 100_000),
    deep("{\"a\":", 50_000),
    deep("> ", 20_000) + "x",
    deep("- ", 20_000) + "x",
    "#".repeat(100_000),
    "```".repeat(30_000),
    "\ud800\udfff\udbff\ud800 lone surrogates".toWellFormed(),
    "[[".repeat(40_000) + "@payload:x:\n```json\n" + "{".repeat(10_000),
    "\u0000\u0001\r\r\n\u2028".repeat(10_000),
    "x".repeat(2_000_000),
  ];
  const spec = flexmd.makeDefaultOfs();
  for (const text of inputs) {
    flexmd.buildOutline(text);
    flexmd.validateOutput(text, spec);
    flexmd.extractOutput(text, spec, { asJson: true });
    flexmd.detectObjects(text);
    flexmd.parseAny(text);
    flexmd.findJson(text, { all: true, repairs: true });
    flexmd.parseFlexMd(text);
    try {
      flexmd.parseOutputFormatSpec(text);
    } catch (e) {
      assert.ok(e instanceof flexmd.SpecError, e);
    }
  }
  // A lone surrogate has no UTF-8 form: a TypeError that says so, before
  // the module is reached.
  const lone = "\ud800\udfff\udbff\ud800 lone surrogates";
  for (const run of [
    () => flexmd.buildOutline(lone),
    () => flexmd.validateOutput(lone, spec),
    () => flexmd.detectObjects(lone),
    () => flexmd.parseAny(lone),
    () => flexmd.findJson(lone),
    () => flexmd.parseFlexMd(lone),
    () => flexmd.parseOutputFormatSpec(lone),
  ]) {
    assert.throws(run, { name: "TypeError", message: /lone surrogate \(\\uDBFF at index 2\)/ }, String(run));
  }
  assert.equal(panicCount(), before);
});

/** A small seeded generator: the same texts on every run. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

test("offsets slice the JavaScript string, whatever the text", () => {
  const next = random(7);
  const pieces = ["a", " ", "\n", "é", "中文", "😀", "👩‍💻", "\r\n", "ß", "Ω", "𝄞"];
  const word = (n) => Array.from({ length: n }, () => pieces[Math.floor(next() * pieces.length)]).join("");
  for (let round = 0; round < 200; round++) {
    const text =
      word(Math.floor(next() * 20)) +
      "```flexmd\n[[note]]\n" +
      word(5) +
      "\n```\n" +
      word(Math.floor(next() * 10)) +
      `{"k": "${word(3)}", "n": [1, 2` +
      word(4).replace(/[\n\r]/g, " ");
    for (const o of flexmd.detectObjects(text)) {
      assert.equal(text.slice(o.start, o.end), o.raw, JSON.stringify(text));
    }
    for (const found of flexmd.findJson(text, { all: true, repairs: true })) {
      assert.ok(found.start <= found.end && found.end <= text.length);
      assert.ok(text.slice(found.start, found.end).startsWith("{"), JSON.stringify(text));
      for (const r of found.repairs) assert.ok(r.offset >= 0 && r.offset <= text.length);
    }
    const inline = (n) => word(n).replace(/[\r\n ]/g, "x");
    const answer = `${inline(2)}\n## Reasoning\n1. ${inline(3)}\n3) ${inline(3)}\n`;
    const report = flexmd.validateOutput(answer, "- Reasoning — ordered list\n");
    const [issue] = report.details.warnings;
    assert.equal(issue?.code, "lenient_numbering", JSON.stringify(answer));
    assert.equal(answer.slice(issue.span.start, issue.span.end), "3");
    assert.equal(issue.column, 1);
  }
});

test("a section's md is its own content; content only under sub-headings is read with a warning", () => {
  const spec = read(SPEC);
  const answer = read("responses/subsections.md");
  const sections = flexmd.extractOutput(answer, spec).sectionsByName;
  assert.equal(
    sections["Long answer"].md.trim(),
    "Move the read path first, then the writes, so a rollback only touches one side.",
  );
  assert.ok(sections["Long answer"].subtreeMd.includes("### Reads\nServe reads"));
  assert.deepEqual(
    sections.Assumptions.list.items.map((i) => i.text),
    ["The new store handles the current read load.", "Dual writes add under 5 ms.", "The on-call team knows the rollback steps."],
  );
  const report = flexmd.validateOutput(answer, spec);
  assert.equal(report.ok, true);
  assert.deepEqual(report.warnings, ["content_in_subsections:Assumptions"]);
  const strict = flexmd.validateOutput(answer, spec, { strict: true });
  assert.deepEqual(strict.errors, ["content_in_subsections:Assumptions"]);
  assert.deepEqual(report, cliJson(["validate", "--json", "--spec", example(SPEC), example("responses/subsections.md")]));
});
