/**
 * Google's encoded polyline format with 6 decimals ("polyline6"), which Valhalla's `shape` uses:
 * each value is the difference from the previous one, ×1e6, zig-zag signed, sent in 5-bit chunks
 * with 63 added (0x20 marks "more chunks follow"); latitude before longitude.
 */

/** [lng, lat] positions (GeoJSON order) of an encoded polyline. */
export function decodePolyline(encoded: string, precision = 6): [number, number][] {
  const factor = 10 ** precision;
  const positions: [number, number][] = [];
  let index = 0;
  let lat = 0;
  let lng = 0;
  const nextValue = (): number => {
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      if (index >= encoded.length) throw new Error('the polyline ends in the middle of a value');
      byte = encoded.charCodeAt(index++) - 63;
      result |= (byte & 0x1f) << shift;
      shift += 5;
    } while (byte >= 0x20);
    return result & 1 ? ~(result >> 1) : result >> 1;
  };
  while (index < encoded.length) {
    lat += nextValue();
    lng += nextValue();
    positions.push([lng / factor, lat / factor]);
  }
  return positions;
}

/** The inverse of decodePolyline (tests and fake servers write shapes with it). */
export function encodePolyline(positions: readonly (readonly [number, number])[], precision = 6): string {
  const factor = 10 ** precision;
  let out = '';
  let lastLat = 0;
  let lastLng = 0;
  const put = (value: number): void => {
    let rest = value < 0 ? ~(value << 1) : value << 1;
    while (rest >= 0x20) {
      out += String.fromCharCode((0x20 | (rest & 0x1f)) + 63);
      rest >>= 5;
    }
    out += String.fromCharCode(rest + 63);
  };
  for (const [lng, lat] of positions) {
    const latE = Math.round(lat * factor);
    const lngE = Math.round(lng * factor);
    put(latE - lastLat);
    put(lngE - lastLng);
    lastLat = latE;
    lastLng = lngE;
  }
  return out;
}
