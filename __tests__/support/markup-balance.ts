/**
 * What would break a report's rendering, found line by line the way GitHub reads the markdown: a
 * code fence left open, a `<details>` or `<summary>` without its closing tag, a table without its
 * delimiter row or with a row cut short, and a diagram (mermaid) that is not one of `whole`'s.
 */
export function markupProblems(body: string, whole: string = body): string[] {
  const problems: string[] = [];
  const wholeDiagrams = new Set(diagrams(whole));
  for (const diagram of diagrams(body))
    if (!wholeDiagrams.has(diagram)) problems.push(`a cut diagram: ${diagram.slice(0, 80)}…`);
  let fence: string | undefined;
  let details = 0;
  let summaries = 0;
  let table: { cells: number; rows: number } | undefined;
  const lines = body.split('\n');
  lines.forEach((line, index) => {
    const match = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (fence !== undefined) {
      if (match && match[1]!.startsWith(fence) && match[2]!.trim() === '') fence = undefined;
      return;
    }
    if (match) {
      fence = match[1]!;
      table = undefined;
      return;
    }
    const row = /^ {0,3}(?:> ?)*\s*(\|.*)$/.exec(line);
    if (row) {
      const cells = cellsOf(row[1]!);
      if (table === undefined) {
        const next = lines[index + 1] ?? '';
        if (!/^ {0,3}(?:> ?)*\s*\|(?:\s*:?-+:?\s*\|)+\s*$/.test(next))
          problems.push(`a table header without its delimiter row: ${line}`);
        table = { cells, rows: 0 };
      } else {
        table.rows++;
        if (cells !== table.cells || !row[1]!.trimEnd().endsWith('|'))
          problems.push(`a table row cut short: ${line}`);
      }
    } else {
      if (table !== undefined && table.rows < 2) problems.push('a table with a header and no row');
      table = undefined;
    }
    details += count(line, /<details[\s>]/g) - count(line, /<\/details>/g);
    summaries += count(line, /<summary>/g) - count(line, /<\/summary>/g);
    if (details < 0) problems.push(`a </details> without its <details>, line ${index + 1}`);
  });
  if (table !== undefined && table.rows < 2) problems.push('a table with a header and no row');
  if (fence !== undefined) problems.push(`a code fence left open: ${fence}`);
  if (details > 0) problems.push(`${details} <details> left open`);
  if (summaries !== 0) problems.push('a <summary> left open');
  return problems;
}

/** The content of every ```mermaid block. */
function diagrams(text: string): string[] {
  return [...text.matchAll(/^(`{3,})mermaid\n([\s\S]*?)\n\1$/gm)].map((match) => match[2]!);
}

/** Cells of a row: its unescaped pipes, less one. */
function cellsOf(row: string): number {
  return (row.match(/(?<!\\)\|/g)?.length ?? 1) - 1;
}

function count(line: string, pattern: RegExp): number {
  return line.match(pattern)?.length ?? 0;
}
