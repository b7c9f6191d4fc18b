import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { LOCALE_PART_PREFIX, SCREEN_SECTIONS } from './src/i18n/message-parts.ts';

/**
 * `virtual:fairex-messages/<language>/<core|screens>`: one part of a locale file (src/i18n/message-parts.ts),
 * so that a page downloads only the sections its screens use.
 */
function messageParts(): Plugin {
  const resolved = '\0fairex-messages:';
  return {
    name: 'fairex-message-parts',
    resolveId(id) {
      return id.startsWith(LOCALE_PART_PREFIX) ? resolved + id.slice(LOCALE_PART_PREFIX.length) : null;
    },
    async load(id) {
      if (!id.startsWith(resolved)) return null;
      const match = /^([a-z]+)\/(core|screens)$/.exec(id.slice(resolved.length));
      if (match === null) throw new Error(`Unknown message part ${id.slice(resolved.length)}`);
      const [, language, part] = match as unknown as [string, string, 'core' | 'screens'];
      const file = fileURLToPath(new URL(`./src/i18n/locales/${language}.json`, import.meta.url));
      this.addWatchFile(file);
      const all = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      const picked = Object.fromEntries(
        Object.entries(all).filter(([section]) => SCREEN_SECTIONS.includes(section) === (part === 'screens')),
      );
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(picked))});`;
    },
  };
}

// The API server listens on 8080 in development; the dev server forwards both the HTTP API and the
// socket.io transport to it so that the browser sees one origin, exactly as in production where the
// server itself serves the built app.
const apiTarget = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), messageParts()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // React in its own long-lived chunk. antd is left to the bundler's code splitting, so that a page
    // loads only the components it uses (one antd chunk held every component of every screen, the back
    // office's included, and every page loaded all of it).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ }],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
});
