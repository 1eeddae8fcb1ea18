/** Messages shared by the schemas and the loading steps of both surfaces. */

export function addressOnlyMessage(address: string): string {
  return `has the address ${JSON.stringify(address)} but no coordinates; add coords, or have it geocoded: --gazetteer <file.csv>, or --geocoder nominatim --geocoder-url <url>`;
}
