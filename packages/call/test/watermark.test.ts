import { describe, expect, it } from 'vitest';
import { watermarkBox } from '../src/media/watermark.ts';

describe('watermarkBox', () => {
  it('when the frame is 640×480, then the mark sits inside the bottom-end corner', () => {
    const box = watermarkBox(640, 480);
    expect(box.x + box.w).toBeLessThan(640);
    expect(box.y + box.h).toBeLessThan(480);
    expect(box.x).toBeGreaterThan(320);
    expect(box.y).toBeGreaterThan(240);
  });

  it('when the frame is tiny, then the mark keeps a readable minimum size', () => {
    const box = watermarkBox(160, 120);
    expect(box.w).toBeGreaterThanOrEqual(80);
    expect(box.h).toBeGreaterThanOrEqual(24);
  });
});
