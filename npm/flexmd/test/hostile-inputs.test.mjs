// The CLI's hostile inputs (deep nesting of each construct, invalid UTF-8,
// NUL bytes, lone CR, a byte order mark, a YAML alias bomb, empty; recipes
// in crates/flexmd-cli/tests/hostile/inputs.json) through every function of
// the package that reads text. Each input runs in a child process with a
// time limit, so a crash or a hang fails its test. A JavaScript string
// cannot hold invalid UTF-8: the bytes are decoded as `TextDecoder` does
// (U+FFFD for each bad sequence), and the CLI reads the same text. Each
// result equals what the CLI prints (on inputs where UTF-16 and UTF-8
// positions coincide; elsewhere each call must answer or throw a
// FlexmdError); where the CLI prints only an error, the call throws.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = process.env.FLEXMD_BIN ?? `${root}target/debug/flexmd`;
const pkg = fileURLToPath(new URL("../", import.meta.url));
const spec = `${root}examples/specs/answer.md`;

// Every input ends within this many milliseconds, all calls together.
const LIMIT = 120_000;

// One piece of a recipe: a string, [string, n], {bytes: [...]} or
// {stair: [indent, line, n]}.
function piece(p) {
  if (typeof p === "string") return Buffer.from(p, "utf8");
  if (Array.isArray(p)) return Buffer.from(p[0].repeat(p[1]), "utf8");
  if (p.bytes) return Buffer.from(p.bytes);
  const [indent, line, n] = p.stair;
  return Buffer.from(Array.from({ length: n }, (_, i) => indent.repeat(i) + line).join(""), "utf8");
}

const recipes = JSON.parse(readFileSync(`${root}crates/flexmd-cli/tests/hostile/inputs.json`, "utf8"));
const INPUTS = recipes.inputs.map(([name, pieces]) => [name, Buffer.concat(pieces.map(piece))]);

// Each call: the JavaScript (over `text` and `spec`, awaited), the CLI
// arguments (FILE and SPEC stand for the paths), and how to read the CLI's
// output as the value the call returns.
const CALLS = {
  outline: ["flexmd.buildOutline(text)", ["outline", "FILE"], "json"],
  frames: ["flexmd.parseFlexMd(text)", ["frames", "parse", "FILE"], "json"],
  "ofs-parse": ["flexmd.parseOutputFormatSpec(text)", ["ofs", "parse", "FILE"], "json"],
  validate: ["flexmd.validateOutput(text, spec)", ["validate", "--json", "--spec", "SPEC", "FILE"], "json"],
  extract: ["flexmd.extractOutput(text, spec)", ["extract", "--spec", "SPEC", "FILE"], "json"],
  detect: ["flexmd.detectObjects(text)", ["detect", "FILE"], "or-empty"],
  "parse-any": ["flexmd.parseAny(text)", ["parse-any", "FILE"], "json"],
  json: ["flexmd.findJson(text, { all: true })", ["json", "--all", "FILE"], "or-empty"],
  "json-schema": ["flexmd.findJsonAs(text, 'review')", ["json", "--schema", "review", "--repairs", "FILE"], "or-null"],
  schema: [
    "flexmd.getValidator().validateText(text, 'plan', { hints: true })",
    ["schema", "validate", "--json", "--schema", "plan", "--hints", "FILE"],
    "json",
  ],
  grep: ["new flexmd.SpooledArtifact(text).grep('(x+x+)+y')", ["artifact", "grep", "FILE", "(x+x+)+y"], "tool"],
  "md-sections": [
    "new flexmd.SpooledMarkdownArtifact(text).md_sections()",
    ["artifact", "md-sections", "FILE", "--as", "markdown"],
    "tool",
  ],
  "md-ast": ["new flexmd.SpooledMarkdownArtifact(text).md_ast()", ["artifact", "md-ast", "FILE", "--as", "markdown"], "tool"],
  "md-frontmatter": [
    "new flexmd.SpooledMarkdownArtifact(text).md_frontmatter()",
    ["artifact", "md-frontmatter", "FILE", "--as", "markdown"],
    "tool",
  ],
  "json-get": [
    "new flexmd.SpooledJsonArtifact(text).json_get('$..*')",
    ["artifact", "json-get", "FILE", "$..*", "--as", "json"],
    "tool",
  ],
  tools: ["flexmd.forgeTools([new flexmd.SpooledArtifact(text, { callId: file })]).definitions", ["tools", "FILE"], "json"],
  "spec-grammar": ["flexmd.specGrammar(text, { format: 'lark' })", ["grammar", "--spec", "FILE", "--format", "lark"], "text"],
};

// Runs every call on one input and writes {call: {ok} | {error: [classes, message]}}.
const CHILD = `
import * as flexmd from "flexmd";
import { readFileSync, writeFileSync } from "node:fs";
const [file, specPath, out, callsJson] = process.argv.slice(1);
const text = new TextDecoder().decode(readFileSync(file));
const spec = readFileSync(specPath, "utf8");
const results = {};
for (const [name, code] of Object.entries(JSON.parse(callsJson))) {
  try {
    const value = await eval(code);
    // JSON has no undefined: say it in so many words.
    results[name] = value === undefined ? { ok: null, undefined: true } : { ok: value };
  } catch (e) {
    const classes = [];
    for (let c = e?.constructor; c && c !== Object; c = Object.getPrototypeOf(c)) classes.push(c.name);
    results[name] = { error: [classes, String(e?.message ?? e)] };
  }
}
writeFileSync(out, JSON.stringify(results));
`;

// The part of a tool's result the CLI shows within its budget.
class Truncated {
  constructor(shown) {
    this.shown = shown;
  }
}

function tool(out) {
  const cut = out.indexOf("\n[truncated: ");
  if (cut >= 0) return new Truncated(out.slice(0, cut));
  if (out === "(empty list)\n") return [];
  if (out === "(undefined)\n") return undefined;
  return JSON.parse(out);
}

const READERS = {
  json: (code, out) => JSON.parse(out),
  "or-null": (code, out) => JSON.parse(out),
  "or-empty": (code, out) => (code === 1 ? [] : JSON.parse(out)),
  tool: (code, out) => tool(out),
  text: (code, out) => out,
};

for (const [name, bytes] of INPUTS) {
  test(`hostile input ${name}: every call answers as the CLI does`, () => {
    const dir = mkdtempSync(join(tmpdir(), "flexmd-hostile-"));
    const text = new TextDecoder().decode(bytes);
    const file = join(dir, name);
    writeFileSync(file, text);
    const out = join(dir, "results.json");
    const calls = Object.fromEntries(Object.entries(CALLS).map(([call, [code]]) => [call, code]));
    const done = spawnSync(
      process.execPath,
      ["--input-type=module", "-e", CHILD, file, spec, out, JSON.stringify(calls)],
      { cwd: pkg, encoding: "utf8", timeout: LIMIT },
    );
    assert.equal(done.signal, null, `killed by ${done.signal} (a hang past ${LIMIT} ms, or a crash)`);
    assert.equal(done.status, 0, done.stderr);
    const results = JSON.parse(readFileSync(out, "utf8"));
    // UTF-16 and UTF-8 offsets coincide on ASCII text.
    const ascii = /^[\x00-\x7f]*$/.test(text);
    for (const [call, [, args, reader]] of Object.entries(CALLS)) {
      const cli = spawnSync(bin, args.map((a) => (a === "FILE" ? file : a === "SPEC" ? spec : a)), {
        encoding: "utf8",
        cwd: dir,
        timeout: LIMIT,
        maxBuffer: 1 << 30,
      });
      const got = results[call];
      if (reader === "or-empty" && cli.status === 1) {
        assert.deepEqual(got, { ok: [] }, call);
      } else if (reader === "or-null" && cli.stdout === "") {
        // Nothing fits: the CLI says so on stderr, the package returns null.
        assert.deepEqual(got, { ok: null }, call);
      } else if (cli.stdout === "") {
        assert.ok(got.error, `${call}: the CLI refused (${cli.stderr.trim()}), the package answered`);
        const [classes, message] = got.error;
        assert.ok(classes.includes("FlexmdError") || classes.includes("RangeError"), `${call}: ${classes} ${message}`);
        assert.notEqual(message.trim(), "", call);
      } else {
        assert.ok("ok" in got, `${call}: the CLI answered, the package threw ${got.error}`);
        if (!ascii) continue;
        const expected = READERS[reader](cli.status, cli.stdout);
        if (expected === undefined) {
          assert.equal(got.undefined, true, call);
          continue;
        }
        if (expected instanceof Truncated) {
          assert.ok(JSON.stringify(got.ok, null, 2).startsWith(expected.shown), call);
        } else {
          assert.deepEqual(got.ok, expected, call);
        }
      }
    }
  });
}

// The hostile JSON Schemas of the same file (`{"type": "string"}` wrapped n
// times in a template: deep nesting at, over and far past the bounds)
// through every call that reads a schema, passed as the object
// `JSON.parse` makes of the text. Each result equals what the CLI prints;
// where the CLI refuses, the call throws a FlexmdError or a RangeError
// (JavaScript's own limit, or flexmd's NestingError).
const SCHEMAS = recipes.schemas.map(([name, [template, n]]) => {
  const [prefix, suffix] = JSON.stringify(template).split('"$HOLE"');
  return [name, `${prefix.repeat(n)}{"type":"string"}${suffix.repeat(n)}`];
});

const SCHEMA_CALLS = {
  ...Object.fromEntries(
    ["lark", "gbnf", "ebnf", "regex"].map((f) => [
      `grammar-${f}`,
      [`flexmd.grammar(JSON.parse(text), { format: "${f}" })`, ["grammar", "--schema", "FILE", "--format", f], "text"],
    ]),
  ),
  ...Object.fromEntries(
    ["openai", "openai-tool", "anthropic", "anthropic-tool", "gemini"].map((p) => [
      `export-${p}`,
      [`flexmd.exportSchema(JSON.parse(text), "${p}", { name: "hostile" })`, ["schema", "export", "FILE", "--for", p, "--name", "hostile", "--json"], "json"],
    ]),
  ),
};


for (const [name, text] of SCHEMAS) {
  test(`hostile schema ${name}: every call answers as the CLI does`, () => {
    const dir = mkdtempSync(join(tmpdir(), "flexmd-hostile-schema-"));
    const file = join(dir, `${name}.json`);
    writeFileSync(file, text);
    const out = join(dir, "results.json");
    const calls = Object.fromEntries(Object.entries(SCHEMA_CALLS).map(([call, [code]]) => [call, code]));
    const done = spawnSync(process.execPath, ["--input-type=module", "-e", CHILD, file, spec, out, JSON.stringify(calls)], {
      cwd: pkg,
      encoding: "utf8",
      timeout: LIMIT,
    });
    assert.equal(done.signal, null, `killed by ${done.signal} (a hang past ${LIMIT} ms, or a crash)`);
    assert.equal(done.status, 0, done.stderr);
    const results = JSON.parse(readFileSync(out, "utf8"));
    for (const [call, [, args, reader]] of Object.entries(SCHEMA_CALLS)) {
      const cli = spawnSync(bin, args.map((a) => (a === "FILE" ? file : a)), { encoding: "utf8", cwd: dir, timeout: LIMIT });
      const got = results[call];
      if (cli.stdout === "") {
        assert.ok(got.error, `${call}: the CLI refused (${cli.stderr.trim()}), the package answered`);
        const [classes, message] = got.error;
        assert.ok(classes.includes("FlexmdError") || classes.includes("RangeError"), `${call}: ${classes} ${message}`);
        assert.notEqual(message.trim(), "", call);
      } else {
        assert.ok("ok" in got, `${call}: the CLI answered, the package threw ${got.error}`);
        assert.deepEqual(got.ok, READERS[reader](cli.status, cli.stdout), call);
      }
    }
  });
}
