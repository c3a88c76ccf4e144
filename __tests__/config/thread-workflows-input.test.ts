/** thread.workflows: workflow file names or paths in, paths out; anything else is a clear problem. */
import { readThreadWorkflows } from '../../src/config/thread-workflows-input.js';

function read(value: string): { files: readonly string[]; problems: string[] } {
  const problems: string[] = [];
  const files = readThreadWorkflows((name) => (name === 'thread_workflows' ? value : ''), problems);
  return { files, problems };
}

describe('thread.workflows', () => {
  it('takes file names and paths in .github/workflows/, once each, as paths', () => {
    expect(read('agent.yml\n.github/workflows/fix-ci.yml\nagent.yml\nci.yaml')).toEqual({
      files: ['.github/workflows/agent.yml', '.github/workflows/fix-ci.yml', '.github/workflows/ci.yaml'],
      problems: []
    });
    expect(read('')).toEqual({ files: [], problems: [] });
  });

  it('refuses what is not a workflow file of this repository, saying what to write', () => {
    const { files, problems } = read('../other/agent.yml\nagent\nother/repo/.github/workflows/a.yml');
    expect(files).toEqual([]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toBe(
      'thread.workflows names workflow files in .github/workflows/ (e.g. agent.yml), got "../other/agent.yml". ' +
        'Write each file name as it is in .github/workflows/, e.g. workflows: [agent.yml, fix-ci.yml].'
    );
  });
});
