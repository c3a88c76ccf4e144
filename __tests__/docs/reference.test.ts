import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import {
  inputsPage,
  outputsPage,
  proseOf,
  readActionManifest,
  staleReference
} from '../../scripts/docs-reference.js';
import { createTempDir } from '../support/temp-repo.js';

describe('the inputs and outputs reference (npm run docs:reference)', () => {
  it('is what action.yml makes now', async () => {
    expect(await staleReference()).toEqual([]);
  });

  it('has a section for every input and output of action.yml, with its default', () => {
    const action = parse(readFileSync('action.yml', 'utf8')) as {
      inputs: Record<string, { default?: unknown }>;
      outputs: Record<string, unknown>;
    };
    const inputs = readFileSync('docs/reference/inputs.md', 'utf8');
    const outputs = readFileSync('docs/reference/outputs.md', 'utf8');
    for (const [name, input] of Object.entries(action.inputs)) {
      const section = inputs.slice(inputs.indexOf(`\n## \`${name}\`\n`));
      expect(section.length).toBeLessThan(inputs.length);
      const facts = section.split('\n')[3] ?? '';
      expect(facts).toContain(input.default === undefined ? 'No default.' : `\`${String(input.default)}\``);
    }
    for (const name of Object.keys(action.outputs)) expect(outputs).toContain(`\n## \`${name}\`\n`);
  });

  it('fails the check when action.yml changes and the pages do not', async () => {
    const root = createTempDir('docs-reference-');
    try {
      mkdirSync(path.join(root, 'docs'));
      cpSync('docs/reference', path.join(root, 'docs/reference'), { recursive: true });
      cpSync('.prettierrc.json', path.join(root, '.prettierrc.json'));
      cpSync('schemas', path.join(root, 'schemas'), { recursive: true });
      const action = readFileSync('action.yml', 'utf8');
      writeFileSync(
        path.join(root, 'action.yml'),
        action.replace('\noutputs:\n', '\noutputs:\n  planted:\n    description: An output no page names.\n')
      );
      expect(await staleReference(root)).toEqual(['docs/reference/outputs.md']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('fails the check when the config schema changes and the keys page does not', async () => {
    const root = createTempDir('docs-reference-');
    try {
      mkdirSync(path.join(root, 'docs'));
      cpSync('docs/reference', path.join(root, 'docs/reference'), { recursive: true });
      cpSync('.prettierrc.json', path.join(root, '.prettierrc.json'));
      cpSync('action.yml', path.join(root, 'action.yml'));
      mkdirSync(path.join(root, 'schemas'));
      const schema = JSON.parse(readFileSync('schemas/compact-agent.schema.json', 'utf8')) as {
        properties: Record<string, { properties: Record<string, unknown> }>;
      };
      schema.properties.limits!.properties.planted = { type: 'integer', description: 'A key no page names.' };
      writeFileSync(path.join(root, 'schemas/compact-agent.schema.json'), JSON.stringify(schema));
      expect(await staleReference(root)).toEqual(['docs/reference/config-file.md']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('keeps placeholders such as <prefix> visible: GitHub would read them as HTML tags', () => {
    expect(proseOf('Prefix (<prefix><issue>), or `<id>` in code.')).toBe(
      'Prefix (&lt;prefix>&lt;issue>), or `<id>` in code.'
    );
  });

  it('renders a required input, a deprecated one and one without a default', () => {
    const page = inputsPage({
      inputs: {
        token: { description: 'The token.', required: true },
        old_name: { description: 'Was a name.', default: 'x', deprecationMessage: 'Use new_name.' }
      },
      outputs: {}
    });
    expect(page).toContain('## `token`\n\nRequired. No default.\n\nThe token.');
    expect(page).toContain('## `old_name`\n\nDefault: `x`. Deprecated: Use new_name.\n\nWas a name.');
    expect(outputsPage({ inputs: {}, outputs: { done: { description: 'Yes.' } } })).toContain(
      '## `done`\n\nYes.'
    );
  });

  it('refuses an action.yml field it does not render, naming it', () => {
    const root = createTempDir('docs-reference-');
    try {
      writeFileSync(
        path.join(root, 'action.yml'),
        'inputs:\n  a:\n    description: A.\n    secret: true\noutputs: {}\n'
      );
      expect(() => readActionManifest(root)).toThrow(/inputs\.a: .*secret.*teach the generator/s);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
