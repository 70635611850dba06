// Types of `flexmd/core`: the package without SchemaValidator, the artifact
// classes and forgeTools (the same names and shapes as `flexmd`).
export {
  // FlexMD frames
  type FlexMetaValue, type FlexPayload, type FlexFrame, type FlexDocument, type MetaTypeMode, type MetaType,
  type ParseFlexMdOptions, type StringifyFlexMdOptions,
  // Output Format Spec, outline, extraction
  type SectionKind, type OfsSection, type TableKind, type OfsTable, type OutputFormatSpec, type SpecInput,
  type MdNode, type MdOutline, type ListItem, type ParsedList, type ParsedTable, type ExtractedSection,
  type ExtractedResult, type Issue, type ValidationReport, type ValidateOptions, type ExtractOptions,
  type CheckOptions,
  // detection and lenient JSON
  type DetectedKind, type DetectedObject, type ParseAnyResult, type RepairKind, type Repair, type FoundJson,
  type FindJsonOptions,
  // errors
  FlexmdError, SpecError, SchemaError, ArgumentError, ToolCallError, ArtifactError, ValidationError, PanicError,
  NestingError, ConstrainError,
  // functions
  parseFlexMd, stringifyFlexMd, parseOutputFormatSpec, stringifyOutputFormatSpec, enrichInstructions, prompt,
  makeDefaultOfs, jsonSchema, buildOutline, renderOutline, validateOutput, extractOutput, check, detectObjects,
  parseAny, findJson, findJsonMany,
  // streaming
  type StreamEvent, type StreamingExtractorOptions, type JsonPatchOperation, type JsonStreamUpdate,
  type JsonStreamFinished, type TextSource, StreamingExtractor, StreamingJson, streamOutput, streamJson,
} from "./index.js";
