/**
 * Text as real users write it, for names and free text wherever the spec allows any string: letters
 * outside ASCII, combining marks, characters beyond the Basic Multilingual Plane (four bytes in
 * UTF-8: a store of three-byte characters mangles them), spaces and punctuation.
 *
 * Every value is in Unicode normalization form C and stays so (its combining marks have no
 * precomposed form), so a server that normalizes what it stores keeps it unchanged; no two differ
 * only by case or accents, so no case or accent folding a server may do in a match merges two of
 * them. The factory (specs/support/make.ts) appends the names, one after the other, to its default
 * names after the namespaced part, which alone decides any order; the generators draw them
 * (generators/arbitraries.ts: `realName`, `freeText`), the run's seed replaying the draw.
 */

/** Names of people and organisations outside ASCII: a combining grave (Ọ̀), a combining tilde (ė̃), a character beyond the BMP (𠮷). */
export const REAL_NAMES = ['Zoë Łukasiewicz', '山田 太郎', 'Ọ̀ṣun Adéwálé', 'Søren Ærø', 'Ñandú & Cía', '𠮷野 花子', 'Ąnė̃ Šimkutė'] as const;

/** Free text (details, notes): sentences with spaces, punctuation, letters outside ASCII, an emoji. */
export const REAL_TEXTS = [
  'Rückruf bei Zoë Łukasiewicz, Kraków (Büro 3)',
  '見積もりを送付済み — 山田様より返信待ち',
  'Reunión con Ñandú & Cía: precio €1.200,50',
  'Ọ̀ṣun Adéwálé asked for the “final” offer 👍',
  'Søren: levering før jul, Ærø',
  '𠮷野家 order, Ąnė̃ to follow up',
] as const;

/** Whether a text is in normalization form C (every value above is). */
export const isNfc = (s: string): boolean => s === s.normalize('NFC');
