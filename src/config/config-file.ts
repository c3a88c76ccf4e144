import AjvModule, { type ErrorObject } from 'ajv';
import { parseDocument } from 'yaml';
import { closestInput } from './closest-name.js';
import { FILE_BLOCKS, FILE_KEYS, type FileKey } from './config-file-keys.js';
import { configFileSchema } from './config-schema.js';

/** Where the action and the CLI look for the repository's config file by default. */
export const DEFAULT_CONFIG_FILE = '.github/compact-agent.yml';

/** A config file is a few dozen lines; anything near this is a mistake (or an attack), not a config. */
export const MAX_CONFIG_FILE_BYTES = 64 * 1024;

/** One setting the file gives, as the parsers read inputs (a string), with the key it came from. */
export interface FileSetting {
  readonly value: string;
  readonly path: string;
}

/** The settings a config file gives, by the name the parsers read; where it was read from, for messages. */
export interface ConfigFileSettings {
  /** How the messages name the file: `.github/compact-agent.yml on main`. */
  readonly source: string;
  readonly settings: ReadonlyMap<string, FileSetting>;
}

/** A config file that cannot be used: each problem says what to change in it. */
export class ConfigFileError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigFileError';
  }
}

let validator: ReturnType<InstanceType<typeof AjvModule.default>['compile']> | undefined;

/**
 * Reads the text of a config file: YAML, checked against the schema (schemas/compact-agent.schema.json)
 * with Ajv. A key that is not in the schema fails, naming the closest key; so does a value of the
 * wrong type. A key left empty (`max_turns:`) counts as unset. Throws ConfigFileError.
 */
export function parseConfigFile(text: string, source: string): ConfigFileSettings {
  if (Buffer.byteLength(text) > MAX_CONFIG_FILE_BYTES)
    throw new ConfigFileError([
      `${source} is ${Buffer.byteLength(text)} bytes; a config file may have at most ${MAX_CONFIG_FILE_BYTES}.`
    ]);
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  if (document.errors.length > 0) {
    throw new ConfigFileError(
      document.errors.map(
        (error) =>
          `${source} is not valid YAML: ${error.message.split('\n')[0]!.replace(/:$/, '')} ` +
          '(check the indentation, and quote values that hold ": " or start with a special character).'
      )
    );
  }
  const data = withoutNulls(document.toJS({ maxAliasCount: 50 }) ?? {});
  validator ??= new AjvModule.default({ allErrors: true, strict: true }).compile(configFileSchema());
  if (!validator(data)) {
    throw new ConfigFileError(
      (validator.errors ?? []).map((error) => schemaProblem(error, source)).filter(unique)
    );
  }
  const settings = new Map<string, FileSetting>();
  for (const key of FILE_KEYS) {
    const value = valueAt(data, key.path);
    if (value !== undefined) settings.set(key.setting, { value: asInputText(key, value), path: key.path });
  }
  return { source, settings };
}

/** The schema already checked the types: this writes each as the parsers read an input. */
function asInputText(key: FileKey, value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? (key.emptyList ?? '') : value.join('\n');
  return String(value);
}

function valueAt(data: unknown, path: string): unknown {
  let node = data;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** `key:` with no value is null in YAML: read as unset, as an empty `with:` input is. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, field]) => field !== null)
      .map(([name, field]) => [name, withoutNulls(field)])
  );
}

function schemaProblem(error: ErrorObject, source: string): string {
  const at = error.instancePath.slice(1).replace(/\//g, '.');
  if (error.keyword === 'additionalProperties') {
    const given = String((error.params as { additionalProperty: string }).additionalProperty);
    return unknownKeyProblem(at === '' ? given : `${at}.${given}`, source);
  }
  const shown = at === '' ? 'The file' : at;
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.join(', ');
    return `${source}: ${shown} must be one of ${allowed}.`;
  }
  if (error.keyword === 'type' && at === '')
    return `${source} must be a mapping of blocks (${FILE_BLOCKS.join(', ')}), e.g. "limits:" then "  max_turns: 100".`;
  return `${source}: ${shown} ${error.message ?? 'is not valid'} (see schemas/compact-agent.schema.json).`;
}

/** Every key and block the file may hold, by its full path. */
const KNOWN_PATHS: readonly string[] = [
  ...FILE_BLOCKS,
  ...new Set(
    FILE_KEYS.flatMap((key) =>
      key.path.split('.').map((_, index, parts) => parts.slice(0, index + 1).join('.'))
    )
  )
];

/**
 * An unknown key, with the nearest known one: by its whole path (`limits.max_turn`), else by its
 * last part under any block (`max_turns` at the top is `limits.max_turns`), else by the old input
 * name it was (`compaction_threshold_tokens` is `compaction.threshold_tokens`).
 */
export function unknownKeyProblem(path: string, source: string): string {
  const closest = closestKey(path);
  const hint = closest === undefined ? '' : ` Did you mean ${closest}?`;
  return (
    `${source}: ${path} is not a key of the compact-agent config.${hint} ` +
    'Correct or remove it (docs/config-file.md lists the keys; the example names the schema, so an editor checks them).'
  );
}

function closestKey(path: string): string | undefined {
  const whole = closestInput(path, KNOWN_PATHS);
  if (whole !== undefined) return whole;
  const last = path.split('.').at(-1)!;
  const byLeaf = FILE_KEYS.filter((key) => key.path.split('.').at(-1) === closestInput(last, leaves()));
  if (byLeaf.length === 1) return byLeaf[0]!.path;
  return FILE_KEYS.find(
    (key) =>
      key.setting ===
      closestInput(
        last,
        FILE_KEYS.map((row) => row.setting)
      )
  )?.path;
}

function leaves(): string[] {
  return FILE_KEYS.map((key) => key.path.split('.').at(-1)!);
}

function unique(item: string, index: number, all: readonly string[]): boolean {
  return all.indexOf(item) === index;
}
