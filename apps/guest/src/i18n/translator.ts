// The guest app's translation layer: what it used of i18next (i18next and react-i18next were
// ≈ 17 kB gzip of a 103 kB first load). Nested JSON catalogues per language and namespace, `ns:key`
// prefixes, `{{name}}` interpolation (not escaped: React escapes), plurals by `count` with i18next's
// suffixes (_zero … _other, from Intl.PluralRules; `_zero` is tried first for 0 in every language, as
// i18next does), a missing string falls back to English, then to the key. No React here (useTranslation.ts).

export type Tree = { readonly [key: string]: string | Tree };
export type Resources = Record<string, Record<string, Tree>>;
export interface TranslateOptions {
  /** picks the plural form (key_one, key_other, …) and is interpolated as {{count}} */
  count?: number;
  /** another language than the current one */
  lng?: string;
  [value: string]: string | number | null | undefined;
}

const RTL = new Set(['ar', 'he', 'fa', 'ur']);

export class Translator {
  #resources: Resources;
  #fallback: string;
  #listeners = new Set<() => void>();
  #version = 0;
  #plurals = new Map<string, Intl.PluralRules>();
  language: string;

  constructor(options: { resources: Resources; language: string; fallback: string }) {
    this.#resources = options.resources;
    this.language = options.language;
    this.#fallback = options.fallback;
  }

  /** The string of `key` (`ns:key` picks the namespace; else the first of `namespaces` that has it). */
  t(key: string, options: TranslateOptions = {}, namespaces: readonly string[] = ['translation']): string {
    const colon = key.indexOf(':');
    const ns = colon > 0 ? [key.slice(0, colon)] : namespaces;
    const path = colon > 0 ? key.slice(colon + 1) : key;
    for (const lng of new Set([options.lng ?? this.language, this.#fallback]))
      for (const n of ns) {
        const found = this.#resolve(lng, n, path, options.count);
        if (found !== undefined) return interpolate(found, options);
      }
    return path;
  }

  changeLanguage(language: string): void {
    if (language === this.language) return;
    this.language = language;
    this.#changed();
  }

  dir(language: string = this.language): 'ltr' | 'rtl' {
    return RTL.has(language.split('-')[0]!) ? 'rtl' : 'ltr';
  }

  hasResourceBundle(language: string, ns: string): boolean {
    return this.#resources[language]?.[ns] !== undefined;
  }

  /** Adds (or deep-merges into) a catalogue; components showing its language render again. */
  addResourceBundle(language: string, ns: string, tree: Tree): void {
    const lang = (this.#resources[language] ??= {});
    lang[ns] = merge(lang[ns] ?? {}, tree);
    this.#changed();
  }

  /** For useSyncExternalStore: called on every language switch or added catalogue. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** Changes whenever what `t` answers may have changed. */
  version = (): number => this.#version;

  #changed() {
    this.#version++;
    for (const listener of this.#listeners) listener();
  }

  #resolve(lng: string, ns: string, path: string, count: number | undefined): string | undefined {
    const tree = this.#resources[lng]?.[ns];
    if (!tree) return undefined;
    if (typeof count === 'number') {
      if (count === 0) {
        const zero = lookup(tree, `${path}_zero`);
        if (zero !== undefined) return zero;
      }
      const form = lookup(tree, `${path}_${this.#pluralRules(lng).select(count)}`);
      if (form !== undefined) return form;
    }
    return lookup(tree, path);
  }

  #pluralRules(lng: string): Intl.PluralRules {
    let rules = this.#plurals.get(lng);
    if (!rules) this.#plurals.set(lng, (rules = new Intl.PluralRules(lng)));
    return rules;
  }
}

function lookup(tree: Tree, path: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of path.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function interpolate(text: string, values: TranslateOptions): string {
  if (!text.includes('{{')) return text;
  return text.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (_, name: string) => {
    const value = values[name];
    return value == null ? '' : String(value);
  });
}

function merge(into: Tree, from: Tree): Tree {
  const out: Record<string, string | Tree> = { ...into };
  for (const [key, value] of Object.entries(from)) {
    const current = out[key];
    out[key] =
      typeof value !== 'string' && current !== undefined && typeof current !== 'string'
        ? merge(current, value)
        : value;
  }
  return out;
}
