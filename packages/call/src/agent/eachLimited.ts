/**
 * Runs `work` on every item with at most `limit` running at once, and resolves when all have settled
 * (each `work` handles its own failure). Why: a console that joins a thousand guests' rooms
 * one after the other waits a round trip per room (StanzaJS resolves a join on its own presence back);
 * all at once would send a thousand joins in one burst. A few in flight keep the link busy and the
 * server's queue short.
 */
export async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
