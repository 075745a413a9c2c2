import { booleanPointInPolygon, distance, point, polygon } from '@turf/turf';
import type { GeofenceZone, LocationOfService } from '@lobby/contracts';

type Ring = Array<[number, number]>;

/** GeoJSON wants a closed ring: repeat the first point when the admin did not. */
function closed(ring: Ring): Ring {
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (!first || !last) return ring;
  return first[0] === last[0] && first[1] === last[1] ? ring : [...ring, first];
}

function inZone(p: ReturnType<typeof point>, z: GeofenceZone): boolean {
  if (z.kind === 'circle') return distance(p, point([z.center.lng, z.center.lat]), { units: 'meters' }) <= z.radiusMeters;
  return booleanPointInPolygon(p, polygon([closed(z.coordinates)]));
}

function inLocationOfService(p: ReturnType<typeof point>, area: LocationOfService): boolean {
  try {
    return booleanPointInPolygon(p, { type: 'Feature', properties: {}, geometry: area as never });
  } catch {
    // A malformed stored area never lets anyone in.
    return false;
  }
}

/**
 * Whether a position is inside the company's service area: any of its zones, or its `locationOfService`
 * polygon. A company without either serves everywhere.
 */
export function isInside(lat: number, lng: number, zones: GeofenceZone[], area: LocationOfService | null): boolean {
  if (zones.length === 0 && !area) return true;
  const p = point([lng, lat]);
  return zones.some((z) => inZone(p, z)) || (area !== null && inLocationOfService(p, area));
}
