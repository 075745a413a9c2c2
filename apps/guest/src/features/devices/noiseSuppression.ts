/**
 * The guest's noise-suppression switch (docs/architecture.md "Noise suppression"): off unless the guest
 * turned it on, remembered in this browser under its own key.
 */
export const NOISE_SUPPRESSION = { storageKey: 'lobby.guest.noiseSuppression', byDefault: false } as const;
