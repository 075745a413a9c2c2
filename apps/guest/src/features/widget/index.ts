// The widget's guest side (docs/widget.md): the postMessage bridge when the page was opened by the website
// widget, and — on every call page — the notice when an agent answers while the page is hidden.
import type { GuestStore } from '../../state/store.ts';
import type { CallActions } from '../../state/callActions.ts';
import { bindAnsweredNotice } from './answeredNotice.ts';
import { bindWidgetBridge } from './bridge.ts';
import { readWidgetContext } from './context.ts';

export { serviceTypeFor } from './context.ts';
export { prefilledAnswers, widgetPrefill } from './bridge.ts';

export function mountWidgetFeatures(store: GuestStore, actions?: CallActions): void {
  bindAnsweredNotice(store);
  const context = readWidgetContext();
  if (context) bindWidgetBridge(store, context, undefined, actions);
}
