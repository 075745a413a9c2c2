// DEV ONLY (the apps' dev fixtures import it behind `import.meta.env.DEV`): a moving canvas picture of a
// person that stands in for the other side's camera, so that the call screens can be looked at without a
// server. `@lobby/ui/dev`, not part of the main entry.

export interface FakePersonLook {
  /** the background gradient, top-left to bottom-right */
  background: [string, string];
  face: string;
  shirt: string;
  /** a window-like rectangle behind the person (x, y, width, height, colour) */
  window?: { x: number; y: number; width: number; height: number; colour: string };
}

/** A 1280×720 30 fps stream of a swaying person; null where canvas capture is not available. */
export function fakePersonStream(look: FakePersonLook): MediaStream | null {
  const canvas = document.createElement('canvas');
  canvas.width = 1280;
  canvas.height = 720;
  const ctx = canvas.getContext('2d');
  if (!ctx || typeof canvas.captureStream !== 'function') return null;
  const draw = (time: number) => {
    const gradient = ctx.createLinearGradient(0, 0, 1280, 720);
    gradient.addColorStop(0, look.background[0]);
    gradient.addColorStop(1, look.background[1]);
    ctx.fillStyle = gradient;
    ctx.fillRect(0, 0, 1280, 720);
    if (look.window) {
      ctx.fillStyle = look.window.colour;
      ctx.fillRect(look.window.x, look.window.y, look.window.width, look.window.height);
    }
    const sway = Math.sin(time / 850) * 9;
    ctx.fillStyle = look.face;
    ctx.beginPath();
    ctx.arc(640 + sway, 300, 112, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = look.shirt;
    ctx.beginPath();
    ctx.ellipse(640 + sway, 695, 305, 265, 0, Math.PI, 0);
    ctx.fill();
    requestAnimationFrame(draw);
  };
  requestAnimationFrame(draw);
  return canvas.captureStream(30);
}
