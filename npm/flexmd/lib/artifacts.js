// The ADK's artifact classes and forged tools, over the full module (the
// core entry point leaves them out: their token tables are most of the
// module's size).
import { module as wasm } from "./wasm.js";
import { ArtifactError } from "./errors.js";
import { raise } from "./thrown.js";
import { call, count, index, kindOf, options, text, toJson } from "./call.js";

const HANDLE = Symbol("flexmd artifact");

// What a class's prototype has when it is an artifact class from another
// copy of the package.
const ARTIFACT_METHODS = ["head", "tail", "grep", "cat", "byteLength", "lineCount", "estimateTokens"];

// Each class's tool descriptors, read from the module once and frozen.
const TOOL_METHODS = new Map();

function toolMethodsOf(reads) {
  let methods = TOOL_METHODS.get(reads);
  if (methods === undefined) {
    methods = Object.freeze(call((r) => wasm.toolMethods(r), reads).map((d) => Object.freeze(d)));
    TOOL_METHODS.set(reads, methods);
  }
  return methods;
}

/**
 * A tool's return value as the model reads it (the ADK's
 * `defaultSerialise`): a string as it is, a list of strings one per line,
 * a number in decimal, anything else as 2-space JSON — and where the ADK
 * would answer with nothing, words that say so: `(empty list)` for `[]`,
 * `(undefined)` for `undefined` or `null`, `(1 empty line)` for `[""]`.
 */
export function defaultSerialise(result) {
  return call((v) => wasm.defaultSerialise(v), toJson("result", result ?? null));
}

// A heading depth, 1 to 6, or undefined for every depth.
function depthArg(value) {
  if (value === undefined) return undefined;
  if (typeof value !== "number") throw new TypeError(`depth must be a number, not ${kindOf(value)}`);
  if (!Number.isInteger(value) || value < 1 || value > 6) throw new RangeError(`depth must be 1 to 6, not ${value}`);
  return value;
}

// Lines [startLine, endLine): counts from 0, either left out.
function lines(startLine, endLine) {
  return { startLine: count("startLine", startLine), endLine: count("endLine", endLine) };
}

function freed(callId) {
  return new ArtifactError(`the artifact \`${callId}\` was freed: open it again to use it`, {
    code: "artifact::freed",
  });
}

// One turn of the event loop: what a long count awaits between chunks, so
// timers, I/O and other promises run meanwhile.
function turn() {
  return new Promise((resolve) =>
    typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0),
  );
}

function artifactOptions(value, name) {
  if (value === undefined) return {};
  if (typeof value === "string") return { [name]: value };
  if (value === null || typeof value !== "object") throw new TypeError(`options must be an object, not ${kindOf(value)}`);
  return value;
}

/**
 * A tool output too large for a prompt, held in memory and read lazily by
 * line (`head`, `tail`, `grep`, `cat`, …). The methods are async, as in
 * the ADK; `estimateTokens`, `grep`, `md_headings`, `md_sections`,
 * `md_text`, `md_links` and `md_images` give the event loop a turn between
 * chunks of the work, the others do theirs at once.
 * `free()` gives the text's memory back to the module at once (else when
 * the artifact is garbage-collected).
 */
export class SpooledArtifact {
  static defaultKind = "text";

  /** `text` read as `options.kind` (default: the class's kind), named `options.callId` in tool calls. */
  constructor(input, options) {
    const { kind = new.target.defaultKind, callId = "artifact" } = artifactOptions(options, "callId");
    try {
      this[HANDLE] = wasm.ArtifactHandle.open(text("text", input), kind, callId);
    } catch (thrown) {
      raise(thrown);
    }
    this.#callId = this[HANDLE].callId;
    this.#kind = this[HANDLE].kind;
  }

  #callId;
  #kind;

  static isSpooledArtifact(value) {
    return value instanceof SpooledArtifact;
  }

  /**
   * Whether `value` is SpooledArtifact or a class extending it: by the
   * prototype chain, else (a class from another copy of the package or
   * another realm) by the artifact methods its prototype has.
   */
  static isSpooledArtifactConstructor(value) {
    if (typeof value !== "function" || value.prototype === undefined || value.prototype === null) return false;
    if (value === SpooledArtifact || value.prototype instanceof SpooledArtifact) return true;
    return ARTIFACT_METHODS.every((name) => typeof value.prototype[name] === "function");
  }

  /**
   * An artifact over what `reader.readAll()` gives (a string, or UTF-8
   * bytes: a Uint8Array or ArrayBuffer, read leniently) — the ADK's
   * `SpoolReader`, read once into the module; `options` as the
   * constructor takes them. On a subclass, an artifact of that class.
   */
  static async fromReader(reader, options) {
    if (reader === null || typeof reader !== "object" || typeof reader.readAll !== "function") {
      throw new TypeError(`reader must be a SpoolReader (an object with readAll()), not ${kindOf(reader)}`);
    }
    const content = await reader.readAll();
    let input;
    if (typeof content === "string") input = content;
    else if (content instanceof Uint8Array || content instanceof ArrayBuffer) input = new TextDecoder().decode(content);
    else throw new TypeError(`reader.readAll() must give a string or bytes, not ${kindOf(content)}`);
    return new this(input, options);
  }

  /**
   * The tools this class surfaces (`forgeTools`), as the ADK's
   * descriptors `{ name, method, description, argsSchema }`; each class
   * lists only its own (the line tools here). Frozen.
   */
  static get toolMethods() {
    return toolMethodsOf("text");
  }

  get callId() {
    return this.#callId;
  }

  get kind() {
    return this.#kind;
  }

  _query(method, args = {}) {
    const handle = this[HANDLE];
    if (handle === undefined) {
      throw freed(this.#callId);
    }
    return call((m, a) => handle.query(m, a), method, JSON.stringify(args));
  }

  /**
   * Gives the text's memory back to the module now, rather than when the
   * artifact is garbage-collected; the artifact cannot be queried after
   * (tool sets made from it keep their own hold until they are dropped).
   * WebAssembly memory never shrinks: what is freed is reused for the next
   * artifacts, not returned to the system.
   */
  free() {
    const handle = this[HANDLE];
    this[HANDLE] = undefined;
    handle?.free();
  }

  async head(n = 10) {
    return this._query("head", { n: count("n", n) });
  }

  async tail(n = 10) {
    return this._query("tail", { n: count("n", n) });
  }

  /**
   * Lines matching `pattern` (a RegExp or its source; flags i, m, s, u are
   * kept, g and y ignored), 256 KiB of the text at a time with a turn of
   * the event loop between windows.
   */
  async grep(pattern) {
    const [source, flags] =
      pattern instanceof RegExp ? [pattern.source, [...pattern.flags].filter((f) => "imsu".includes(f)).join("")] : [pattern, ""];
    const args = { pattern: text("pattern", source), flags };
    const found = [];
    for (let start = 0; ; ) {
      const { lines, next } = this._query("grepChunk", { ...args, start });
      for (const line of lines) found.push(line);
      if (next === null || next === undefined) return found;
      start = next;
      await turn();
    }
  }

  async cat(start, end) {
    return this._query("cat", { start: index("start", start), end: index("end", end) });
  }

  async byteLength() {
    return this._query("byteLength");
  }

  async lineCount() {
    return this._query("lineCount");
  }

  /** The exact token count, 64 KiB at a time with a turn of the event loop between chunks. */
  async estimateTokens(encoding = "o200k_base") {
    let total = 0;
    let start = 0;
    for (;;) {
      const { tokens, next } = this._query("estimateTokensChunk", { encoding: text("encoding", encoding), start });
      total += tokens;
      if (next === null || next === undefined) return total;
      start = next;
      await turn();
    }
  }

  async asString() {
    return this._query("asString");
  }
}

/** A JSON, JSON5 or JSON Lines tool output, queried by JSONPath (RFC 9535). */
export class SpooledJsonArtifact extends SpooledArtifact {
  static defaultKind = "json";

  /** `format`: `json` (JSON, JSON5 or JSON Lines, told apart by content), `json5`, `jsonl`, `ndjson`; or options `{ kind, callId }`. */
  constructor(input, format) {
    super(input, artifactOptions(format, "kind"));
  }

  static isSpooledJsonArtifact(value) {
    return value instanceof SpooledJsonArtifact;
  }

  /** The JSON tools (`artifact_json_get`, …), as `SpooledArtifact.toolMethods` gives the line tools. */
  static get toolMethods() {
    return toolMethodsOf("json");
  }

  async json_type() {
    return this._query("json_type");
  }

  async json_keys() {
    return this._query("json_keys") ?? undefined;
  }

  async json_length() {
    return this._query("json_length");
  }

  async json_get(path) {
    return this._query("json_get", { path: text("path", path) });
  }

  async json_slice(start, end) {
    return this._query("json_slice", { start: index("start", start), end: index("end", end) });
  }

  async json_filter(path) {
    return this._query("json_filter", { path: text("path", path) });
  }

  async json_pluck(path) {
    return this._query("json_pluck", { path: text("path", path) });
  }
}

/** A Markdown tool output, queried by headings, sections, code blocks, links. */
export class SpooledMarkdownArtifact extends SpooledArtifact {
  static defaultKind = "markdown";

  constructor(input, options) {
    super(input, artifactOptions(options, "callId"));
  }

  static isSpooledMarkdownArtifact(value) {
    return value instanceof SpooledMarkdownArtifact;
  }

  /** The Markdown tools (`artifact_md_sections`, …), as `SpooledArtifact.toolMethods` gives the line tools. */
  static get toolMethods() {
    return toolMethodsOf("markdown");
  }

  async md_frontmatter() {
    return this._query("md_frontmatter") ?? undefined;
  }

  /** The headings, of one depth when given; 4 096 at a time with a turn of the event loop between. */
  async md_headings(depth) {
    return this._list("md_headingsChunk", { depth: depthArg(depth) });
  }

  async md_code_blocks(lang) {
    return this._query("md_code_blocks", { lang: lang === undefined ? undefined : text("lang", lang) });
  }

  /** The sections, of one depth when given; 4 096 at a time with a turn of the event loop between. */
  async md_sections(depth) {
    return this._list("md_sectionsChunk", { depth: depthArg(depth) });
  }

  // A list read a chunk at a time: `{ items, next }` each, the next chunk
  // asked for by `next` as argument `key`.
  async _list(method, args, key = "start") {
    const all = [];
    for (let at; ; ) {
      const { items, next } = this._query(method, { ...args, [key]: at });
      for (const item of items) all.push(item);
      if (next === null || next === undefined) return all;
      at = next;
      await turn();
    }
  }

  async md_ast(startLine, endLine) {
    return this._query("md_ast", lines(startLine, endLine));
  }

  /** The links of lines [startLine, endLine); 256 KiB of Markdown at a time with a turn of the event loop between. */
  async md_links(startLine, endLine) {
    return this._list("md_linksChunk", lines(startLine, endLine), "at");
  }

  /** The images of lines [startLine, endLine), read as `md_links` reads links. */
  async md_images(startLine, endLine) {
    return this._list("md_imagesChunk", lines(startLine, endLine), "at");
  }

  /**
   * The text of lines [startLine, endLine) with the markup removed, read a
   * piece (about 64 KiB of text) at a time with a turn of the event loop
   * between pieces.
   */
  async md_text(startLine, endLine) {
    const texts = [];
    const range = lines(startLine, endLine);
    for (let at; ; ) {
      const { text: piece, next } = this._query("mdTextChunk", { ...range, at });
      if (piece !== "") texts.push(piece);
      if (next === null || next === undefined) return texts.join("\n\n");
      at = next;
      await turn();
    }
  }
}

// A tool call as the model's SDK gives it: an object, or its JSON text.
function toolCall(value) {
  return typeof value === "string" ? text("the tool call", value) : toJson("the tool call", value);
}

/**
 * The function-calling tools for `artifacts` (`artifact_head`,
 * `artifact_json_get`, …, each taking the artifact's `callId`), in the
 * format of `options.format` (`openai`, default, or `anthropic`), and the
 * dispatcher for the model's calls.
 */
export function forgeTools(artifacts, { format = "openai" } = {}) {
  if (!Array.isArray(artifacts) || !artifacts.every((a) => a instanceof SpooledArtifact)) {
    throw new TypeError("artifacts must be an array of SpooledArtifact");
  }
  let box;
  try {
    box = wasm.ToolBoxHandle.open(text("format", format));
  } catch (thrown) {
    raise(thrown);
  }
  for (const artifact of artifacts) {
    if (artifact[HANDLE] === undefined) throw freed(artifact.callId);
    call((a) => box.add(a), artifact[HANDLE]);
  }
  return {
    format,
    definitions: call(() => box.definitions()),
    /** Runs one call; the text to give the model. Throws ToolCallError with the text to give it instead. */
    call: (value) => call((c) => box.call(c), toolCall(value)),
    /** Runs every call in a message or list: `{ id?, name, result | error }` each. */
    callAll: (value) => call((c) => box.callAll(c), toolCall(value)),
    /** One page of a call's result within `maxTokens`: `{ text, tokens, truncated, cursor? }`. */
    callPage: (value, opts) => call((c, o) => box.callPage(c, o), toolCall(value), options(opts)),
  };
}


// `using artifact = new SpooledArtifact(...)` frees it at the end of the
// block, where the runtime has explicit resource management.
if (typeof Symbol.dispose === "symbol") {
  SpooledArtifact.prototype[Symbol.dispose] = function dispose() {
    this.free();
  };
}
