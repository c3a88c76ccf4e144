import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runSession } from '../../src/agent/session.js';
import { runCli } from '../../src/cli/main.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { parseAgentConfig } from '../../src/config/inputs.js';
import { credentialFileInRepository } from '../../src/security/cloud-credentials.js';
import { splitSecretEnv } from '../../src/security/sealed-env.js';
import { buildToolEnvironment } from '../../src/tools/environment.js';
import { createTempDir, createTempRepo, type TempRepo } from '../support/temp-repo.js';
import { ScriptedModelClient } from '../support/scripted-model-client.js';

let repo: TempRepo;
let outside: string;
beforeEach(() => {
  repo = createTempRepo(path.resolve('examples/word-stats'));
  outside = createTempDir('compact-agent-creds-');
});
afterEach(() => repo.remove());

describe('cloud credentials never reach the agent’s shell', () => {
  const env = {
    PATH: '/usr/bin',
    AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    AWS_SESSION_TOKEN: 'IQoJb3JpZ2luX2VjEXAMPLE',
    AWS_BEARER_TOKEN_BEDROCK: 'bedrock-api-key-example',
    GOOGLE_APPLICATION_CREDENTIALS: '/home/runner/work/r/r/gha-creds-1.json',
    GOOGLE_GHA_CREDS_PATH: '/home/runner/work/r/r/gha-creds-1.json',
    CLOUDSDK_AUTH_ACCESS_TOKEN: 'ya29.example',
    JAVA_HOME: '/opt/java'
  };

  it('leave the initial environment when the action seals itself (so /proc/<pid>/environ lacks them)', () => {
    const { secrets, rest } = splitSecretEnv(env);
    expect(Object.keys(rest)).toEqual(['PATH']);
    expect(secrets.AWS_SECRET_ACCESS_KEY).toBe(env.AWS_SECRET_ACCESS_KEY);
  });

  it('drops them even when bash_env_passthrough names them, and keeps what else it names', () => {
    const toolEnv = buildToolEnvironment(env, Object.keys(env));
    expect(toolEnv.JAVA_HOME).toBe('/opt/java');
    for (const name of Object.keys(env).filter((name) => name !== 'PATH' && name !== 'JAVA_HOME')) {
      expect(toolEnv[name]).toBeUndefined();
    }
  });
});

describe('a credentials file inside the repository stops the run before anything happens', () => {
  const vertexConfig = () =>
    parseAgentConfig(
      (name) => ({ use_vertex: 'true', vertex_project_id: 'p', vertex_region: 'global' })[name] ?? '',
      {}
    );

  it('says where the file is and how to avoid it (google-github-actions/auth writes it to the workspace)', () => {
    const file = repo.write('gha-creds-5f2c.json', '{"type":"external_account"}');
    const problem = credentialFileInRepository({ GOOGLE_APPLICATION_CREDENTIALS: file }, repo.root);
    expect(problem).toContain(
      'GOOGLE_APPLICATION_CREDENTIALS (gha-creds-5f2c.json) is inside the repository'
    );
    expect(problem).toContain('create_credentials_file: false');
    expect(problem).toContain('token_format: access_token');
  });

  it('lets a file outside the repository pass (and one reached through .. from inside)', () => {
    const file = path.join(outside, 'gha-creds-1.json');
    writeFileSync(file, '{}');
    expect(credentialFileInRepository({ GOOGLE_APPLICATION_CREDENTIALS: file }, repo.root)).toBeUndefined();
    expect(
      credentialFileInRepository(
        { GOOGLE_APPLICATION_CREDENTIALS: path.join(repo.root, '..', path.basename(outside), 'x.json') },
        repo.root
      )
    ).toBeUndefined();
  });

  it('refuses the run in runSession: no transcript folder, no model call', async () => {
    const file = repo.write('gha-creds-5f2c.json', '{}');
    const model = new ScriptedModelClient([]);
    await expect(
      runSession({
        config: vertexConfig(),
        task: 'x',
        repoDir: repo.root,
        transcriptsDir: path.join(repo.root, '.transcripts'),
        runId: 'r',
        env: { GOOGLE_GHA_CREDS_PATH: file },
        model
      })
    ).rejects.toThrow(/GOOGLE_GHA_CREDS_PATH \(gha-creds-5f2c\.json\) is inside the repository/);
    expect(existsSync(path.join(repo.root, '.transcripts'))).toBe(false);
    expect(model.requests).toHaveLength(0);
  });

  it('is a usage error on the command line, naming the variable', async () => {
    mkdirSync(path.join(repo.root, 'secrets'));
    const file = repo.write('secrets/adc.json', '{}');
    let stderr = '';
    const code = await runCli(
      [
        'run',
        '--repo',
        repo.root,
        '--prompt',
        'x',
        '--use-vertex',
        '--vertex-project-id',
        'p',
        '--vertex-region',
        'global'
      ],
      {
        stdout: () => undefined,
        stderr: (text) => (stderr += text),
        env: { GOOGLE_APPLICATION_CREDENTIALS: file, PATH: process.env.PATH }
      }
    );
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain('GOOGLE_APPLICATION_CREDENTIALS (secrets/adc.json) is inside the repository');
  });
});

describe('bash_env_passthrough cannot hand the action its own credentials', () => {
  it('drops inputs, the action tokens and the ACTIONS_* runtime and OIDC variables, even when named', () => {
    const source = {
      PATH: '/usr/bin',
      INPUT_VERTEX_ACCESS_TOKEN: 'ya29.secret',
      INPUT_GITHUB_TOKEN: 'ghs_input',
      GITHUB_TOKEN: 'ghs_env',
      ANTHROPIC_API_KEY: 'sk-ant-x',
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc',
      ACTIONS_RUNTIME_TOKEN: 'runtime',
      MY_TOOL_HOME: '/opt/tool'
    };
    const env = buildToolEnvironment(source, Object.keys(source));
    expect(
      Object.keys(env)
        .filter((name) => name in source)
        .sort()
    ).toEqual(['MY_TOOL_HOME', 'PATH']);
  });
});
