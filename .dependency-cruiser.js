/**
 * dependency-cruiser's rules for `npm run check:circles` (in .ci/run): no module of src/, test-support/,
 * __tests__/, bench/, demo/ or scripts/ may reach itself through its imports, and the engine (the
 * agent loop, compaction, the model, the tools, the sandbox, the transcript) never imports the
 * surfaces that drive it (the action, GitHub, the CLI, follow-ups, review, plan), and GitHub clients are
 * built only by src/github/api/clients.ts: docs/architecture.md.
 *
 * A circle means two modules are one concept split across files (or a concept sits in the wrong file):
 * neither can be read, tested or moved alone, and an ESM circle can see a binding before it is set.
 * The fix is to move what both need into its own module, not to hide the import.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'This module reaches itself through its imports. Move what the modules of the circle share ' +
        'into a module of its own that imports none of them.',
      from: {},
      to: { circular: true }
    },
    {
      name: 'engine-not-on-surface',
      severity: 'error',
      comment:
        'The engine (agent, compaction, model, tools, sandbox, transcript) runs the same under the action, ' +
        'the CLI and the bench, so it may not import what drives it (action, github, cli, followup, review, ' +
        'plan). Pass what it needs in through an interface the engine owns, or move the code into the engine.',
      from: { path: '^src/(agent|compaction|model|tools|sandbox|transcript)/' },
      to: { path: '^src/(action|github|cli|followup|review|plan)/' }
    },
    {
      name: 'github-clients-from-factory',
      severity: 'error',
      comment:
        'GitHub clients are built in one place, src/github/api/clients.ts, so every one gets the same base ' +
        'URL, retries, throttling, write spacing and logger. Ask gitHubClients(...) (in the action: ' +
        'githubClientsOf(action)) for the client; importing an adapter for its type is fine.',
      from: { path: '^src/', pathNot: '^src/github/api/' },
      to: {
        path: '^src/github/api/(octokit-api|octokit-reviews|workflow-runs|branch-protection|audit-reads)[.]ts$',
        dependencyTypesNot: ['type-only']
      }
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'An import the cruiser cannot follow is an edge it cannot see, and a circle through it would ' +
        'pass unnoticed: teach the resolver (options in .dependency-cruiser.js) rather than ignore the import.',
      from: {},
      to: { couldNotResolve: true }
    }
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Our ESM imports name the emitted file (`import './x.js'` for x.ts), as NodeNext requires. Like
    // tsc, dependency-cruiser tries x.ts when x.js does not exist, so every such import is followed;
    // should that ever stop, not-to-unresolvable above fails the check instead of missing the edge.
    // tsconfig.json gives the parser our compiler options.
    tsConfig: { fileName: 'tsconfig.json' },
    // `import type` counts. A circle of types is still a circle of concepts: the two files cannot be
    // understood apart, and the next value import along the same edge makes it a runtime circle.
    tsPreCompilationDeps: true,
    // Packages we import by an `exports` subpath (`@modelcontextprotocol/sdk/client/index.js`).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types']
    }
  }
};
