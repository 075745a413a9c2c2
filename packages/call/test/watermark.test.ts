import { describe, expect, it } from 'vitest';
import { watermarkBox } from '../src/media/watermark.ts';

describe('watermarkBox', () => {
  it('when the frame is 640×480, then the mark sits in the top-end corner, clear of a cover crop to 16:9', () => {
    const box = watermarkBox(640, 480);
    expect(box.x + box.w).toBeLessThan(640);
    expect(box.x).toBeGreaterThan(320);
    expect(box.y + box.h).toBeLessThan(240);
    // 4:3 shown in a 16:9 box with object-fit: cover loses 1/8 of the height at the top
    expect(box.y).toBeGreaterThanOrEqual(480 / 8 - 12);
  });

  it('when the frame is tiny, then the mark keeps a readable minimum size', () => {
    const box = watermarkBox(160, 120);
    expect(box.w).toBeGreaterThanOrEqual(80);
    expect(box.h).toBeGreaterThanOrEqual(24);
  });
});
