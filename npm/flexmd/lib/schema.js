// elsabro's SchemaValidator over the full module (the core entry point
// leaves JSON Schema validation out: its Unicode tables are most of the
// module's size).
import { module as wasm } from "./wasm.js";
import { call, count, json, kindOf, options, spec, text, toJson } from "./call.js";
import { raise } from "./thrown.js";

// A schema argument: a registered schema's name, or a schema object.
function schemaArg(value) {
  if (typeof value !== "string" && (value === null || typeof value !== "object") && typeof value !== "boolean") {
    throw new TypeError(`schema must be a schema's name or a JSON Schema object, not ${kindOf(value)}`);
  }
  return typeof value === "string" ? toJson("schema", text("schema", value)) : toJson("schema", value);
}

// Options with `report` taken out (the module returns the report; the
// package returns its text unless asked): [report, the rest as JSON].
function reportOption(opts) {
  options(opts);
  const { report, ...rest } = opts ?? {};
  return [Boolean(report), options(rest)];
}

/**
 * Named JSON Schemas — the five predefined ones (`analysis`,
 * `implementation`, `review`, `verification`, `plan`) and any registered —
 * and validation against them, with coercion, defaults and hints.
 */
export class SchemaValidator {
  #handle = new wasm.SchemaValidatorHandle();

  registerSchema(name, schema) {
    call((n, s) => this.#handle.registerSchema(n, s), text("name", name), json("schema", schema));
  }

  listSchemas() {
    return call(() => this.#handle.listSchemas());
  }

  getSchema(name) {
    return call((n) => this.#handle.getSchema(n), text("name", name)) ?? undefined;
  }

  validate(schemaName, data) {
    return call((n, d) => this.#handle.validate(n, d), text("schemaName", schemaName), toJson("data", data ?? null));
  }

  isValidJson(schemaName, jsonText) {
    return call((n, t) => this.#handle.isValidJson(n, t), text("schemaName", schemaName), text("jsonText", jsonText));
  }

  validateAndTransform(schemaName, data, opts) {
    return call(
      (n, d, o) => this.#handle.validateAndTransform(n, d, o),
      text("schemaName", schemaName),
      toJson("data", data ?? null),
      options(opts),
    );
  }

  generateHints(errors, schema) {
    if (!Array.isArray(errors)) throw new TypeError("errors must be an array");
    return call((e, s) => this.#handle.generateHints(e, s), toJson("errors", errors), schemaArg(schema));
  }

  findJsonAs(input, schema, opts) {
    return call(
      (t, s, o) => this.#handle.findJsonAs(t, s, o),
      text("text", input),
      schemaArg(schema),
      options(opts),
    );
  }

  validateText(input, schema, opts) {
    return call(
      (t, s, o) => this.#handle.validateText(t, s, o),
      text("text", input),
      schemaArg(schema),
      options(opts),
    );
  }

  exportSchema(schema, provider, opts) {
    return call(
      (s, p, o) => this.#handle.exportSchema(s, p, o),
      schemaArg(schema),
      text("provider", provider),
      options(opts),
    );
  }

  grammar(schema, opts) {
    const [report, rest] = reportOption(opts);
    const result = call((s, o) => this.#handle.grammar(s, o), schemaArg(schema), rest);
    return report ? result : result.grammar;
  }
}

let shared;

/** The process's one SchemaValidator. */
export function getValidator() {
  shared ??= new SchemaValidator();
  return shared;
}

/**
 * The value in `text` that fits `schema` (a predefined schema's name or a
 * JSON Schema object) best, fitted to it: `flexmd json --schema S --repairs`.
 * `null` when no value fits at all.
 */
export function findJsonAs(input, schema, opts) {
  return getValidator().findJsonAs(input, schema, opts);
}

/**
 * The request fragment that makes `provider` (`"openai"`, `"openai-tool"`,
 * `"anthropic"`, `"anthropic-tool"`, `"gemini"`) constrain its answer to
 * `schema`: `flexmd schema export --for PROVIDER --json`. Validate the
 * answer with `validateText(answer, schema, { fromProvider })` to check
 * what the provider did not enforce.
 */
export function exportSchema(schema, provider, opts) {
  return getValidator().exportSchema(schema, provider, opts);
}

/**
 * A grammar that holds a local model to `schema` while it writes: the
 * text `flexmd grammar --schema S --format F` prints (`format`: `"gbnf"`,
 * `"lark"`, `"ebnf"` or `"regex"`), or with `report: true` the object
 * `--json` prints, with what the grammar leaves to validation.
 */
export function grammar(schema, opts) {
  return getValidator().grammar(schema, opts);
}

/**
 * A grammar that admits the answers a spec (Markdown block or object)
 * accepts in its canonical layout: `flexmd grammar --spec S` with
 * `format`, `headingLevel`, `thinkLines`, `maxItems`, `maxRows`; with
 * `report: true` the object `--json` prints.
 */
export function specGrammar(ofs, opts) {
  const [report, rest] = reportOption(opts);
  const result = call(wasm.specGrammar, spec(ofs), rest);
  return report ? result : result.grammar;
}

// The text of a model's reply: a string; null or undefined is an empty
// answer (asked again with a hint); an OpenAI Responses or Chat Completions
// object, or an Anthropic message, gives its text.
function replyText(reply) {
  if (reply === null || reply === undefined) return "";
  if (typeof reply === "string") return reply;
  if (typeof reply === "object") {
    if (typeof reply.output_text === "string") return reply.output_text;
    if (Array.isArray(reply.choices)) return reply.choices[0]?.message?.content ?? "";
    if (Array.isArray(reply.content)) {
      return reply.content.filter((b) => b?.type === "text" && typeof b.text === "string").map((b) => b.text).join("");
    }
  }
  throw new TypeError(`the model function must return the answer text (a string), not ${typeof reply}`);
}

/**
 * Asks `model` (an async or plain function from the prompt to the answer
 * text) until its answer is valid, and returns the valid data. The first
 * prompt is `prompt` followed by the structure the answer must have; each
 * retry shows the model its last answer and a hint per failing path.
 * `schema` (a JSON Schema or a predefined schema's name) asks for JSON,
 * `spec` (an Output Format Spec, Markdown or object) for a Markdown answer;
 * `check(data)` may return errors of your own (`[{path, message}]`, from
 * Zod say) that reject data the schema accepted and become the next hints.
 * Throws `ValidationError` (details: `errors`, `attempts`, `best`) when no
 * answer is valid; what `model` throws is thrown as it is.
 */
export async function ask(model, prompt, opts = {}) {
  if (typeof model !== "function") throw new TypeError("model must be a function from the prompt to the answer text");
  const { check, report, maxRetries, maxTokensTotal, ...rest } = opts ?? {};
  if (check !== undefined && typeof check !== "function") throw new TypeError("check must be a function");
  const settings = {
    ...rest,
    maxRetries: count("maxRetries", maxRetries ?? 3),
    maxTokensTotal: count("maxTokensTotal", maxTokensTotal),
  };
  let session;
  try {
    session = new wasm.AskSessionHandle(text("prompt", prompt), toJson("options", settings));
  } catch (thrown) {
    raise(thrown);
  }
  try {
    for (;;) {
      const reply = await model(call(() => session.prompt()));
      const judged = call((t) => session.answer(t), replyText(reply));
      if (!judged.valid) continue;
      const errors = check ? await check(judged.data) : undefined;
      if (Array.isArray(errors) && errors.length > 0) {
        call((e) => session.reject(e), toJson("the errors check returned", errors));
        continue;
      }
      const accepted = call(() => session.accept());
      return report ? accepted : accepted.data;
    }
  } finally {
    session.free();
  }
}
