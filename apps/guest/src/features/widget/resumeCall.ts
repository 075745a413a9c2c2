// The next page of the website takes back the call its previous page carried (carriedCall.ts, docs/widget.md
// "Moving between pages"): as soon as the call page can call (the selection or preview screen, after the
// company's gate), the same call starts again, with no second report.
import type { CallActions } from '../../state/callActions.ts';
import type { GuestState, GuestStore } from '../../state/store.ts';
import { CARRY_MS, takeCarriedCall } from './carriedCall.ts';

const CAN_CALL = new Set<GuestState['screen']>(['selection', 'preview']);

export function resumeCarriedCall(store: GuestStore, actions: CallActions): void {
  const company = store.getState().company;
  const carried = company ? takeCarriedCall(company.id) : null;
  if (!carried) return;
  let done = false;
  const resume = (state: GuestState) => {
    if (done || !CAN_CALL.has(state.screen)) return;
    done = true;
    stop();
    clearTimeout(giveUp);
    state.setAssignment(carried.assignmentId);
    void actions.startCall(carried.kind, carried);
  };
  const stop = store.subscribe(resume);
  // a page that cannot call (closed hours meanwhile, another tab in a call): the call is not taken back
  const giveUp = setTimeout(() => {
    done = true;
    stop();
  }, CARRY_MS);
  resume(store.getState());
}
