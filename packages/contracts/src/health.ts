import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';

const UpDown = Type.Union([Type.Literal('up'), Type.Literal('down')]);

export const Health = Type.Object({
  server: Type.Literal('up'),
  database: UpDown,
  ejabberd: UpDown,
  janus: UpDown,
});
export type Health = Static<typeof Health>;
