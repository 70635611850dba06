// Compiled with `tsc --noEmit` (never run): code written against the type
// names of the TypeScript libraries flexmd replaces compiles against the
// package's declarations.
import {
  type DetectedObject,
  type ExtractedResult,
  type FlexDocument,
  type FlexFrame,
  type FoundJson,
  type MdOutline,
  type OutputFormatSpec,
  type ParseAnyResult,
  type ValidationReport,
  SpecError,
  buildOutline,
  check,
  detectObjects,
  enrichInstructions,
  extractOutput,
  findJson,
  findJsonMany,
  makeDefaultOfs,
  parseAny,
  parseFlexMd,
  parseOutputFormatSpec,
  renderOutline,
  stringifyFlexMd,
  stringifyOutputFormatSpec,
  validateOutput,
} from "flexmd";

const spec: OutputFormatSpec = makeDefaultOfs();
const fromMarkdown: OutputFormatSpec = parseOutputFormatSpec("- Short answer — prose\n");
const block: string = stringifyOutputFormatSpec(spec) + enrichInstructions(fromMarkdown);

const answer = "## Short answer\nYes.\n";
const outline: MdOutline = buildOutline(answer);
const markdown: string = renderOutline(outline);
const report: ValidationReport = validateOutput(answer, spec);
const ok: boolean = report.ok && report.errors.length === 0;
const result: ExtractedResult = extractOutput(answer, spec);
const short: string | undefined = result.sectionsByName["Short answer"]?.md;
const plain: Record<string, unknown> = extractOutput(answer, "- Short answer — prose\n", { asJson: true });
const both = check(answer, spec, { strict: true });
const line: number | undefined = both.report.details.errors[0]?.line;

const doc: FlexDocument = parseFlexMd("[[message role=user]]\nHi\n", { metaTypeMode: "infer" });
const typed: FlexDocument = parseFlexMd("[[m]]\n@i: 2\n", { metaTypeMode: "schema", metaSchema: { i: "integer", l: "strings" } });
const frame: FlexFrame | undefined = doc.frames[0];
const written: string = stringifyFlexMd(doc, { headingLevel: 2 });
const objects: DetectedObject[] = detectObjects(written);
const first: number | undefined = objects[0]?.start;
const any: ParseAnyResult = parseAny(written);

const value: unknown = findJson("{\"a\": 1}");
const found: FoundJson | null = findJson("{a: 1", { repairs: true });
const every: FoundJson[] = findJson("{} {}", { all: true, repairs: true });
const values: unknown[] = findJsonMany(["{\"a\": 1}", "none"]);
const foundEach: (FoundJson | null)[] = findJsonMany(["{a: 1"], { repairs: true });
const everyEach: FoundJson[][] = findJsonMany(["{} {}"], { all: true, repairs: true });

try {
  parseOutputFormatSpec("nothing");
} catch (e) {
  if (e instanceof SpecError) {
    const code: string = e.code;
    const where: number | undefined = e.details?.line;
    console.log(code, where);
  }
}

console.log(typed.frames.length);
console.log(block, markdown, ok, short, plain, line, frame, first, any, value, found, every, values, foundEach, everyEach);

// elsabro's SchemaValidator surface.
import { type SchemaHint, type ValidationResult, SchemaValidator, getValidator } from "flexmd";

const validator: SchemaValidator = getValidator();
const names: string[] = validator.listSchemas();
const checked: ValidationResult = validator.validate("review", { approved: true });
const verdict: boolean = validator.isValidJson("review", "{\"approved\": true}");
const transformed = new SchemaValidator().validateAndTransform("review", {}, { coerce: true, applyDefaults: true });
const hints: SchemaHint[] = validator.generateHints(checked.errors, "review");
const fromText: ValidationResult = validator.validateText("```json\n{}\n```", "review", { hints: true });
validator.registerSchema("ticket", { type: "object", required: ["id"] });
console.log(names, transformed.coerced, hints[0]?.hint, fromText.hints, verdict);

// Asking until the answer is valid.
import { type AskReport, ask } from "flexmd";
interface Plan { phases: unknown[] }
const planned: Promise<Plan> = ask<Plan>(async (p: string) => `{"phases": []} ${p.length}`, "Plan.", { schema: "plan", check: (d: Plan) => (d.phases.length ? [] : [{ path: "phases", message: "empty" }]) });
const planReport: Promise<AskReport<Plan>> = ask<Plan>(() => null, "Plan.", { schema: "plan", report: true, maxRetries: 0 });
console.log(planned, planReport);

// Fitting an answer to a schema.
import { type Coercion, type FittedJson, ValidationError, findJsonAs } from "flexmd";
const fitted: FittedJson | null = findJsonAs('{"Ok": "yes"}', { type: "object" }, { preset: "salvage" });
const coercions: Coercion[] = fitted?.coercions ?? [];
const branch: string | undefined = coercions[0]?.branch;
const fittedToo: FittedJson | null = validator.findJsonAs("{}", "review");
console.log(fitted?.value, fitted?.start, branch, fittedToo?.valid, new ValidationError("x").code);

// The ADK's artifact classes and forged tools.
import {
  type ForgedTools,
  type MarkdownSection,
  SpooledArtifact,
  SpooledJsonArtifact,
  SpooledMarkdownArtifact,
  type ToolMethodDescriptor,
  Turn,
  type TurnOutput,
  defaultSerialise,
  forgeTools,
} from "flexmd";

async function artifacts(): Promise<void> {
  const log = new SpooledArtifact("a\nb", { callId: "log" });
  const lines: string[] = await log.grep(/b/i);
  const rows = new SpooledJsonArtifact<{ id: number }>('{"id": 1}', "jsonl");
  const first: { id: number } | undefined = (await rows.json_slice(0, 1))[0];
  const md = new SpooledMarkdownArtifact("# A\n", "doc");
  const sections: MarkdownSection[] = await md.md_sections(2);
  const tools: ForgedTools = forgeTools([log, rows, md], { format: "anthropic" });
  const text: string = tools.call({ name: "artifact_head", arguments: { callId: "log" } });
  const page = tools.callPage({ name: "artifact_cat", arguments: { callId: "log" } }, { maxTokens: 100 });
  console.log(lines, first?.id, sections, text, page.cursor, await log.estimateTokens("cl100k_base"));
  const fromReader: SpooledMarkdownArtifact = await SpooledMarkdownArtifact.fromReader({ readAll: async () => "# A\n" });
  const descriptors: ReadonlyArray<ToolMethodDescriptor> = SpooledJsonArtifact.toolMethods;
  const isClass: boolean = SpooledArtifact.isSpooledArtifactConstructor(SpooledMarkdownArtifact);
  const serialised: string = defaultSerialise(["a", "b"]);
  console.log(fromReader.kind, descriptors[0]?.method, isClass, serialised);
}
void artifacts();

async function agentTurn(): Promise<void> {
  const turn = new Turn({ maxInlineBytes: 4096, format: "anthropic" });
  const shown: TurnOutput = turn.addResult("toolu_1", "read_log", "ok\n".repeat(5000));
  turn.register<{ word: string }>({
    name: "count",
    description: "Count lines with a word.",
    parameters: { type: "object", properties: { word: { type: "string" } } },
    fn: async (artifact, args) => (await artifact.grep(args.word)).length,
    kind: "text",
  });
  const offered: Array<Record<string, unknown>> = turn.mergedTools([{ name: "search", input_schema: {} }]);
  const reply: string = await turn.call({ name: "count", arguments: { callId: "toolu_1", word: "ok" } });
  const kept: SpooledArtifact | undefined = turn.artifact("toolu_1");
  const dropped: number = turn.end();
  console.log(shown.spooled, offered.length, reply, kept?.callId, dropped, turn.callIds, turn.isArtifactTool("x"));
}
void agentTurn();

// Streaming, from any source of text.
import { type JsonStreamFinished, type JsonStreamUpdate, type StreamEvent, StreamingExtractor, StreamingJson, streamJson, streamOutput } from "flexmd";

async function streams(textStream: AsyncIterable<string>, body: ReadableStream<Uint8Array>): Promise<void> {
  const extractor = new StreamingExtractor("- Summary — prose\n", { asJson: true });
  const events: StreamEvent[] = [...extractor.push("## Summary\nok\n"), ...extractor.finish()];
  for await (const event of streamOutput(textStream, "- Summary — prose\n")) {
    if (event.event === "violation") console.log(event.span.start, extractor.correction(event));
  }
  const json = new StreamingJson();
  const update: JsonStreamUpdate | null = json.push('{"a": 1');
  for await (const item of streamJson(body, { repairs: true })) {
    const last: JsonStreamUpdate | JsonStreamFinished = item;
    console.log(last.event);
  }
  console.log(events.length, update?.patches, json.state(""), json.value);
}
void streams;

// The core entry point has the same names.
import * as core from "flexmd/core";
const coreReport: ValidationReport = core.validateOutput("## A\n", core.makeDefaultOfs());
console.log(coreReport.ok);

// Errors and the prompt helpers.
import {
  ArgumentError,
  ArtifactError,
  FlexmdError,
  NestingError,
  PanicError,
  SchemaError,
  ToolCallError,
  jsonSchema,
  prompt,
} from "flexmd";

function explain(error: unknown): string {
  if (error instanceof NestingError) return `${error.code}: too deep`;
  if (error instanceof ArgumentError || error instanceof SchemaError || error instanceof ToolCallError) return error.code;
  if (error instanceof ArtifactError || error instanceof PanicError) return error.message;
  if (error instanceof FlexmdError) return `${error.code} at ${error.details?.line ?? "?"}`;
  return String(error);
}
const promptText: string = prompt("- Summary — prose\n");
const schemaOfSpec: Record<string, unknown> = jsonSchema("- Summary — prose\n");
console.log(explain(new Error("x")), promptText, schemaOfSpec);

// Shaping the answer while it is written: provider schemas, grammars, the way back.
import {
  type GrammarReport,
  type SchemaExport,
  ConstrainError,
  exportSchema,
  grammar,
  specGrammar,
} from "flexmd";

const exported: SchemaExport = exportSchema("review", "openai", { name: "review" });
const unenforced: string[] = exported.changes.filter((c) => c.action === "unenforced").map((c) => c.pointer);
const gbnf: string = grammar("review", { format: "gbnf" });
const larkReport: GrammarReport = grammar({ type: "string" }, { format: "lark", report: true });
const sections: string = specGrammar("- Summary — prose\n", { headingLevel: 3, thinkLines: 20, maxRows: 5 });
const back: ValidationResult = validator.validateText("{}", "review", { fromProvider: "openai" });
const removed: string[] = back.nullsRemoved ?? [];
const why = (error: unknown): string => (error instanceof ConstrainError ? error.message : "");
console.log(unenforced, gbnf, larkReport.coverage.length, sections, removed, why(null));
