// The widget's look, inside its shadow root so the website's CSS and ours never meet. Its corner is a
// physical one (right, or left with data-position="left"): the panel stays where it opened when the
// website switches the language to Arabic.
const safeColor = (value: string, fallback: string) => (/^(#[0-9a-f]{3,8}|[a-z]+|rgba?\([\d\s.,%]+\))$/i.test(value.trim()) ? value.trim() : fallback);

export function panelCss(background: string, text: string): string {
  const bg = safeColor(background, '#4a4a4a');
  const fg = safeColor(text, '#ffffff');
  return `
:host { all: initial; position: fixed; bottom: 20px; right: 20px; z-index: 2147483000; font: 15px/1.4 system-ui, sans-serif; }
:host(.left) { right: auto; left: 20px; }
.launcher { display: inline-flex; align-items: center; gap: 8px; min-height: 48px; padding: 0 18px; border: 0; border-radius: 24px; background: ${bg}; color: ${fg}; font: inherit; font-weight: 600; cursor: pointer; box-shadow: 0 4px 16px rgb(0 0 0 / 25%); float: right; }
:host(.left) .launcher { float: left; }
.launcher:focus-visible, .icon:focus-visible { outline: 3px solid ${bg}; outline-offset: 3px; }
.launcher.inline { float: none; margin: 0 auto; }
.panel { width: min(400px, calc(100vw - 40px)); height: min(640px, calc(100vh - 110px)); margin-block-end: 12px; display: flex; flex-direction: column; border-radius: 12px; overflow: hidden; background: #fff; box-shadow: 0 8px 32px rgb(0 0 0 / 30%); }
.panel[hidden] { display: none; }
.bar { display: flex; align-items: center; gap: 4px; padding: 6px 8px; background: ${bg}; color: ${fg}; }
.title { flex: 1; font-weight: 600; padding-inline-start: 6px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.icon { width: 36px; height: 36px; border: 0; border-radius: 18px; background: transparent; color: inherit; font: inherit; cursor: pointer; }
.icon:hover { background: rgb(255 255 255 / 15%); }
.body { flex: 1; display: flex; flex-direction: column; justify-content: center; }
iframe { flex: 1; width: 100%; border: 0; }
.note { margin: 16px; color: #222; text-align: center; }
`;
}

/**
 * Gives the shadow root its styles as a constructed stylesheet, which a website's `style-src` does not
 * govern (an inline <style> needs 'unsafe-inline' there); a browser without them gets the <style>.
 */
export function adoptStyles(root: ShadowRoot, css: string): void {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
    return;
  }
  const style = document.createElement('style');
  style.textContent = css;
  root.prepend(style);
}
