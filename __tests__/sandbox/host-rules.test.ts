import { isInternalAddress } from '../../src/sandbox/address-class.js';
import { decideEgress } from '../../src/sandbox/egress-decision.js';
import { findRule, parseHostRule, type HostRule } from '../../src/sandbox/host-rules.js';
import { parseSandboxInputs } from '../../src/config/sandbox-input.js';

const rule = (entry: string, explicit = false) => parseHostRule(entry, explicit) as HostRule;

describe('host rules', () => {
  it('parses names, wildcards, ports and IP literals, and refuses what is no host with a fix', () => {
    expect(rule('Registry.NPMJS.org')).toEqual({
      host: 'registry.npmjs.org',
      port: undefined,
      subdomains: false,
      explicit: false
    });
    expect(rule('*.example.com:8443', true)).toEqual({
      host: 'example.com',
      port: 8443,
      subdomains: true,
      explicit: true
    });
    expect(rule('[::1]:9000')).toMatchObject({ host: '::1', port: 9000 });
    expect(parseHostRule('http://example.com', true)).toContain('is not a host');
    expect(parseHostRule('example.com:70000', true)).toContain('a port is 1 to 65535');
    expect(parseHostRule('*.10.0.0.1', true)).toContain('not to IP addresses');
  });

  it('matches a name on the default ports only, subdomains only with *., IPs only when listed', () => {
    const rules = [rule('pypi.org'), rule('*.example.com'), rule('127.0.0.1:8080', true)];
    expect(findRule(rules, 'pypi.org', 443)).toBeDefined();
    expect(findRule(rules, 'PYPI.org.', 80)).toBeDefined();
    expect(findRule(rules, 'pypi.org', 22)).toBeUndefined();
    expect(findRule(rules, 'evil-pypi.org', 443)).toBeUndefined();
    expect(findRule(rules, 'pypi.org.evil.com', 443)).toBeUndefined();
    expect(findRule(rules, 'a.example.com', 443)).toBeDefined();
    expect(findRule(rules, 'example.com', 443)).toBeUndefined();
    expect(findRule(rules, '127.0.0.1', 8080)).toBeDefined();
    expect(findRule(rules, '127.0.0.1', 80)).toBeUndefined();
    expect(findRule(rules, '151.101.0.223', 443)).toBeUndefined();
  });
});

describe('internal addresses', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::7f00:1'
  ])('%s is internal', (address) => expect(isInternalAddress(address)).toBe(true));
  it.each(['151.101.0.223', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is not', (address) =>
    expect(isInternalAddress(address)).toBe(false)
  );
});

describe('the egress decision', () => {
  const resolveTo =
    (...addresses: string[]) =>
    () =>
      Promise.resolve(addresses);
  it('refuses a default-list name that resolves to an internal address (rebinding, metadata)', async () => {
    expect(
      await decideEgress(
        [rule('registry.npmjs.org')],
        'registry.npmjs.org',
        443,
        resolveTo('104.16.0.1', '169.254.169.254')
      )
    ).toEqual({
      allowed: false,
      reason: 'an allowed name that resolves to an internal address'
    });
  });
  it('lets a host the maintainer named resolve anywhere, and connects to the address it checked', async () => {
    expect(
      await decideEgress([rule('registry.internal', true)], 'registry.internal', 443, resolveTo('10.0.0.5'))
    ).toEqual({
      allowed: true,
      addresses: ['10.0.0.5']
    });
  });
  it('refuses what is not on the list without resolving it (no DNS leak of the name)', async () => {
    let asked = false;
    const resolve = () => {
      asked = true;
      return Promise.resolve(['1.2.3.4']);
    };
    expect(await decideEgress([rule('pypi.org')], 'secret-data.attacker.example', 443, resolve)).toEqual({
      allowed: false,
      reason: 'not on the allowed hosts'
    });
    expect(asked).toBe(false);
  });
});

describe('the sandbox inputs', () => {
  const parse = (values: Record<string, string>) => {
    const problems: string[] = [];
    const config = parseSandboxInputs(
      (name) => values[name] ?? '',
      (name) => name,
      problems
    );
    return { config, problems };
  };
  it('defaults to auto with the registries', () => {
    const { config, problems } = parse({});
    expect(problems).toEqual([]);
    expect(config.mode).toBe('auto');
    expect(config.rules?.map((entry) => entry.host)).toContain('registry.npmjs.org');
  });
  it('adds hosts as explicit rules, drops the defaults on request, switches the network off', () => {
    const added = parse({
      sandbox_allow_hosts: 'a.example.com, 10.0.0.5:8080',
      sandbox_default_hosts: 'false'
    }).config;
    expect(added.rules?.map((entry) => [entry.host, entry.explicit])).toEqual([
      ['a.example.com', true],
      ['10.0.0.5', true]
    ]);
    expect(parse({ sandbox_network: 'off' }).config.rules).toBeUndefined();
  });
  it('names the input and what to write for every bad value', () => {
    expect(parse({ sandbox: 'on' }).problems[0]).toContain('sandbox is "on": write auto');
    expect(parse({ sandbox_network: 'none' }).problems[0]).toContain('write allowlist');
    expect(parse({ sandbox_allow_hosts: 'https://x.example' }).problems[0]).toContain(
      'sandbox_allow_hosts: "https://x.example" is not a host'
    );
    expect(parse({ sandbox_network: 'off', sandbox_allow_hosts: 'x.example' }).problems[0]).toContain(
      'remove one of the two'
    );
  });
});
