import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext } from '../helpers/context.ts';
import type { TestContext } from '../helpers/context.ts';

/**
 * Structural rules of every request schema in the OpenAPI document: each number a client
 * sends is bounded on both sides, and each object a client sends refuses unknown properties. A new route
 * that forgets either fails here, before a coerced or oversized number can reach the database.
 */
type Schema = Record<string, unknown>;
interface Found {
  where: string;
  schema: Schema;
}

/** Every sub-schema with its JSON path (properties, items, tuples, unions). */
function walk(schema: unknown, where: string, out: Found[]): Found[] {
  if (!schema || typeof schema !== 'object') return out;
  const s = schema as Schema;
  out.push({ where, schema: s });
  for (const [k, v] of Object.entries((s.properties as Record<string, unknown> | undefined) ?? {})) walk(v, `${where}.${k}`, out);
  const items = s.items;
  if (Array.isArray(items)) items.forEach((v, i) => walk(v, `${where}[${i}]`, out));
  else walk(items, `${where}[]`, out);
  for (const key of ['prefixItems', 'anyOf', 'oneOf', 'allOf'] as const) {
    const list = s[key];
    if (Array.isArray(list)) list.forEach((v, i) => walk(v, `${where}<${key}${i}>`, out));
  }
  if (s.additionalProperties && typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${where}{}`, out);
  return out;
}

const isNumeric = (s: Schema) => s.type === 'integer' || s.type === 'number';
const hasLower = (s: Schema) => typeof s.minimum === 'number' || typeof s.exclusiveMinimum === 'number';
const hasUpper = (s: Schema) => typeof s.maximum === 'number' || typeof s.exclusiveMaximum === 'number';

describe('request schemas of the OpenAPI document', () => {
  let t: TestContext;
  let requestSchemas: Found[];

  beforeAll(async () => {
    t = await createTestContext('sqlite');
    const doc = t.app.swagger() as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; schema: unknown }>; requestBody?: { content: Record<string, { schema: unknown }> } }>>;
    };
    requestSchemas = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/') || path.startsWith('/api/docs')) continue;
      for (const [method, op] of Object.entries(ops)) {
        for (const p of op.parameters ?? []) walk(p.schema, `${method.toUpperCase()} ${path} ${p.in}.${p.name}`, requestSchemas);
        for (const [type, c] of Object.entries(op.requestBody?.content ?? {})) walk(c.schema, `${method.toUpperCase()} ${path} body(${type})`, requestSchemas);
      }
    }
  });
  afterAll(async () => t.close());

  it('when the request schemas are read, then there are some (the walk sees bodies, queries and path parameters)', () => {
    const wheres = requestSchemas.map((f) => f.where);
    expect(wheres.some((w) => w.includes('body(application/json)'))).toBe(true);
    expect(wheres.some((w) => w.includes(' query.'))).toBe(true);
    expect(wheres.some((w) => w.includes(' path.'))).toBe(true);
  });

  it('when a client sends a number anywhere, then its schema bounds it below and above', () => {
    const unbounded = requestSchemas.filter((f) => isNumeric(f.schema) && !(hasLower(f.schema) && hasUpper(f.schema))).map((f) => f.where);
    expect(unbounded).toEqual([]);
  });

  it('when a client sends an object in a body, then its schema refuses unknown properties', () => {
    const open = requestSchemas
      .filter((f) => f.where.includes(' body(') && f.schema.type === 'object' && f.schema.additionalProperties !== false)
      // answers of a form are keyed by the form's own field names: their values are typed by additionalProperties
      .filter((f) => typeof f.schema.additionalProperties !== 'object')
      // OpenAPI 3.0 spells a JSON null as { type: 'object', nullable: true, enum: [null] }
      .filter((f) => !(f.schema.nullable === true && JSON.stringify(f.schema.enum) === '[null]'))
      .map((f) => f.where);
    expect(open).toEqual([]);
  });
});
