// How the module's error envelopes become the package's Error classes.
// Internal: the entry points export the classes (errors.js), not these.
import {
  ArgumentError,
  ArtifactError,
  ConstrainError,
  FlexmdError,
  NestingError,
  SchemaError,
  SpecError,
  ToolCallError,
  ValidationError,
} from "./errors.js";

const ERRORS = {
  SpecError,
  ArgumentError,
  SchemaError,
  ToolCallError,
  ArtifactError,
  ValidationError,
  NestingError,
  ConstrainError,
};

/** The error an envelope's `error` describes. */
export function errorOf({ name, code, message, details }) {
  return new (ERRORS[name] ?? FlexmdError)(message, { code, details });
}

/** The thrown envelope of a constructor, as the error it carries. */
export function raise(thrown) {
  if (typeof thrown === "string") {
    throw errorOf(JSON.parse(thrown).error);
  }
  throw thrown;
}

