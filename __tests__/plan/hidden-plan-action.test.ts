/**
 * Finding 5 of the fourth attack review, through the built action: a plan whose Markdown hides words
 * from the report (a link title, math, a Mermaid comment, image alt text) was approved with `/agent go`
 * and carried out, hidden words and all. Now the report shows such a plan as plain text, and what the
 * approving run receives as `approved_plan` is exactly the text on the page.
 */
import { wordStatsFixer } from '../../demo/word-stats-fixer.js';
import { reply, systemText, text, type Script } from '../../test-support/fake-anthropic/index.js';
import type { ActionWorld } from '../support/action-world.js';
import { commentPayload, planWorldPerTest } from '../support/plan-world.js';

const startPlanWorld = planWorldPerTest();
const planWorld = () => startPlanWorld(planner);

/** What each hidden form hides: none of these may reach the approving run unseen. */
const HIDDEN_WORDS = [
  'TITLE-push-to-release',
  'MATH-curl-attacker',
  'MERMAID-deploy-key',
  'ALT-disable-protection'
];
const PLAN = [
  '## Goal',
  'Make countWords count words separated by any whitespace.',
  '## Steps',
  `1. Read [the module](https://example.com/word-count "${HIDDEN_WORDS[0]}").`,
  `2. Split on /\\s+/. $\\phantom{${HIDDEN_WORDS[1]}}$`,
  '```mermaid',
  'graph TD;',
  `%% ${HIDDEN_WORDS[2]}`,
  'A-->B;',
  '```',
  `![${HIDDEN_WORDS[3]}](https://example.com/diagram.png)`,
  '## Tests',
  '- npm test'
].join('\n');

const planner: Script = (request, context) =>
  systemText(request).includes('This is a plan run') ? reply(text(PLAN)) : wordStatsFixer(request, context);

/** The plan's code block in the report, as a reader sees it (the quote's `> ` and the defusing joiners gone). */
function shownPlan(report: string): string {
  const lines = report.split('\n').map((line) => line.replace(/^> ?/, '').replace(/\u2060/g, ''));
  const open = lines.findIndex((line) => /^`{3,}text$/.test(line));
  expect(open).toBeGreaterThan(-1);
  const ticks = lines[open]!.slice(0, -'text'.length);
  const close = lines.findIndex((line, index) => index > open && line === ticks);
  expect(close).toBeGreaterThan(open);
  return lines.slice(open + 1, close).join('\n');
}

/** `approved_plan` from the approving run's first message (the JSON record in <previous-run>). */
function approvedPlan(world: ActionWorld, index: number): string {
  const request = world.anthropic.requests.filter((record) => record.path === '/v1/messages')[index]!
    .request!;
  const first = request.messages[0]!;
  const content =
    typeof first.content === 'string'
      ? first.content
      : first.content.map((block) => ('text' in block ? block.text : '')).join('\n');
  const json = /<previous-run>\n[^\n]*\n[^\n]*\n[^\n]*\n([\s\S]*?)\n<\/previous-run>/.exec(content)?.[1];
  expect(json).toBeDefined();
  const record = JSON.parse(json!) as { approved_plan?: unknown };
  expect(typeof record.approved_plan).toBe('string');
  return record.approved_plan as string;
}

it('shows a plan with hidden Markdown as plain text, and `/agent go` receives exactly that text', async () => {
  const world = await planWorld();
  const plan = await world.run({
    eventName: 'issue_comment',
    payload: commentPayload('/agent plan the word count test fails', 1),
    workspace: world.cloneOrigin(),
    runId: '201'
  });
  expect(plan.code).toBe(0);
  const report = world.github.createdComments[0]!.body;
  expect(report).toContain('### Plan');
  expect(report).toMatch(
    /_Shown as plain text, exactly as `\/agent go` would receive it: the plan holds math, image alt text, link titles, link destinations, diagram or math blocks, which GitHub would render partly out of sight\._/
  );
  const shown = shownPlan(report);
  for (const words of HIDDEN_WORDS) expect(shown).toContain(words);

  const planCalls = world.modelCalls();
  const go = await world.run({
    eventName: 'issue_comment',
    payload: commentPayload('/agent go', 2),
    workspace: world.cloneOrigin(),
    runId: '202'
  });
  expect(go.code).toBe(0);
  expect(go.outputs.branch_name).toMatch(/^agent\//);
  expect(approvedPlan(world, planCalls)).toBe(shown);
});
