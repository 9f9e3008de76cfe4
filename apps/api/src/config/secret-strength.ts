/** The shortest secret production takes: 32 random base64 characters carry 192 bits. */
export const MIN_SECRET_LENGTH = 32;
/** The least estimated entropy, in bits (see isGuessableSecret). */
export const MIN_SECRET_ESTIMATED_BITS = 112;
/** The fewest different characters: a long secret of two alternating characters would otherwise add up to many bits. */
export const MIN_SECRET_DISTINCT_CHARACTERS = 10;

/** What a refusal tells the operator to do instead; it never quotes the secret. */
export const SECRET_STRENGTH_RULE = `at least ${MIN_SECRET_LENGTH} characters from a random generator, such as the output of openssl rand -base64 32 or openssl rand -hex 32`;

/**
 * Whether a secret looks typed by a person rather than generated: shorter
 * than 32 characters, fewer than 10 different ones, or an entropy estimate
 * (the Shannon entropy of its character frequencies, times its length) below
 * 112 bits. The estimate reads short random strings low, so the bar is NIST
 * SP 800-57's minimum strength, 112 bits, rather than 128: computed exactly,
 * 32 random base64 characters (the 24 bytes of the smallest whsec_ secret)
 * are refused about once in 1.6 billion (below 128 they would be once in
 * 6,500), and 64 random hex characters once in 10^12; 32 × `a` scores 0 bits
 * and `password-` four times 106. It catches repetition and small alphabets,
 * not a memorable phrase: secrets must still come from a generator.
 */
export function isGuessableSecret(secret: string): boolean {
  const characters = [...secret];
  if (characters.length < MIN_SECRET_LENGTH) return true;
  const counts = new Map<string, number>();
  for (const character of characters) counts.set(character, (counts.get(character) ?? 0) + 1);
  if (counts.size < MIN_SECRET_DISTINCT_CHARACTERS) return true;
  return estimatedBits(characters.length, counts.values()) < MIN_SECRET_ESTIMATED_BITS;
}

function estimatedBits(length: number, counts: Iterable<number>): number {
  let bitsPerCharacter = 0;
  for (const count of counts) bitsPerCharacter -= (count / length) * Math.log2(count / length);
  return bitsPerCharacter * length;
}
