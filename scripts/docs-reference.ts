/**
 * The reference pages, generated: docs/reference/inputs.md and outputs.md from action.yml, and
 * config-file.md from the config file's JSON Schema (one entry in REFERENCE_PAGES each). `npm run docs:reference` writes them;
 * `npm run docs:reference -- --check` (and a test) fail when one is stale, so the reference cannot
 * drift from what the action really reads.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { parse } from 'yaml';
import { z } from 'zod';
import { REPOSITORY_ROOT } from './docs-files.js';

const actionManifest = z.object({
  inputs: z.record(
    z.string(),
    z
      .object({
        description: z.string(),
        required: z.boolean().optional(),
        default: z.union([z.string(), z.number(), z.boolean()]).optional(),
        deprecationMessage: z.string().optional()
      })
      .strict()
  ),
  outputs: z.record(z.string(), z.object({ description: z.string() }).strict())
});
export type ActionManifest = z.infer<typeof actionManifest>;

/** action.yml's inputs and outputs, checked: a key this generator does not know fails loudly. */
export function readActionManifest(root: string = REPOSITORY_ROOT): ActionManifest {
  const parsed = actionManifest.safeParse(parse(readFileSync(path.join(root, 'action.yml'), 'utf8')));
  if (!parsed.success) {
    throw new Error(
      `action.yml does not have the shape scripts/docs-reference.ts renders (${parsed.error.issues
        .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
        .join('; ')}). Fix action.yml, or teach the generator the new field.`
    );
  }
  return parsed.data;
}

const GENERATED_NOTE = (source: string): string =>
  `<!-- Generated from ${source} by \`npm run docs:reference\`: edit ${source}, not this page. -->`;

/**
 * Text from a YAML description as Markdown prose: `<` outside code spans would open an HTML tag
 * (`<prefix>` would vanish on GitHub), so it is written as an entity.
 */
export function proseOf(description: string): string {
  return description
    .trim()
    .split(/(`[^`]*`)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/</g, '&lt;')))
    .join('');
}

function codeSpan(value: string): string {
  return value.includes('`') ? `\`\` ${value} \`\`` : `\`${value}\``;
}

/** One short section per input, in action.yml's order, after a line that links them all. */
export function inputsPage(manifest: ActionManifest): string {
  const entries = Object.entries(manifest.inputs);
  const sections = entries.map(([name, input]) => {
    const facts = [
      input.required ? 'Required.' : undefined,
      input.default === undefined ? 'No default.' : `Default: ${codeSpan(String(input.default))}.`,
      input.deprecationMessage ? `Deprecated: ${proseOf(input.deprecationMessage)}` : undefined
    ].filter((fact) => fact !== undefined);
    return [`## \`${name}\``, '', facts.join(' '), '', proseOf(input.description)].join('\n');
  });
  return [
    '# Inputs',
    '',
    GENERATED_NOTE('action.yml'),
    '',
    `The ${entries.length} inputs of the action's step, set under its \`with:\`, in action.yml's order.`,
    '[Configuration](../configuration.md) says how they are checked and how to set them.',
    '',
    entries.map(([name]) => `[\`${name}\`](#${name})`).join(' · '),
    '',
    ...sections.flatMap((section) => [section, ''])
  ].join('\n');
}

/** One short section per output, in action.yml's order. */
export function outputsPage(manifest: ActionManifest): string {
  const entries = Object.entries(manifest.outputs);
  return [
    '# Outputs',
    '',
    GENERATED_NOTE('action.yml'),
    '',
    `The ${entries.length} outputs of the action's step (\`steps.<id>.outputs.<name>\`), in action.yml's order.`,
    '[Configuration](../configuration.md#outputs) says when they are empty.',
    '',
    entries.map(([name]) => `[\`${name}\`](#${name})`).join(' · '),
    '',
    ...entries.flatMap(([name, output]) => [`## \`${name}\``, '', proseOf(output.description), ''])
  ].join('\n');
}

/** The repository config file's JSON Schema (schemas/compact-agent.schema.json), as far as this page reads it. */
interface SchemaNode {
  readonly type?: string;
  readonly description?: string;
  readonly default?: unknown;
  readonly enum?: readonly string[];
  readonly minimum?: number;
  readonly items?: SchemaNode;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
}

function readConfigSchema(root: string): SchemaNode {
  return JSON.parse(
    readFileSync(path.join(root, 'schemas', 'compact-agent.schema.json'), 'utf8')
  ) as SchemaNode;
}

/** The type as a reader wants it: the values of an enum, `list of string`, `integer ≥ 1`. */
function typeOf(node: SchemaNode): string {
  if (node.enum) return node.enum.join(', ');
  if (node.type === 'array') return `list of ${node.items?.type ?? 'values'}`;
  if (node.type === 'integer' && node.minimum !== undefined) return `integer ≥ ${node.minimum}`;
  return node.type ?? 'any';
}

function defaultOf(node: SchemaNode): string {
  if (node.default === undefined) return '';
  return codeSpan(Array.isArray(node.default) ? JSON.stringify(node.default) : String(node.default));
}

/** One table per block of the file, a row per key (nested objects flattened to dotted paths). */
export function configFilePage(schema: SchemaNode): string {
  const rows = (node: SchemaNode, prefix: string): string[][] =>
    Object.entries(node.properties ?? {}).flatMap(([name, child]) =>
      child.type === 'object'
        ? rows(child, `${prefix}${name}.`)
        : [[codeSpan(`${prefix}${name}`), typeOf(child), defaultOf(child), proseOf(child.description ?? '')]]
    );
  const blocks = Object.entries(schema.properties ?? {});
  return [
    '# The repository config file: keys',
    '',
    GENERATED_NOTE('schemas/compact-agent.schema.json'),
    '',
    `Every key of \`.github/compact-agent.yml\`, by block. [The repository config file](../config-file.md) says where`,
    'it is read from, what wins over it, and how it is checked.',
    '',
    ...blocks.flatMap(([block, node]) => [
      `## ${block}`,
      '',
      '| Key | Type | Default | What it does |',
      '| --- | --- | --- | --- |',
      ...rows(node, `${block}.`).map(
        (cells) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`
      ),
      ''
    ])
  ].join('\n');
}

export interface ReferencePage {
  /** Repository path of the generated page. */
  readonly path: string;
  readonly render: (root: string) => string;
}

/**
 * Every generated page. A new source (the repository config file's JSON Schema, say) is one more
 * entry: a path and a render that reads the source under root.
 */
export const REFERENCE_PAGES: readonly ReferencePage[] = [
  { path: 'docs/reference/inputs.md', render: (root) => inputsPage(readActionManifest(root)) },
  { path: 'docs/reference/outputs.md', render: (root) => outputsPage(readActionManifest(root)) },
  { path: 'docs/reference/config-file.md', render: (root) => configFilePage(readConfigSchema(root)) }
];

/** A page as committed: formatted by the repository's prettier settings, so format:check agrees. */
async function formatted(markdown: string, file: string): Promise<string> {
  const options = (await resolveConfig(file)) ?? {};
  return format(markdown, { ...options, filepath: file });
}

/** Each page's path with the text it should hold now. */
export async function renderedPages(root: string = REPOSITORY_ROOT): Promise<Map<string, string>> {
  const pages = new Map<string, string>();
  for (const page of REFERENCE_PAGES) {
    pages.set(page.path, await formatted(page.render(root), path.join(root, page.path)));
  }
  return pages;
}

/** The pages whose committed text differs from a fresh render (missing ones included). */
export async function staleReference(root: string = REPOSITORY_ROOT): Promise<string[]> {
  const stale: string[] = [];
  for (const [page, text] of await renderedPages(root)) {
    const file = path.join(root, page);
    if (!existsSync(file) || readFileSync(file, 'utf8') !== text) stale.push(page);
  }
  return stale;
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes('--check')) {
    const stale = await staleReference();
    if (stale.length === 0) return 0;
    console.error(
      `${stale.join(', ')}: stale: action.yml or the config schema changed since they were made. Run \`npm run docs:reference\` and commit them.`
    );
    return 1;
  }
  for (const [page, text] of await renderedPages()) {
    const file = path.join(REPOSITORY_ROOT, page);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main(process.argv.slice(2));
}
