/**
 * Who is where on the call's stage, the same for the guest and the agent (docs/architecture.md "In-call
 * UI"): the participant shown large, the others in the column beside it, and a shared screen (large when
 * zoomed). Pure: the apps pass what the engine told them and place the result with @lobby/ui's pieces.
 */
import type { RemoteFeed } from '@lobby/call';

export interface StageInput<F extends RemoteFeed> {
  feeds: readonly F[];
  /** the display chosen to be shown large (the call status' mainUser), if any */
  mainUser: string | null;
  /** whether the shared screen is shown large (isZoomed) */
  zoomed: boolean;
  /** whose camera is large when nobody was chosen (the agent's console prefers the guest's) */
  preferred?: string;
}

export interface StageLayout<F extends RemoteFeed> {
  /** every camera, in arrival order */
  cameras: F[];
  /** the camera shown large, or null while nobody's camera has arrived */
  main: F | null;
  /** every other camera, in arrival order */
  others: F[];
  /** the preferred participant's camera, when it is here */
  preferredFeed: F | null;
  /** the shared screen, if anyone shares one */
  screen: F | null;
  /** the shared screen when it is shown large */
  zoomedScreen: F | null;
}

/** A shared screen is published under its sharer's display with this suffix (docs/protocol.md "Names"). */
export const SCREEN_SUFFIX = '-screen';

export function stageLayout<F extends RemoteFeed>({ feeds, mainUser, zoomed, preferred }: StageInput<F>): StageLayout<F> {
  const cameras = feeds.filter((f) => !f.display.endsWith(SCREEN_SUFFIX));
  const screen = feeds.find((f) => f.display.endsWith(SCREEN_SUFFIX)) ?? null;
  const preferredFeed = preferred === undefined ? null : (cameras.find((f) => f.display === preferred) ?? null);
  const main = cameras.find((f) => f.display === mainUser) ?? preferredFeed ?? cameras[0] ?? null;
  return {
    cameras,
    main,
    others: cameras.filter((f) => f !== main),
    preferredFeed,
    screen,
    zoomedScreen: screen && zoomed ? screen : null,
  };
}
