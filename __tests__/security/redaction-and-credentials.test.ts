import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hideCredentials } from '../../src/git/credentials.js';
import { GitRepository } from '../../src/git/repository.js';
import { Redactor } from '../../src/security/redactor.js';
import { createTempDir, createTempRepo } from '../support/temp-repo.js';

describe('Redactor', () => {
  const apiKey = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789';
  const redact = new Redactor([apiKey, 'ghs_knownTokenValue0123456789abcdef', 'short']).redact;

  it('hides known values, raw, JSON-escaped and base64', () => {
    expect(redact(`key=${apiKey}`)).toBe('key=***');
    expect(redact(JSON.stringify({ k: 'ghs_knownTokenValue0123456789abcdef' }))).toBe('{"k":"***"}');
    const basic = Buffer.from('ghs_knownTokenValue0123456789abcdef').toString('base64');
    expect(redact(`AUTHORIZATION: basic ${basic}`)).toBe('AUTHORIZATION: basic ***');
    expect(redact('a short word stays')).toBe('a short word stays');
  });

  it('hides secret-shaped strings nobody named', () => {
    const samples = [
      'ghp_0123456789abcdefghijABCDEFGHIJ0123456789',
      'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU',
      'sk-ant-admin01-zzzzzzzzzzzzzzzzzzzzzzzzzzzz',
      'AKIAIOSFODNN7EXAMPLE',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----'
    ];
    for (const secret of samples) expect(redact(`before ${secret} after`)).toBe('before *** after');
    expect(redact('aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')).toBe(
      'aws_secret_access_key = ***'
    );
  });
});

describe('hideCredentials', () => {
  it('empties the extraheader in .git/config and in an included credentials file, and restores both exactly', async () => {
    const repo = createTempRepo();
    const runnerTemp = createTempDir('runner-temp-');
    const included = path.join(runnerTemp, 'git-credentials-1234.config');
    writeFileSync(
      included,
      '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX3NlY3JldA==\n'
    );
    repo.git(
      'config',
      'http.https://github.com/.extraheader',
      'AUTHORIZATION: basic Z2hzX2xvY2FsX3NlY3JldA=='
    );
    repo.git('config', `includeIf.gitdir:${path.join(repo.root, '.git')}.path`, included);
    const configBefore = readFileSync(path.join(repo.root, '.git/config'));
    const includedBefore = readFileSync(included);
    const git = new GitRepository(repo.root);

    const hidden = await hideCredentials(git);
    expect([...hidden.files].sort()).toEqual([path.join(repo.root, '.git/config'), included].sort());
    // What the agent's shell would see.
    const listing = execFileSync('git', ['config', '-l'], { cwd: repo.root, encoding: 'utf8' });
    expect(listing).not.toMatch(/extraheader|AUTHORIZATION/i);
    expect(readFileSync(path.join(repo.root, '.git/config'), 'utf8')).not.toContain('AUTHORIZATION');
    expect(readFileSync(included, 'utf8')).not.toContain('AUTHORIZATION');

    await hidden.restore();
    expect(readFileSync(path.join(repo.root, '.git/config'))).toEqual(configBefore);
    expect(readFileSync(included)).toEqual(includedBefore);
    repo.remove();
  });

  it('does nothing when there is no credential', async () => {
    const repo = createTempRepo();
    const hidden = await hideCredentials(new GitRepository(repo.root));
    expect(hidden.files).toEqual([]);
    await hidden.restore();
    repo.remove();
  });
});
