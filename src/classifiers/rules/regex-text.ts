// Literal text in a pattern built from a table: one escape for every family's tables.
/** `s` as a regex literal (every syntax character escaped, '/' too, so the source reads as a /…/ literal). */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** An alternation of literals, longest first: of two that start alike the longer one is tried first (a regex alternation takes the first that matches). */
export const literalAlternation = (xs: readonly string[]): string => [...xs].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
