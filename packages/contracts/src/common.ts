import { Type } from '@sinclair/typebox';
import type { TSchema } from '@sinclair/typebox';

/** Every answer of the API is `{ data: … }` (a client's `data.data.x` = HTTP client's `response.data` + body's `data`). */
export const DataEnvelope = <T extends TSchema>(data: T) => Type.Object({ data }, { additionalProperties: false });

/** 4xx/5xx answers: the message names the field at fault. */
export const ErrorResponse = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    message: Type.String(),
  },
);

/** The browser's persistent guest id: 32 lowercase hex characters (a UUID without dashes). */
export const GuestId = Type.String({ pattern: '^[0-9a-f]{32}$', minLength: 32, maxLength: 32 });

/** Guest usernames: 'g' followed by 16 lowercase hex characters. */
export const GuestUsername = Type.String({ pattern: '^g[0-9a-f]{16}$' });

export const CompanyId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** Timestamps in answers: ISO 8601 UTC strings. */
export const Timestamp = Type.String({ format: 'date-time' });
