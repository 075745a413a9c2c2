import type { FastifyReply } from 'fastify';
import { ErrorResponse } from '@lobby/contracts';

const NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  416: 'Range Not Satisfiable',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** `{statusCode, error, message}`; the message names the field at fault (`field: what is wrong`). */
export function fail(reply: FastifyReply, statusCode: 400 | 401 | 403 | 404 | 409 | 413 | 416 | 429 | 503, message: string) {
  return reply.code(statusCode).send({ statusCode, error: NAMES[statusCode] ?? 'Error', message });
}

/** Response schemas for the error codes a route may answer. */
export function errors(...codes: number[]) {
  return Object.fromEntries(codes.map((c) => [c, ErrorResponse]));
}

/** A row the handler has just written (in its own company): missing would be a bug, not a client mistake. */
export function written<T>(row: T | null | undefined): T {
  if (row === null || row === undefined) throw new Error('row vanished right after it was written');
  return row;
}
