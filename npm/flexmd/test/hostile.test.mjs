// Hostile input through the npm package: data nested past the library's
// bound, values JSON has no form for, huge inputs, a long count that must
// let the event loop turn, and memory given back by `free()`. Each case
// ends with a result or a clear error; none crashes the process (each runs
// in a child process with a timeout, so a crash or a hang fails its test).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import * as glue from "../pkg/flexmd_wasm.js";
import { ArtifactError, SpooledArtifact, SpooledMarkdownArtifact, forgeTools } from "flexmd";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = process.env.FLEXMD_BIN ?? `${root}target/debug/flexmd`;
const pkg = fileURLToPath(new URL("../", import.meta.url));

// Every case ends within this many milliseconds.
const LIMIT = 60_000;

// A case's last line on stderr (its error) and its exit status, run alone.
function runCase(body) {
  const script = `import * as flexmd from "flexmd";\n${body}\n`;
  const done = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: pkg,
    encoding: "utf8",
    timeout: LIMIT,
  });
  return { status: done.status, signal: done.signal, out: done.stdout.trim(), err: done.stderr };
}

const deep = (n, leaf = {}) => `let d = ${JSON.stringify(leaf)}; for (let i = 0; i < ${n}; i++) d = { a: d };`;

const validate = `const v = new flexmd.SchemaValidator(); v.registerSchema("o", { type: "object" }); v.validate("o", d);`;

const CASES = {
  // Past the library's bound (128 levels), short of JavaScript's own.
  validate_200_deep: [`${deep(200)} ${validate}`, "NestingError: data nests deeper than 128 levels"],
  // Past what JSON.stringify can walk: its RangeError, not a crash.
  validate_100000_deep: [`${deep(100_000)} ${validate}`, "RangeError"],
  tool_call_deep: [
    `const a = new flexmd.SpooledArtifact("x\\n", { callId: "log" });
     ${deep(200)} flexmd.forgeTools([a]).call({ name: "artifact_head", arguments: d });`,
    "NestingError: tool call nests deeper than 128 levels",
  ],
  circular: [`const d = {}; d.self = d; ${validate}`, "TypeError"],
  find_json_deep_text: [
    `const r = flexmd.findJson("[".repeat(100000) + "]".repeat(100000)); console.log(r === null ? "none" : typeof r);`,
    null,
  ],
};

for (const [name, [body, expected]] of Object.entries(CASES)) {
  test(`hostile: ${name} ends with a result or a clear error`, () => {
    const done = runCase(body);
    assert.equal(done.signal, null, `killed by ${done.signal} (a hang past ${LIMIT} ms, or a crash)`);
    if (expected === null) {
      assert.equal(done.status, 0, done.err);
      assert.notEqual(done.out, "");
    } else {
      assert.equal(done.status, 1, `should throw (exit ${done.status}): ${done.err}`);
      assert.match(done.err, new RegExp(expected));
    }
  });
}

test("estimateTokens lets the event loop turn between chunks, and counts as the CLI does", async () => {
  const dir = mkdtempSync(join(tmpdir(), "flexmd-"));
  const path = join(dir, "big.log");
  const text = "a line of the build log, with some words in it\n".repeat(100_000); // 4.7 MiB
  writeFileSync(path, text);
  const artifact = new SpooledArtifact(text, { callId: path });
  let turns = 0;
  const ticker = setInterval(() => turns++, 0);
  const counted = await artifact.estimateTokens();
  clearInterval(ticker);
  // About 75 chunks of 64 KiB: the timer ran between them.
  assert.ok(turns >= 10, `the event loop turned only ${turns} times during the count`);
  const cli = execFileSync(bin, ["artifact", "estimate-tokens", path], { encoding: "utf8" });
  assert.equal(counted, JSON.parse(cli));
  assert.equal(counted, 1_300_000);
});

test("grep, md_text, md_headings, md_sections, md_links and md_images let the event loop turn between chunks, and answer as the CLI does", async () => {
  const dir = mkdtempSync(join(tmpdir(), "flexmd-"));
  const path = join(dir, "big.md");
  const unit = "## Part\n\nA line of *the* build log, GET /item 200.\n\n- GET /x 500\n\n";
  const text = unit.repeat(60_000); // 3.8 MiB
  writeFileSync(path, text);
  const artifact = new SpooledMarkdownArtifact(text, { callId: path });
  let turns = 0;
  const ticker = setInterval(() => turns++, 0);
  const found = await artifact.grep(/ 500$/);
  const grepTurns = turns;
  const plain = await artifact.md_text();
  clearInterval(ticker);
  // About 15 windows of 256 KiB each: the timer ran between them.
  assert.ok(grepTurns >= 5, `the event loop turned only ${grepTurns} times during grep`);
  assert.ok(turns - grepTurns >= 3, `the event loop turned only ${turns - grepTurns} times during md_text`);
  assert.equal(found.length, 60_000);
  // The CLI shows the first 2 000 lines, and 64 KiB of the text.
  const cliLines = execFileSync(bin, ["artifact", "grep", path, " 500$"], { encoding: "utf8" }).split("\n");
  assert.match(cliLines[2000], /^\[truncated: more than 2000 matching lines/);
  assert.deepEqual(found.slice(0, 2000), cliLines.slice(0, 2000));
  const cliText = execFileSync(bin, ["artifact", "md-text", path], { encoding: "utf8" });
  const shown = cliText.slice(0, cliText.indexOf("\n[truncated: "));
  assert.ok(shown.length > 60_000 && plain.startsWith(shown));
  // A range, and the whole, as one call into the module gives it.
  assert.equal(await artifact.md_text(10, 4_000), artifact._query("md_text", { startLine: 10, endLine: 4_000 }));
  assert.equal(plain, artifact._query("md_text", {}));
  // 60 000 headings, 4 096 at a time: the same lists as one call gives.
  turns = 0;
  const ticking = setInterval(() => turns++, 0);
  const headings = await artifact.md_headings();
  const sections = await artifact.md_sections(2);
  clearInterval(ticking);
  assert.ok(turns >= 10, `the event loop turned only ${turns} times during md_headings and md_sections`);
  assert.equal(headings.length, 60_000);
  assert.deepEqual(headings, artifact._query("md_headings", {}));
  assert.deepEqual(sections, artifact._query("md_sections", { depth: 2 }));
  assert.deepEqual(await artifact.md_sections(1), []);
  // Links and images by pieces, as one call gives them.
  const linked = new SpooledMarkdownArtifact("[a](http://x/1) ![i](p.png)\n\n".repeat(120_000) + "[ref]\n\n[ref]: http://x/r\n");
  turns = 0;
  const ticks = setInterval(() => turns++, 0);
  const links = await linked.md_links();
  const images = await linked.md_images(0, 50_000);
  clearInterval(ticks);
  // 3.6 MB without headings: pieces of 1 MiB, cut at blank lines.
  assert.ok(turns >= 3, `the event loop turned only ${turns} times during md_links and md_images`);
  assert.equal(links.length, 120_001);
  assert.deepEqual(links.at(-1), { text: "ref", url: "http://x/r" });
  assert.deepEqual(links, linked._query("md_links", {}));
  assert.deepEqual(images, linked._query("md_images", { startLine: 0, endLine: 50_000 }));
  assert.equal(images.length, 25_000);
  assert.deepEqual(found, artifact._query("grep", { pattern: " 500$", flags: "" }));
});

test("free gives an artifact's memory back to the module, which reuses it", () => {
  const memory = () => glue.initSync({ module: readFileSync(`${pkg}pkg/flexmd_wasm_bg.wasm`) }).memory.buffer.byteLength;
  const text = "x".repeat(32 << 20);
  const first = new SpooledArtifact(text, { callId: "first" });
  first.free();
  const after = memory();
  // The same size again fits in what the first one gave back.
  const second = new SpooledArtifact(text, { callId: "second" });
  assert.equal(memory(), after);
  second.free();
  first.free(); // twice is harmless
  return first.head().then(
    () => assert.fail("a freed artifact answered"),
    (error) => {
      assert.ok(error instanceof ArtifactError);
      assert.equal(error.code, "artifact::freed");
      assert.equal(error.message, "the artifact `first` was freed: open it again to use it");
      assert.throws(() => forgeTools([first]), /was freed/);
    },
  );
});

test("NestingError is a RangeError with a code", async () => {
  const { NestingError, SchemaValidator } = await import("flexmd");
  let d = {};
  for (let i = 0; i < 200; i++) d = { a: d };
  const v = new SchemaValidator();
  v.registerSchema("o", { type: "object" });
  assert.throws(() => v.validate("o", d), (error) => {
    assert.ok(error instanceof NestingError && error instanceof RangeError);
    assert.equal(error.code, "nesting");
    return true;
  });
  // Just inside the bound, taken.
  let ok = {};
  for (let i = 0; i < 126; i++) ok = { a: ok };
  assert.equal(v.validate("o", ok).valid, true);
});

// What JSON.stringify would change silently (NaN to null, a Set to {}), a
// lone surrogate (no UTF-8 form) and a count out of range are thrown as
// JavaScript's own errors, naming the value's place; none reaches the
// module, and no message names a Rust type.
test("values JSON has no form for, and counts out of range, are TypeErrors and RangeErrors", async () => {
  const v = new (await import("flexmd")).SchemaValidator();
  const flexmd = await import("flexmd");
  const md = new SpooledMarkdownArtifact("# A\n## B\n");
  const log = new SpooledArtifact("a\nb\n");
  const cases = [
    [() => v.validate("verification", { approved: NaN }), TypeError, "data.approved is NaN, which JSON has no number for"],
    [() => v.validate("verification", { "a b": [1, { c: -Infinity }] }), TypeError, 'data["a b"][1].c is -Infinity, which JSON has no number for'],
    [() => v.validate("verification", { files: [new Set(["a.rs"])] }), TypeError, "data.files[0] is a Set, which is not JSON: pass an array (Array.from(set))"],
    [() => v.validate("verification", new Map()), TypeError, "data is a Map, which is not JSON: pass an object (Object.fromEntries(map))"],
    [() => v.validate("verification", { n: 10n }), TypeError, "data.n is a BigInt, which JSON has no number for: pass a Number or a string"],
    [() => v.validate("verification", { note: "cut \ud83d" }), TypeError, "data.note holds a lone surrogate (\\uD83D at index 4), which no UTF-8 text can hold: call .toWellFormed() on it to read it as U+FFFD"],
    [() => v.validate("verification", { "\udc00x": 1 }), TypeError, 'the key "\\udc00x" in data holds a lone surrogate (\\uDC00 at index 0), which no UTF-8 text can hold: call .toWellFormed() on it to read it as U+FFFD'],
    [() => flexmd.findJson('{"a": "\ud800"}'), TypeError, "text holds a lone surrogate (\\uD800 at index 7), which no UTF-8 text can hold: call .toWellFormed() on it to read it as U+FFFD"],
    [() => flexmd.findJson("{}", 3), TypeError, "options must be an object, not a number"],
    [() => flexmd.findJson("{}", { all: -1 }), flexmd.ArgumentError, "findJson options: `all`: invalid type: integer `-1`, expected a boolean"],
    [() => v.validateText("{}", { type: "object" }, { strict: NaN }), TypeError, "options.strict is NaN, which JSON has no number for"],
    [() => flexmd.parseFlexMd("x", { metaAnywhere: 3 }), flexmd.ArgumentError, "parseFlexMd options: `metaAnywhere`: invalid type: integer `3`, expected a boolean"],
  ];
  for (const [run, kind, message] of cases) {
    assert.throws(run, (e) => e instanceof kind && (typeof message === "string" ? e.message === message : message.test(e.message)) && !/usize|u8|i64|f64|line 1 column/.test(e.message), String(run));
  }
  const rejected = [
    [() => log.head(-1), RangeError, "n must be a whole number ≥ 0, not -1"],
    [() => log.head(NaN), RangeError, "n must be a whole number ≥ 0, not NaN"],
    [() => log.tail(1.5), RangeError, "n must be a whole number ≥ 0, not 1.5"],
    [() => log.head("2"), TypeError, "n must be a number, not a string"],
    [() => log.cat(0, 2 ** 60), RangeError, `end must be a whole number, not ${2 ** 60}`],
    [() => md.md_headings(9), RangeError, "depth must be 1 to 6, not 9"],
    [() => md.md_text(-1), RangeError, "startLine must be a whole number ≥ 0, not -1"],
    [() => md.md_links(0, "3"), TypeError, "endLine must be a number, not a string"],
  ];
  for (const [run, kind, message] of rejected) {
    await assert.rejects(run, (e) => e instanceof kind && e.message === message, String(run));
  }
  // Negative indexes count from the end, as Array.prototype.slice does.
  assert.deepEqual(await log.cat(-2), ["b", ""]);
});

test("the first Markdown query builds the index, and asString reads the text, a piece at a time", async () => {
  // 12 MiB with two-, three- and four-byte characters across every piece boundary.
  const unit = "## Teil é€😀\n\nZeile mit é, € und 😀.\n\n```\n# not a heading\n```\n\n";
  const text = unit.repeat(Math.ceil((12 << 20) / Buffer.byteLength(unit)));
  const artifact = new SpooledMarkdownArtifact(text);
  let turns = 0;
  const ticker = setInterval(() => turns++, 0);
  const front = await artifact.md_frontmatter();
  const indexTurns = turns;
  const whole = await artifact.asString();
  clearInterval(ticker);
  // 12 MiB in pieces of 4 MiB, then of 2 MiB: the timer ran between them.
  assert.ok(indexTurns >= 2, `the event loop turned only ${indexTurns} times while the index was built`);
  assert.ok(turns - indexTurns >= 4, `the event loop turned only ${turns - indexTurns} times during asString`);
  assert.equal(front, undefined);
  assert.equal(whole, text);
  assert.equal((await artifact.md_code_blocks()).length, text.length / unit.length);
  assert.equal((await artifact.md_headings(2)).length, text.length / unit.length);
});
