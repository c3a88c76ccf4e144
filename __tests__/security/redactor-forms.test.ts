/** Attacks on redaction: a known secret, re-encoded by the agent's shell, must still be hidden. */
import { knownSecrets, Redactor } from '../../src/security/redactor.js';
import { base64Core } from '../../src/security/secret-forms.js';

const token = 'ghs_Kq7vT2xR9mW4pL8nZ3bY6cH1jF5dS0aE'; // 36 bytes
const apiKey = 'sk-ant-api03-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm'; // a length that is not a multiple of 3
const password = 'c0rrect horse/battery+staple?'; // characters URL-encoding and base64 treat specially
const redact = new Redactor([token, apiKey, password]).redact;
const secrets = [token, apiKey, password];

/** The secret must be gone, and nothing that still holds it may survive in any of its forms. */
function expectHidden(text: string, secret: string): void {
  const out = redact(text);
  expect(out).toContain('***');
  expect(out).not.toContain(secret);
  for (const offset of [0, 1, 2]) {
    const core = base64Core(Buffer.from(secret), offset);
    expect(out).not.toContain(core);
  }
}

describe('known values in every encoding', () => {
  it.each(secrets)('base64, standard and URL-safe, alone: %s', (secret) => {
    const bytes = Buffer.from(secret);
    expectHidden(`echo ${bytes.toString('base64')} | base64 -d`, secret);
    const urlSafe = bytes.toString('base64url');
    expect(redact(`token=${urlSafe}`)).toBe('token=***');
  });

  it.each(secrets)('base64 of the value after any prefix, at every byte alignment: %s', (secret) => {
    for (const prefix of ['x-access-token:', 'user:', 'ab', 'a', '', '{"auth":"']) {
      for (const suffix of ['', '\n', '"}', 'xy']) {
        const stream = Buffer.from(`${prefix}${secret}${suffix}`);
        for (const encoded of [stream.toString('base64'), stream.toString('base64url')]) {
          const out = redact(`cat creds | base64 → ${encoded}`);
          expect(out).toContain('***');
          // What survives is at most the prefix's and suffix's own characters plus one shared edge.
          expect(out.length).toBeLessThan(`cat creds | base64 → ${encoded}`.length - secret.length);
          expect(out).not.toContain(base64Core(Buffer.from(secret), prefix.length % 3));
        }
      }
    }
  });

  it('a basic-auth header built by hand (user `oauth2`), without the AUTHORIZATION label', () => {
    const basic = Buffer.from(`oauth2:${token}`).toString('base64');
    const out = redact(`git -c http.extraHeader="X-Custom: ${basic}" push`);
    expect(out).not.toContain(basic.slice(20, 40));
  });

  it.each(secrets)('hex, lower and upper case, alone and inside a dump: %s', (secret) => {
    const hex = Buffer.from(secret).toString('hex');
    expect(redact(`xxd -p: ${hex}`)).toBe('xxd -p: ***');
    expect(redact(`HEX ${hex.toUpperCase()}`)).toBe('HEX ***');
    expect(redact(`00ff${hex}0a`)).toBe('00ff***0a');
  });

  it.each(secrets)('URL-encoded, component-style and every byte escaped: %s', (secret) => {
    expectHidden(`https://example.com/?k=${encodeURIComponent(secret)}&x=1`, secret);
    const everyByte = [...Buffer.from(secret)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    expect(redact(`q=${everyByte}`)).toBe('q=***');
    expect(redact(`q=${everyByte.toUpperCase()}`)).toBe('q=***');
  });

  it.each(secrets)('reversed (`rev`): %s', (secret) => {
    const reversed = [...secret].reverse().join('');
    expect(redact(`rev says ${reversed}.`)).toBe('rev says ***.');
  });

  it('JSON-escaped forms inside a transcript line still parse after redaction', () => {
    const line = JSON.stringify({ content: `key ${password} and ${Buffer.from(token).toString('hex')}` });
    const out = redact(line);
    expect(JSON.parse(out)).toEqual({ content: 'key *** and ***' });
  });
});

describe('token shapes nobody named', () => {
  const shapes: Array<[string, string]> = [
    ['classic PAT', 'ghp_0123456789abcdefghijABCDEFGHIJ012345'],
    ['OAuth token', 'gho_0123456789abcdefghijABCDEFGHIJ012345'],
    ['installation token', 'ghs_0123456789abcdefghijABCDEFGHIJ012345'],
    ['user-to-server token', 'ghu_0123456789abcdefghijABCDEFGHIJ012345'],
    ['refresh token', 'ghr_0123456789abcdefghijABCDEFGHIJ012345'],
    ['fine-grained PAT', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU'],
    ['Anthropic key', 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AA'],
    ['npm token', 'npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
    ['AWS access key id', 'AKIAIOSFODNN7EXAMPLE'],
    ['AWS session key id', 'ASIAIOSFODNN7EXAMPLE']
  ];

  it.each(shapes)('%s, alone and glued to an underscore or a quote', (_name, shape) => {
    expect(redact(`value ${shape} end`)).toBe('value *** end');
    expect(redact(`MY_TOKEN_${shape}`)).toBe('MY_TOKEN_***');
    expect(redact(`"${shape}"`)).toBe('"***"');
    expect(redact(`${shape}_suffix`)).not.toContain(shape.slice(0, 20));
  });

  it('AWS secret access keys in an ini file, an env line and a JSON document', () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    expect(redact(`aws_secret_access_key = ${secret}`)).toBe('aws_secret_access_key = ***');
    expect(redact(`AWS_SECRET_ACCESS_KEY=${secret}`)).toBe('AWS_SECRET_ACCESS_KEY=***');
    const json = JSON.stringify({ aws_secret_access_key: secret });
    expect(redact(json)).toBe('{"aws_secret_access_key":"***"}');
    const nested = JSON.stringify({ content: json });
    expect(JSON.parse(redact(nested))).toEqual({ content: '{"aws_secret_access_key":"***"}' });
  });

  it('PEM private keys: whole blocks, encrypted ones, unterminated ones, and inside JSON', () => {
    const rsa = [
      '-----BEGIN RSA PRIVATE KEY-----',
      'Proc-Type: 4,ENCRYPTED',
      'DEK-Info: AES-128-CBC,3F17F5316E2BAC89',
      '',
      'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
      '-----END RSA PRIVATE KEY-----'
    ].join('\n');
    expect(redact(`key:\n${rsa}\ndone`)).toBe('key:\n***\ndone');
    const cut = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7';
    expect(redact(cut)).toBe('***');
    const line = JSON.stringify({ type: 'message', content: `here:\n${rsa}\n`, next: 'kept' });
    const out = JSON.parse(redact(line)) as { content: string; next: string };
    expect(out.content).toBe('here:\n***\n');
    expect(out.next).toBe('kept');
    const cutLine = JSON.stringify({ content: cut, after: 'kept' });
    expect(JSON.parse(redact(cutLine))).toEqual({ content: '***', after: 'kept' });
  });
});

describe('known values with something between their characters', () => {
  const half = Math.floor(token.length / 2);
  const [head, tail] = [token.slice(0, half), token.slice(half)];

  it('split over two suggestion lines, with indentation and string concatenation', () => {
    const lines = `const a = '${head}' +\n    '${tail}';\nnext();`;
    expect(redact(lines)).toBe(`const a = '***';\nnext();`);
    expect(redact(`${head}\r\n${tail}`)).toBe('***');
    // As a JSON line or a string literal writes the newline.
    expect(redact(`{"text":"${head}\\n${tail}"}`)).toBe('{"text":"***"}');
  });

  // Unicode's Default_Ignorable_Code_Point characters render as nothing, and an HTML comment as well.
  it.each([
    ['U+200B zero width space', '\u200B'],
    ['U+200C zero width non-joiner', '\u200C'],
    ['U+200D zero width joiner', '\u200D'],
    ['U+2060 word joiner', '\u2060'],
    ['U+FEFF zero width no-break space', '\uFEFF'],
    ['U+00AD soft hyphen', '\u00AD'],
    ['U+034F combining grapheme joiner', '\u034F'],
    ['U+180E Mongolian vowel separator', '\u180E'],
    ['U+E0020 tag space (a surrogate pair)', '\u{E0020}'],
    ['an HTML comment', '<!-- -->'],
    ['a JSON escape of U+200B', '\\u200b'],
    // Character references GitHub renders as the zero-width character itself.
    ['a decimal character reference of U+200B', '&#8203;'],
    ['a hex character reference of U+200B', '&#x200B;'],
    ['a named character reference', '&ZeroWidthSpace;']
  ])('interleaved with %s between every character', (_name, separator) => {
    const out = redact(`token: ${[...token].join(separator)} end`);
    expect(out).toBe('token: *** end');
  });

  it('spelled with numeric character references, which render as its letters', () => {
    const spelled = [...token]
      .map((char, index) => (index % 2 === 0 ? `&#${char.codePointAt(0)};` : char))
      .join('');
    expect(redact(`token: ${spelled} end`)).toBe('token: *** end');
    const hex = [...token].map((char) => `&#x${char.codePointAt(0)!.toString(16)};`).join('');
    expect(redact(hex)).toBe('***');
  });

  it('an API key with its punctuation changed, and a password split at its space', () => {
    expect(redact(apiKey.replaceAll('-', '\u2060'))).toBe('***');
    expect(redact('c0rrect\nhorse/battery+staple')).toBe('***');
  });

  it('leaves words that merely share letters, and short values, alone', () => {
    const plain = `ghs ${head.slice(4)} is half a token; ${tail} the other half, apart`;
    expect(redact(plain)).toBe(plain);
    // A value too short to look for across words (fewer than 12 letters and digits).
    const weak = new Redactor(['pass-word-1']).redact;
    expect(weak('pass\nword 1')).toBe('pass\nword 1');
    expect(weak('pass-word-1')).toBe('***');
  });
});

describe('the redactor itself', () => {
  it('is idempotent: redacting twice changes nothing more (the transcript chain relies on it)', () => {
    const text = [
      token,
      Buffer.from(`x-access-token:${token}`).toString('base64'),
      Buffer.from(apiKey).toString('hex'),
      'npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
      '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----'
    ].join(' | ');
    const once = redact(text);
    expect(redact(once)).toBe(once);
  });

  it('leaves ordinary text alone and ignores short values', () => {
    const plain = 'npm test passed: 12 suites, base64 decode ok, sk-ant is a prefix';
    expect(new Redactor(['short', undefined]).redact(plain)).toBe(plain);
    expect(redact(plain)).toBe(plain);
  });

  it('stays fast on a megabyte tool result with many known secrets (does not hang)', () => {
    const many = new Redactor(Array.from({ length: 20 }, (_, i) => `secret-value-number-${i}-abcdefgh`));
    const big = 'lorem ipsum dolor sit amet 0123456789abcdef '.repeat(25_000);
    const started = Date.now();
    for (let i = 0; i < 5; i++) expect(many.redact(big)).toBe(big);
    // A generous bound: only catches a pathological (per-form rescanning or backtracking) redactor.
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('which variables hold a secret', () => {
  it('masks a secret-named value, but not a path that only says where a secret lives', () => {
    const env = {
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      AWS_SHARED_CREDENTIALS_FILE: '/home/me/.aws/credentials',
      GOOGLE_APPLICATION_CREDENTIALS: '/home/me/gcp/key.json',
      PASSWORD_STORE_DIR: '~/.password-store',
      // A secret-named value that is not a path stays masked, whatever the name's ending.
      DEPLOY_TOKEN_FILE: 'not-a-path-but-a-token-1234567890'
    };
    const secrets = knownSecrets(env, []);
    expect(secrets).toEqual(
      expect.arrayContaining([
        'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        'not-a-path-but-a-token-1234567890'
      ])
    );
    expect(secrets).not.toContain('/home/me/.aws/credentials');
    const redactor = new Redactor(secrets);
    expect(redactor.redact('warns when /home/me/.aws/credentials is world-readable')).toBe(
      'warns when /home/me/.aws/credentials is world-readable'
    );
    expect(redactor.redact('key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')).not.toContain('wJalrXUtnFEMI');
  });
});

it('knows secrets named by their last word (SIGNING_KEY, DB_PASS, GH_PAT), as the shell does', async () => {
  const { knownSecrets, isSecretName } = await import('../../src/security/redactor.js');
  const env = {
    SIGNING_KEY: 'k3y-material-0001',
    DB_PASS: 'hunter2hunter2',
    GH_PAT: 'pat-0123456789',
    KEYBOARD: 'us-layout-qwerty'
  };
  expect(knownSecrets(env, [])).toEqual(['k3y-material-0001', 'hunter2hunter2', 'pat-0123456789']);
  expect(isSecretName('KEYBOARD')).toBe(false);
});
