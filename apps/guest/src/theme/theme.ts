// The company's look (docs/guest-journey.md) as CSS custom properties, set once on the root element.
// Components only ever read the variables (see global.css), never the company object.
import type { Company } from '../api/company.ts';

export const DEFAULT_BACKGROUND = '#707070';

/** Relative luminance of a #rgb/#rrggbb colour, or null when it is not one. */
export function luminance(color: string): number | null {
  const hex = color.trim().replace(/^#/, '');
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  if (!/^[0-9a-f]{6}$/i.test(full)) return null;
  const channel = (i: number) => {
    const v = parseInt(full.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/** A readable text colour on `background` when the company gives none. */
export function readableOn(background: string): string {
  const l = luminance(background);
  return l !== null && l > 0.45 ? '#14161a' : '#ffffff';
}

function cssUrl(url: string): string {
  return `url("${url.replace(/["\\\n]/g, (c) => (c === '\n' ? '' : `\\${c}`))}")`;
}

/** The custom properties of a company's look. */
export function themeVariables(company: Partial<Company>): Record<string, string> {
  const background = company.backgroundColor || DEFAULT_BACKGROUND;
  const vars: Record<string, string> = {
    '--lobby-bg': background,
    '--lobby-text': company.textColor || readableOn(background),
    '--lobby-bg-image': company.backgroundImgUrl ? cssUrl(company.backgroundImgUrl) : 'none',
  };
  if (company.categoryBackgroundColor) {
    vars['--lobby-accent'] = company.categoryBackgroundColor;
    vars['--lobby-accent-text'] = company.categoryTextColor || readableOn(company.categoryBackgroundColor);
  } else if (company.categoryTextColor) {
    vars['--lobby-accent-text'] = company.categoryTextColor;
  }
  if (company.fontFamily) vars['--lobby-font'] = `${company.fontFamily}, var(--lobby-font-system)`;
  if (company.waterMarkLogo) vars['--lobby-watermark'] = cssUrl(company.waterMarkLogo);
  return vars;
}

const applied = new Set<string>();

/** Sets the look on `root` (default `<html>`), the favicon and the theme colour. Idempotent. */
export function applyTheme(company: Partial<Company>, root: HTMLElement = document.documentElement): void {
  const vars = themeVariables(company);
  for (const name of applied) if (!(name in vars)) root.style.removeProperty(name);
  applied.clear();
  for (const [name, value] of Object.entries(vars)) {
    root.style.setProperty(name, value);
    applied.add(name);
  }
  const doc = root.ownerDocument;
  if (company.faviconUrl) {
    let link = doc.querySelector<HTMLLinkElement>('link[rel~="icon"]');
    if (!link) {
      link = doc.createElement('link');
      link.rel = 'icon';
      doc.head.appendChild(link);
    }
    link.href = company.faviconUrl;
  }
  doc.querySelector('meta[name="theme-color"]')?.setAttribute('content', vars['--lobby-bg'] ?? DEFAULT_BACKGROUND);
}
