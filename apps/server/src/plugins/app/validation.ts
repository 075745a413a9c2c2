import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import fp from 'fastify-plugin';
import type { preValidationHookHandler } from 'fastify';
import type { App } from '../../typebox.ts';
import { fail } from '../../http/errors.ts';
import { AUTHENTICATES, preValidationList } from './auth.ts';

/**
 * Strict request validation (docs/security.md "Input").
 *
 * Fastify's default Ajv coerces types and drops unknown properties: "1e309" became Infinity and was stored
 * (then every read of the row failed), and a misspelt property vanished without a word. Here:
 * - no coercion at all in bodies; unknown properties are refused (400 naming the property);
 * - strictNumbers: NaN and ±Infinity are not numbers (JSON.parse turns 1e309 into Infinity);
 * - query strings and path parameters: only plain decimal integers (at most 15 digits, so exactly
 *   representable) become numbers where the schema says integer/number, and "true"/"false" booleans.
 *   Anything else stays a string and fails the schema.
 */
export const AJV_OPTIONS = {
  customOptions: { coerceTypes: false, removeAdditional: false, strictNumbers: true, useDefaults: true, allErrors: false },
} as const;

const PLAIN_INTEGER = /^-?(0|[1-9]\d{0,14})$/;

interface PropSchema {
  type?: unknown;
}

function convert(value: unknown, schema: PropSchema | undefined): unknown {
  if (typeof value !== 'string' || !schema) return value;
  if ((schema.type === 'integer' || schema.type === 'number') && PLAIN_INTEGER.test(value)) return Number(value);
  if (schema.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function convertAll(target: unknown, schema: unknown): void {
  const props = (schema as { properties?: Record<string, PropSchema> } | undefined)?.properties;
  if (!props || !target || typeof target !== 'object') return;
  const record = target as Record<string, unknown>;
  for (const key of Object.keys(props)) {
    if (Object.hasOwn(record, key)) record[key] = convert(record[key], props[key]);
  }
}

/** The error message names the field at fault: `body.position: must be integer`, `body.bogus: unknown property`. */
export function formatSchemaErrors(errors: FastifySchemaValidationError[], dataVar: string): Error {
  // In a union (anyOf) every branch reports; the deepest error is the most specific one.
  const depth = (x: FastifySchemaValidationError) => x.instancePath.split('/').length;
  const e = errors.reduce<FastifySchemaValidationError | undefined>((best, x) => (!best || depth(x) > depth(best) ? x : best), undefined);
  if (!e) return new Error(`${dataVar}: invalid`);
  const path = [dataVar, ...e.instancePath.split('/').filter(Boolean)].join('.');
  const params = e.params;
  if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return new Error(`${path}.${params.additionalProperty}: unknown property`);
  }
  if (e.keyword === 'required' && typeof params.missingProperty === 'string') {
    return new Error(`${path}.${params.missingProperty}: is required`);
  }
  return new Error(`${path}: ${e.message ?? 'invalid'}`);
}

/**
 * The first string holding U+0000 in a request part, as `params.reference` or `body.items.2.name`.
 * PostgreSQL's text cannot hold that character (it fails with 22021, which would be a 500) and no field of
 * ours has a use for it, so the request is refused before any route sees it, on SQLite as on PostgreSQL.
 */
export function nulField(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (!value || typeof value !== 'object' || depth > 32 || Buffer.isBuffer(value)) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return `${path}.${key.replaceAll('\u0000', '\\u0000')}`;
    const found = nulField(inner, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The preValidation step every route gets: 400 naming the first field that holds U+0000 (nulField). */
const refuseNul: preValidationHookHandler = (request, reply, next) => {
  const field = nulField(request.params, 'params') ?? nulField(request.query, 'querystring') ?? nulField(request.body, 'body');
  if (field) {
    void fail(reply, 400, `${field}: must not contain the NUL character (U+0000)`);
    return;
  }
  next();
};

export default fp(
  (app: App, _opts: unknown, done: (err?: Error) => void) => {
    // Before the schema runs (preValidation), turn the query's and path's plain integers into numbers: on
    // the routes whose schema has a query or path parameters, decided once per route. Right after the auth
    // hook (plugins/app/auth.ts): a caller without credentials learns nothing of the shape.
    //
    // Every route also refuses a NUL character anywhere in its path, query or body (refuseNul above).
    app.addHook('onRoute', (route) => {
      const schema = route.schema;
      const added: preValidationHookHandler[] = [refuseNul];
      if (schema && (schema.querystring !== undefined || (schema as { query?: unknown }).query !== undefined || schema.params !== undefined)) {
        // read at request time: Fastify normalises the schema object (query → querystring) after onRoute
        added.push((request, _reply, next) => {
          if (schema.querystring) convertAll(request.query, schema.querystring);
          if (schema.params) convertAll(request.params, schema.params);
          next();
        });
      }
      const hooks = preValidationList(route.preValidation);
      const auth = hooks.findIndex((hook) => AUTHENTICATES in hook);
      hooks.splice(auth + 1, 0, ...added);
      route.preValidation = hooks;
    });
    done();
  },
  { name: 'validation', dependencies: ['auth'] },
);
