// The guest page with its first screen in it (docs/architecture.md "The guest page"): the guest build's
// index.html with the screen's markup in #root, the company's details in a JSON block, the language and
// look on <html>, and the screen's chunk and CSS linked in <head>. Pure string work on the built page.
import { FIRST_SCREEN_DATA_ID, type FirstScreen } from '@lobby/contracts/firstScreen';

/** The client build's manifest (dist/.vite/manifest.json), the parts read here. */
export type BuildManifest = Record<string, { file: string; css?: string[]; imports?: string[] }>;

const ROOT = '<div id="root"></div>';
const HTML_TAG = /<html\b[^>]*>/;
const TITLE = /<title>[^<]*<\/title>/;
// the details' preload (and its comment): the page carries them, a request would be "preloaded but not used"
const DETAILS_PRELOAD = /[ \t]*(<!--[^>]*-->\s*)?<link rel="preload" href="\/api\/company\/details"[^>]*>\n?/;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * JSON that cannot end its `<script>` element nor start a comment in it: every `<` as `\u003c` (still the
 * same JSON), and the two line separators JavaScript once refused in strings.
 */
export function jsonInScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * The company's look as a style attribute's value. A value that could end its declaration (`;`, braces)
 * or the attribute is left out: the app sets every variable on its own anyway, one property at a time.
 */
export function themeStyle(theme: Record<string, string>): string {
  return Object.entries(theme)
    .filter(([name, value]) => /^--[a-z0-9-]+$/.test(name) && !/[;{}<>\n\r]/.test(value))
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
}

/** The files of `modules` and of the chunks they import, from the manifest: scripts and stylesheets. */
export function chunkFiles(manifest: BuildManifest, modules: string[]): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string, top: boolean) => {
    // the entry (index.html) is in the page already, with its CSS
    if (seen.has(key) || key === 'index.html') return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    if (top || chunk.file.endsWith('.js')) scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported, false);
  };
  for (const module of modules) visit(module, true);
  return { scripts: [...scripts], styles: [...styles] };
}

/**
 * The page with `screen` in it, or null when `template` is not the page this expects (no empty #root):
 * then the page is served as it is.
 */
export function firstScreenPage(template: string, manifest: BuildManifest, screen: FirstScreen, data: unknown): string | null {
  if (!template.includes(ROOT) || !HTML_TAG.test(template)) return null;
  const style = themeStyle(screen.theme);
  const html = `<html lang="${escapeHtml(screen.language)}" dir="${escapeHtml(screen.dir)}"${style ? ` style="${escapeHtml(style)}"` : ''}>`;
  const { scripts, styles } = chunkFiles(manifest, screen.modules);
  const linked = (file: string) => template.includes(`"/${file}"`);
  const head = [
    ...styles.filter((file) => !linked(file)).map((file) => `    <link rel="stylesheet" crossorigin href="/${escapeHtml(file)}">`),
    ...scripts.filter((file) => !linked(file)).map((file) => `    <link rel="modulepreload" crossorigin href="/${escapeHtml(file)}">`),
  ].join('\n');
  return template
    .replace(HTML_TAG, () => html)
    .replace(TITLE, () => `<title>${escapeHtml(screen.title)}</title>`)
    .replace(DETAILS_PRELOAD, '')
    .replace('</head>', () => `${head}\n  </head>`)
    .replace(
      ROOT,
      () => `<div id="root">${screen.html}</div>\n    <script type="application/json" id="${FIRST_SCREEN_DATA_ID}">${jsonInScript(data)}</script>`,
    );
}
