import { defineConfig } from 'vite';

// Library mode, one self-contained file: apps/widget/dist/widget.js, served by the Lobby server at /widget.js.
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2019',
    lib: { entry: 'src/widget.ts', name: 'LobbyWidget', formats: ['iife'], fileName: () => 'widget.js' },
    minify: true,
  },
});
