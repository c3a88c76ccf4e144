/**
 * Markdown that GitHub renders with part of its text out of sight: a reader of the report would not
 * see it, yet a model reading the source would. Each test over-approximates on purpose: a false alarm
 * only means a plan is shown as plain text, a miss means an approval of text nobody saw.
 *
 * Sources (read 2026-11-28): the GFM spec, "Tables (extension)" (a row's cells beyond the header's
 * count are ignored); GitHub Docs, "Creating diagrams" (fenced `mermaid`, `geojson`, `topojson`
 * and `stl` blocks are drawn, not shown; Mermaid's `%%` lines are comments) and "Writing mathematical
 * expressions" (`$…$`, `$$…$$`, `` $`…`$ `` and fenced `math` render through MathJax, where
 * `\phantom{…}` or a white `\color` hides text). Raw HTML (comments, `<details>`, `alt` and `title`
 * attributes) needs no test here: the report defuses every tag (github/neutralize.ts).
 */
const HIDING_FORMS: readonly { readonly name: string; readonly pattern: RegExp }[] = [
  { name: 'math', pattern: /\$/ },
  { name: 'image alt text', pattern: /!\s*\[/ },
  // An inline link whose destination is followed by a title in any of its three quotings.
  { name: 'link titles', pattern: /\]\(\s*(?:<[^>]*>|[^)\s]*)\s+["'(]/ },
  // Any inline link or image: the page shows its text, the model reads its destination too, which
  // may be words (`<…>` or %20 keep spaces in it).
  { name: 'link destinations', pattern: /\]\s*\(/ },
  // A table: GFM drops the cells of a row beyond the header's count ("the excess is ignored").
  { name: 'tables', pattern: /^(?=[^\n]*\|)(?=[^\n]*-)[ \t|:>-]+$/m },
  // A definition anywhere (in a list, a quote, after indentation): its URL and title render as nothing.
  { name: 'link reference definitions', pattern: /\]:/ },
  {
    name: 'diagram or math blocks',
    pattern: /(?:`{3,}|~{3,})[ \t]*\{?[ \t]*\.?(?:mermaid|math|geojson|topojson|stl)/i
  },
  // `&#8203;`, `&#xE0041;`, `&ZeroWidthSpace;`: the reader sees the character, the model the reference.
  { name: 'character references', pattern: /&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);/i }
];

/** The names of the partly hidden forms `markdown` holds, in a fixed order; empty when none. */
export function hiddenMarkdownForms(markdown: string): string[] {
  return HIDING_FORMS.filter((form) => form.pattern.test(markdown)).map((form) => form.name);
}
