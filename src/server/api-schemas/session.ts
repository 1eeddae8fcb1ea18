/** The web application's session as GET /session answers it: zod schemas api-types.ts derives its types from. */
import { z } from 'zod';

/** What the page's map draws its streets from (`attribution` is HTML, as the tile source asks for it). */
export const tilesViewSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('raster'), url: z.string(), attribution: z.string() }),
  z.object({ kind: z.literal('pmtiles'), url: z.string(), attribution: z.string(), maxZoom: z.number() }),
]);

/** What GET /session answers to a signed-in browser. */
export const sessionViewSchema = z.object({
  owner: z.string(),
  csrfToken: z.string(),
  expiresAt: z.string(),
  openAccess: z.boolean(),
  /** The map's basemap: raster tiles (a URL template) or a PMTiles extract the service serves; null: a plain background. */
  tiles: tilesViewSchema.nullable(),
  timeLimitSeconds: z.number(),
});
