/**
 * The company's stream watermark (streamWatermark, waterMarkLogo; docs/guest-journey.md), drawn into the
 * camera video itself, so that whoever receives the stream — the agent, a supervisor, the recording —
 * sees it, not only the page that shows it. The camera plays into a <video> element; every frame is
 * drawn onto a canvas with the mark in the top-end corner, and the canvas is what is sent.
 */

import type { WatermarkOptions } from '../ports/media.ts';

export type { WatermarkOptions };

export interface Watermarked {
  /** the marked video track to publish */
  track: MediaStreamTrack;
  /** stops drawing and the marked track (not the camera's own track) */
  stop(): void;
}

/**
 * The mark's box in a frame of `width`×`height`: top-end corner, about a fifth of the width. It keeps
 * a tenth of the height from the top, so that a tile showing a 4:3 camera in a wide box (object-fit:
 * cover crops top and bottom) still shows it, and it stays clear of self-views in bottom corners.
 */
export function watermarkBox(width: number, height: number): { x: number; y: number; w: number; h: number } {
  const w = Math.round(Math.max(80, width * 0.22));
  const h = Math.round(Math.max(24, height * 0.09));
  const margin = Math.round(width * 0.03);
  return { x: width - w - margin, y: Math.round(height * 0.1), w, h };
}

/** True where a canvas can be captured as a video track (browsers; not server-side tests). */
export function canWatermark(): boolean {
  return typeof document !== 'undefined' && typeof HTMLCanvasElement !== 'undefined' && 'captureStream' in HTMLCanvasElement.prototype;
}

export function watermarkTrack(source: MediaStreamTrack, options: WatermarkOptions): Watermarked {
  const fps = options.fps ?? 30;
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = new MediaStream([source]);
  void video.play().catch(() => undefined);
  const settings = source.getSettings();
  const canvas = document.createElement('canvas');
  canvas.width = settings.width ?? 640;
  canvas.height = settings.height ?? 480;
  const context = canvas.getContext('2d');
  let logo: HTMLImageElement | null = null;
  if (options.imageUrl) {
    const image = new Image();
    image.crossOrigin = 'anonymous'; // without CORS the image is not drawn (it would taint the canvas)
    image.onload = () => (logo = image);
    image.src = options.imageUrl;
  }
  const draw = () => {
    if (!context || video.readyState < 2) return;
    if (video.videoWidth && (canvas.width !== video.videoWidth || canvas.height !== video.videoHeight)) {
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
    }
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const box = watermarkBox(canvas.width, canvas.height);
    context.save();
    context.globalAlpha = 0.6;
    context.fillStyle = '#ffffff';
    context.fillRect(box.x, box.y, box.w, box.h);
    context.globalAlpha = 0.9;
    if (logo) {
      const scale = Math.min((box.w - 8) / logo.width, (box.h - 8) / logo.height);
      const w = logo.width * scale;
      const h = logo.height * scale;
      context.drawImage(logo, box.x + (box.w - w) / 2, box.y + (box.h - h) / 2, w, h);
    } else {
      context.fillStyle = '#1b1d22';
      context.font = `700 ${Math.round(box.h * 0.5)}px sans-serif`;
      context.textAlign = 'center';
      context.textBaseline = 'middle';
      context.fillText(options.text, box.x + box.w / 2, box.y + box.h / 2, box.w - 8);
    }
    context.restore();
  };
  // a timer, not requestAnimationFrame: animation frames stop in background pages
  const timer = setInterval(draw, Math.round(1000 / fps));
  const track = canvas.captureStream(fps).getVideoTracks()[0]!;
  // the camera ending (unplugged) ends the marked track too
  const onEnded = () => stop();
  source.addEventListener('ended', onEnded);
  const stop = () => {
    clearInterval(timer);
    source.removeEventListener('ended', onEnded);
    track.stop();
    video.srcObject = null;
  };
  return { track, stop };
}
