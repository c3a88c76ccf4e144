import { readFileSync } from 'node:fs';
import { OUTPUT_NAMES, publishOutputs } from '../../src/action/outputs.js';
import { WorkflowCommandPause, type CommandChannel } from '../../src/action/workflow-commands.js';
import {
  obeyedCommands,
  obeyedCommandsOfStreams,
  type StreamChunk
} from '../../test-support/runner-commands.js';

/** The step's output as the runner reads it, with what @actions/core would issue. */
function stepOutput() {
  let text = '';
  const masked: string[] = [];
  const warnings: string[] = [];
  const channel: CommandChannel = {
    write: (chunk) => (text += chunk),
    writeError: (chunk) => (text += chunk),
    settle: async () => undefined,
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
  it('makes the runner ignore what the agent writes between pause and resume, and obey it before and after', async () => {
    const out = stepOutput();
    const pause = new WorkflowCommandPause(out.channel);
    out.append('::notice::before\n');
    pause.pause();
    // The agent's processes write to the step's stdout through /proc/<pid>/fd/1.
    out.append('::set-output name=pr_url::https://attacker.example/x\n::warning::injected\npartial line');
    await pause.resume();
    out.append('::notice::after\n');
    const obeyed = obeyedCommands(out.text());
    expect(obeyed.map((command) => `${command.name}:${command.data}`)).toEqual([
      'notice:before',
      `add-mask:${out.masked[0]}`,
      'notice:after'
    ]);
    expect(obeyed.some((command) => command.data.includes('attacker'))).toBe(false);
  });

  it('masks its random token before the runner echoes the stop line, and uses a new one each time', async () => {
    const out = stepOutput();
    const pause = new WorkflowCommandPause(out.channel);
    pause.pause();
    await pause.resume();
    pause.pause();
    await pause.resume();
    expect(out.masked).toHaveLength(2);
    expect(out.masked[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(out.masked[0]).not.toBe(out.masked[1]);
    const text = out.text();
    expect(text.indexOf(`::add-mask::${out.masked[0]}`)).toBeLessThan(
      text.indexOf(`::stop-commands::${out.masked[0]}`)
    );
  });

  it("holds the action's own warnings while paused and issues them after resume", async () => {
    const out = stepOutput();
    const pause = new WorkflowCommandPause(out.channel);
    pause.warning('before');
    pause.pause();
    pause.warning('a tracking comment edit failed');
    expect(out.warnings).toEqual(['before']);
    await pause.resume();
    expect(out.warnings).toEqual(['before', 'a tracking comment edit failed']);
    expect(obeyedCommands(out.text()).filter((command) => command.name === 'warning')).toHaveLength(2);
  });

  it('resumes on a line of its own, whatever line the agent left open', async () => {
    const out = stepOutput();
    const pause = new WorkflowCommandPause(out.channel);
    pause.pause();
    out.append('no newline at the end');
    await pause.resume();
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

describe('the resume, with the two streams the runner reads apart', () => {
  it('ends a line the agent left open on stderr, and lets the runner read it, before the resume', async () => {
    const order: string[] = [];
    const pause = new WorkflowCommandPause({
      write: (text) => order.push(`stdout ${JSON.stringify(text)}`),
      writeError: (text) => order.push(`stderr ${JSON.stringify(text)}`),
      mask: () => undefined,
      warning: () => undefined,
      settle: async () => void order.push('settle')
    });
    pause.pause();
    order.length = 0;
    await pause.resume();
    expect(order.slice(0, 3)).toEqual(['stderr "\\n"', 'stdout "\\n"', 'settle']);
    expect(order[3]).toMatch(/^stdout "::[0-9a-f]{32}::\\n"$/);
  });

  it('so the runner never obeys that line: it completes while commands are stopped', async () => {
    const chunks: StreamChunk[] = [];
    const pause = new WorkflowCommandPause({
      write: (text) => chunks.push({ stream: 'stdout', text }),
      writeError: (text) => chunks.push({ stream: 'stderr', text }),
      mask: () => undefined,
      warning: () => undefined,
      settle: async () => undefined
    });
    pause.pause();
    chunks.push({ stream: 'stderr', text: '::set-output name=pr_url::https://attacker.example' });
    await pause.resume();
    chunks.push({ stream: 'stdout', text: '::notice::the action\n' });
    expect(obeyedCommandsOfStreams(chunks).map((command) => command.name)).toEqual(['notice']);
    // Without the stderr line end, the runner reads that line when the stream ends: after the resume.
    const unended = chunks.filter((chunk) => !(chunk.stream === 'stderr' && chunk.text === '\n'));
    expect(obeyedCommandsOfStreams(unended).map((command) => command.name)).toEqual(['notice', 'set-output']);
  });
});
