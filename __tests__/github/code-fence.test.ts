import { FenceTracker } from '../../src/github/markdown/code-fence.js';
import { cutBalanced } from '../../src/github/markdown/outbound-fit-body.js';
import { blankNonProse } from '../../src/github/markdown/inbound-visible-prose.js';

function roles(lines: readonly string[]): string[] {
  const fences = new FenceTracker();
  return lines.map((line) => fences.read(line));
}

describe('where a fenced code block opens and closes', () => {
  it('closes only on the same character, at least as many, with nothing after', () => {
    expect(roles(['````ts', '```', '~~~~', '```` x', '`````', 'after'])).toEqual([
      'opener',
      'content',
      'content',
      'content',
      'closer',
      'outside'
    ]);
  });

  it('does not open on a backtick line whose info string holds a backtick (inline code)', () => {
    expect(roles(['``` a ` b', 'text'])).toEqual(['outside', 'outside']);
    expect(roles(['~~~ a ` b', 'text'])).toEqual(['opener', 'content']);
  });

  it('reads CRLF lines (GitHub web editor bodies) like LF ones, so a fenced trigger stays code', () => {
    expect(roles(['~~~\r', '@compact-agent fix\r', '~~~\r', 'thanks'])).toEqual([
      'opener',
      'content',
      'closer',
      'outside'
    ]);
    const crlf = 'Example config:\r\n~~~\r\n@compact-agent fix the tests\r\n~~~\r\nthanks';
    expect(blankNonProse(crlf)).not.toContain('@compact-agent');
    expect(blankNonProse(crlf.replace(/\r\n/g, '\n'))).not.toContain('@compact-agent');
  });

  it('takes up to three spaces of indent, not four', () => {
    expect(roles(['   ```', '   ```', '    ```'])).toEqual(['opener', 'closer', 'outside']);
  });

  it('remembers the open block', () => {
    const fences = new FenceTracker();
    fences.read('~~~~ mermaid');
    expect(fences.open).toEqual({ marker: '~~~~', info: ' mermaid' });
    fences.read('~~~~');
    expect(fences.open).toBeUndefined();
  });

  it('is the same rule when fitting a report and when finding the prose of a comment', () => {
    // The `~~~` line does not close the backtick block: both see the block still open at "@later".
    const body = '```\n~~~\n@later\n' + 'x'.repeat(200);
    expect(blankNonProse(body)).not.toContain('@later');
    const cut = cutBalanced(body, 60);
    expect(cut.startsWith('```\n~~~\n@later\n')).toBe(true);
    expect(cut).toContain('\n```\n\n[… cut]');
  });
});
