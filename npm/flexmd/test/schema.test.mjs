// SchemaValidator against `flexmd schema`: the same outcomes as the CLI
// (run outside any project, so no configuration changes its defaults),
// with columns in UTF-16 units.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { SchemaError, SchemaValidator, ask, getValidator, findJson, findJsonAs } from "flexmd";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const bin = process.env.FLEXMD_BIN ?? `${root}target/debug/flexmd`;
const outside = mkdtempSync(join(tmpdir(), "flexmd-js-"));
after(() => rmSync(outside, { recursive: true, force: true }));
const answers = ["agent/review_answer.md", "agent/messy_review.md"].map((p) => `${root}examples/${p}`);

function cli(args, input) {
  try {
    return JSON.parse(execFileSync(bin, args, { cwd: outside, input, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] }));
  } catch (error) {
    if (error.status !== 1) throw error;
    return JSON.parse(error.stdout);
  }
}

const withoutPlaces = (outcome) => {
  for (const v of [...outcome.errors, ...outcome.warnings]) {
    delete v.line;
    delete v.column;
  }
  return outcome;
};

test("the predefined schemas are the CLI's", () => {
  const validator = new SchemaValidator();
  const names = validator.listSchemas();
  assert.deepEqual(names, ["analysis", "implementation", "review", "verification", "plan"]);
  assert.deepEqual(names, cli(["schema", "list"]).map((s) => s.name));
  for (const name of names) assert.deepEqual(validator.getSchema(name), cli(["schema", "show", name]));
  assert.equal(validator.getSchema("nope"), undefined);
  assert.equal(getValidator(), getValidator());
});

test("validateText gives what `flexmd schema validate --json` prints", () => {
  const validator = getValidator();
  for (const path of answers) {
    const text = readFileSync(path, "utf8");
    assert.deepEqual(validator.validateText(text, "review"), cli(["schema", "validate", "--schema", "review", path, "--json"]), path);
    assert.deepEqual(
      validator.validateText(text, "review", { hints: true, strict: true }),
      cli(["schema", "validate", "--schema", "review", path, "--json", "--hints", "--strict"]),
      path,
    );
    assert.deepEqual(
      validator.validateText(text, "review", { coerce: false, applyDefaults: false }),
      cli(["schema", "validate", "--schema", "review", path, "--json", "--no-coerce", "--no-defaults"]),
      path,
    );
  }
  const schema = { type: "object", properties: { approved: { type: "boolean" } } };
  const schemaFile = join(outside, "inline.json");
  writeFileSync(schemaFile, JSON.stringify(schema));
  const text = '😀 réponse: {"approved": 1}';
  const cliOutcome = cli(["schema", "validate", "--schema", schemaFile, "--json", "--no-coerce"], text);
  const outcome = validator.validateText(text, schema, { coerce: false });
  assert.equal(outcome.errors[0].column, cliOutcome.errors[0].column + 1, "the emoji is two UTF-16 units");
  assert.equal(text.slice(outcome.errors[0].column - 1).slice(0, 1), "1");
});

test("validate and validateAndTransform judge values as the CLI judges their text", () => {
  const validator = getValidator();
  for (const path of answers) {
    const text = readFileSync(path, "utf8");
    const data = findJson(text);
    const plain = withoutPlaces(cli(["schema", "validate", "--schema", "review", path, "--json", "--no-coerce", "--no-defaults"]));
    const outcome = validator.validate("review", data);
    assert.deepEqual({ ...outcome, warnings: [] }, { ...plain, warnings: [] }, path);
    const full = withoutPlaces(cli(["schema", "validate", "--schema", "review", path, "--json"]));
    const transformed = validator.validateAndTransform("review", data, { coerce: true, applyDefaults: true });
    for (const key of ["valid", "data", "errors", "coerced", "changes"]) {
      assert.deepEqual(transformed[key], full[key], `${path}: ${key}`);
    }
  }
  const fixed = validator.validateAndTransform("review", findJson(readFileSync(answers[0], "utf8")), {
    coerce: true,
    applyDefaults: true,
  });
  assert.equal(fixed.valid, true);
  assert.equal(fixed.coerced, true);
  assert.equal(fixed.data.approved, false);
  assert.deepEqual(validator.validate("nope", {}).errors.map((e) => e.code), ["schema_not_found"]);
});

test("isValidJson gives the verdict validate gives, from JSON text", () => {
  const validator = new SchemaValidator();
  for (const path of answers) {
    const data = findJson(readFileSync(path, "utf8"));
    const text = JSON.stringify(data);
    assert.equal(validator.isValidJson("review", text), validator.validate("review", data).valid, path);
  }
  const review = { approved: true, issues: [], recommendation: "approve", summary: { critical: 0, high: 0, medium: 1, low: 0, info: 0 } };
  assert.equal(validator.isValidJson("review", JSON.stringify(review)), true);
  assert.equal(validator.isValidJson("review", JSON.stringify({ ...review, approved: "yes" })), false);
  assert.equal(validator.isValidJson("review", "  \n" + JSON.stringify(review, null, 2) + "\n"), true);
  validator.registerSchema("ticket", { type: "object", required: ["id"], properties: { id: { type: "integer" } } });
  assert.equal(validator.isValidJson("ticket", '{"id": 7}'), true);
  assert.equal(validator.isValidJson("ticket", '{"id": 7.5}'), false);
  assert.throws(() => validator.isValidJson("nope", "{}"), (e) => e instanceof SchemaError && e.code === "schema::not_found");
  assert.throws(() => validator.isValidJson("review", "{approved: true}"), { name: "ArgumentError" });
  assert.throws(() => validator.isValidJson("review", ""), { name: "ArgumentError", message: "jsonText: EOF while parsing a value" });
  assert.throws(() => validator.isValidJson("review", "[".repeat(200) + "]".repeat(200)), { name: "NestingError" });
  assert.throws(() => validator.isValidJson("review", { approved: true }), { name: "TypeError", message: "jsonText must be a string, not object" });
});

test("hints, registration and errors", () => {
  const validator = new SchemaValidator();
  const outcome = validator.validate("review", { approved: "yes" });
  const hints = validator.generateHints(outcome.errors, "review");
  assert.equal(hints.length, outcome.errors.length);
  assert.match(hints[0].hint, /^Fix issues: Missing required field: issues\. Add `issues`/);
  validator.registerSchema("ticket", { type: "object", required: ["id"], properties: { id: { type: "integer" } } });
  assert.deepEqual(validator.listSchemas().at(-1), "ticket");
  assert.equal(validator.validate("ticket", { id: 7 }).valid, true);
  assert.deepEqual(validator.validate("ticket", {}).errors[0].code, "missing_required");
  assert.throws(
    () => validator.registerSchema("bad", { type: 12 }),
    (e) => e instanceof SchemaError && e.code === "schema::invalid",
  );
  assert.throws(
    () => validator.validateText("{}", "no-such-schema"),
    (e) => e instanceof SchemaError && e.code === "schema::not_found" && /review/.test(e.message),
  );
  // Another validator does not see this one's schemas.
  assert.equal(new SchemaValidator().getSchema("ticket"), undefined);
});

test("the plain object of a valid answer validates against the spec's jsonSchema", async () => {
  const { extractOutput, jsonSchema, validateOutput } = await import("flexmd");
  const spec = readFileSync(`${root}examples/specs/answer.md`, "utf8");
  const schema = jsonSchema(spec);
  const validator = new SchemaValidator();
  let checked = 0;
  for (const name of ["clean", "quirks", "nested"]) {
    const answer = readFileSync(`${root}examples/responses/${name}.md`, "utf8");
    if (!validateOutput(answer, spec).ok) continue;
    const plain = extractOutput(answer, spec, { asJson: true });
    const outcome = validator.validateText(JSON.stringify(plain), schema, { coerce: false, applyDefaults: false });
    assert.deepEqual(outcome.errors, [], name);
    assert.equal(outcome.valid, true, name);
    checked += 1;
  }
  assert.ok(checked >= 2, `${checked} valid examples`);
  // And an object missing a section does not.
  const outcome = validator.validateText('{"Short answer": "yes"}', schema, { coerce: false, applyDefaults: false });
  assert.equal(outcome.valid, false);
  assert.equal(outcome.errors[0].code, "missing_required");
});

test("numbers in text are read as parseFloat and parseInt read them, as the CLI reads them", () => {
  const validator = getValidator();
  const path = `${root}examples/agent/verification_answer.md`;
  const text = readFileSync(path, "utf8");
  const outcome = validator.validateText(text, "verification");
  assert.deepEqual(outcome, cli(["schema", "validate", "--schema", "verification", path, "--json"]));
  assert.deepEqual(outcome.data.tests, { total: 142, passed: 141, failed: 0, skipped: 1 });
  assert.deepEqual(outcome.data.coverage, { statements: 87.5, branches: 74.25, functions: 91, lines: 88 });
  assert.equal(
    outcome.warnings[1].message,
    'Coerced "142 tests" to 142 (rule leading_number: the number the text starts with, the rest dropped)',
  );
  const strict = validator.validateText(text, "verification", { strict: true });
  assert.deepEqual(strict, cli(["schema", "validate", "--schema", "verification", path, "--json", "--strict"]));
  assert.equal(strict.valid, false);
  // The JavaScript functions the rule is named after agree on every value.
  for (const change of outcome.changes.filter((c) => c.rule === "leading_number")) {
    assert.equal(change.to, parseFloat(change.from), change.path);
  }
  const own = new SchemaValidator();
  own.registerSchema("count", { type: "object", properties: { n: { anyOf: [{ type: "integer" }, { type: "null" }] } } });
  const fixed = own.validateAndTransform("count", { n: "3.7" }, { coerce: true });
  assert.deepEqual(fixed.data, { n: parseInt("3.7", 10) });
  assert.deepEqual(fixed.changes.map((c) => [c.rule, c.branch]), [["truncate_to_integer", "anyOf/0"]]);
});

test("findJsonAs gives what `flexmd json --schema S --repairs` prints, through anyOf too", () => {
  const person = `${root}crates/flexmd-schema/tests/fixtures/unions/pydantic_person.schema.json`;
  const schema = JSON.parse(readFileSync(person, "utf8"));
  const answer = join(outside, "person.md");
  const text =
    'Here you go:\n```json\n{"Name": "Ann", "age": "212", "score": "4.5", "tags": "a", ' +
    '"address": {"street": "x", "zip": "1,011"}, "active": "yes", ' +
    '"pet": {"kind": "Dog"}, "favourite": {"kind": "cat", "lives": 7.0}}\n```\n';
  writeFileSync(answer, text);
  const fitted = findJsonAs(text, schema);
  assert.deepEqual(fitted, cli(["json", "--schema", person, "--repairs", answer]));
  assert.equal(fitted.valid, true);
  assert.deepEqual(fitted.value, {
    name: "Ann", age: 212, score: 4.5, tags: ["a"], address: { street: "x", zip: 1011, country: "NL" },
    active: true, pet: { kind: "dog", good: true }, favourite: { kind: "cat", lives: 7 },
  });
  assert.deepEqual(
    fitted.coercions.slice(0, 2).map((c) => [c.pointer, c.rule, c.branch]),
    [["/name", "key_case", undefined], ["/age", "number_from_string", "anyOf/0"]],
  );
  for (const path of answers) {
    for (const preset of ["strict", "standard", "salvage"]) {
      assert.deepEqual(
        getValidator().findJsonAs(readFileSync(path, "utf8"), "review", { preset }),
        cli(["json", "--schema", "review", "--preset", preset, "--repairs", path]),
        `${path} ${preset}`,
      );
    }
  }
});

test("findJsonAs counts offsets in UTF-16 units and says what it cannot do", () => {
  const text = "😀 café: {'ok': 'yes',}";
  const fitted = findJsonAs(text, { type: "object", properties: { ok: { type: "boolean" } } });
  assert.equal(text.slice(fitted.start, fitted.end), "{'ok': 'yes',}");
  for (const repair of fitted.repairs) assert.ok(repair.offset >= fitted.start && repair.offset <= fitted.end);
  assert.deepEqual(fitted.value, { ok: true });
  assert.equal(findJsonAs("no json here", { type: "object" }), null);
  assert.throws(() => findJsonAs('{"s": "app"}', { properties: { s: { enum: ["apple", "apply"] } } }), {
    name: "ValidationError",
    code: "schema::ambiguous_enum",
  });
  assert.throws(() => findJsonAs("{}", "review", { preset: "lenient" }), { name: "ArgumentError", message: /preset must be/ });
  assert.throws(() => findJsonAs("{}", "nope"), { name: "SchemaError" });
});

test("ask sends the prompts `flexmd run` sends and returns its data", async () => {
  const answers = ['{"phases": "soon"}', '```json\n{"phases": []}\n```'];
  const dir = mkdtempSync(join(outside, "run-"));
  answers.forEach((a, i) => writeFileSync(join(dir, `answer_${i + 1}`), a));
  const script = `${root}crates/flexmd-schema/tests/fixtures/scripted_model.sh`;
  const data = cli(["run", "--schema", "plan", "--llm-cmd", `sh '${script}' '${dir}'`, "--prompt", "Plan the release.", "--json"]);
  const prompts = [];
  const replies = [...answers];
  const model = async (prompt) => {
    prompts.push(prompt);
    return replies.shift();
  };
  const accepted = await ask(model, "Plan the release.", { schema: "plan", report: true });
  assert.deepEqual(accepted.data, data);
  assert.deepEqual(prompts, [1, 2].map((n) => readFileSync(join(dir, `prompt_${n}`), "utf8")));
  assert.equal(accepted.attempts.length, 2);
});

test("ask re-asks on the caller's check, empty replies and provider objects, in JavaScript's terms", async () => {
  const schema = { type: "object", required: ["n"], properties: { n: { type: "integer" } } };
  const replies = [null, { output_text: '{"n": "3"}' }, { choices: [{ message: { content: '{"n": 4}' } }] }];
  const prompts = [];
  const even = (data) => (data.n % 2 ? [{ path: "n", message: "n must be even" }] : []);
  const n = await ask(async (p) => (prompts.push(p), replies.shift()), "Pick n.", { schema, check: even });
  assert.deepEqual(n, { n: 4 });
  assert.match(prompts[1], /Fix root: The answer was empty/);
  assert.match(prompts[2], /- Fix n: n must be even/);
  // A plain function and Anthropic's content blocks work too.
  const anthropic = { content: [{ type: "text", text: '{"n": 2}' }] };
  assert.deepEqual(await ask(() => anthropic, "Pick n.", { schema }), { n: 2 });
  await assert.rejects(ask(() => '{"n": 1}', "Pick n.", { schema, check: even, maxRetries: 1 }), (error) => {
    assert.equal(error.name, "ValidationError");
    assert.equal(error.details.attempts.length, 2);
    assert.equal(error.details.errors[0].message, "n must be even");
    return true;
  });
  await assert.rejects(ask(() => "{}", "x", { schema, maxRetries: -1 }), RangeError);
  await assert.rejects(ask(() => "{}", "x", { schema, maxRetries: 1.5 }), RangeError);
  await assert.rejects(ask(() => "{}", "x", { schema, maxTokensTotal: "9" }), TypeError);
  await assert.rejects(ask(() => 42, "x", { schema }), /must return the answer text/);
  await assert.rejects(ask(() => "{}", "x", {}), { name: "ArgumentError" });
  const down = new Error("the API is down");
  await assert.rejects(ask(async () => { throw down; }, "x", { schema }), (e) => e === down);
});
