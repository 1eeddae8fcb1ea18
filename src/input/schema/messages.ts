/** Messages shared by the schemas of both surfaces. */

export function addressOnlyMessage(address: string): string {
  return `has the address ${JSON.stringify(address)} but no coordinates; geocoding is not available yet, so add coordinates for it`;
}
