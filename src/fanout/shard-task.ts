import type { ManifestShard } from './manifest.js';

/** The task one shard's agent gets: the common prompt, its paths (its whole scope), its own instructions. */
export function shardTask(prompt: string, shard: ManifestShard, shardCount: number): string {
  return [
    prompt,
    '',
    `<fanout-shard id="${shard.id}" of="${shardCount}">`,
    'You work on one shard of a larger change that other agents make in parallel on the other shards.',
    'Change only these paths (a file, or anything under a folder). Changes anywhere else are undone',
    'and reported, so do not make them:',
    ...shard.paths.map((file) => `- ${file}`),
    ...(shard.instructions ? ['', 'For this shard:', shard.instructions] : []),
    '</fanout-shard>'
  ].join('\n');
}

/** A retry's task: the same shard, with the validation command's errors to fix. */
export function retryTask(firstTask: string, command: string, output: string): string {
  return [
    firstTask,
    '',
    'Your changes for this shard are in the working tree, but the validation command failed:',
    `<validation command="${command.replace(/"/g, '&quot;')}">`,
    output,
    '</validation>',
    'Fix what it reports, changing only the paths of this shard.'
  ].join('\n');
}
