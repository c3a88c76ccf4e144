import { commentUrl, endNotice } from '../../src/action/stages/end-notice.js';

const REPORT = commentUrl('https://github.com/octo/repo', 7, 99);

describe('the reply that tells the requester the run has ended', () => {
  it('mentions a plain user once and links the report comment', () => {
    expect(REPORT).toBe('https://github.com/octo/repo/issues/7#issuecomment-99');
    expect(endNotice('Codertocat', 'success', REPORT)).toBe(
      '@Codertocat the run you asked for has finished: [the report](https://github.com/octo/repo/issues/7#issuecomment-99).'
    );
  });

  it('says how the run ended', () => {
    expect(endNotice('octocat', 'limit', REPORT)).toContain('stopped at a limit');
    expect(endNotice('octocat', 'failure', REPORT)).toContain('the run you asked for failed');
  });

  it('mentions no bot and no login GitHub would not make (no reply then)', () => {
    expect(endNotice('dependabot[bot]', 'success', REPORT)).toBeUndefined();
    expect(endNotice('octo cat @team', 'success', REPORT)).toBeUndefined();
    expect(endNotice('-leading-dash', 'success', REPORT)).toBeUndefined();
    expect(endNotice(undefined, 'success', REPORT)).toBeUndefined();
  });
});
