import type { FastifyBaseLogger, FastifyInstance, FastifyTypeProvider, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Static, TSchema } from '@sinclair/typebox';

/**
 * Type provider for the schemas of @lobby/contracts (@sinclair/typebox 0.34). Validation and serialisation
 * are Fastify's own (Ajv, fast-json-stringify) on the plain JSON schemas; this only gives handlers the types.
 */
export interface TypeBoxProvider extends FastifyTypeProvider {
  validator: this['schema'] extends TSchema ? Static<this['schema']> : unknown;
  serializer: this['schema'] extends TSchema ? Static<this['schema']> : unknown;
}

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxProvider>;
