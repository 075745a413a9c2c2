// The editable company settings (docs/guest-journey.md "Company details"), grouped as the editor shows them.
import type { AdminCompany } from '../../api/admin.ts';

export type SettingKey = Exclude<keyof AdminCompany, 'id' | 'activated' | 'host' | 'assignments' | 'assignmentGroups'>;

export type FieldSpec =
  | { key: SettingKey; kind: 'text' | 'url' | 'textarea' | 'color' }
  | { key: SettingKey; kind: 'bool' }
  /** a string array edited one item per line */
  | { key: SettingKey; kind: 'lines' }
  | { key: SettingKey; kind: 'select'; options: readonly string[] }
  /** a whole number within bounds (the server validates them too) */
  | { key: SettingKey; kind: 'number'; min: number; max: number };

export { MESSAGE_KEYS, type MessageKey } from '@lobby/contracts';

export const GENERAL: FieldSpec[] = [
  { key: 'name', kind: 'text' },
  { key: 'conferenceName', kind: 'text' },
  { key: 'details', kind: 'textarea' },
  { key: 'language', kind: 'select', options: ['multilingual', 'english', 'arabic'] },
  { key: 'multilang', kind: 'bool' },
  { key: 'callType', kind: 'select', options: ['userSelect', 'video', 'voice'] },
  { key: 'callMethod', kind: 'select', options: ['mediaServer', 'p2p'] },
  { key: 'assignmentFilter', kind: 'select', options: ['all', 'queue', 'appointment'] },
];

export const LOOK: FieldSpec[] = [
  { key: 'backgroundColor', kind: 'color' },
  { key: 'textColor', kind: 'color' },
  { key: 'categoryBackgroundColor', kind: 'color' },
  { key: 'categoryTextColor', kind: 'color' },
  { key: 'categoryStyle', kind: 'select', options: ['list', 'grid'] },
  { key: 'fontFamily', kind: 'text' },
  { key: 'logoImageUrl', kind: 'url' },
  { key: 'backgroundImgUrl', kind: 'url' },
  { key: 'websiteUrl', kind: 'url' },
  { key: 'websiteTitle', kind: 'text' },
  { key: 'faviconUrl', kind: 'url' },
  { key: 'waterMarkLogo', kind: 'url' },
  { key: 'poweredByLogo', kind: 'url' },
  { key: 'waitingImageUrl', kind: 'url' },
  { key: 'holdPageImage', kind: 'url' },
  { key: 'ratingPageImage', kind: 'url' },
  { key: 'hideTimetable', kind: 'bool' },
];

export const BEHAVIOUR: FieldSpec[] = [
  { key: 'roundRobin', kind: 'bool' },
  // seconds an agent has to answer a round-robin offer (a number: the select sends it as one)
  { key: 'roundRobinOfferSeconds', kind: 'select', options: ['10', '15', '20', '30', '45', '60', '90'] },
  { key: 'recordCalls', kind: 'bool' },
  // days before the server deletes a recording; 0 keeps them (docs/operations.md "Recording retention")
  { key: 'recordingRetentionDays', kind: 'number', min: 0, max: 3650 },
  // open calls taken at once from one network address; 0: no cap (docs/security.md "Open calls")
  { key: 'maxOpenCallsPerAddress', kind: 'number', min: 0, max: 10000 },
  { key: 'queuePosition', kind: 'bool' },
  { key: 'waitEstimate', kind: 'bool' },
  // docs/guest-journey.md "Booking a time instead"
  { key: 'appointmentBooking', kind: 'bool' },
  { key: 'bookingAfterMinutes', kind: 'number', min: 1, max: 240 },
  // the wall board's service level target (docs/api.md "Wall board")
  { key: 'serviceLevelSeconds', kind: 'number', min: 5, max: 3600 },
  { key: 'previewScreen', kind: 'bool' },
  { key: 'welcomeForm', kind: 'bool' },
  { key: 'requestLocation', kind: 'bool' },
  { key: 'flipCamera', kind: 'bool' },
  { key: 'showRatingPage', kind: 'bool' },
  { key: 'advanceRating', kind: 'bool' },
  { key: 'ratingStyle', kind: 'select', options: ['stars', 'emojies'] },
  { key: 'streamWatermark', kind: 'select', options: ['hidden', 'visible'] },
];

/** The website widget's tab (docs/widget.md "Install it"): the websites, beside the snippet and a check. */
export const WIDGET: FieldSpec[] = [{ key: 'widgetOrigins', kind: 'lines' }];

/**
 * Peer-to-peer calls with recording on: nothing could record the call (it passes no media server), so the
 * server refuses the pair (services/callMethod.ts); the editor says so beside both fields first.
 */
export function p2pRecordingConflict(draft: { callMethod?: unknown; recordCalls?: unknown }): boolean {
  return draft.callMethod === 'p2p' && draft.recordCalls !== false;
}

/** The keys whose values differ between `draft` and `saved` (what PUT sends). */
export function changedKeys(saved: AdminCompany, draft: AdminCompany): SettingKey[] {
  const keys = Object.keys(draft) as Array<keyof AdminCompany>;
  return keys.filter(
    (k): k is SettingKey =>
      !['id', 'activated', 'host', 'assignments', 'assignmentGroups'].includes(k) && JSON.stringify(draft[k]) !== JSON.stringify(saved[k]),
  );
}
