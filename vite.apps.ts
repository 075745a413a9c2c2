import { defineConfig, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The build of both browser apps (apps/guest at `/`, apps/console at `/console/`), in one place.
// Everything the browser talks to lives behind nginx and the Lobby server (127.0.0.1:8080); the dev
// server forwards it so the app sees one origin, as in production.
const server = 'http://127.0.0.1:8080';

/**
 * react-router 7's package exports point at its development build only; production builds use the
 * production build beside it (no dev warnings; smaller). Only for an app that imports react-router.
 */
function reactRouterProduction(appDir: string): string {
  return join(dirname(createRequire(join(appDir, 'package.json')).resolve('react-router/package.json')), 'dist/production/index.mjs');
}

export function lobbyAppConfig(options: {
  base: string;
  appDir: string;
  reactRouter?: boolean;
  /** the app's own module replacements (the guest's translation layer for react-i18next) */
  aliases?: { find: RegExp; replacement: string }[];
  /**
   * The app has a server build too (`vite build --ssr`, the guest's first screen: docs/architecture.md "The
   * guest page"): the client build writes its manifest (dist/.vite/manifest.json: which chunk and CSS each
   * module is in), and the server build bundles the workspace's packages (TypeScript, CSS modules).
   */
  serverBuild?: boolean;
}) {
  return defineConfig(({ mode, isSsrBuild }): UserConfig => ({
    base: options.base,
    plugins: [react()],
    resolve: {
      alias: [
        ...(options.aliases ?? []),
        ...(mode === 'production' && options.reactRouter
          ? [{ find: /^react-router$/, replacement: reactRouterProduction(options.appDir) }]
          : []),
      ],
    },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      // stanza and janus-gateway are only ever reached through import(): they land in their own chunks.
      chunkSizeWarningLimit: 400,
      // Every browser that can place a WebRTC call supports <link rel=modulepreload>.
      modulePreload: { polyfill: false },
      manifest: !!options.serverBuild && !isSsrBuild,
      copyPublicDir: !isSsrBuild,
    },
    ...(options.serverBuild ? { ssr: { noExternal: [/^@lobby\//] } } : {}),
    server: {
      host: '127.0.0.1',
      proxy: {
        // '/janus-http' before '/janus': Vite matches the first prefix that fits.
        '/janus-http': { target: server, changeOrigin: true },
        '/janus': { target: server, changeOrigin: true, ws: true },
        '/xmpp-websocket': { target: server, changeOrigin: true, ws: true },
        '/api': { target: server, changeOrigin: true },
      },
    },
    preview: { host: '127.0.0.1' },
  }));
}
