// Is this page the widget's (docs/widget.md)? `?service=widget&origin=<the website's origin>` says so; the
// company's `widgetOrigins` must list that origin before the page talks to it or labels calls 'widget'.
import type { Company } from '../../api/company.ts';

export interface WidgetContext {
  /** The website that embeds (or opened) this page, exactly as an origin. */
  origin: string;
  language: 'en' | 'ar' | null;
  assignment: number | null;
}

/** The widget parameters of a URL, or null when the page is the full call page (or the origin is malformed). */
export function readWidgetContext(search: string = window.location.search): WidgetContext | null {
  const params = new URLSearchParams(search);
  if (params.get('service') !== 'widget') return null;
  const origin = params.get('origin') ?? '';
  try {
    const parsed = new URL(origin);
    if ((parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.origin !== origin) return null;
  } catch {
    return null;
  }
  const lang = params.get('lang');
  const assignment = params.get('assignment');
  return {
    origin,
    language: lang === 'en' || lang === 'ar' ? lang : null,
    assignment: assignment && /^\d{1,9}$/.test(assignment) ? Number(assignment) : null,
  };
}

/** The company lets `origin` embed its call page. */
export function originAllowed(company: object | null | undefined, origin: string): boolean {
  const list = company && 'widgetOrigins' in company ? company.widgetOrigins : undefined;
  return Array.isArray(list) && list.includes(origin);
}

/** The serviceType for this page: 'widget' when opened by an allowed website's widget, else 'talk'. */
export function serviceTypeFor(company: Company | null | undefined, search: string = window.location.search): 'talk' | 'widget' {
  const context = readWidgetContext(search);
  return context && originAllowed(company, context.origin) ? 'widget' : 'talk';
}
