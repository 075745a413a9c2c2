import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';

const UpDown = Type.Union([Type.Literal('up'), Type.Literal('down')]);

export const Health = Type.Object({
  server: Type.Literal('up'),
  database: UpDown,
  ejabberd: UpDown,
  /** up when at least one Janus node answers (new calls are placed on a serving one) */
  janus: UpDown,
  /** every configured Janus node in order (one on a default stack) */
  janusNodes: Type.Array(Type.Object({ name: Type.String(), state: UpDown })),
});
export type Health = Static<typeof Health>;
