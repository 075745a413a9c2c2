/** The screens of the call page (docs/guest-journey.md), by the names the journey uses. */
export const SCREENS = [
  'preview',
  'selection',
  'schedule',
  'outofzone',
  'waiting',
  'ongoing',
  'rating',
  'abandoned',
  'unsupported',
  'inactive',
  'outOfQuota',
  'blocked',
  'bot',
  'inCall',
] as const;

export type Screen = (typeof SCREENS)[number];

export function isScreen(value: unknown): value is Screen {
  return typeof value === 'string' && (SCREENS as readonly string[]).includes(value);
}
