/**
 * The hosts the box lets commands reach when nothing else is said: what installs and builds in the
 * common ecosystems fetch from. Each with its reason; docs/security.md, "Sandbox", shows this table.
 *
 * Some are also a way out for data (`wayOut`):
 * - `uploads`: the host accepts uploads from anyone with an account: `npm publish`, `cargo publish`
 *   or `gem push` with the attacker's own token sends a package (holding anything the box can read)
 *   to a public registry.
 * - `fetches`: the host fetches from any origin the request names, so the request itself carries the
 *   data to the attacker's server: `sum.golang.org/lookup/<attacker's host>/<data>@v0.0.1`. The Go
 *   modules reference says so (go.dev/ref/mod#checksum-database, read 2026-11-28: "If the module
 *   version is not yet recorded in the log, the checksum database will try to fetch it from the
 *   origin server before replying"), and the mirror runs the version control commands for public
 *   modules itself (go.dev/ref/mod#vcs-govcs). These are listed only for a repository that has a
 *   go.mod (see `onlyWith`).
 * The others were reviewed for both (2026-11-28): their write APIs live on other hosts
 * (upload.pypi.org, www.nuget.org, Sonatype's portal) or need the registry's own account, and
 * none fetches a URL named in a request. Switch them all off with `sandbox_default_hosts: false` and
 * list only what a repository needs.
 *
 * Sources (read 2026-11-26): Go's go.env sets GOPROXY=https://proxy.golang.org,direct and
 * GOSUMDB=sum.golang.org (go.googlesource.com/go/+/go1.21.0/go.env); cargo's sparse index is
 * `sparse+https://index.crates.io/` (doc.rust-lang.org, cargo::sources::registry::CRATES_IO_HTTP_INDEX),
 * its downloads are served from static.crates.io; pip fetches the index from pypi.org and files from
 * files.pythonhosted.org (pip's trusted-host documentation); Maven Central is repo.maven.apache.org
 * (repo1.maven.org is its alias); NuGet's v3 service index is https://api.nuget.org/v3/index.json.
 */
export interface DefaultHost {
  readonly host: string;
  readonly reason: string;
  /** How the host can carry data out of the box, if it can (see above). */
  readonly wayOut: 'uploads' | 'fetches' | undefined;
  /**
   * Listed only when the repository has this file, as the checkout had it before the agent ran
   * (sandbox/repository-hosts.ts): a repository that builds no Go module has no use for a relay.
   */
  readonly onlyWith?: 'go.mod';
}

export const DEFAULT_ALLOWED_HOSTS: readonly DefaultHost[] = [
  { host: 'registry.npmjs.org', reason: 'npm, pnpm and yarn (berry) packages', wayOut: 'uploads' },
  {
    host: 'registry.yarnpkg.com',
    reason: 'yarn classic (v1) packages, a front of the npm registry',
    wayOut: undefined
  },
  { host: 'pypi.org', reason: 'pip, uv and poetry: the package index', wayOut: undefined },
  { host: 'files.pythonhosted.org', reason: 'pip, uv and poetry: the package files', wayOut: undefined },
  { host: 'index.crates.io', reason: 'cargo: the sparse index', wayOut: undefined },
  { host: 'static.crates.io', reason: 'cargo: the crate files', wayOut: undefined },
  {
    host: 'crates.io',
    reason: 'cargo: the API (downloads redirect from here; `cargo publish` goes here)',
    wayOut: 'uploads'
  },
  {
    host: 'proxy.golang.org',
    reason: 'go: the module mirror (GOPROXY default); fetches any module path from its origin',
    wayOut: 'fetches',
    onlyWith: 'go.mod'
  },
  {
    host: 'sum.golang.org',
    reason: 'go: the checksum database (GOSUMDB default); fetches any module path from its origin',
    wayOut: 'fetches',
    onlyWith: 'go.mod'
  },
  { host: 'repo.maven.apache.org', reason: 'Maven and Gradle: Maven Central', wayOut: undefined },
  {
    host: 'repo1.maven.org',
    reason: 'Maven and Gradle: Maven Central under its older name',
    wayOut: undefined
  },
  {
    host: 'rubygems.org',
    reason: 'bundler and gem: the API and gems (`gem push` goes here)',
    wayOut: 'uploads'
  },
  { host: 'index.rubygems.org', reason: 'bundler: the compact index', wayOut: undefined },
  { host: 'api.nuget.org', reason: 'dotnet restore: the NuGet v3 feed', wayOut: undefined }
];
