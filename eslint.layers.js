// The layer order of the repository (docs/architecture.md "Layers"), enforced by lint so that CI fails
// on a back-edge:
//
//   apps/guest, apps/console ──► packages/call-react ──► packages/ui ──┐
//        │  (and apps/widget)            │                              │ (no import between ui and call)
//        └───────────────────────────────┴───────────► packages/call ───┴──► packages/contracts
//   apps/server ─────────────────────────────────────────────────► packages/contracts
//
// No app imports another app; no package imports an app; contracts imports no other workspace.
//
// Inside packages/call (docs/architecture.md "Package zones"), the zones stack the same way:
//
//   index.ts ─► guest/ ─┐ (no import between guest and agent)
//               agent/ ─┴─► room/ ─► composition.ts ─► media/ ─► ports/ ─► api/, xmpp/, state/, shared files
//
// api/, xmpp/ and media/ never import room/, guest/, agent/ or the composition; ports/ (the interfaces)
// imports no implementation; room/ never imports the engines on top of it.
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

/** Import patterns (gitignore style) that reach a zone of packages/call/src by a relative path. */
/** @param {string} zone */
const zone = (zone) => (zone === 'composition' ? ['**/composition.ts', '**/composition'] : [`**/${zone}/**`]);

/** The workspace ban of packages/call, repeated in each zone's rule (a later config replaces the options). */
const CALL_WORKSPACE = [...APPS.flatMap(app), ...pkg('ui'), ...pkg('call-react')];

/**
 * @param {string[]} zones folders of packages/call/src whose files the rule covers
 * @param {string[]} forbidden zones they never import
 * @param {string} why
 * @returns {import('eslint').Linter.Config}
 */
function callZone(zones, forbidden, why) {
  return forbid(
    zones.map((name) => `packages/call/src/${name}/**/*.ts`),
    [...CALL_WORKSPACE, ...forbidden.flatMap(zone)],
    `packages/call/src/${zones.join('/, ')}/: ${why} (docs/architecture.md "Package zones").`,
  );
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
    CALL_WORKSPACE,
    'packages/call imports only packages/contracts (docs/architecture.md "Layers").',
  ),
  // the zones inside packages/call (a later config replaces the rule's options: the workspace ban is repeated)
  callZone(['api', 'xmpp', 'media'], ['room', 'guest', 'agent', 'composition'], 'the transports never import the engines or their composition'),
  callZone(['ports'], ['media', 'room', 'guest', 'agent', 'composition'], 'the port interfaces import no implementation'),
  callZone(['room'], ['guest', 'agent'], 'the call-room core never imports the engines on top of it'),
  callZone(['guest'], ['agent'], 'the guest engine never imports the agent one'),
  callZone(['agent'], ['guest'], 'the agent engine never imports the guest one'),
  forbid(
    ['packages/ui/**/*.ts', 'packages/ui/**/*.tsx'],
    [...APPS.flatMap(app), ...pkg('call'), ...pkg('call-react')],
    'packages/ui imports only packages/contracts (docs/architecture.md "Layers").',
  ),
  // the in-call UI layer sits on the engine and the components, and reads the engine's types only, so that
  // no component loads the engine with the guest's first screen (docs/architecture.md "In-call UI")
  {
    ...forbid(
      ['packages/call-react/**/*.ts', 'packages/call-react/**/*.tsx'],
      [...APPS.flatMap(app), '**/packages/call/**', '**/call/src/**', '@lobby/call/*'],
      'packages/call-react imports @lobby/call (its types), @lobby/ui and contracts only, never an app (docs/architecture.md "Layers").',
    ),
  },
  {
    files: ['packages/call-react/**/*.ts', 'packages/call-react/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: '@lobby/call', allowTypeImports: true, message: 'packages/call-react reads the engine\'s types only: the app hands it the engine (docs/architecture.md "In-call UI").' }] },
      ],
    },
  },
  ...APPS.map((name) =>
    forbid(
      [`apps/${name}/**/*.ts`, `apps/${name}/**/*.tsx`],
      [...APPS.filter((other) => other !== name).flatMap(app), ...(name === 'server' ? [...pkg('call'), ...pkg('ui')] : [])],
      `apps/${name} may import packages only, never another app${name === 'server' ? ' (and the server no browser package)' : ''} (docs/architecture.md "Layers").`,
    ),
  ),
  // Inside the two React apps, src/app/ is the root that composes everything (providers, routes, dev
  // fixtures): the features, the journey and the shared state (src/state/) never import it back. The entry
  // points import it: main.tsx, and the guest's server build entry-server.tsx (its first screen).
  // (A later config replaces the rule's options for the files it matches, so the cross-app ban is repeated.)
  ...['guest', 'console'].map((name) => ({
    ...forbid(
      [`apps/${name}/src/**/*.ts`, `apps/${name}/src/**/*.tsx`],
      [...APPS.filter((other) => other !== name).flatMap(app), ...ROOT],
      `apps/${name}: only src/app/ and main.tsx import the app's root (src/app/); shared state lives in src/state/ (docs/architecture.md "Layers").`,
    ),
    ignores: [`apps/${name}/src/app/**`, `apps/${name}/src/main.tsx`, `apps/${name}/src/entry-server.tsx`],
  })),
];
