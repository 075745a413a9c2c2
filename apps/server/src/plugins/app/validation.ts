import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import fp from 'fastify-plugin';
import type { preValidationHookHandler } from 'fastify';
import type { App } from '../../typebox.ts';
import { AUTHENTICATES, preValidationList } from './auth.ts';

/**
 * Strict request validation (issue 11, finding 2).
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

export default fp(
  (app: App, _opts: unknown, done: (err?: Error) => void) => {
    // Before the schema runs (preValidation), turn the query's and path's plain integers into numbers: on
    // the routes whose schema has a query or path parameters, decided once per route. Right after the auth
    // hook (plugins/app/auth.ts): a caller without credentials learns nothing of the shape.
    app.addHook('onRoute', (route) => {
      const schema = route.schema;
      if (!schema || (schema.querystring === undefined && (schema as { query?: unknown }).query === undefined && schema.params === undefined)) return;
      // read at request time: Fastify normalises the schema object (query → querystring) after onRoute
      const convertParams: preValidationHookHandler = (request, _reply, next) => {
        if (schema.querystring) convertAll(request.query, schema.querystring);
        if (schema.params) convertAll(request.params, schema.params);
        next();
      };
      const hooks = preValidationList(route.preValidation);
      const auth = hooks.findIndex((hook) => AUTHENTICATES in hook);
      hooks.splice(auth + 1, 0, convertParams);
      route.preValidation = hooks;
    });
    done();
  },
  { name: 'validation', dependencies: ['auth'] },
);
