// The errors the package throws, shared by every entry point (so
// `instanceof` works whichever one a program imports).

/** Every error this package throws: `code` is stable, `details` structured. */
export class FlexmdError extends Error {
  constructor(message, { code = "flexmd_error", details = null } = {}) {
    super(message);
    // Each subclass's own name (`SpecError`, …), without a constructor of its own.
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }
}

/** A spec that cannot be read; `details` has `line`, `column`, `span`. */
export class SpecError extends FlexmdError {}

/** An argument of the wrong shape: a misspelt option, JSON that is not a FlexDocument. */
export class ArgumentError extends FlexmdError {}

/** A bug in flexmd stopped the call (the module keeps working). */
export class PanicError extends FlexmdError {}

/** A schema that cannot be compiled, or a schema name that is not registered. */
export class SchemaError extends FlexmdError {}

/** A tool call that cannot run (unknown tool, bad arguments, a bad pattern or JSONPath); the message is written for the model. */
export class ToolCallError extends FlexmdError {}

/** An artifact whose content is not the kind asked for (JSON that does not parse, a JSON query on text). */
export class ArtifactError extends FlexmdError {}

/** Data that cannot be made to fit a schema without a guess (an enum value several could be). */
export class ValidationError extends FlexmdError {}

/**
 * A schema or spec that a provider or grammar dialect cannot take (a
 * schema that refers to itself where there is no recursion, a provider's
 * limit exceeded), or an unknown provider or format; the message names the
 * place and the limit.
 */
export class ConstrainError extends FlexmdError {}

/**
 * Data nested deeper than flexmd reads (128 levels, where JSON parsers stop
 * too): a `RangeError`, as JavaScript's own for too deep a recursion, with
 * `code` `nesting`.
 */
export class NestingError extends RangeError {
  constructor(message, { code = "nesting", details = null } = {}) {
    super(message);
    this.name = "NestingError";
    this.code = code;
    this.details = details;
  }
}
