// Answers read while the model writes them: the module's streaming
// extractor and streaming JSON reader, and loops over a ReadableStream or
// an async iterable of text (the Vercel AI SDK's `textStream`, a fetch
// body, an OpenAI or Anthropic SDK stream).
import { module as wasm } from "./wasm.js";
import { raise } from "./thrown.js";
import { call, kindOf, options, spec, text, toJson } from "./call.js";

/**
 * An answer checked and extracted along a spec while it streams in. Each
 * event is an object `flexmd extract --stream` prints as a line
 * (`section_started`, `section_delta`, `section_completed`, `list_item`,
 * `table_row`, `payload_completed`, `violation`); `finish()` ends with
 * `{ event: "finished", report, result }`. Offsets are UTF-16 indices into
 * the whole answer.
 */
export class StreamingExtractor {
  #handle;

  /** `opts`: `strict` (warnings are errors), `asJson` (the result as the plain object), `listsInProse`. */
  constructor(ofs, opts) {
    try {
      this.#handle = wasm.StreamingExtractorHandle.open(spec(ofs), options(opts));
    } catch (thrown) {
      raise(thrown);
    }
  }

  /** Reads the next piece of the answer; returns the events it settled. */
  push(piece) {
    return call((t) => this.#handle.push(t), text("piece", piece));
  }

  /** Ends the answer: the last events, then `finished`. Pushing after it is a `FlexmdError`. */
  finish() {
    return call(() => this.#handle.finish());
  }

  /** Everything pushed so far. */
  get text() {
    return call(() => this.#handle.text());
  }

  /** A prompt asking the model to write a violation's section again (`undefined` for an issue of no section). */
  correction(issue) {
    return call((i) => this.#handle.correction(i), toJson("issue", issue)) ?? undefined;
  }
}

/**
 * The JSON in an answer while it streams in: a partial value that only
 * grows (strings grow; numbers, booleans and null appear whole; a type
 * never changes), with JSON Patch operations per piece.
 */
export class StreamingJson {
  #handle = new wasm.StreamingJsonHandle();

  /** The `{ event: "update", patches, done, cursor }` the piece made, or `null` when nothing changed. */
  push(piece) {
    return call((t) => this.#handle.push(t), text("piece", piece));
  }

  /** The partial value so far (`null` before it starts). */
  get value() {
    return call(() => this.#handle.value());
  }

  /** `"pending"`, `"partial"` or `"done"` for a JSON Pointer (`""`: the whole value); `undefined` for a path not there. */
  state(pointer) {
    return call((p) => this.#handle.state(p), text("pointer", pointer)) ?? undefined;
  }

  /** Ends the text: `{ event: "finished", patches, value }` (`value` as `findJson` gives it; `found` too with `{ repairs: true }`). */
  finish({ repairs = false } = {}) {
    return call((r) => this.#handle.finish(r), repairs === true);
  }
}

// The text of one piece of a stream: a string, UTF-8 bytes, or a provider
// SDK's chunk (OpenAI Chat Completions `choices[0].delta.content`, an
// OpenAI Responses `response.output_text.delta` event, an Anthropic
// `content_block_delta`); `""` for a chunk that carries no text.
function pieceOf(chunk, decoder) {
  if (typeof chunk === "string") return chunk;
  if (chunk instanceof Uint8Array) return decoder.decode(chunk, { stream: true });
  if (chunk instanceof ArrayBuffer) return decoder.decode(new Uint8Array(chunk), { stream: true });
  if (chunk !== null && typeof chunk === "object") {
    if (Array.isArray(chunk.choices)) return chunk.choices[0]?.delta?.content ?? "";
    if (chunk.type === "response.output_text.delta") return chunk.delta ?? "";
    if (chunk.type === "content_block_delta") return chunk.delta?.text ?? "";
    if (typeof chunk.type === "string") return "";
  }
  throw new TypeError(`a stream's chunk must be text, bytes or a provider's delta, not ${kindOf(chunk)}`);
}

// The pieces of text of `source`, whole characters each: a UTF-16 pair cut
// between two chunks is given with the second.
async function* piecesOf(source) {
  const decoder = new TextDecoder();
  let held = "";
  const settle = (piece) => {
    const all = held + piece;
    const last = all.charCodeAt(all.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      held = all.slice(-1);
      return all.slice(0, -1);
    }
    held = "";
    return all;
  };
  if (source !== null && typeof source === "object" && typeof source[Symbol.asyncIterator] === "function") {
    for await (const chunk of source) yield settle(pieceOf(chunk, decoder));
  } else if (source !== null && typeof source === "object" && typeof source.getReader === "function") {
    const reader = source.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        yield settle(pieceOf(value, decoder));
      }
    } finally {
      reader.releaseLock();
    }
  } else if (source !== null && typeof source === "object" && typeof source[Symbol.iterator] === "function") {
    for (const chunk of source) yield settle(pieceOf(chunk, decoder));
  } else {
    throw new TypeError(`source must be a ReadableStream or an (async) iterable of text, not ${kindOf(source)}`);
  }
  yield settle(decoder.decode()) + held;
}

/**
 * Reads `source` (a ReadableStream, or an async or plain iterable of text,
 * bytes or provider SDK chunks) through a `StreamingExtractor` over
 * `ofs`, yielding each event as it is settled and `finished` last.
 */
export async function* streamOutput(source, ofs, opts) {
  const stream = new StreamingExtractor(ofs, opts);
  for await (const piece of piecesOf(source)) {
    if (piece !== "") yield* stream.push(piece);
  }
  yield* stream.finish();
}

/**
 * Reads `source` as `streamOutput` does through a `StreamingJson`,
 * yielding each `update` and `finished` last (`opts.repairs`: with
 * `found`).
 */
export async function* streamJson(source, opts) {
  const stream = new StreamingJson();
  for await (const piece of piecesOf(source)) {
    if (piece === "") continue;
    const update = stream.push(piece);
    if (update !== null) yield update;
  }
  yield stream.finish(opts);
}
