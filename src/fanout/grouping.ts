import type { GitRepository } from '../git/repository.js';
import { noCodeownersError, readCodeowners } from './codeowners-file.js';
import type { ShardGrouping } from './shards.js';
import { unitBytes } from './unit-bytes.js';
import { unitOwners } from './unit-owners.js';

/** How a plan asks to group its units: by what, and at most how many units per shard. */
export interface GroupingRequest {
  readonly by: ShardGrouping['by'];
  readonly size: number;
}

/**
 * The grouping with what it measures in the repository: each unit's bytes for `size`, each unit's
 * CODEOWNERS owners for `owner` (the CODEOWNERS file of `base`, the commit the shards start from;
 * none there is an error that says what to do).
 */
export async function measuredGrouping(
  request: GroupingRequest,
  context: { readonly repo: GitRepository; readonly repoDir: string; readonly base: string },
  units: readonly string[]
): Promise<ShardGrouping> {
  switch (request.by) {
    case 'size':
      return { by: 'size', size: request.size, bytes: await unitBytes(context.repoDir, units) };
    case 'owner': {
      const codeowners = await readCodeowners(context.repo, context.base);
      if (!codeowners) throw noCodeownersError(context.base, 'Grouping by owner');
      return {
        by: 'owner',
        size: request.size,
        owners: await unitOwners(context.repoDir, units, codeowners)
      };
    }
    default:
      return { by: request.by, size: request.size };
  }
}
