import { buildToolEnvironment, mayPassThrough, toolEnvironment } from '../../src/tools/environment.js';
import { isPathValue } from '../../src/tools/toolchain-variables.js';

const NPM_TOKEN = 'npm_0123456789abcdefghijklmnopqrstuvwxyz';

/** A job after actions/setup-java, setup-go, setup-python, setup-dotnet and setup-node, on a runner. */
const job = (): NodeJS.ProcessEnv => ({
  PATH: '/opt/hostedtoolcache/go/1.23.4/x64/bin:/opt/hostedtoolcache/Java/17/x64/bin:/usr/bin:/bin',
  HOME: '/home/runner',
  JAVA_HOME: '/opt/hostedtoolcache/Java/17/x64',
  JAVA_HOME_17_X64: '/opt/hostedtoolcache/Java/17/x64',
  MAVEN_ARGS: '-ntp',
  GOROOT: '/opt/hostedtoolcache/go/1.23.4/x64',
  GOPATH: '/home/runner/go',
  GOTOOLCHAIN: 'local',
  pythonLocation: '/opt/hostedtoolcache/Python/3.12.1/x64',
  Python3_ROOT_DIR: '/opt/hostedtoolcache/Python/3.12.1/x64',
  PKG_CONFIG_PATH: '/opt/hostedtoolcache/Python/3.12.1/x64/lib/pkgconfig',
  PYTHONPATH: '/home/runner/work/app/app/src',
  VIRTUAL_ENV: '/home/runner/work/app/app/.venv',
  DOTNET_ROOT: '/usr/share/dotnet',
  NPM_CONFIG_USERCONFIG: '/home/runner/work/_temp/.npmrc',
  NVM_DIR: '/home/runner/.nvm',
  NODE_AUTH_TOKEN: NPM_TOKEN,
  GITHUB_EVENT_PATH: '/home/runner/work/_temp/_github_workflow/event.json',
  RUNNER_TEMP: '/home/runner/work/_temp',
  INPUT_PROMPT: 'fix the tests',
  INPUT_GITHUB_TOKEN: 'ghs_0123456789abcdefghijklmnopqrstuvwxyz',
  ACTIONS_RUNTIME_TOKEN: 'eyJhbGciOiJIUzI1NiJ9.runtime-token',
  FEATURE_FLAGS: 'fast'
});

describe('the toolchain set-up steps exported reaches the shell', () => {
  it('passes the documented variables of setup-java, setup-go, setup-python, setup-dotnet and setup-node', () => {
    const env = buildToolEnvironment(job());
    for (const name of [
      'JAVA_HOME',
      'JAVA_HOME_17_X64',
      'MAVEN_ARGS',
      'GOROOT',
      'GOPATH',
      'GOTOOLCHAIN',
      'pythonLocation',
      'Python3_ROOT_DIR',
      'PKG_CONFIG_PATH',
      'PYTHONPATH',
      'VIRTUAL_ENV',
      'DOTNET_ROOT',
      'NPM_CONFIG_USERCONFIG',
      'NVM_DIR'
    ]) {
      expect([name, env[name]]).toEqual([name, job()[name]]);
    }
  });

  it('keeps PATH as the runner built it: the bin folders GITHUB_PATH added stay in front', () => {
    expect(buildToolEnvironment(job()).PATH).toBe(job().PATH);
  });

  it.each([
    ['GRADLE_HOME', '/usr/share/gradle-8.10'],
    ['GRADLE_USER_HOME', '/home/runner/.gradle'],
    ['MAVEN_HOME', '/usr/share/apache-maven-3.9.9'],
    ['ANDROID_HOME', '/usr/local/lib/android/sdk'],
    ['CARGO_HOME', '/home/runner/.cargo'],
    ['RUSTUP_HOME', '/home/runner/.rustup'],
    ['ANDROID_SDK_ROOT', '/usr/local/lib/android/sdk'],
    ['VCPKG_ROOT', '/usr/local/share/vcpkg'],
    ['JAVA_HOME_21_ARM64', '/Users/runner/hostedtoolcache/Java_Temurin-Hotspot_jdk/21/arm64'],
    ['GOROOT_1_22_X64', '/opt/hostedtoolcache/go/1.22.10/x64'],
    ['JAVA_HOME_11_X64', 'C:\\hostedtoolcache\\windows\\Java_Temurin-Hotspot_jdk\\11\\x64']
  ])('passes %s by its pattern when it holds a path', (name, value) => {
    expect(buildToolEnvironment({ [name]: value })[name]).toBe(value);
  });

  it('does not pass a pattern name whose value is no path: a token could hide there', () => {
    const { env, withheld } = toolEnvironment({ TOOL_HOME: 'b3f1c9d2e4a5', BUILD_ROOT: 'relative/dir' });
    expect(env.TOOL_HOME).toBeUndefined();
    expect(env.BUILD_ROOT).toBeUndefined();
    expect(withheld.unlisted).toEqual(['BUILD_ROOT', 'TOOL_HOME']);
  });

  it('recognizes paths and path lists, not words, quotes or expansions', () => {
    expect(isPathValue('/opt/java')).toBe(true);
    expect(isPathValue('/a/lib:/b/lib')).toBe(true);
    expect(isPathValue('C:\\Program Files\\dotnet')).toBe(true);
    expect(isPathValue('local')).toBe(false);
    expect(isPathValue('/a:relative')).toBe(false);
    expect(isPathValue('/opt/$(id)')).toBe(false);
    expect(isPathValue('/opt/x\n/opt/y')).toBe(false);
  });
});

describe('secrets and the action’s own variables never reach the shell', () => {
  it.each([
    ['*_TOKEN', 'NPM_TOKEN'],
    ['*_KEY', 'SIGNING_KEY'],
    ['*_SECRET', 'CLIENT_SECRET'],
    ['*_PASSWORD', 'DB_PASSWORD'],
    ['*_PASS', 'DB_PASS'],
    ['*_PAT', 'GH_PAT'],
    ['*_PASSPHRASE', 'GPG_PASSPHRASE'],
    ['the redactor’s name rule', 'STRIPE_API_KEY_LIVE'],
    ['the redactor’s name rule', 'MY_CREDENTIALS_JSON'],
    ['the action’s own', 'GITHUB_TOKEN'],
    ['the action’s own', 'GH_TOKEN'],
    ['the action’s own', 'ANTHROPIC_API_KEY'],
    ['INPUT_*', 'INPUT_VERTEX_PROJECT_ID'],
    ['ACTIONS_*', 'ACTIONS_ID_TOKEN_REQUEST_URL'],
    ['cloud credentials', 'AWS_ACCESS_KEY_ID'],
    ['cloud credentials', 'AWS_ROLE_ARN'],
    ['cloud credentials', 'GOOGLE_GHA_CREDS_PATH']
  ])('refuses %s (%s), even when bash_env_passthrough names it', (_rule, name) => {
    expect(mayPassThrough(name)).toBe(false);
    expect(buildToolEnvironment({ [name]: '/opt/value-0123456789' }, [name])[name]).toBeUndefined();
  });

  it('refuses a secret-looking name that also matches a toolchain pattern', () => {
    const env = buildToolEnvironment({
      SECRET_HOME: '/opt/x',
      PASSWORD_ROOT: '/opt/y',
      SESSION_TOKEN_HOME: '/z'
    });
    expect(env).not.toHaveProperty('SECRET_HOME');
    expect(env).not.toHaveProperty('PASSWORD_ROOT');
    expect(env).not.toHaveProperty('SESSION_TOKEN_HOME');
  });

  it('withholds a secret’s value under an innocent name, whatever list let the name in', () => {
    const { env, withheld } = toolEnvironment(
      {
        ...job(),
        BUILD_OPTS: NPM_TOKEN, // the same value as NODE_AUTH_TOKEN
        REGISTRY_URL: `https://x:${NPM_TOKEN}@registry.example`, // holds it
        TOOL_HOME: `/opt/${NPM_TOKEN}`, // a path that holds it
        DEPLOY_NOTE: 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB' // shaped as a GitHub token
      },
      ['BUILD_OPTS', 'REGISTRY_URL', 'DEPLOY_NOTE']
    );
    for (const name of ['BUILD_OPTS', 'REGISTRY_URL', 'TOOL_HOME', 'DEPLOY_NOTE', 'NODE_AUTH_TOKEN']) {
      expect(env).not.toHaveProperty(name);
    }
    expect(withheld.secret).toEqual([
      'BUILD_OPTS',
      'DEPLOY_NOTE',
      'NODE_AUTH_TOKEN',
      'REGISTRY_URL',
      'TOOL_HOME'
    ]);
    expect(JSON.stringify(env)).not.toContain(NPM_TOKEN);
  });

  it('treats a credentials file’s path as a location, not a secret: the folders around it still pass', () => {
    const env = buildToolEnvironment({
      HOME: '/home/runner',
      GOOGLE_APPLICATION_CREDENTIALS: '/home/runner',
      AWS_SHARED_CREDENTIALS_FILE: '/home/runner/.aws/credentials'
    });
    expect(env.HOME).toBe('/home/runner');
  });
});

describe('what was withheld, by name', () => {
  it('lists secrets apart from unlisted variables, leaves out the runner’s and the action’s bookkeeping', () => {
    const { withheld } = toolEnvironment({
      ...job(),
      GITHUB_TOKEN: 'ghs_abcdefghijklmnopqrstuvwxyz0123456789'
    });
    expect(withheld).toEqual({ secret: ['GITHUB_TOKEN', 'NODE_AUTH_TOKEN'], unlisted: ['FEATURE_FLAGS'] });
  });

  it('lists nothing bash_env_passthrough passed', () => {
    const { env, withheld } = toolEnvironment(job(), ['FEATURE_FLAGS']);
    expect(env.FEATURE_FLAGS).toBe('fast');
    expect(withheld.unlisted).toEqual([]);
  });

  it('never records a value', () => {
    const { withheld } = toolEnvironment(job());
    const recorded = JSON.stringify(withheld);
    for (const value of Object.values(job())) expect(recorded).not.toContain(value);
  });
});
