/**
 * The hosts the box lets commands reach when nothing else is said: what installs and builds in the
 * common ecosystems fetch from. Each with its reason; the README's Sandbox section shows this table.
 *
 * A host that accepts uploads is also a way out for data: `npm publish`, `cargo publish` or
 * `gem push` with the attacker's own token sends a package (holding anything the box can read) to a
 * public registry. Those are marked `uploads`. Switch them off with `sandbox_default_hosts: false`
 * and list only what a repository needs.
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
  /** The host takes uploads from anyone with an account: an exfiltration path. */
  readonly uploads: boolean;
}

export const DEFAULT_ALLOWED_HOSTS: readonly DefaultHost[] = [
  { host: 'registry.npmjs.org', reason: 'npm, pnpm and yarn (berry) packages', uploads: true },
  {
    host: 'registry.yarnpkg.com',
    reason: 'yarn classic (v1) packages, a front of the npm registry',
    uploads: false
  },
  { host: 'pypi.org', reason: 'pip, uv and poetry: the package index', uploads: false },
  { host: 'files.pythonhosted.org', reason: 'pip, uv and poetry: the package files', uploads: false },
  { host: 'index.crates.io', reason: 'cargo: the sparse index', uploads: false },
  { host: 'static.crates.io', reason: 'cargo: the crate files', uploads: false },
  {
    host: 'crates.io',
    reason: 'cargo: the API (downloads redirect from here; `cargo publish` goes here)',
    uploads: true
  },
  { host: 'proxy.golang.org', reason: 'go: the module mirror (GOPROXY default)', uploads: false },
  { host: 'sum.golang.org', reason: 'go: the checksum database (GOSUMDB default)', uploads: false },
  { host: 'repo.maven.apache.org', reason: 'Maven and Gradle: Maven Central', uploads: false },
  { host: 'repo1.maven.org', reason: 'Maven and Gradle: Maven Central under its older name', uploads: false },
  { host: 'rubygems.org', reason: 'bundler and gem: the API and gems (`gem push` goes here)', uploads: true },
  { host: 'index.rubygems.org', reason: 'bundler: the compact index', uploads: false },
  { host: 'api.nuget.org', reason: 'dotnet restore: the NuGet v3 feed', uploads: false }
];
