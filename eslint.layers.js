// The layer order of the repository (docs/architecture.md "Layers"), enforced by lint so that CI fails
// on a back-edge:
//
//   apps/guest, apps/console, apps/widget ──► packages/ui ──┐
//                 │                                          │ (no import between ui and call)
//                 └────────────────────────► packages/call ──┴──► packages/contracts
//   apps/server ─────────────────────────────────────────────────► packages/contracts
//
// No app imports another app; no package imports an app; contracts imports no other workspace.
// Imported by eslint.config.js and by test/layers.test.ts, which lints deliberate back-edges.

const APPS = ['guest', 'console', 'server', 'widget'];

/** Import patterns that reach an app's root folder (src/app/) by a relative path. */
const ROOT = ['**/app/*', '**/app/**', './app/*'];

/** Import patterns (gitignore style) that reach an app, by its package name or by a relative path. */
/** @param {string} name */
const app = (name) => [`@lobby/${name}`, `@lobby/${name}/*`, `**/apps/${name}/**`, `**/${name}/src/**`];
/** @param {string} name */
const pkg = (name) => [`@lobby/${name}`, `@lobby/${name}/*`, `**/packages/${name}/**`];

/**
 * @param {string[]} files
 * @param {string[]} groups
 * @param {string} message
 * @returns {import('eslint').Linter.Config}
 */
function forbid(files, groups, message) {
  return {
    files,
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: groups, message }] }],
    },
  };
}

/** @type {import('eslint').Linter.Config[]} */
export const layerRules = [
  forbid(
    ['packages/contracts/**/*.ts'],
    [...APPS.flatMap(app), ...pkg('call'), ...pkg('ui')],
    'packages/contracts is the bottom layer: it imports no other workspace (docs/architecture.md "Layers").',
  ),
  forbid(
    ['packages/call/**/*.ts'],
    [...APPS.flatMap(app), ...pkg('ui')],
    'packages/call imports only packages/contracts (docs/architecture.md "Layers").',
  ),
  forbid(
    ['packages/ui/**/*.ts', 'packages/ui/**/*.tsx'],
    [...APPS.flatMap(app), ...pkg('call')],
    'packages/ui imports only packages/contracts (docs/architecture.md "Layers").',
  ),
  ...APPS.map((name) =>
    forbid(
      [`apps/${name}/**/*.ts`, `apps/${name}/**/*.tsx`],
      [...APPS.filter((other) => other !== name).flatMap(app), ...(name === 'server' ? [...pkg('call'), ...pkg('ui')] : [])],
      `apps/${name} may import packages only, never another app${name === 'server' ? ' (and the server no browser package)' : ''} (docs/architecture.md "Layers").`,
    ),
  ),
  // Inside the two React apps, src/app/ is the root that composes everything (providers, routes, dev
  // fixtures): the features, the journey and the shared state (src/state/) never import it back.
  // (A later config replaces the rule's options for the files it matches, so the cross-app ban is repeated.)
  ...['guest', 'console'].map((name) => ({
    ...forbid(
      [`apps/${name}/src/**/*.ts`, `apps/${name}/src/**/*.tsx`],
      [...APPS.filter((other) => other !== name).flatMap(app), ...ROOT],
      `apps/${name}: only src/app/ and main.tsx import the app's root (src/app/); shared state lives in src/state/ (docs/architecture.md "Layers").`,
    ),
    ignores: [`apps/${name}/src/app/**`, `apps/${name}/src/main.tsx`],
  })),
];
