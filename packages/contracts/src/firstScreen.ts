// The guest's first screen sent in the page (docs/architecture.md "The guest page"): the guest app's
// server build (apps/guest/src/entry-server.tsx) renders it, the Lobby server puts it into the page it
// answers for `/`, and the app in the browser takes it over. The server never imports the guest app:
// it loads the built module by path and reads it through these types.

/** The id of the page's `<script type="application/json">` block that carries the company's details. */
export const FIRST_SCREEN_DATA_ID = 'lobby-first-screen';

/** What the block holds: the details as `GET /api/company/details` answers them, and the language rendered. */
export interface FirstScreenData<Company = unknown> {
  company: Company;
  language: 'en' | 'ar';
}

/** One rendered first screen. */
export interface FirstScreen {
  /** the markup inside `#root` (React's server render: everything in it is escaped) */
  html: string;
  language: 'en' | 'ar';
  dir: 'ltr' | 'rtl';
  /** the document's title, plain text */
  title: string;
  /** the company's look as CSS custom properties (the app sets the same on `<html>`) */
  theme: Record<string, string>;
  /** the source modules whose chunks (and their CSS) the screen needs, as the client build's manifest names them */
  modules: string[];
}

/** What the guest's server build exports. */
export interface FirstScreenRenderer {
  /**
   * The first screen for `company` (the details as the API answers them), or null when the server cannot
   * decide it (inactive, closed, a location check or a welcome form first, a preview screen…): then the
   * page is served without it. `url` is the request's path and query, `acceptLanguage` its header, `now`
   * the moment of the request.
   */
  renderFirstScreen(company: unknown, request: { url: string; acceptLanguage?: string; now: Date }): FirstScreen | null;
}
