import { type Schema, Validator } from '@cfworker/json-schema';

type DocumentedResponse = {
  content?: Record<string, { schema: Schema }>;
  headers?: Record<string, { required?: boolean }>;
};
type Operation = { responses: Record<string, DocumentedResponse> };
export type ApiDocument = { paths: Record<string, Record<string, Operation>>; components?: Record<string, unknown> };

/** `/api/users/{id}` as a pattern; literal templates rank before ones with parameters. */
function operationFor(doc: ApiDocument, method: string, pathname: string): { template: string; op: Operation } | null {
  const candidates = Object.keys(doc.paths)
    .filter((template) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname))
    .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  for (const template of candidates) {
    const op = doc.paths[template]![method.toLowerCase()];
    if (op) return { template, op };
  }
  return null;
}

// Compiling a validator dereferences the document's components: once per documented schema, not per response.
const validators = new WeakMap<Schema, Validator>();

function validatorFor(doc: ApiDocument, schema: Schema): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    // Refs point into the document's components, so they resolve against a root that carries them.
    validator = new Validator({ ...schema, components: doc.components } as Schema, '2020-12', false);
    validators.set(schema, validator);
  }
  return validator;
}

/**
 * Checks a response the Worker gave against the API description it serves: the status must
 * be documented for that route, its required headers present, the media type documented,
 * and a JSON or plain-text body must validate against the documented schema. Returns what is wrong, or null.
 * Requests to no route at all (the JSON 404) are not an operation and are not checked.
 */
export async function contractViolation(
  doc: ApiDocument,
  method: string,
  url: string,
  res: Response,
): Promise<string | null> {
  const pathname = new URL(url).pathname;
  const found = operationFor(doc, method, pathname);
  if (!found) return null;
  const where = `${method.toUpperCase()} ${found.template} → ${res.status}`;
  const documented = found.op.responses[String(res.status)] ?? found.op.responses.default;
  if (!documented) return `${where}: status not documented (documented: ${Object.keys(found.op.responses).join(', ')})`;
  const missing = Object.entries(documented.headers ?? {})
    .filter(([name, header]) => header.required && !res.headers.has(name))
    .map(([name]) => name);
  if (missing.length) return `${where}: documented header ${missing.join(', ')} missing`;
  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!documented.content) return null;
  const media = documented.content[mediaType];
  if (!media)
    return `${where}: ${mediaType || 'no content type'} not documented (documented: ${Object.keys(documented.content).join(', ')})`;
  // A file's bytes are not read as text: the schema of a binary body says nothing to check.
  if (mediaType !== 'application/json' && mediaType !== 'text/plain') return null;
  const text = await res.clone().text();
  const body: unknown = mediaType === 'application/json' ? JSON.parse(text) : text;
  const result = validatorFor(doc, media.schema).validate(body);
  if (result.valid) return null;
  const errors = result.errors.map((e) => `${e.instanceLocation}: ${e.error}`).slice(0, 5);
  return `${where}: body does not match the documented schema: ${errors.join('; ')}\n${text.slice(0, 500)}`;
}
