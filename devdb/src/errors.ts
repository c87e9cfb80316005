/**
 * MongoDB error codes devdb can return. Names match the server's `codeName`
 * so drivers and application code that switch on either keep working.
 */
export const ErrorCodes = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  Unauthorized: 13,
  TypeMismatch: 14,
  InvalidLength: 16,
  IndexNotFound: 27,
  NamespaceNotFound: 26,
  CursorNotFound: 43,
  NamespaceExists: 48,
  CommandNotFound: 59,
  DollarPrefixedFieldName: 52,
  ImmutableField: 66,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  CommandNotSupported: 115,
  CommandNotSupportedOnView: 166,
  OptionNotSupportedOnView: 167,
  QueryFeatureNotAllowed: 224,
  NoQueryExecutionPlans: 291,
  Location16606: 16606,
  Location16607: 16607,
  Location16755: 16755,
  Location40415: 40415,
  Location40601: 40601,
  Location40602: 40602,
  Location51132: 51132,
  Location51183: 51183,
  MergeStageNoMatchingDocument: 13113,
  Location5626500: 5626500,
  Location5860400: 5860400,
  DuplicateKey: 11000,
} as const;

export type ErrorCodeName = keyof typeof ErrorCodes;

const namesByCode = new Map<number, string>(Object.entries(ErrorCodes).map(([name, code]) => [code, name]));

export function codeNameOf(code: number): string | undefined {
  return namesByCode.get(code);
}

/**
 * An error that maps onto a MongoDB error response. `extra` carries fields the
 * driver copies onto its error object (e.g. keyPattern/keyValue for 11000).
 */
export class DevDbError extends Error {
  readonly code: number;
  readonly codeName: string;
  readonly extra: Record<string, unknown>;

  constructor(codeName: ErrorCodeName, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.code = ErrorCodes[codeName];
    this.codeName = codeName;
    this.extra = extra;
  }
}

export function fail(codeName: ErrorCodeName, message: string, extra?: Record<string, unknown>): never {
  throw new DevDbError(codeName, message, extra);
}

/** Mirrors the mongod error for missing/ill-typed command fields. */
export function typeMismatch(field: string, expected: string, got: unknown): never {
  const actual = got === null ? 'null' : Array.isArray(got) ? 'array' : typeof got;
  fail('TypeMismatch', `BSON field '${field}' is the wrong type '${actual}', expected type '${expected}'`);
}
