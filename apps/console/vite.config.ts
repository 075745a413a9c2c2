import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The agents' console, served by the Lobby server under /console/. Everything the browser talks to lives behind the Lobby server (apps/server, 127.0.0.1:8080);
// the dev server forwards it so the app sees one origin, as in production.
const server = 'http://127.0.0.1:8080';

// react-router 7's package exports point at its development build only; production builds use the
// production build beside it (no dev warnings; smaller).
const reactRouterProduction = join(
  dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

export default defineConfig(({ mode }) => ({
  base: '/console/',
  plugins: [react()],
  resolve: {
    alias: mode === 'production' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // stanza and janus-gateway are only ever reached through import(): they land in their own chunks.
    chunkSizeWarningLimit: 400,
    // Every browser that can place a WebRTC call supports <link rel=modulepreload>.
    modulePreload: { polyfill: false },
  },
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
