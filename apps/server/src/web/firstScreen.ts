// `/` with the guest's first screen in the page (docs/architecture.md "The guest page"): the guest app's
// server build renders the selection screen from the company's details, and the page carries the details,
// so the screen paints with the HTML and the app takes it over without asking for them.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { FirstScreenData, FirstScreenRenderer } from '@lobby/contracts/firstScreen';
import type { Config } from '../config.ts';
import type { Services } from '../services/index.ts';
import type { App } from '../typebox.ts';
import { resolveCompany } from '../services/guests.ts';
import { CompanyDetailsAnswer, companyDetailsAnswer } from '../services/companyDetails.ts';
import { firstScreenPage, type BuildManifest } from './firstScreenPage.ts';

/**
 * The guest build's server module, loaded once at start-up; null (and said in the log) when it is not
 * built or does not load: `/` is then the page as built, which renders everything in the browser.
 */
export async function loadFirstScreenRenderer(entry: string, log: FastifyBaseLogger): Promise<FirstScreenRenderer | null> {
  if (!fs.existsSync(entry)) {
    log.warn({ entry }, 'guest first screen: the guest app\'s server build is missing (run `npm run build`); `/` is served without its first screen');
    return null;
  }
  try {
    const module = (await import(pathToFileURL(entry).href)) as Partial<FirstScreenRenderer>;
    if (typeof module.renderFirstScreen !== 'function') throw new Error('it exports no renderFirstScreen');
    return { renderFirstScreen: module.renderFirstScreen };
  } catch (error) {
    log.error({ entry, err: error }, 'guest first screen: the guest app\'s server build does not load; `/` is served without its first screen');
    return null;
  }
}

/** A file of the build read again only when it changed (a new build while the server runs). */
function builtFile<T>(file: string, parse: (text: string) => T): () => T | null {
  let cached: { mtimeMs: number; value: T } | null = null;
  return () => {
    try {
      const { mtimeMs } = fs.statSync(file);
      if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, value: parse(fs.readFileSync(file, 'utf8')) };
      return cached.value;
    } catch {
      return null;
    }
  };
}

/**
 * GET `/`: the guest page with its first screen when the company's gate can be decided
 * on the server (guest app, app/firstScreen.ts), else the page as built. Always `no-cache`: the screen
 * follows the company's settings and opening hours.
 */
export function registerGuestPage(app: App, config: Config, services: Services, renderer: FirstScreenRenderer | null): void {
  const template = builtFile(path.join(config.guestDist, 'index.html'), (text) => text);
  const manifest = builtFile(path.join(config.guestDist, '.vite', 'manifest.json'), (text) => JSON.parse(text) as BuildManifest);

  const asBuilt = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').sendFile('index.html', config.guestDist);

  async function page(request: FastifyRequest, reply: FastifyReply) {
    if (!renderer) return asBuilt(reply);
    const company = await resolveCompany(services, request);
    const page = template();
    if (!company || page === null) return asBuilt(reply);
    const details = await companyDetailsAnswer(services, company);
    let html: string | null = null;
    try {
      const screen = renderer.renderFirstScreen(details, { url: request.url, acceptLanguage: request.headers['accept-language'], now: new Date() });
      // the details as the API serializes them: the answer's schema, nothing else of the row
      const company = JSON.parse(reply.serializeInput(details, CompanyDetailsAnswer)) as unknown;
      if (screen) html = firstScreenPage(page, manifest() ?? {}, screen, { company, language: screen.language } satisfies FirstScreenData);
    } catch (error) {
      request.log.error({ err: error }, 'guest first screen: the render failed; the page is served without it');
    }
    if (html === null) return asBuilt(reply);
    return reply
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-language')
      .type('text/html; charset=utf-8')
      .send(html);
  }

  // (`/index.html` stays the file: the app shows its not-found screen there)
  app.get('/', page);
}
