// Bundled by ncc into dist/cli/index.js, so the version is the one the build was made from.
import manifest from '../../package.json' with { type: 'json' };

export const CLI_VERSION: string = manifest.version;
