#!/usr/bin/env bash
# Makes release vX.Y.Z on this clone: sets the version, rebuilds dist/ (the CLI bundles the version),
# commits, tags vX.Y.Z and moves the major tag (v0 for 0.y.z) to it. It pushes nothing: it prints
# the commands to run after a look at the commit. docs/RELEASING.md is the whole process.
set -euo pipefail
cd "$(dirname "$0")/.."

version="${1:-}"
if [[ ! "$version" =~ ^([0-9]+)\.[0-9]+\.[0-9]+$ ]]; then
  echo "Usage: scripts/release.sh X.Y.Z (e.g. scripts/release.sh 0.2.0): the new version, without a v." >&2
  exit 2
fi
major="v${BASH_REMATCH[1]}"
tag="v$version"

if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "The working tree has uncommitted changes; commit or stash them first (git status)." >&2
  exit 1
fi
if [ "$(git rev-parse --abbrev-ref HEAD)" != "main" ]; then
  echo "Releases are made from main; this is $(git rev-parse --abbrev-ref HEAD)." >&2
  exit 1
fi
if git rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
  echo "The tag $tag exists already; pick the next version." >&2
  exit 1
fi

npm version "$version" --no-git-tag-version
npm run build
built="$(node dist/cli/index.js --version)"
if [ "$built" != "$version" ]; then
  echo "dist/cli/index.js --version says $built, not $version: the build did not pick up the version." >&2
  exit 1
fi

git add package.json package-lock.json dist
git commit -m "Release $tag"
git tag -a "$tag" -m "compact-agent $tag"
git tag -fa "$major" -m "compact-agent $major (now $tag)"

cat <<DONE
Made $tag and moved $major to it, locally. Look at the commit (git show --stat), then publish:

  git push origin main "$tag"
  git push --force origin "$major"
  node scripts/pack.js --pack-destination /tmp/release
  npm publish "/tmp/release/compact-agent-$version.tgz"
  gh release create "$tag" --generate-notes
DONE
