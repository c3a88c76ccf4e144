import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  messageText,
  reply,
  text,
  toolResults,
  toolUse,
  type ParsedRequest,
  type ScriptedReply
} from '../test-support/fake-anthropic/index.js';
import { isSummaryRequest } from './bench-model.js';
import type { SeedFile } from './workload.js';
import { commitBenchRepository } from './bench-repository.js';

/** The deprecated call every unit holds once, and its replacement: the refactor the bench fans out. */
export const OLD_CALL = 'legacyFetch(';
export const NEW_CALL = 'modernFetch(';
export const UNIT_COMMAND = `git grep -l "${OLD_CALL}" -- units`;

/** The line of a unit that the refactor changes, unique to that unit so the model can find it. */
const siteOf = (index: number) => `const response${index} = ${OLD_CALL}'/unit/${index}'); // migrate me`;

/**
 * A git repository of `count` units, each a real source file of the seed (code nobody here wrote,
 * so read results have realistic token counts) with one deprecated call added. Returns its root.
 */
export function createUnitRepository(seed: readonly SeedFile[], count: number): string {
  const sources = seed
    .filter((file) => /\.(?:js|ts)$/.test(file.path) && file.text.length >= 500 && file.text.length <= 12_000)
    .slice(0, count);
  if (sources.length < count) throw new Error(`the seed has only ${sources.length} files of the right size`);
  const root = mkdtempSync(path.join(tmpdir(), 'compact-agent-bench-fanout-'));
  mkdirSync(path.join(root, 'units'));
  sources.forEach((file, index) => {
    writeFileSync(path.join(root, unitPath(index)), `${siteOf(index)}\n${file.text}`);
  });
  writeFileSync(path.join(root, '.gitignore'), '.transcripts/\n');
  commitBenchRepository(root, 'units');
  return root;
}

export const unitPath = (index: number) => `units/unit-${String(index).padStart(3, '0')}.ts`;

/** What the model did over a whole fan-out. */
export interface RefactorTally {
  /** Edits made: one per unit when nothing is lost. */
  edits: number;
  /** Reads made again because compaction had removed the unit's text before its edit. */
  refetches: number;
  summaries: number;
}

/**
 * The bench's refactoring model: for each unit of its shard's task, in order, one turn reads the
 * file and the next replaces the call, but only if the file's text is still in the request (the
 * need); when compaction has removed it, it reads the file again first. Its place in each shard
 * is kept per shard id, as a model's own notes would, so a compaction loses no progress.
 */
export function refactorModel(tally: RefactorTally): (request: ParsedRequest) => ScriptedReply {
  const progress = new Map<string, { next: number; read: boolean }>();
  return (request) => {
    if (isSummaryRequest(request)) {
      tally.summaries++;
      return reply(
        text('Summary: migrating legacyFetch to modernFetch unit by unit; the work so far is in the files.')
      );
    }
    const task = request.messages[0] ? messageText(request.messages[0]) : '';
    const shard = /<fanout-shard id="(shard-\d+)"/.exec(task)?.[1] ?? 'run';
    const units = [...task.matchAll(/^- (units\/unit-\d+\.ts)$/gm)].map((match) => match[1]!);
    const state = progress.get(shard) ?? { next: 0, read: false };
    progress.set(shard, state);
    if (state.next >= units.length) return reply(text(`All ${units.length} units of ${shard} are migrated.`));
    const file = units[state.next]!;
    const index = Number(/unit-(\d+)/.exec(file)![1]);
    const site = siteOf(index);
    const holdsSite =
      request.messages.some((message) => messageText(message).includes(site)) ||
      toolResults(request).some((result) => JSON.stringify(result.content ?? '').includes(site));
    if (!state.read || !holdsSite) {
      if (state.read) tally.refetches++;
      state.read = true;
      return reply(
        text(`Reading ${file}.`),
        toolUse('read_file', { path: file }, `read-${index}-${tally.refetches}`)
      );
    }
    state.next++;
    state.read = false;
    tally.edits++;
    return reply(
      text(`Replacing the deprecated call in ${file}.`),
      toolUse(
        'edit_file',
        { path: file, old_string: site, new_string: site.replace(OLD_CALL, NEW_CALL) },
        `edit-${index}`
      )
    );
  };
}
