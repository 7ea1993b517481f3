import fc from 'fast-check';
import { z } from 'zod';

/*
 * fast-check arbitraries from the contracts' zod schemas (through their JSON
 * Schema, input side: what a client sends), and hostile values just outside
 * them. Used by hostile-input.test.ts.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
};

/** The JSON Schema of what a client sends; null for anything zod cannot express (then: anything). */
export function inputJsonSchema(schema: unknown): JsonSchema | null {
  if (!(schema instanceof z.ZodType)) return null;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return null;
  }
}

const smallAnything = fc.anything({ maxDepth: 2, maxKeys: 4, withNullPrototype: false });

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress();
    case 'date-time':
      return fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'date':
      return fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    default:
      break;
  }
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 10_000));
    } catch {
      // A pattern fast-check cannot invert: plain strings below.
    }
  }
  const minLength = Math.min(schema.minLength ?? 0, 40);
  return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 40, 40)) });
}

/** Values that fit the schema (mostly: zod refinements are not in the JSON Schema). */
export function arbitraryOf(schema: JsonSchema | null | undefined, root: JsonSchema | null = schema ?? null, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return smallAnything;
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    return arbitraryOf(root?.$defs?.[name], root, depth + 1);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union && union.length > 0) return fc.oneof(...union.map((member) => arbitraryOf(member, root, depth + 1)));
  if (schema.allOf && schema.allOf.length > 0) return arbitraryOf(schema.allOf[0], root, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.integer({ min: Math.ceil(schema.minimum ?? schema.exclusiveMinimum ?? -1000), max: Math.floor(schema.maximum ?? schema.exclusiveMaximum ?? 1000) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = Array.isArray(schema.items) ? schema.items[0] : (schema.items ?? schema.prefixItems?.[0]);
      const minLength = Math.min(schema.minItems ?? 0, 3);
      return fc.array(arbitraryOf(items, root, depth + 1), { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 3, 3)) });
    }
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      if (properties.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), smallAnything, { maxKeys: 3 });
      return fc.record(Object.fromEntries(properties.map(([key, value]) => [key, arbitraryOf(value, root, depth + 1)])), { requiredKeys: schema.required ?? [] });
    }
    default:
      return smallAnything;
  }
}

/** Scalars a client should never send: wrong types, extremes, unicode oddities, injection text. */
export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    '',
    ' ',
    '\u0000',
    '\uD800', // lone surrogate
    '𝕏😀‮‭',
    'x'.repeat(100_000),
    'é'.repeat(20_000),
    '../../../../etc/passwd',
    '..%2F..%2Fetc%2Fpasswd',
    "'; DROP TABLE es.events; --",
    '<script>alert(1)</script>',
    '{{constructor.constructor("return process")()}}',
    'not-a-uuid',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '9999-99-99',
    '2026-02-30',
    '0000-01-01T00:00:00Z',
    '99:99',
    'NaN',
    'Infinity',
    '-1',
    'true',
    '__proto__',
    -1,
    0,
    -0,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    0.1,
    true,
    false,
    [],
    {},
    { $gt: '' },
    [null],
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer(),
  fc.double(),
);

/** A hostile variant of a (mostly valid) value: one field changed, dropped or added, or the whole thing replaced. */
export function mutate(value: unknown): fc.Arbitrary<unknown> {
  const whole = hostileScalar;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return fc.oneof(whole, fc.constant(value), fc.array(hostileScalar, { maxLength: 5 }));
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const changeOne =
    keys.length === 0
      ? whole
      : fc.tuple(fc.constantFrom(...keys), hostileScalar).map(([key, bad]) => ({ ...record, [key]: bad }));
  const dropOne = keys.length === 0 ? whole : fc.constantFrom(...keys).map((key) => Object.fromEntries(Object.entries(record).filter(([k]) => k !== key)));
  const extraKeys = fc
    .dictionary(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('constructor', 'prototype', 'toString', 'hasOwnProperty', 'id', 'agence_id', 'role', 'permissions')), hostileScalar, { minKeys: 1, maxKeys: 4 })
    .map((extra) => ({ ...record, ...extra }));
  const allHostile = fc.record(Object.fromEntries(keys.map((key) => [key, hostileScalar])));
  return fc.oneof(changeOne, dropOne, extraKeys, allHostile, whole, fc.array(fc.constant(record), { maxLength: 3 }));
}

/** JSON text with a `__proto__` / `constructor.prototype` key (JSON.stringify drops a literal `__proto__`). */
export function withPrototypePollution(json: string, kind: 'proto' | 'constructor'): string {
  const payload = kind === 'proto' ? '"__proto__":{"polluted":"yes","role":"admin_plus"}' : '"constructor":{"prototype":{"polluted":"yes"}}';
  if (json.startsWith('{}')) return `{${payload}}`;
  if (json.startsWith('{')) return `{${payload},${json.slice(1)}`;
  return `{${payload}}`;
}
