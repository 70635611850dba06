// Types of the `flexmd` npm package. The names and shapes are those of the
// flex-md TypeScript library, so code written against flex-md's types
// compiles against these; fields flexmd adds are optional.
//
// Offsets (`start`, `end`, `span`, `offset`) are UTF-16 code-unit indices
// into the string you passed, so `text.slice(o.start, o.end)` is the object
// for any text; `column` counts UTF-16 units from 1; `line` counts from 1.

// ---- FlexMD frames -------------------------------------------------------

/** A meta value (`@priority: high`). */
export type FlexMetaValue = string | string[] | number | boolean | null;

/** A fenced block bound to a name by a `@payload:name: X` line. */
export interface FlexPayload {
  /** The fence's language, e.g. `json`, `table`. */
  lang?: string;
  /** The block's text, always kept. */
  raw: string;
  /** Parsed JSON for `json`, rows for `table`, else the text. */
  value: unknown;
  /** Why `raw` did not parse as its language. */
  parseError?: string;
}

/** One frame: a header `[[type key=value …]]`, meta lines, a body, payloads. */
export interface FlexFrame {
  type: string;
  role?: string;
  id?: string;
  ts?: string;
  meta?: Record<string, FlexMetaValue>;
  title?: string;
  body_md?: string;
  payloads?: Record<string, FlexPayload>;
}

/** A FlexMD document: optional title and meta, then frames. */
export interface FlexDocument {
  title?: string;
  meta?: Record<string, FlexMetaValue>;
  /** Text before the first frame that is neither title nor meta (flexmd keeps it). */
  preamble_md?: string;
  frames: FlexFrame[];
}

/** How meta values are typed: all strings, inferred, or by `metaSchema`. */
export type MetaTypeMode = "strings" | "infer" | "schema";

/** The type a `metaSchema` gives a meta key: `strings` is a comma-separated list. */
export type MetaType = "string" | "number" | "integer" | "boolean" | "strings";

export interface ParseFlexMdOptions {
  /** Default `"strings"`. */
  metaTypeMode?: MetaTypeMode;
  /** Per key, its type (with `metaTypeMode: "schema"`, or alone). */
  metaSchema?: Record<string, MetaType>;
  /** Read `@key: value` lines anywhere in a frame, not only right after its header. */
  metaAnywhere?: boolean;
  /** Keys whose values are comma-separated lists (default `tags`, `refs`). */
  arrayKeys?: string[];
}

export interface StringifyFlexMdOptions {
  /** Write frame headers as Markdown headings of this level (`## [[message]]`). */
  headingLevel?: 1 | 2 | 3 | 4 | 5 | 6;
}

// ---- Output Format Spec --------------------------------------------------

export type SectionKind = "prose" | "list" | "ordered_list";

export interface OfsSection {
  name: string;
  kind: SectionKind;
  hint?: string;
}

export type TableKind = "table" | "ordered_table";

export interface OfsTable {
  columns: string[];
  kind: TableKind;
  by?: string;
}

/** Which sections (and tables) an answer must have, and what each holds. */
export interface OutputFormatSpec {
  descriptorType: "output_format_spec";
  format: "markdown";
  sectionOrderMatters: false;
  sections: OfsSection[];
  tablesOptional: boolean;
  tables: OfsTable[];
  emptySectionValue?: string;
}

/** A spec as its Markdown block (`- Short answer — prose`) or as an object. */
export type SpecInput = string | OutputFormatSpec;

// ---- Outline and extraction ----------------------------------------------

export interface MdNode {
  title: string;
  level: number;
  key: string;
  id?: string;
  content_md: string;
  children: MdNode[];
}

export interface MdOutline {
  type: "md_outline";
  /** The text before the first heading (flexmd keeps it; omitted when empty). */
  preamble_md?: string;
  nodes: MdNode[];
}

export interface ListItem {
  text: string;
  index?: number;
  children: ListItem[];
}

export interface ParsedList {
  kind: "list";
  ordered: boolean;
  items: ListItem[];
}

export interface ParsedTable {
  kind: TableKind;
  by?: string;
  columns: string[];
  rows: string[][];
}

export interface ExtractedSection {
  nodeKey: string;
  nodeLevel: number;
  /** The text under the section's heading, up to the next heading of any level (read from its subsections, with a `content_in_subsections` warning, when it has none). */
  md: string;
  /** The whole subtree (sub-headings and their text), when the section has sub-headings. */
  subtreeMd?: string;
  list?: ParsedList;
  /** The section says it is empty (`None`). */
  empty?: boolean;
}

export interface ExtractedResult {
  outline: MdOutline;
  sectionsByName: Record<string, ExtractedSection>;
  tables: ParsedTable[];
}

/** A problem with an answer, and where it is. */
export interface Issue {
  /** `missing_section`, `section_not_bullets`, `lenient_heading`, … */
  code: string;
  section?: string;
  message: string;
  span: { start: number; end: number };
  line: number;
  column: number;
}

/** What `validateOutput` returns: `errors`/`warnings` as `code:Section` ids, `details` as issues. */
export interface ValidationReport {
  ok: boolean;
  valid: boolean;
  errors: string[];
  warnings: string[];
  details: { errors: Issue[]; warnings: Issue[] };
}

export interface ValidateOptions {
  /** Warnings (leniencies used to read the answer) count as errors. */
  strict?: boolean;
}

export interface ExtractOptions {
  /** Read lists in prose sections too. */
  listsInProse?: boolean;
  /** Return the plain object keyed by section name instead of the ExtractedResult. */
  asJson?: boolean;
}

export interface CheckOptions {
  strict?: boolean;
  listsInProse?: boolean;
}

// ---- Detection and lenient JSON ------------------------------------------

export type DetectedKind =
  | "flexmd_fence"
  | "flexdoc_json_fence"
  | "raw_flexmd"
  | "markdown_snippet"
  | "none";

export interface DetectedObject {
  kind: DetectedKind;
  confidence: number;
  start: number;
  end: number;
  raw: string;
  inner?: string;
  /** A fence the text ends inside. */
  unclosed?: boolean;
}

export interface ParseAnyResult {
  flexDocs: FlexDocument[];
  markdownSnippets: string[];
  remainder: string;
}

export type RepairKind = string;

export interface Repair {
  kind: RepairKind;
  offset: number;
}

/** A JSON value found in text, where, and how it was repaired. */
export interface FoundJson {
  value: unknown;
  start: number;
  end: number;
  source: "json_fence" | "code_fence" | "prose";
  lang?: string;
  method: "strict" | "json5" | "repaired";
  repairs: Repair[];
  pick?: "whole_text" | "after_label" | "last_complete_fence" | "last_fence" | "prose" | "reasoning";
  in_reasoning?: boolean;
  /** An unfilled template (placeholders such as `<number>` or `...` for every value); only `findJson(text, { all: true })` lists one. */
  template?: boolean;
}

export interface FindJsonOptions {
  /** Every value in the text, not only the best one. */
  all?: boolean;
  /** Each value with where it was found and how it was repaired. */
  repairs?: boolean;
}

// ---- JSON Schemas ----------------------------------------------------------

/** One way data breaks a schema. */
export interface SchemaViolation {
  /** Dotted path (`files.[0].path`), `""` for the root. */
  path: string;
  /** JSON Pointer (`/files/0/path`). */
  pointer: string;
  /** Where in the schema (`/properties/files/items/required`). */
  schemaPath: string;
  message: string;
  /** `missing_required`, `invalid_type`, `invalid_enum`, `schema_not_found`, … */
  code: string;
  /** Where in the text (`validateText` only). */
  line?: number;
  column?: number;
}

/** A violation with what to do about it, in a sentence a model can act on. */
export interface SchemaHint extends SchemaViolation {
  hint: string;
}

/** A default filled in or a value coerced by `validateAndTransform`. */
export interface SchemaChange {
  kind: "default" | "coerced";
  path: string;
  pointer: string;
  from?: unknown;
  to: unknown;
  /** Inside an `anyOf`/`oneOf`: the branch the coercion was made for (`anyOf/0`). */
  branch?: string;
  /**
   * For a coercion, the rule that made it: numbers are read from text as
   * `parseFloat`/`parseInt` read them (`"12px"` → 12 is `leading_number`,
   * `"3.7"` → 3 for an integer is `truncate_to_integer`).
   */
  rule?: CoercionRule;
}

/** The result of a validation: the data when valid, else the violations. */
export interface ValidationResult {
  valid: boolean;
  data: unknown | null;
  errors: SchemaViolation[];
  /** Repairs made to read JSON from text, coercions: accepted, worth knowing. */
  warnings: SchemaViolation[];
  /** How many violations in all, when `errors` lists only the first 100. */
  errorsTotal?: number;
  errorsLimited?: boolean;
  coerced?: boolean;
  changes?: SchemaChange[];
  /** `validateText(…, { hints: true })`: each error with its hint. */
  hints?: SchemaHint[];
  /** `validateText(…, { fromProvider })`: where a null standing for an omitted optional property was removed (JSON Pointers). */
  nullsRemoved?: string[];
}

export interface TransformOptions {
  /** Coerce values to the type the schema asks for (`"42"` → 42). */
  coerce?: boolean;
  /** Fill missing properties that have a `default`. */
  applyDefaults?: boolean;
}

export interface ValidateTextOptions extends TransformOptions {
  /** Warnings count as errors. */
  strict?: boolean;
  /** Add `hints`. */
  hints?: boolean;
  /**
   * The text is this provider's answer to the schema `exportSchema` made:
   * it is read back in the schema's shape first (the nulls OpenAI sends
   * for omitted optional properties removed, listed in `nullsRemoved`),
   * so every constraint the provider did not enforce is checked.
   */
  fromProvider?: Provider;
}

// ---- Constraining the answer while it is written ----------------------------

/** A provider's structured-output mode: where the exported schema goes in the request. */
export type Provider = "openai" | "openai-tool" | "anthropic" | "anthropic-tool" | "gemini";

/** A grammar dialect: `gbnf` (llama.cpp), `lark` (llguidance: vLLM, SGLang), `ebnf` (XGrammar), `regex` (Outlines). */
export type GrammarFormat = "gbnf" | "lark" | "ebnf" | "regex";

/** One change an export made to the schema, at one place of the original. */
export interface ExportChange {
  /** Where, in the original schema, as a JSON Pointer (`""` is the root). */
  pointer: string;
  rule:
    | "closed_object"
    | "optional_made_nullable"
    | "ref_inlined"
    | "ref_kept"
    | "all_of_merged"
    | "one_of_as_any_of"
    | "const_as_enum"
    | "property_ordering"
    | "untyped_as_scalar"
    | "unenforced_keyword"
    | "min_items_loosened"
    | "default_dropped"
    | "annotation_dropped"
    | "unknown_keyword";
  /** `rewritten`: enforced another way; `dropped`: an annotation, or a default the way back restores; `unenforced`: checked after the answer. */
  action: "rewritten" | "dropped" | "unenforced";
  /** The keyword concerned, when one is. */
  keyword?: string | null;
  /** The change in words, for a person. */
  detail: string;
}

/** What `exportSchema` returns (`flexmd schema export --for PROVIDER --json`). */
export interface SchemaExport {
  provider: Provider;
  /** The name the fragment gives the schema or tool. */
  name: string;
  /** The fragment to merge into the request body. */
  request: Record<string, unknown>;
  /** The exported schema alone (the one inside `request`). */
  schema: JsonSchema;
  /** Every change from the original, in the order made. */
  changes: ExportChange[];
}

export interface ExportSchemaOptions {
  /** The name the request gives the schema; default the schema's name, its `title`, else `response`. */
  name?: string;
}

/** What a grammar enforces at one place, and what it leaves to validation after the answer. */
export interface GrammarCoverage {
  /** A JSON Pointer into the schema (`""` is the root), or a section of a spec. */
  place: string;
  enforced: string[];
  unenforced: string[];
}

/** A grammar with its report (`flexmd grammar --json`). */
export interface GrammarReport {
  format: GrammarFormat;
  grammar: string;
  /** How many rules it has (1 for a regex). */
  rules: number;
  coverage: GrammarCoverage[];
}

export interface GrammarOptions {
  /** Default `gbnf`. */
  format?: GrammarFormat;
  /** Return the report instead of the grammar text. */
  report?: boolean;
}

export interface SpecGrammarOptions extends GrammarOptions {
  /** The level of every section heading, 1 to 6 (default 2: `## Name`). */
  headingLevel?: number;
  /** Allow a leading `<think>…</think>` block of at most this many lines. */
  thinkLines?: number;
  /** The most items a list section may have; numbered lists' numbers are enforced with it. */
  maxItems?: number;
  /** The most rows a table may have; an ordered table's `#` column is enforced with it. */
  maxRows?: number;
}

/**
 * The request fragment that makes `provider` constrain its answer to
 * `schema` (a JSON Schema or a predefined schema's name): `additionalProperties:
 * false` everywhere, optional properties required and nullable where the
 * provider needs it, what it cannot take dropped — each change in
 * `changes`. Throws `ConstrainError` for a schema the provider cannot take
 * at all, naming the limit.
 */
export function exportSchema(schema: string | JsonSchema, provider: Provider, options?: ExportSchemaOptions): SchemaExport;

/**
 * A grammar that holds a local model to `schema` while it writes: the text
 * `flexmd grammar --schema S --format F` prints. Throws `ConstrainError`
 * when the dialect cannot express the schema (recursion in `regex`).
 */
export function grammar(schema: string | JsonSchema, options?: GrammarOptions & { report?: false }): string;
export function grammar(schema: string | JsonSchema, options: GrammarOptions & { report: true }): GrammarReport;

/**
 * A grammar that admits exactly the answers a spec accepts in its canonical
 * layout (each section once, in order, as a heading of one level): the text
 * `flexmd grammar --spec S` prints.
 */
export function specGrammar(spec: SpecInput, options?: SpecGrammarOptions & { report?: false }): string;
export function specGrammar(spec: SpecInput, options: SpecGrammarOptions & { report: true }): GrammarReport;

/** A JSON Schema object (or `true`/`false`). */
export type JsonSchema = Record<string, unknown> | boolean;

/**
 * Named JSON Schemas — the five predefined ones (`analysis`,
 * `implementation`, `review`, `verification`, `plan`) and any registered —
 * and validation against them.
 */
export class SchemaValidator {
  constructor();
  /** Registers (or replaces) a schema. Throws `SchemaError` when it does not compile. */
  registerSchema(name: string, schema: JsonSchema): void;
  listSchemas(): string[];
  getSchema(name: string): JsonSchema | undefined;
  /** An unknown name gives `{ valid: false, errors: [{ code: "schema_not_found" }] }`. */
  validate(schemaName: string, data: unknown): ValidationResult;
  /**
   * Whether `jsonText` (strict JSON, as `JSON.parse` reads it) holds data
   * valid against the named schema: the verdict alone, judged as the text
   * is read, without building the data — the fastest check of JSON already
   * in hand (call `validate` for the errors). Throws `SchemaError` for an
   * unknown name, `ArgumentError` for text that is not JSON.
   */
  isValidJson(schemaName: string, jsonText: string): boolean;
  /** Coercion and defaults are off unless asked for. */
  validateAndTransform(schemaName: string, data: unknown, options?: TransformOptions): ValidationResult;
  generateHints(errors: SchemaViolation[], schema: string | JsonSchema): SchemaHint[];
  /** Finds the JSON in an answer, repairs it and validates it (coercion and defaults on by default). */
  validateText(text: string, schema: string | JsonSchema, options?: ValidateTextOptions): ValidationResult;
  /** The value in an answer that fits the schema best, fitted to it (`flexmd json --schema S --repairs`); `null` when nothing fits. */
  findJsonAs(text: string, schema: string | JsonSchema, options?: FindJsonAsOptions): FittedJson | null;
  /** As the function `exportSchema`, with this validator's schemas by name. */
  exportSchema(schema: string | JsonSchema, provider: Provider, options?: ExportSchemaOptions): SchemaExport;
  /** As the function `grammar`, with this validator's schemas by name. */
  grammar(schema: string | JsonSchema, options?: GrammarOptions & { report?: false }): string;
  grammar(schema: string | JsonSchema, options: GrammarOptions & { report: true }): GrammarReport;
}

/** The process's one SchemaValidator. */
export function getValidator(): SchemaValidator;

/**
 * The value in `text` that fits `schema` (a predefined schema's name or a
 * JSON Schema object) best, fitted to it: keys in another case renamed,
 * enum values matched in any case, `"yes"`, `"1,234"`, `"45%"` read as the
 * schema asks, defaults filled — through `anyOf`/`oneOf` too. `null` when
 * nothing in the text fits at all. Throws `ValidationError` for an enum
 * value several values could be, `SchemaError` for a schema that does not
 * compile.
 */
export function findJsonAs(text: string, schema: string | JsonSchema, options?: FindJsonAsOptions): FittedJson | null;

export interface AskOptions<T = unknown> {
  /** A JSON Schema or a predefined schema's name: the answer is JSON. */
  schema?: string | JsonSchema;
  /** An Output Format Spec (Markdown or object): the answer is Markdown, the data keyed by section. */
  spec?: SpecInput;
  /** Retries after the first answer (default 3); a whole number ≥ 0, else a `RangeError`. */
  maxRetries?: number;
  /** The most tokens all prompts and answers may use (estimated at four bytes a token). */
  maxTokensTotal?: number;
  /** Coerce values to the schema's types (default true). */
  coerce?: boolean;
  /** Fill defaults (default true). */
  applyDefaults?: boolean;
  /** Count repairs, coercions and leniencies as errors. */
  strict?: boolean;
  /** Ask a retry for the failing top-level fields only. */
  patch?: boolean;
  /** Your own check of data the schema accepted: errors it returns reject it and become the next hints. */
  check?: (data: T) => { path: string; message: string; code?: string }[] | void | Promise<{ path: string; message: string; code?: string }[] | void>;
  /** Return `{ data, changes, attempts }` instead of the data. */
  report?: boolean;
}

/** One round of `ask`: the prompt sent, the answer, what was wrong. */
export interface AskAttempt {
  prompt: string;
  answer: string;
  errors: SchemaViolation[];
  data?: unknown;
  cost: number;
  prompt_tokens: number;
  answer_tokens: number;
  patch: boolean;
}

/** What `ask` returns with `report: true`. */
export interface AskReport<T = unknown> {
  data: T;
  changes: SchemaChange[];
  attempts: AskAttempt[];
}

/** A model's reply: its text, `null`/`undefined` (an empty answer, asked again), or an OpenAI / Anthropic response object. */
export type ModelReply = string | null | undefined | { output_text: string } | { choices: { message: { content: string | null } }[] } | { content: { type: string; text?: string }[] };

/**
 * Asks `model` until its answer is valid and returns the valid data: the
 * prompt and the structure wanted, then on each failure the last answer and
 * a hint per failing path. Throws `ValidationError` (`details.errors`,
 * `details.attempts`, `details.best`) when no answer is valid.
 */
export function ask<T = unknown>(model: (prompt: string) => ModelReply | Promise<ModelReply>, prompt: string, options: AskOptions<T> & { report: true }): Promise<AskReport<T>>;
export function ask<T = unknown>(model: (prompt: string) => ModelReply | Promise<ModelReply>, prompt: string, options: AskOptions<T>): Promise<T>;

export interface FindJsonAsOptions {
  /** `strict`: repairs only; `standard` (default): repairs, coercions, defaults; `salvage`: also drop what still violates. */
  preset?: "strict" | "standard" | "salvage";
}

/** A rule that changed a value to fit the schema. */
export type CoercionRule =
  | "enum_case" | "enum_prefix" | "wrap_in_array" | "unwrap_array" | "number_from_string"
  | "leading_number" | "truncate_to_integer" | "integer_from_float" | "boolean_from_string" | "to_string" | "json_text" | "key_case"
  | "drop_unknown_key" | "default";

/** One change made to fit the schema. */
export interface Coercion {
  /** JSON Pointer into the result (for a dropped key: where it was). */
  pointer: string;
  rule: CoercionRule;
  before?: unknown;
  after?: unknown;
  cost: number;
  /** Inside an `anyOf`/`oneOf`: the branch chosen (`anyOf/0`). */
  branch?: string;
}

/** What `findJsonAs` found and did. */
export interface FittedJson {
  value: unknown;
  valid: boolean;
  errors: SchemaViolation[];
  candidate: "json" | "markdown_sections" | "raw_answer";
  /** UTF-16 offsets: `text.slice(start, end)` is the candidate. */
  start: number;
  end: number;
  source?: FoundJson["source"];
  method?: FoundJson["method"];
  repairs: Repair[];
  coercions: Coercion[];
  /** `salvage`: what was left out. */
  dropped?: { pointer: string; value: unknown; reason: string }[];
  cost: number;
  candidates: number;
  preset: "strict" | "standard" | "salvage";
}

// ---- Streaming ---------------------------------------------------------------

/** An event of `flexmd extract --stream`; `violation` carries an `Issue` (UTF-16 offsets into the whole answer). */
export type StreamEvent =
  | { event: "section_started"; name: string; [key: string]: unknown }
  | { event: "section_delta"; name: string; text: string; [key: string]: unknown }
  | { event: "section_completed"; name: string; [key: string]: unknown }
  | { event: "list_item" | "table_row" | "payload_completed"; [key: string]: unknown }
  | ({ event: "violation" } & Issue)
  | { event: "finished"; report: ValidationReport; result: ExtractedResult | Record<string, unknown> };

export interface StreamingExtractorOptions {
  /** Warnings count as errors in the final report. */
  strict?: boolean;
  /** The final `result` as the plain object keyed by section name. */
  asJson?: boolean;
  /** Read lists in prose sections too. */
  listsInProse?: boolean;
}

/** An answer checked and extracted along a spec while it streams in. */
export class StreamingExtractor {
  constructor(spec: SpecInput, options?: StreamingExtractorOptions);
  /** The events the piece settled. */
  push(piece: string): StreamEvent[];
  /** The last events, then `finished`; pushing after it is a `FlexmdError`. */
  finish(): StreamEvent[];
  /** Everything pushed so far. */
  readonly text: string;
  /** A prompt asking the model to write a violation's section again. */
  correction(issue: Issue): string | undefined;
}

export type JsonPatchOperation = { op: "add" | "replace"; path: string; value: unknown } | { op: "remove"; path: string };

export interface JsonStreamUpdate {
  event: "update";
  patches: JsonPatchOperation[];
  /** Paths completed by this piece, innermost first. */
  done: string[];
  cursor: { path: string; state: "partial" | "pending" } | null;
  restarted?: true;
}

export interface JsonStreamFinished {
  event: "finished";
  patches: JsonPatchOperation[];
  /** What `findJson` gives for the whole text (null when there is none). */
  value: unknown;
  /** With `{ repairs: true }`: `findJson`'s details. */
  found?: FoundJson | null;
}

/** The JSON in an answer while it streams in: a partial value that only grows. */
export class StreamingJson {
  constructor();
  push(piece: string): JsonStreamUpdate | null;
  readonly value: unknown;
  state(pointer: string): "pending" | "partial" | "done" | undefined;
  finish(options?: { repairs?: boolean }): JsonStreamFinished;
}

/** Text as it arrives: a ReadableStream or (async) iterable of strings, UTF-8 bytes, or provider SDK chunks (OpenAI Chat Completions, OpenAI Responses events, Anthropic message-stream events). */
export type TextSource =
  | ReadableStream<string | Uint8Array | object>
  | AsyncIterable<string | Uint8Array | object>
  | Iterable<string | Uint8Array | object>;

/** `source` read through a `StreamingExtractor`: each event as it settles, `finished` last. */
export function streamOutput(source: TextSource, spec: SpecInput, options?: StreamingExtractorOptions): AsyncGenerator<StreamEvent>;

/** `source` read through a `StreamingJson`: each update, `finished` last. */
export function streamJson(source: TextSource, options?: { repairs?: boolean }): AsyncGenerator<JsonStreamUpdate | JsonStreamFinished>;

// ---- Artifacts and tools ----------------------------------------------------

export type TokenEncoding = "o200k_base" | "cl100k_base" | "p50k_base" | "r50k_base" | "gpt2";
export type ArtifactKind = "text" | "markdown" | "json" | "json5" | "jsonl" | "ndjson";
export type JsonArtifactFormat = "json" | "json5" | "jsonl" | "ndjson";

export interface ArtifactOptions {
  /** How the text is read (default: the class's kind). */
  kind?: ArtifactKind;
  /** The id tool calls name it by (default `"artifact"`). */
  callId?: string;
}

/**
 * A tool output too large for a prompt, held in memory and read lazily by
 * line. Lines are the text split at `\n` (a final line break leaves an
 * empty last line); `cat` and `slice`-style ranges count from 0, negative
 * from the end.
 */
/** The ADK's `SpoolReader`, as far as flexmd reads it: its whole content. */
export interface SpoolReader {
  readAll(): Promise<string | Uint8Array | ArrayBuffer> | string | Uint8Array | ArrayBuffer;
}

/** A class that makes artifacts: `SpooledArtifact` or one extending it. */
export type SpooledArtifactConstructor<A extends SpooledArtifact = SpooledArtifact> = new (
  text: string,
  ...rest: any[]
) => A;

/** One tool an artifact class surfaces, as the ADK describes it. */
export interface ToolMethodDescriptor {
  /** The tool's name (`artifact_head`). */
  readonly name: string;
  /** The artifact method it calls (`head`, `json_get`, `md_sections`). */
  readonly method: string;
  readonly description: string;
  /** The JSON Schema of its arguments, without `callId` (which `forgeTools` adds). */
  readonly argsSchema: Record<string, unknown>;
}

/**
 * A tool's return value as the model reads it (the ADK's `defaultSerialise`):
 * a string as it is, strings one per line, a number in decimal, else 2-space
 * JSON; `(empty list)`, `(undefined)`, `(1 empty line)` where the ADK gives
 * nothing.
 */
export function defaultSerialise(result: unknown): string;

export class SpooledArtifact {
  constructor(text: string, options?: ArtifactOptions | string);
  static isSpooledArtifact(value: unknown): value is SpooledArtifact;
  /** Whether `value` is `SpooledArtifact` or a class extending it (also from another copy of the package). */
  static isSpooledArtifactConstructor(value: unknown): value is SpooledArtifactConstructor;
  /** An artifact (of the class it is called on) over what `reader.readAll()` gives. */
  static fromReader<T extends SpooledArtifact>(
    this: new (text: string, options?: any) => T,
    reader: SpoolReader,
    options?: ArtifactOptions | string,
  ): Promise<T>;
  /** The line tools (`artifact_head`, …); each class lists only its own. */
  static readonly toolMethods: ReadonlyArray<ToolMethodDescriptor>;
  readonly callId: string;
  readonly kind: ArtifactKind;
  head(n?: number): Promise<string[]>;
  tail(n?: number): Promise<string[]>;
  /** Rust regex syntax (no lookaround); RegExp flags i, m, s, u are kept. */
  grep(pattern: RegExp | string): Promise<string[]>;
  cat(start?: number, end?: number): Promise<string[]>;
  byteLength(): Promise<number>;
  lineCount(): Promise<number>;
  /** The exact token count, 64 KiB at a time with a turn of the event loop between chunks. */
  estimateTokens(encoding?: TokenEncoding): Promise<number>;
  asString(): Promise<string>;
  /**
   * Gives the text's memory back to the module now (else when the artifact
   * is garbage-collected); querying it after is an `ArtifactError`. Tool sets
   * made from it keep their own hold. WebAssembly memory never shrinks: the
   * freed bytes are reused for the next artifacts.
   */
  free(): void;
}

export class SpooledJsonArtifact<T = unknown> extends SpooledArtifact {
  constructor(text: string, format?: JsonArtifactFormat | ArtifactOptions);
  static isSpooledJsonArtifact(value: unknown): value is SpooledJsonArtifact;
  /** The JSON tools (`artifact_json_get`, …). */
  static readonly toolMethods: ReadonlyArray<ToolMethodDescriptor>;
  json_type(): Promise<JsonArtifactFormat>;
  json_keys(): Promise<string[] | undefined>;
  json_length(): Promise<number>;
  /** The values a JSONPath (RFC 9535) selects (for JSON Lines, in every record). */
  json_get(path: string): Promise<unknown[]>;
  json_slice(start?: number, end?: number): Promise<T[]>;
  json_filter(path: string): Promise<T[]>;
  json_pluck(path: string): Promise<unknown[]>;
}

export interface MarkdownHeadingEntry {
  depth: 1 | 2 | 3 | 4 | 5 | 6;
  text: string;
  startLine: number;
  endLine: number;
}

export interface MarkdownCodeEntry {
  lang: string | null;
  startLine: number;
  endLine: number;
}

export interface MarkdownSection {
  depth: 1 | 2 | 3 | 4 | 5 | 6;
  heading: string;
  headingLine: number;
  bodyStartLine: number;
  bodyEndLine: number;
}

export interface MarkdownLink {
  text: string;
  url: string;
  title?: string;
}

export interface MarkdownImage {
  alt: string;
  url: string;
  title?: string;
}

export class SpooledMarkdownArtifact extends SpooledArtifact {
  constructor(text: string, options?: ArtifactOptions | string);
  static isSpooledMarkdownArtifact(value: unknown): value is SpooledMarkdownArtifact;
  /** The Markdown tools (`artifact_md_sections`, …). */
  static readonly toolMethods: ReadonlyArray<ToolMethodDescriptor>;
  md_frontmatter(): Promise<Record<string, unknown> | undefined>;
  md_headings(depth?: 1 | 2 | 3 | 4 | 5 | 6): Promise<MarkdownHeadingEntry[]>;
  md_code_blocks(lang?: string): Promise<MarkdownCodeEntry[]>;
  md_sections(depth?: 1 | 2 | 3 | 4 | 5 | 6): Promise<MarkdownSection[]>;
  /** The mdast tree of the lines (at most 1 MiB of them). */
  md_ast(startLine?: number, endLine?: number): Promise<{ type: "root"; children: unknown[] }>;
  md_links(startLine?: number, endLine?: number): Promise<MarkdownLink[]>;
  md_images(startLine?: number, endLine?: number): Promise<MarkdownImage[]>;
  md_text(startLine?: number, endLine?: number): Promise<string>;
}

/** A tool call in any provider's shape: `{ name, arguments }`, an OpenAI tool call, an Anthropic `tool_use` block, a message holding them, or JSON text of one. */
export type ToolCallInput = string | Record<string, unknown> | Array<Record<string, unknown>>;

export interface ToolCallResult {
  id?: string;
  name: string;
  /** The text for the model, when the call ran. */
  result?: string;
  /** Why it could not run, written for the model. */
  error?: string;
}

export interface ToolPage {
  text: string;
  tokens: number;
  truncated: boolean;
  /** What the page left out, when `truncated`. */
  omitted?: { unit: string; count?: number };
  /** Give it back in `callPage(call, { cursor })` for the next page. */
  cursor?: string;
}

export interface ForgedTools {
  format: ToolFormat;
  /** The tool definitions to offer the model, in `format`. */
  definitions: Array<Record<string, unknown>>;
  /** Runs one call: the text to give the model. Throws `ToolCallError` (its message is for the model). */
  call(toolCall: ToolCallInput): string;
  callAll(toolCalls: ToolCallInput): ToolCallResult[];
  callPage(toolCall: ToolCallInput, options?: { maxTokens?: number; cursor?: string }): ToolPage;
}

/** The function-calling tools over `artifacts` and their dispatcher. */
export function forgeTools(
  artifacts: SpooledArtifact[],
  options?: { format?: ToolFormat },
): ForgedTools;

/** What a model sees for one tool result: the result, or the notice that stands in for it. */
export interface TurnOutput {
  text: string;
  /** Whether the result was kept as an artifact of the turn. */
  spooled: boolean;
}

/** A tool of your own over a turn's artifacts. */
export interface TurnTool<A = Record<string, unknown>> {
  name: string;
  description: string;
  /** The JSON Schema of its arguments, without `callId` (which the turn adds). */
  parameters?: Record<string, unknown>;
  /** Runs the call: the artifact it names and its other arguments, checked against `parameters`. */
  fn: (artifact: SpooledArtifact, args: A) => unknown | Promise<unknown>;
  /** Offer it for artifacts of this kind only. */
  kind?: "text" | "json" | "markdown";
  /** The text the model gets for the value (default: `defaultSerialise`). */
  serialise?: (value: unknown) => string | Promise<string>;
}

/**
 * One agent turn: large tool results become artifacts the model reads with
 * the forged tools, merged into yours; ending the turn drops them.
 */
export class Turn {
  constructor(options?: { maxInlineBytes?: number; maxInlineTokens?: number; previewLines?: number; format?: ToolFormat });
  /** A tool result (a string or UTF-8 bytes): the text to give the model in its place. */
  addResult(
    callId: string,
    toolName: string,
    content: string | Uint8Array | ArrayBuffer,
    options?: { kind?: "auto" | "text" | "json" | "markdown" },
  ): TurnOutput;
  /** An artifact you have, as the result of `toolName`, under its `callId`. */
  addArtifact(artifact: SpooledArtifact, toolName: string): TurnOutput;
  /** Registers a tool of your own; it replaces one of its name. */
  register<A = Record<string, unknown>>(tool: TurnTool<A>): void;
  /** The artifact tools in the turn's format and yours; empty while the turn has no artifact. */
  readonly definitions: Array<Record<string, unknown>>;
  /** Your tools (any of the three formats) with the artifact tools merged in. */
  mergedTools(tools: Array<Record<string, unknown>>): Array<Record<string, unknown>>;
  readonly format: ToolFormat;
  isArtifactTool(name: string): boolean;
  /** The `callId` of each artifact kept, in the order added. */
  readonly callIds: string[];
  artifact(callId: string): SpooledArtifact | undefined;
  /** Runs one artifact tool call: the text to give the model. Rejects with `ToolCallError` (its message is for the model). */
  call(toolCall: ToolCallInput): Promise<string>;
  /** Drops the turn's artifacts; returns how many. */
  end(): number;
}

/** Tool definitions for OpenAI Chat Completions (`openai`), the OpenAI Responses API (`openai-responses`: flat, `strict: false`) or Anthropic. */
export type ToolFormat = "openai" | "openai-responses" | "anthropic";

// ---- Errors ----------------------------------------------------------------

export class FlexmdError extends Error {
  /** Stable: `ofs::invalid_spec_line`, `invalid_argument`, `panic`, … */
  readonly code: string;
  /** Where the input has a place: `{ line, column, span }` in UTF-16 units. */
  readonly details: { line: number; column: number; span: { start: number; end: number } } | null;
}
/** A spec that cannot be read. */
export class SpecError extends FlexmdError {}
/** A schema that does not compile, or a schema name that is not registered. */
export class SchemaError extends FlexmdError {}
/** An argument of the wrong shape (a misspelt option, an object that is not a FlexDocument). */
export class ArgumentError extends FlexmdError {}
/** A tool call that cannot run; the message is written for the model. */
export class ToolCallError extends FlexmdError {}
/** An artifact whose content is not the kind asked for. */
export class ArtifactError extends FlexmdError {}
/** Data that cannot be made to fit a schema without a guess (`code` `schema::ambiguous_enum`). */
export class ValidationError extends FlexmdError {}
/** A schema or spec a provider or grammar dialect cannot take, or an unknown provider or format name. */
export class ConstrainError extends FlexmdError {}
/** A bug in flexmd stopped the call; the module keeps working. */
export class PanicError extends FlexmdError {}
/**
 * Data nested deeper than flexmd reads (128 levels, where JSON parsers stop
 * too): a `RangeError`, as JavaScript's own for too deep a recursion
 * (`code` `nesting`).
 */
export class NestingError extends RangeError {
  readonly code: string;
  readonly details: null;
}

// ---- Functions -------------------------------------------------------------

/** Reads FlexMD frames into a FlexDocument. */
export function parseFlexMd(text: string, options?: ParseFlexMdOptions): FlexDocument;
/** Writes a FlexDocument as FlexMD. */
export function stringifyFlexMd(doc: FlexDocument, options?: StringifyFlexMdOptions): string;
/** Reads a spec (its Markdown block, or OutputFormatSpec JSON text). Throws `SpecError`. */
export function parseOutputFormatSpec(md: string): OutputFormatSpec;
/** Writes a spec as its canonical Markdown block. */
export function stringifyOutputFormatSpec(spec: SpecInput): string;
/** The rules a spec needs in a prompt, as a `Rules:` list (`""` when none). */
export function enrichInstructions(spec: SpecInput): string;
/** The text to put in a prompt: the spec's block, then its rules. */
export function prompt(spec: SpecInput): string;
/** The general-purpose five-section spec (Short answer, Long answer, Reasoning, Assumptions, Unknowns). */
export function makeDefaultOfs(): OutputFormatSpec;
/** The JSON Schema of the object `extractOutput(md, spec, { asJson: true })` returns. */
export function jsonSchema(spec: SpecInput): Record<string, unknown>;
/** The heading tree of Markdown, with each heading's own text. */
export function buildOutline(md: string): MdOutline;
/** Writes an outline back as Markdown (keys and ids are not written). */
export function renderOutline(outline: MdOutline): string;
/** Checks an answer against a spec. */
export function validateOutput(md: string, spec: SpecInput, options?: ValidateOptions): ValidationReport;
/** Extracts an answer along a spec. */
export function extractOutput(md: string, spec: SpecInput, options?: ExtractOptions & { asJson?: false }): ExtractedResult;
export function extractOutput(md: string, spec: SpecInput, options: ExtractOptions & { asJson: true }): Record<string, unknown>;
/** Checks and extracts in one read. */
export function check(
  md: string,
  spec: SpecInput,
  options?: CheckOptions,
): { report: ValidationReport; result: Record<string, unknown> };
/** The structured objects in any text: FlexMD fences, FlexDocument JSON, raw FlexMD. */
export function detectObjects(text: string): DetectedObject[];
/** Every FlexMD document and Markdown snippet in a text, and what is left. */
export function parseAny(text: string): ParseAnyResult;
/** The JSON value in an LLM answer, found and repaired; `null` when there is none. */
export function findJson(text: string, options?: { all?: false; repairs?: false }): unknown;
export function findJson(text: string, options: { all?: false; repairs: true }): FoundJson | null;
export function findJson(text: string, options: { all: true; repairs?: false }): unknown[];
export function findJson(text: string, options: { all: true; repairs: true }): FoundJson[];
/**
 * `findJson` on each text, in one call into the module: one result per
 * text, in order, with the same options for all. For many small answers,
 * where a call each costs about as much as finding the JSON.
 */
export function findJsonMany(texts: readonly string[], options?: { all?: false; repairs?: false }): unknown[];
export function findJsonMany(texts: readonly string[], options: { all?: false; repairs: true }): (FoundJson | null)[];
export function findJsonMany(texts: readonly string[], options: { all: true; repairs?: false }): unknown[][];
export function findJsonMany(texts: readonly string[], options: { all: true; repairs: true }): FoundJson[][];
