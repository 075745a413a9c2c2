import { describe, expect, it } from 'vitest';
import { streamWatermarkOf } from '../src/features/call/streamWatermark.ts';

describe('streamWatermarkOf', () => {
  it('when streamWatermark is hidden or unset, then no watermark is drawn', () => {
    expect(streamWatermarkOf({ name: 'Demo', streamWatermark: 'hidden' })).toBeNull();
    expect(streamWatermarkOf({ name: 'Demo' })).toBeNull();
  });

  it('when visible, then the logo is drawn if it is an http(s) image, else the company name', () => {
    expect(streamWatermarkOf({ name: 'Demo', streamWatermark: 'visible', waterMarkLogo: 'https://cdn.example/logo.png' })).toEqual({
      text: 'Demo',
      imageUrl: 'https://cdn.example/logo.png',
    });
    expect(streamWatermarkOf({ name: 'Demo', streamWatermark: 'visible', waterMarkLogo: 'javascript:alert(1)' })).toEqual({ text: 'Demo', imageUrl: null });
  });
});
