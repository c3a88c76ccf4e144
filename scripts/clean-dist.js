// Removes dist/ before a build, so a chunk that a new build no longer writes cannot linger there.
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
