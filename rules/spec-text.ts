/** Helpers over the spec's text that the catalog's users share (the catalog itself is data: rules.json). */

/** Where a quote is looked up: the spec text with table rows as `cell | cell` and whitespace collapsed. */
export function normaliseSpecText(text: string): string {
  return text
    .split('\n')
    .map((line) => (/^\s*\|/.test(line) ? line.trim().replace(/^\|/, '').replace(/\|$/, '') : line))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The spec's heading → the anchor a Markdown renderer gives it. */
export function sectionAnchor(section: string): string {
  return section
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .trim()
    .replace(/ /g, '-');
}
