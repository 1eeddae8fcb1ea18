/**
 * One spelling per address for matching and caching: "12, Rue de la Paix  75002 PARIS." and
 * "12 rue de la paix 75002 paris" are the same place to look up (case, punctuation between words
 * and spacing do not matter; letters and digits do).
 */
export function normalizeAddress(address: string): string {
  return address
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[,;.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
