/**
 * Where the units of a fan-out come from. Always a deterministic listing of the repository: the
 * model never invents the list (it may only group units or write instructions when asked).
 */
export type UnitSource =
  /** A shell command run in the repository; each non-empty line of its output is one unit (`git grep -l oldApi -- src`). */
  | { readonly kind: 'command'; readonly command: string }
  /** Glob patterns matched against the repository's tracked and untracked files (not ignored ones). */
  | { readonly kind: 'globs'; readonly patterns: readonly string[] }
  /** The workspace's packages: the folders package.json's `workspaces` names that hold a package.json. */
  | { readonly kind: 'packages' }
  /** The tracked files whose CODEOWNERS owners (owned-files.ts) include one of these, `@org/team` or `@user` or an email. */
  | { readonly kind: 'owners'; readonly owners: readonly string[] };

/** How a source is named in messages and in the manifest. */
export function describeUnitSource(source: UnitSource): string {
  switch (source.kind) {
    case 'command':
      return `the unit command \`${source.command}\``;
    case 'globs':
      return `the globs ${source.patterns.join(', ')}`;
    case 'packages':
      return "the workspace's packages";
    case 'owners':
      return `the files CODEOWNERS gives ${source.owners.join(', ')}`;
  }
}
