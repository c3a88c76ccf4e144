import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { ownersOf, type Codeowners } from './codeowners.js';

/**
 * Each unit's owner group: its CODEOWNERS owners, lower-cased (GitHub logins and team names are
 * case-insensitive), sorted and joined with a blank (`@octo-org/octocats @octocat`); `''` for a
 * unit no rule gives an owner. A folder unit (a package) is asked about as a folder: the owners of
 * the folder itself, not of each file in it.
 */
export async function unitOwners(
  repoDir: string,
  units: readonly string[],
  codeowners: Codeowners
): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  for (const unit of units) {
    const info = await lstat(path.join(repoDir, unit)).catch(() => undefined);
    owners.set(unit, ownerKey(ownersOf(codeowners, unit, info?.isDirectory() ?? false)));
  }
  return owners;
}

export function ownerKey(owners: readonly string[]): string {
  return [...new Set(owners.map((owner) => owner.toLowerCase()))].sort().join(' ');
}
