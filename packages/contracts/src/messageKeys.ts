// The names of the guest-facing company messages (docs/guest-journey.md); each has an optional
// `<name>_ar` Arabic variant. No schema library here: the guest app imports this on its first load as
// `@lobby/contracts/messages`.
export const MESSAGE_KEYS = [
  'welcomeMsg',
  'waitingMsg',
  'outOfHoursMsg',
  'outOfZoneMsg',
  'ratingPageMsg',
  'thanksMsg',
  'ratingSubmitMsg',
  'ratingThanksMsg',
  'holdPageText',
  'videoOnHoldText',
  'audioOnHoldText',
  'recordAlertText',
  'welcomeButtonText',
  'welcomeFormTitle',
] as const;
export type MessageKey = (typeof MESSAGE_KEYS)[number];
