// Provider strict schemas, grammars and the way back through the package:
// each result is the CLI's JSON (or text) for the same input.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

import { ConstrainError, SchemaValidator, exportSchema, getValidator, grammar, specGrammar } from "flexmd";
import { bin, cliJson, root } from "./cli.mjs";

const INVOICE = "examples/constrain/invoice.schema.json";
const ANSWER = "examples/constrain/invoice.openai.json";
const REPLY = "examples/constrain/invoice.reply.md";
const SPEC = "examples/specs/answer.md";
const PROVIDERS = ["openai", "openai-tool", "anthropic", "anthropic-tool", "gemini"];
const FORMATS = ["lark", "gbnf", "ebnf", "regex"];
const read = (path) => readFileSync(`${root}${path}`, "utf8");
const invoice = JSON.parse(read(INVOICE));
const cliText = (args) => execFileSync(bin, args, { cwd: root, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });

test("exportSchema gives what `flexmd schema export --json` prints", () => {
  for (const provider of PROVIDERS) {
    assert.deepEqual(
      exportSchema(invoice, provider, { name: "invoice" }),
      cliJson(["schema", "export", INVOICE, "--for", provider, "--json"]),
      provider,
    );
    assert.deepEqual(exportSchema("review", provider), cliJson(["schema", "export", "review", "--for", provider, "--json"]));
  }
  // The name: given, else the schema's name, its title, else `response`.
  assert.equal(exportSchema(invoice, "openai").name, "Invoice");
  assert.equal(exportSchema({ type: "string" }, "gemini").name, "response");
  const strict = exportSchema(invoice, "openai").schema;
  assert.deepEqual(strict.required, ["number", "status", "customer_email", "items", "notes", "due"]);
  assert.equal(strict.additionalProperties, false);
});

test("validateText with fromProvider maps back and checks what the provider did not", () => {
  const validator = getValidator();
  const answer = read(ANSWER);
  const cli = cliJson(["schema", "validate", "--schema", INVOICE, "--from", "openai", "--json", ANSWER]);
  assert.deepEqual(validator.validateText(answer, invoice, { fromProvider: "openai" }), cli);
  assert.deepEqual(cli.nullsRemoved, ["/status", "/notes"]);
  assert.equal(cli.valid, true);
  assert.equal(cli.data.status, "draft");
  // A reply in prose with a repaired fence: warnings and places are kept,
  // and the constraints the provider did not enforce are errors.
  const reply = read(REPLY);
  const checked = validator.validateText(reply, invoice, { fromProvider: "openai", hints: true });
  assert.deepEqual(checked, cliJson(["schema", "validate", "--schema", INVOICE, "--from", "openai", "--json", "--hints", REPLY]));
  assert.deepEqual(
    checked.errors.map((e) => [e.pointer, e.code, e.line]),
    [
      ["/number", "pattern_mismatch", 5],
      ["/items/0/quantity", "too_small", 9],
    ],
  );
  assert.deepEqual(checked.warnings.map((w) => [w.code, w.line]), [["json5", 4]]);
  // Read as it is, the nulls are errors.
  assert.equal(validator.validateText(answer, invoice).valid, false);
  assert.throws(() => validator.validateText(answer, invoice, { fromProvider: "claude" }), ConstrainError);
});

test("grammar and specGrammar give what `flexmd grammar` prints", () => {
  const spec = read(SPEC);
  for (const format of FORMATS) {
    assert.equal(grammar(invoice, { format }), cliText(["grammar", "--schema", INVOICE, "--format", format]), format);
    assert.deepEqual(
      grammar(invoice, { format, report: true }),
      cliJson(["grammar", "--schema", INVOICE, "--format", format, "--json"]),
    );
    assert.equal(
      specGrammar(spec, { format, thinkLines: 5, maxRows: 3, headingLevel: 3 }),
      cliText(["grammar", "--spec", SPEC, "--format", format, "--think", "5", "--max-rows", "3", "--heading-level", "3"]),
      format,
    );
    assert.deepEqual(specGrammar(spec, { format, report: true }), cliJson(["grammar", "--spec", SPEC, "--format", format, "--json"]));
  }
  assert.equal(grammar({ enum: ["yes", "no"] }), 'root ::= "\\"yes\\"" | "\\"no\\""\n');
  // A registered schema, by name.
  const validator = new SchemaValidator();
  validator.registerSchema("verdict", { enum: ["yes", "no"] });
  assert.equal(validator.grammar("verdict", { format: "regex" }), grammar({ enum: ["yes", "no"] }, { format: "regex" }));
});

test("what cannot be expressed is a ConstrainError naming the place", () => {
  const tree = {
    $defs: { n: { type: "object", properties: { kids: { type: "array", items: { $ref: "#/$defs/n" } } } } },
    type: "object",
    properties: { root: { $ref: "#/$defs/n" } },
  };
  assert.throws(() => exportSchema(tree, "anthropic"), {
    name: "ConstrainError",
    message: /refers to itself at `\/\$defs\/n\/properties\/kids\/items`/,
  });
  assert.throws(() => grammar(tree, { format: "regex" }), { name: "ConstrainError", message: /regex takes no recursive schema/ });
  assert.throws(() => grammar(tree, { format: "peg" }), { name: "ConstrainError", message: /unknown grammar format `peg`/ });
  assert.throws(() => specGrammar("- Summary — prose\n", { headingLevel: 9 }), ConstrainError);
  assert.throws(() => specGrammar("- Summary — prose\n", { level: 3 }), { name: "ArgumentError" });
  assert.throws(() => grammar(tree, "gbnf"), TypeError);
  assert.throws(() => exportSchema(42, "openai"), TypeError);
  // A schema no UTF-8 text can hold is refused before it crosses over.
  assert.throws(() => exportSchema({ type: "object", properties: { "a\ud800": { type: "string" } } }, "openai"), {
    name: "TypeError",
    message: /^the key "a\\ud800" in schema\.properties holds a lone surrogate/,
  });
  assert.throws(() => grammar({ enum: ["\udc00x"] }), { name: "TypeError", message: /^schema\.enum\[0\] holds a lone surrogate/ });
});
