// The React side of the guest's translation layer (translator.ts): the one hook, typed by the English
// catalogues, with react-i18next's shape (`const { t, i18n } = useTranslation('journey')`). The guest's
// build gives it to @lobby/ui's components in place of react-i18next (vite.apps.ts `guestAliases`).
import { useMemo, useSyncExternalStore } from 'react';
import type { Translator, TranslateOptions } from './translator.ts';
import type en from './en.json';
import type journeyEn from './journey/en.json';
import type uiEn from '@lobby/ui/strings/en.json';

/** The guest's namespaces, typed by their English catalogues (the Arabic ones have the same keys). */
export interface Catalogues {
  translation: typeof en;
  journey: typeof journeyEn;
  ui: typeof uiEn;
}
export type Namespace = keyof Catalogues;

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
type Unplural<K extends string> =
  K extends `${infer Base}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? Base : K;
/** The keys of a namespace: every string's path, plural forms also by their base (`rating.star`). */
export type KeyOf<N extends Namespace> = Leaves<Catalogues[N]> | Unplural<Leaves<Catalogues[N]>>;
type NamespaceList<N> = N extends readonly Namespace[] ? N : N extends Namespace ? [N] : ['translation'];
/** The first namespace's keys bare, every listed namespace's as `ns:key`. */
type KeysOf<Ns extends readonly Namespace[]> =
  KeyOf<Ns[0]> | { [I in keyof Ns]: `${Ns[I]}:${KeyOf<Ns[I]>}` }[number];

export type TFunction<Ns extends readonly Namespace[] = ['translation']> = (
  key: KeysOf<Ns>,
  options?: TranslateOptions,
) => string;

export function translationHook(i18n: Translator) {
  return function useTranslation<const N extends Namespace | readonly Namespace[] = 'translation'>(ns?: N) {
    const list = (
      ns === undefined ? ['translation'] : typeof ns === 'string' ? [ns] : ns
    ) as readonly string[];
    const namespaces = list.join();
    // a new `t` on every language switch or added catalogue, so memos and effects that use it run again
    // (the server's render and the hydration read the same: the page's language is loaded before either)
    const version = useSyncExternalStore(i18n.subscribe, i18n.version, i18n.version);
    const t = useMemo<TFunction<NamespaceList<N>>>(() => {
      const within = namespaces.split(',');
      return (key, options) => i18n.t(key, options, within);
      // eslint-disable-next-line react-hooks/exhaustive-deps -- `version` is the reason for a new `t`
    }, [namespaces, version]);
    return { t, i18n };
  };
}
