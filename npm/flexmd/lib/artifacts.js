// The ADK's artifact classes and forged tools, over the full module (the
// core entry point leaves them out: their token tables are most of the
// module's size).
import { module as wasm } from "./wasm.js";
import { ArtifactError } from "./errors.js";
import { raise } from "./thrown.js";
import { call, count, index, kindOf, options, text, toJson } from "./call.js";

const HANDLE = Symbol("flexmd artifact");
// Texts go to the module as UTF-8 bytes: a native encode and one copy.
const UTF8 = new TextEncoder();
// The key of the object the package passes a constructor to wrap a handle
// the module made (a turn's artifact) instead of reading a text.
const ADOPT = Symbol("flexmd adopt");

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
    const adopted = input !== null && typeof input === "object" ? input[ADOPT] : undefined;
    if (adopted !== undefined) {
      this[HANDLE] = adopted;
    } else {
      const { kind = new.target.defaultKind, callId = "artifact" } = artifactOptions(options, "callId");
      try {
        this[HANDLE] = wasm.ArtifactHandle.open(UTF8.encode(text("text", input)), kind, callId);
      } catch (thrown) {
        raise(thrown);
      }
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

  /** The whole text, read 2 MiB at a time with a turn of the event loop between pieces. */
  async asString() {
    // Joined as a rope (`+=`), not flattened here: a 200 MB join held the
    // event loop for a second.
    let whole = "";
    for (let start = 0; ; ) {
      const { text: piece, next } = this._query("asStringChunk", { start });
      whole += piece;
      if (next === null || next === undefined) return whole;
      start = next;
      await turn();
    }
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

  #indexed = false;

  // The structure index (headings, fences, front matter), built 4 MiB of
  // text at a time with a turn of the event loop between pieces, before
  // the first Markdown query (which would otherwise build it at once).
  async _indexed() {
    if (this.#indexed) return;
    while (!this._query("indexChunk")) await turn();
    this.#indexed = true;
  }

  /** The Markdown tools (`artifact_md_sections`, …), as `SpooledArtifact.toolMethods` gives the line tools. */
  static get toolMethods() {
    return toolMethodsOf("markdown");
  }

  async md_frontmatter() {
    await this._indexed();
    return this._query("md_frontmatter") ?? undefined;
  }

  /** The headings, of one depth when given; 4 096 at a time with a turn of the event loop between. */
  async md_headings(depth) {
    await this._indexed();
    return this._list("md_headingsChunk", { depth: depthArg(depth) });
  }

  async md_code_blocks(lang) {
    await this._indexed();
    return this._query("md_code_blocks", { lang: lang === undefined ? undefined : text("lang", lang) });
  }

  /** The sections, of one depth when given; 4 096 at a time with a turn of the event loop between. */
  async md_sections(depth) {
    await this._indexed();
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
    await this._indexed();
    return this._query("md_ast", lines(startLine, endLine));
  }

  /** The links of lines [startLine, endLine); 256 KiB of Markdown at a time with a turn of the event loop between. */
  async md_links(startLine, endLine) {
    await this._indexed();
    return this._list("md_linksChunk", lines(startLine, endLine), "at");
  }

  /** The images of lines [startLine, endLine), read as `md_links` reads links. */
  async md_images(startLine, endLine) {
    await this._indexed();
    return this._list("md_imagesChunk", lines(startLine, endLine), "at");
  }

  /**
   * The text of lines [startLine, endLine) with the markup removed, read a
   * piece (about 64 KiB of text) at a time with a turn of the event loop
   * between pieces.
   */
  async md_text(startLine, endLine) {
    await this._indexed();
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


// An artifact over a handle the module made, of the class for its kind.
function adopt(handle) {
  if (handle.kind === "markdown") return new SpooledMarkdownArtifact({ [ADOPT]: handle });
  if (handle.kind === "text") return new SpooledArtifact({ [ADOPT]: handle });
  return new SpooledJsonArtifact({ [ADOPT]: handle });
}

const RESULT_KINDS = ["auto", "text", "json", "markdown"];

/**
 * One agent turn. Give it each tool result as it arrives (`addResult`): a
 * small one comes back as it is; a large one is kept as an artifact of the
 * turn and the model sees a notice instead (size, a head and tail
 * preview, the tools to read it with and its `callId`). Offer the model
 * `mergedTools(yourTools)`, run its artifact tool calls with `call`, and
 * `end()` the turn when it is done.
 */
export class Turn {
  #handle;
  #tools = new Map();

  /** `maxInlineBytes` (16384), `maxInlineTokens` (4000, o200k_base), `previewLines` (5), `format` (`openai`, `openai-responses`, `anthropic`). */
  constructor(opts = {}) {
    if (opts === null || typeof opts !== "object") throw new TypeError(`options must be an object, not ${kindOf(opts)}`);
    const given = {};
    for (const name of ["maxInlineBytes", "maxInlineTokens", "previewLines"]) {
      if (opts[name] !== undefined) given[name] = count(name, opts[name]);
    }
    if (opts.format !== undefined) given.format = text("format", opts.format);
    try {
      this.#handle = wasm.TurnHandle.open(JSON.stringify(given));
    } catch (thrown) {
      raise(thrown);
    }
  }

  /**
   * Adds the result of the tool call `callId` of `toolName` (a string, or
   * UTF-8 bytes read leniently), read as `kind` (`auto`: JSON when it is
   * JSON, Markdown when it has headings or code fences, else text).
   * Returns `{ text, spooled }`: the text to give the model in its place.
   * A result of an artifact tool is never kept; a `callId` used twice is a
   * ToolCallError.
   */
  addResult(callId, toolName, content, { kind = "auto" } = {}) {
    const body =
      content instanceof Uint8Array ? content : content instanceof ArrayBuffer ? new Uint8Array(content) : UTF8.encode(text("content", content));
    if (!RESULT_KINDS.includes(kind)) throw new TypeError(`kind must be "auto", "text", "json" or "markdown", not ${JSON.stringify(kind)}`);
    return call((i, n, c, k) => this.#handle.addResult(i, n, c, k), text("callId", callId), text("toolName", toolName), body, kind);
  }

  /** Adds an artifact you have as the result of `toolName`, under its `callId`; returns its notice. */
  addArtifact(artifact, toolName) {
    if (!(artifact instanceof SpooledArtifact)) throw new TypeError(`artifact must be a SpooledArtifact, not ${kindOf(artifact)}`);
    if (artifact[HANDLE] === undefined) throw freed(artifact.callId);
    return call((a, n) => this.#handle.addArtifact(a, n), artifact[HANDLE], text("toolName", toolName));
  }

  /**
   * Registers a tool of your own over the turn's artifacts: `fn(artifact,
   * args)` (may be async) gets the artifact the call names and the other
   * arguments, checked against `parameters` (their JSON Schema without
   * `callId`, which the turn adds); its value is given to the model as
   * `defaultSerialise` gives it, or as `serialise(value)` returns it,
   * within the turn's caps. `kind` (`text`, `json`, `markdown`) offers it
   * for artifacts of that kind only. It replaces a tool of its name.
   */
  register({ name, description, parameters = { type: "object", properties: {} }, fn, kind, serialise } = {}) {
    if (typeof fn !== "function") throw new TypeError(`fn must be a function, not ${kindOf(fn)}`);
    if (serialise !== undefined && typeof serialise !== "function") throw new TypeError(`serialise must be a function, not ${kindOf(serialise)}`);
    call(
      (n, d, p, k) => this.#handle.register(n, d, p, k),
      text("name", name),
      text("description", description),
      toJson("parameters", parameters),
      kind === undefined ? "" : text("kind", kind),
    );
    this.#tools.set(name, { fn, serialise });
  }

  /** The artifact tools in the turn's format (each `callId` enum naming the artifacts it reads) and yours; empty while the turn has none. */
  get definitions() {
    return call(() => this.#handle.definitions());
  }

  /** Your tools (in any of the three formats) with the artifact tools merged in: yours keep their place and fields unless an artifact tool of the same name replaces one; the artifact tools follow. */
  mergedTools(tools) {
    if (!Array.isArray(tools)) throw new TypeError(`tools must be an array, not ${kindOf(tools)}`);
    return call((t) => this.#handle.mergedTools(t), toJson("tools", tools));
  }

  /** The definitions' format. */
  get format() {
    return this.#handle.format;
  }

  /** Whether `name` is an artifact tool (forged or yours). */
  isArtifactTool(name) {
    return this.#handle.isArtifactTool(text("name", name));
  }

  /** The `callId` of each artifact kept, in the order added. */
  get callIds() {
    return call(() => this.#handle.callIds());
  }

  /** The artifact kept for `callId`, or `undefined`. */
  artifact(callId) {
    const handle = this.#handle.artifact(text("callId", callId));
    return handle === undefined ? undefined : adopt(handle);
  }

  /**
   * Runs one artifact tool call (an object or its JSON text, in any
   * provider's shape) and resolves to the text to give the model; rejects
   * with a ToolCallError, whose message is the text to give it instead,
   * when the call cannot run. An error your tool function throws is
   * thrown as it is.
   */
  async call(value) {
    const json = toolCall(value);
    const prepared = call((c) => this.#handle.prepare(c), json);
    if (prepared === null) return call((c) => this.#handle.call(c), json);
    const tool = this.#tools.get(prepared.tool);
    const artifact = this.artifact(prepared.callId);
    const result = await tool.fn(artifact, prepared.arguments);
    if (tool.serialise !== undefined) {
      return call((t) => this.#handle.finishText(t), text("what serialise returned", await tool.serialise(result)));
    }
    return call((n, v) => this.#handle.finish(n, v), prepared.tool, toJson("the tool's result", result ?? null));
  }

  /** Ends the turn: drops its artifacts (your tools stay) and returns how many were dropped. */
  end() {
    return call(() => this.#handle.end());
  }
}

// `using artifact = new SpooledArtifact(...)` frees it at the end of the
// block, where the runtime has explicit resource management.
if (typeof Symbol.dispose === "symbol") {
  SpooledArtifact.prototype[Symbol.dispose] = function dispose() {
    this.free();
  };
}
