import { readFileSync } from 'node:fs';
import { OUTPUT_NAMES, publishOutputs } from '../../src/action/outputs.js';
import { WorkflowCommandPause, type CommandChannel } from '../../src/action/workflow-commands.js';
import { obeyedCommands } from '../../test-support/runner-commands.js';

/** The step's output as the runner reads it, with what @actions/core would issue. */
function stepOutput() {
  let text = '';
  const masked: string[] = [];
  const warnings: string[] = [];
  const channel: CommandChannel = {
    write: (chunk) => (text += chunk),
    mask: (secret) => {
      masked.push(secret);
      text += `::add-mask::${secret}\n`;
    },
    warning: (message) => {
      warnings.push(message);
      text += `::warning::${message}\n`;
    }
  };
  return { channel, masked, warnings, text: () => text, append: (chunk: string) => (text += chunk) };
}

describe('the pause of workflow commands while the agent runs', () => {
  it('makes the runner ignore what the agent writes between pause and resume, and obey it before and after', () => {
    const out = stepOutput();
    const pause = new WorkflowCommandPause(out.channel);
    out.append('::notice::before\n');
    pause.pause();
    // The agent's processes write to the step's stdout through /proc/<pid>/fd/1.
    out.append('::set-output name=pr_url::https://attacker.example/x\n::warning::injected\npartial line');
    pause.resume();
    out.append('::notice::after\n');
    const obeyed = obeyedCommands(out.text());
    expect(obeyed.map((command) => `${command.name}:${command.data}`)).toEqual([
      'notice:before',
      `add-mask:${out.masked[0]}`,
      'notice:after'
    ]);
    expect(obeyed.some((command) => command.data.includes('attacker'))).toBe(false);
  });

  it('masks its random token before the runner echoes the stop line, and uses a new one each time', () => {
    const out = stepOutput();
    const pause = new WorkflowCommandPause(out.channel);
    pause.pause();
    pause.resume();
    pause.pause();
    pause.resume();
    expect(out.masked).toHaveLength(2);
    expect(out.masked[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(out.masked[0]).not.toBe(out.masked[1]);
    const text = out.text();
    expect(text.indexOf(`::add-mask::${out.masked[0]}`)).toBeLessThan(
      text.indexOf(`::stop-commands::${out.masked[0]}`)
    );
  });

  it("holds the action's own warnings while paused and issues them after resume", () => {
    const out = stepOutput();
    const pause = new WorkflowCommandPause(out.channel);
    pause.warning('before');
    pause.pause();
    pause.warning('a tracking comment edit failed');
    expect(out.warnings).toEqual(['before']);
    pause.resume();
    expect(out.warnings).toEqual(['before', 'a tracking comment edit failed']);
    expect(obeyedCommands(out.text()).filter((command) => command.name === 'warning')).toHaveLength(2);
  });

  it('resumes on a line of its own, whatever line the agent left open', () => {
    const out = stepOutput();
    const pause = new WorkflowCommandPause(out.channel);
    pause.pause();
    out.append('no newline at the end');
    pause.resume();
    out.append('::warning::the action again\n');
    expect(obeyedCommands(out.text()).map((command) => command.name)).toEqual(['add-mask', 'warning']);
  });
});

describe('the outputs at the end of a run', () => {
  it('are every output action.yml declares, in its order', () => {
    const outputsSection = readFileSync('action.yml', 'utf8')
      .split(/^outputs:\n/m)[1]!
      .split(/^\S/m)[0]!;
    const names = [...outputsSection.matchAll(/^ {2}([a-z_]+):$/gm)].map((match) => match[1]);
    expect(names).toEqual([...OUTPUT_NAMES]);
  });

  it('are all set, empty where the run has nothing: no value set earlier for the step stands', () => {
    const set = new Map<string, string>();
    publishOutputs({ conclusion: 'refused' }, (name, value) => set.set(name, String(value)));
    expect([...set.keys()]).toEqual([...OUTPUT_NAMES]);
    expect(set.get('pr_url')).toBe('');
    expect(set.get('branch_name')).toBe('');
    expect(set.get('conclusion')).toBe('refused');
  });
});
