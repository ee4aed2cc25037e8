import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { ApiError } from '../../core/errors.js';

// ajv-formats ships CommonJS with a default export that NodeNext sees as a namespace.
const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

/** `x-max-bytes`: the JSON text of the value is at most N bytes (metadata: 2 KB). */
const maxBytes: ((limit: number, data: unknown) => boolean) & { errors?: Partial<ErrorObject>[] } = (limit, data) => {
  if (Buffer.byteLength(JSON.stringify(data)) <= limit) return true;
  // Ajv keeps no schema value on an error unless verbose: the limit rides in params for the message.
  maxBytes.errors = [{ keyword: 'x-max-bytes', params: { limit } }];
  return false;
};
const maxBytesKeyword = {
  keyword: 'x-max-bytes',
  type: ['object', 'array'] as const,
  schemaType: 'number' as const,
  errors: true as const,
  validate: maxBytes,
};

/** The server's Ajv: its formats and keywords (tests validate the description's examples with it too). */
export function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    // Unknown fields must be refused, never silently dropped (Fastify's default removes them).
    removeAdditional: false,
    useDefaults: false,
    coerceTypes: coerce ? 'array' : false,
    allErrors: false,
    allowUnionTypes: true,
    strict: false,
  });
  addFormats(ajv);
  ajv.addKeyword({ ...maxBytesKeyword, type: [...maxBytesKeyword.type] });
  ajv.addKeyword({ keyword: 'x-error-codes', schemaType: 'array' });
  return ajv;
}

/**
 * Bodies are strict JSON (a string is not a boolean); query, params and headers arrive as text.
 * Path and query values are first checked for text PostgreSQL cannot store (U+0000 decoded from
 * `%00`): whatever a route's schema says, such a value never reaches a query (issue 27: five 500s).
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const strict = makeAjv(false);
  const coercing = makeAjv(true);
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    const validate = ajv.compile(schema as object) as ValidateFunction;
    return httpPart === 'params' || httpPart === 'querystring' ? storableFirst(validate) : validate;
  };
}

/** The keyword of the error `storableFirst` reports; `validationToApiError` words it per part. */
const UNSTORABLE_KEYWORD = 'x-storable';

function storableFirst(validate: ValidateFunction): ValidateFunction {
  const checked = ((data: unknown) => {
    const name = unstorableValue(data);
    if (name !== null) {
      checked.errors = [
        {
          keyword: UNSTORABLE_KEYWORD,
          instancePath: `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
          schemaPath: '',
          params: {},
        },
      ];
      return false;
    }
    const valid = validate(data);
    checked.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return checked;
}

/** The first key whose value (a string, or a repeated query key's strings) holds unstorable text. */
function unstorableValue(data: unknown): string | null {
  if (data === null || typeof data !== 'object') return null;
  for (const [key, value] of Object.entries(data)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && UNSTORABLE.test(v))) return key;
  }
  return null;
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** Turns the first Ajv error into the spec's `400 invalid_request`, naming the field. */
export function validationToApiError(errors: ErrorObject[], context: string): ApiError {
  const error = errors[0];
  const part = PART_NAMES[context] ?? context;
  if (!error) return new ApiError('invalid_request', `Invalid ${part}.`);
  const path = error.instancePath
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  const params = error.params as Record<string, unknown>;
  let field = path;
  let message: string;
  switch (error.keyword) {
    case 'additionalProperties':
      field = join(path, String(params.additionalProperty));
      message = `Unknown field \`${field}\` in ${part}.`;
      break;
    case 'required':
      field = join(path, String(params.missingProperty));
      message = `Missing required field \`${field}\` in ${part}.`;
      break;
    case 'type':
      message = `\`${field || part}\` must be ${describeType(params.type)}.`;
      break;
    case 'enum':
      message = `\`${field}\` must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}.`;
      break;
    case 'minProperties':
      message = `The ${part} must set at least one field.`;
      break;
    case 'x-max-bytes':
      message = `\`${field}\` must be at most ${String(params.limit)} bytes of JSON.`;
      break;
    case UNSTORABLE_KEYWORD:
      // A path id holding U+0000 names nothing that can exist: the same 404 as any unknown id.
      if (context === 'params') return new ApiError('not_found', 'No such resource: the path does not name one.');
      message = `\`${field}\` holds text that cannot be stored (U+0000 or an unpaired surrogate).`;
      break;
    default:
      message = `\`${field || part}\` ${error.message ?? 'is invalid'}.`;
  }
  if (context === 'headers') field = field.toLowerCase();
  return new ApiError('invalid_request', message, field ? { field } : {});
}

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

function describeType(type: unknown): string {
  const types = Array.isArray(type) ? type : String(type).split(',');
  const words = types.map((t: string) => (t === 'null' ? 'null' : /^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`));
  return words.join(' or ');
}

// eslint-disable-next-line no-control-regex -- U+0000 is exactly what is looked for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Deeper than any valid body (metadata is client JSON of 2 KB); far below what recursion in JSON.stringify, Ajv or jsonb survives. */
export const MAX_BODY_DEPTH = 32;

export interface BodyProblem {
  /** Dotted path of the offending value ('' for the body itself). */
  field: string;
  message: string;
}

/**
 * What makes a parsed JSON body unusable before any schema sees it: text PostgreSQL cannot store
 * (U+0000, an unpaired surrogate; a bad key names its object), or nesting deeper than
 * MAX_BODY_DEPTH (named by the top-level field that holds it). Iterative and stopping at the
 * depth limit, so no body can exhaust the stack; the body limit bounds the width.
 */
export function bodyProblem(value: unknown): BodyProblem | null {
  const stack: [unknown, string, number][] = [[value, '', 0]];
  while (stack.length) {
    const [v, path, depth] = stack.pop() as [unknown, string, number];
    if (typeof v === 'string') {
      if (UNSTORABLE.test(v))
        return {
          field: path,
          message: `\`${path || 'body'}\` holds text that cannot be stored (U+0000 or an unpaired surrogate).`,
        };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth === MAX_BODY_DEPTH) {
      // A top-level field of an object body; an array body is the body itself.
      const field = Array.isArray(value) ? '' : (path.split('.')[0] ?? '');
      return { field, message: `\`${field || 'body'}\` is nested more than ${MAX_BODY_DEPTH} levels deep.` };
    }
    if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, join(path, String(i)), depth + 1]));
    } else {
      for (const [k, item] of Object.entries(v)) {
        if (UNSTORABLE.test(k))
          return {
            field: path,
            message: `\`${path || 'body'}\` holds text that cannot be stored (U+0000 or an unpaired surrogate).`,
          };
        stack.push([item, join(path, k), depth + 1]);
      }
    }
  }
  return null;
}
