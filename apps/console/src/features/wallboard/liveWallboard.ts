// The wall board's figures, kept live (docs/api.md "Wall board"): read at once, again on each `wallboard`
// event of the console's event stream (a call opened, answered, ended or booked; an agent's availability),
// after a `resync`, and every 15 s for the agents whose console closed (no event says so).
import { useEffect, useState } from 'react';
import { apiRequest } from '@lobby/call/http';
import { CONSOLE_EVENT_RESYNC, CONSOLE_EVENT_WALLBOARD, type Wallboard } from '@lobby/contracts';

const REFRESH_MS = 15_000;

export function useLiveWallboard(): { board: Wallboard | null; failed: boolean } {
  const [board, setBoard] = useState<Wallboard | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    let reading = false;
    let again = false;
    // one read at a time; events arriving meanwhile ask for one more read after it
    const read = async () => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        const next = await apiRequest<Wallboard>('/console/wallboard');
        if (live) {
          setBoard(next);
          setFailed(false);
        }
      } catch {
        if (live) setFailed(true);
      } finally {
        reading = false;
        if (again && live) {
          again = false;
          void read();
        }
      }
    };
    void read();
    const source = new EventSource('/api/console/events', { withCredentials: true });
    source.addEventListener(CONSOLE_EVENT_WALLBOARD, () => void read());
    source.addEventListener(CONSOLE_EVENT_RESYNC, () => void read());
    const timer = setInterval(() => void read(), REFRESH_MS);
    return () => {
      live = false;
      source.close();
      clearInterval(timer);
    };
  }, []);
  return { board, failed };
}
