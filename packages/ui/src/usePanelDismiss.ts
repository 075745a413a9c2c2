import { useCallback, useEffect, type RefObject } from 'react';

/**
 * How a panel over the call (chat, camera and sound, the agent's settings) closes: Escape pressed anywhere
 * in the call around it — inside the panel, on the button that opened it, on any other control of the
 * call, or with the focus nowhere — closes it, and so does its close button; either way the focus goes
 * back to the button that opened it (`openerId`), not to the page's start.
 * Returns the close to give the panel's close button.
 */
export function usePanelDismiss(panel: RefObject<HTMLElement | null>, onClose: () => void, openerId?: string): () => void {
  const close = useCallback(() => {
    onClose();
    if (openerId) document.getElementById(openerId)?.focus();
  }, [onClose, openerId]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // a control that used Escape itself (an open list) has prevented its default
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      // the call is the panel's <section> (the guest's call screen, the agent's active call)
      const call = panel.current?.closest('section');
      const target = event.target instanceof Node ? event.target : null;
      if (target !== document.body && !(call && target && call.contains(target))) return;
      // one press closes one panel (the agent can have its chat and its settings open)
      event.preventDefault();
      close();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [panel, close]);

  return close;
}
