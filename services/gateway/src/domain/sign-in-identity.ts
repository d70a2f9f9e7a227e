/** The longest address RFC 5321 allows; anything longer is cut before normalising (bounded work). */
const MAX_EMAIL = 254;

/**
 * The one form of a sign-in address: Unicode NFKC (so compatibility forms such as ligatures and
 * full-width letters become their plain letters), then one full case fold, then NFKC again (a fold
 * can leave a sequence unnormalised). Upper-then-lower is the fold: unlike a lone `toLowerCase` it
 * also folds `ß` to `ss` and final sigma to sigma. The throttle keys, the lookup and the stored
 * column all use this one function, so no spelling of an address can reach a different counter
 * than the row it signs in to (`İvy@…` folds to `i̇vy@…`, which is neither `ivy@…`'s counter nor row).
 */
export function normaliseEmail(raw: string): string {
  return raw.slice(0, MAX_EMAIL).trim().normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}
