/**
 * Fake GitHub Actions artifact service (Twirp + Azure block blob) for the real @actions/artifact client.
 *
 *   const fake = await startFakeArtifacts();
 *   Object.assign(process.env, artifactEnv(fake)); // or pass it to a spawned action
 *   await new DefaultArtifactClient().uploadArtifact('name', files, rootDir);
 *   fake.files('name'); // Map of path → contents
 *   await fake.close();
 */
export * from './server.js';
export * from './token.js';
export * from '../../src/audit/zip-reader.js';
