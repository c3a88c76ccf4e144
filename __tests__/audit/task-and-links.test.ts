import { renderHtmlReport } from '../../src/audit/html-report.js';
import { parseTranscript } from '../../src/audit/parse-transcript.js';
import type { RunAudit } from '../../src/audit/run-audit.js';
import { taskBoxOf } from '../../src/audit/page/task-box.js';
import { auditFixture } from '../support/audit-fixture.js';

const REQUEST = 'the word count test fails on text with several spaces; please fix it';
const CONTEXT = [
  '<github-context>',
  'Issue #1: Spelling error in the README file',
  '<untrusted-data source="issue body" author="Codertocat">It looks like you accidentally spelled commit with two t\'s.</untrusted-data>',
  '</github-context>'
].join('\n');
const LINKS = {
  thread: 'https://github.com/Codertocat/Hello-World/issues/1',
  run: 'https://github.com/Codertocat/Hello-World/actions/runs/4242',
  pull_request: 'https://github.com/Codertocat/Hello-World/pulls?q=is%3Apr%20head%3Aagent%2F1-abc123'
};

function onThread(overrides: Partial<RunAudit> = {}): RunAudit {
  return {
    ...auditFixture(),
    task: `${REQUEST}\n\n${CONTEXT}`,
    thread: { originalTask: REQUEST, requests: [REQUEST], links: LINKS },
    ...overrides
  };
}

/** The task box's markup: from its label to the end of its div. */
function taskBox(html: string): string {
  return /<div class="task">([\s\S]*?)<\/div>\n<dl class="facts">/.exec(html)![1]!;
}

describe("the audit page's task box", () => {
  it('shows the request in front and folds the thread context the model was given', () => {
    const box = taskBox(renderHtmlReport(onThread()));
    const [front, folded] = box.split('<details');
    expect(front).toContain(`<pre class="task-text">${REQUEST}</pre>`);
    expect(front).not.toContain('github-context');
    expect(front).not.toContain('Spelling error');
    expect(folded).toContain(
      "<summary>What the model was given: the request with the thread's context (6 lines)</summary>"
    );
    expect(folded).toContain('&lt;github-context&gt;');
  });

  it('reads the request out of the task when the transcript has no thread record', () => {
    expect(taskBoxOf({ task: `${REQUEST}\n\n${CONTEXT}`, thread: undefined })).toMatchObject({
      request: REQUEST,
      firstMessage: `${REQUEST}\n\n${CONTEXT}`
    });
    // A follow-up's resume task: the current request, without the previous run's block.
    const resume = `<previous-run>\nIt fixed the parser.\n</previous-run>\n<current-request>\nnow add a test\n</current-request>\n${CONTEXT}`;
    expect(taskBoxOf({ task: resume, thread: undefined })?.request).toBe('now add a test');
    // A plain task is its own request: nothing folded.
    expect(taskBoxOf({ task: 'fix it', thread: undefined })).toMatchObject({
      request: 'fix it',
      firstMessage: undefined
    });
    expect(taskBoxOf({ task: undefined, thread: undefined })).toBeUndefined();
  });

  it("folds a follow-up's original task apart from this run's request", () => {
    const box = taskBox(
      renderHtmlReport(
        onThread({ thread: { originalTask: REQUEST, requests: [REQUEST, 'also count tabs'], links: {} } })
      )
    );
    expect(box).toContain('<pre class="task-text">also count tabs</pre>');
    expect(box).toContain(`<summary>The thread's original task</summary><pre>${REQUEST}</pre>`);
  });
});

describe("the audit page's links", () => {
  it('links the thread, the workflow run and the pull request from run_start', () => {
    const html = renderHtmlReport(onThread());
    const nav = /<nav class="run-links" aria-label="On GitHub">(.*?)<\/nav>/.exec(html)![1]!;
    expect(nav).toBe(
      [
        `<a href="${LINKS.thread}" rel="noopener noreferrer">Thread</a>`,
        `<a href="${LINKS.run}" rel="noopener noreferrer">Workflow run</a>`,
        `<a href="${LINKS.pull_request}" rel="noopener noreferrer">Pull request</a>`
      ].join(' · ')
    );
  });

  it('links nothing that is not a web address, and nothing when the transcript recorded none', () => {
    const hostile = renderHtmlReport(
      onThread({
        thread: {
          originalTask: REQUEST,
          requests: [REQUEST],
          links: {
            thread: 'javascript:alert(1)',
            run: 'data:text/html,<script>alert(2)</script>',
            pull_request: 'https://github.com/o/r/pull/1" onmouseover="alert(3)'
          }
        }
      })
    );
    expect(hostile).not.toContain('class="run-links"');
    expect(hostile).not.toContain('javascript:alert');
    expect(renderHtmlReport(auditFixture())).not.toContain('class="run-links"');
  });

  it('reads the links from a run_start line, and a run_start without them still parses', () => {
    const start = {
      seq: 1,
      time: '2026-11-26T00:00:00.000Z',
      type: 'run_start',
      run_id: 'r-1',
      task: REQUEST,
      model: 'claude-sonnet-5-5',
      repo: '/w',
      system_prompt: 's',
      tools: ['bash'],
      limits: { max_turns: 10, timeout_minutes: 5, max_budget_usd: 1 },
      context_window: 200000,
      thread: { original_task: REQUEST, requests: [REQUEST], links: LINKS }
    };
    expect(parseTranscript(`${JSON.stringify(start)}\n`).thread?.links).toEqual(LINKS);
    const older = { ...start, thread: { original_task: REQUEST, requests: [REQUEST] } };
    const audit = parseTranscript(`${JSON.stringify(older)}\n`);
    expect(audit.skippedLines).toEqual([]);
    expect(audit.thread?.links).toEqual({});
  });
});
