import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { takeCredentials } from '../../src/git/credentials.js';
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

describe('takeCredentials', () => {
  it('takes the extraheader out of .git/config and an included credentials file, keeps it in memory only, and writes nothing back', async () => {
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
    const git = new GitRepository(repo.root);

    const taken = await takeCredentials(git);
    expect([...taken.files].sort()).toEqual([path.join(repo.root, '.git/config'), included].sort());
    expect(taken.entries).toEqual(
      expect.arrayContaining([
        {
          key: 'http.https://github.com/.extraheader',
          value: 'AUTHORIZATION: basic Z2hzX2xvY2FsX3NlY3JldA=='
        },
        {
          key: 'http.https://github.com/.extraheader',
          value: 'AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX3NlY3JldA=='
        }
      ])
    );
    // What the agent's shell would see.
    const listing = execFileSync('git', ['config', '-l'], { cwd: repo.root, encoding: 'utf8' });
    expect(listing).not.toMatch(/extraheader|AUTHORIZATION/i);
    expect(readFileSync(path.join(repo.root, '.git/config'), 'utf8')).not.toContain('AUTHORIZATION');
    expect(readFileSync(included, 'utf8')).not.toContain('AUTHORIZATION');
    repo.remove();
  });

  it('does nothing when there is no credential', async () => {
    const repo = createTempRepo();
    const taken = await takeCredentials(new GitRepository(repo.root));
    expect(taken).toEqual({ entries: [], files: [] });
    repo.remove();
  });
});
