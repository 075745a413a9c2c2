/**
 * The agent's noise-suppression switch (docs/architecture.md "Noise suppression"): on unless the agent
 * turned it off, remembered in this browser under its own key.
 */
export const NOISE_SUPPRESSION = { storageKey: 'lobby.console.noiseSuppression', byDefault: true } as const;
