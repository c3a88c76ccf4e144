import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { describeToolCall } from '../../src/tools/describe-call.js';
import { renderHtmlReport } from '../../src/audit/html-report.js';
import type { RunAudit } from '../../src/audit/run-audit.js';
import { auditFixture, largeAuditFixture } from '../support/audit-fixture.js';

/**
 * The report in a real browser: Debian's headless Chromium, driven by playwright-core, opening the file
 * from file:// as a reviewer would. CI installs Chromium (.ci/run); without it this suite fails.
 */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync'
];

interface Watched {
  readonly page: Page;
  readonly problems: string[];
  readonly requests: string[];
}

let context: BrowserContext;
let profile: string;
let work: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing: ${CHROMIUM} does not exist. Install Debian's package with ` +
        '`apt-get update && apt-get install -y chromium` (.ci/run does this before the tests).'
    );
  }
  work = mkdtempSync(join(tmpdir(), 'audit-browser-'));
  profile = mkdtempSync(join(tmpdir(), 'audit-chromium-profile-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1
  });
});

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Writes the report to a file, opens it, and records every console error, page error and request. */
async function open(audit: RunAudit, name: string): Promise<Watched> {
  const file = join(work, `${name}.html`);
  writeFileSync(file, renderHtmlReport(audit));
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`console ${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return { page, problems, requests };
}

/** The turns the search should find: the turn's text, a call's name and input, or an output. */
function turnsMatching(audit: RunAudit, query: string): number[] {
  const needle = query.toLowerCase();
  return audit.timeline
    .filter((turn) =>
      [
        turn.text,
        ...turn.toolCalls.flatMap((call) => [
          describeToolCall(call.name, call.input, 140),
          JSON.stringify(call.input),
          call.output ?? ''
        ])
      ]
        .join('\n')
        .toLowerCase()
        .includes(needle)
    )
    .map((turn) => turn.turn);
}

/** The turns the timeline shows, by their ids (the script runs in the page, not here). */
async function visibleTurns(page: Page): Promise<number[]> {
  const ids = (await page.evaluate(
    "[...document.querySelectorAll('#timeline .turn')].filter((n) => getComputedStyle(n).display !== 'none').map((n) => n.id)"
  )) as string[];
  return ids.map((id) => Number(id.replace('turn-', '')));
}

/** Types a query as a person would and waits for the count the search box shows. */
async function search(page: Page, query: string, expectedCount: string): Promise<void> {
  await page.locator('#search').fill('');
  await page.locator('#search').pressSequentially(query);
  // The count says which query it is for once the typing has settled. Polled from here: waitForFunction
  // would evaluate a string, which the page's Content-Security-Policy forbids.
  const counter = page.locator('#search-count');
  const wanted = query.trim().toLowerCase();
  for (const started = Date.now(); Date.now() - started < 5_000; await page.waitForTimeout(25)) {
    if ((await counter.getAttribute('data-query')) === wanted) break;
  }
  await expect(counter.getAttribute('data-query')).resolves.toBe(wanted);
  await expect(counter.textContent()).resolves.toBe(expectedCount);
}

describe('the HTML report in Chromium', () => {
  const audit = auditFixture();
  let watched: Watched;

  beforeAll(async () => {
    watched = await open(audit, 'fixture');
  });

  afterAll(async () => {
    await watched?.page.close();
  });

  it('draws the context chart: a line through every turn, the window, and a marker per compaction', async () => {
    const { page } = watched;
    const points = await page.locator('#context-chart polyline.context-line').getAttribute('points');
    expect(points?.trim().split(/\s+/)).toHaveLength(audit.contextTokensPerTurn.length);
    const line = await page.locator('#context-chart polyline.context-line').boundingBox();
    expect(line!.width).toBeGreaterThan(600);
    expect(line!.height).toBeGreaterThan(100);
    await expect(page.locator('#context-chart .window-line').count()).resolves.toBe(1);

    const markers = page.locator('#context-chart .compaction-marker');
    await expect(markers.count()).resolves.toBe(audit.compactions.length);
    for (let index = 0; index < audit.compactions.length; index++) {
      const marker = markers.nth(index);
      expect(await marker.getAttribute('data-index')).toBe(String(index));
      expect(await marker.isVisible()).toBe(true);
      const box = await marker.boundingBox();
      expect(box!.width).toBeGreaterThan(4);
    }
    // Colour by layer, from the page's own style.
    const fills = (await page.evaluate(
      "[...document.querySelectorAll('#context-chart .compaction-marker')].map((n) => getComputedStyle(n).fill)"
    )) as string[];
    const byLayer = new Map<string, Set<string>>();
    audit.compactions.forEach((event, index) =>
      byLayer.set(event.layer, (byLayer.get(event.layer) ?? new Set()).add(fills[index]!))
    );
    expect(byLayer.size).toBe(5);
    for (const colours of byLayer.values()) expect(colours.size).toBe(1);
    expect(new Set([...byLayer.values()].map((colours) => [...colours][0])).size).toBe(5);
  });

  it('shows a compaction’s summary when its marker is clicked, and another’s when its row is', async () => {
    const { page } = watched;
    const detail = page.locator('#compaction-detail');
    await expect(detail.textContent()).resolves.toContain('Click a compaction');

    const auto = audit.compactions.findIndex((event) => event.layer === 'auto');
    await page.locator(`#context-chart .compaction-marker[data-index="${auto}"]`).click();
    await expect(detail.locator('pre.summary-text').textContent()).resolves.toBe(
      audit.compactions[auto]!.summary
    );
    await expect(detail.locator('h2').textContent()).resolves.toContain(`Compaction ${auto + 1} of 12`);
    await expect(page.locator('.compaction-row.selected').getAttribute('data-index')).resolves.toBe(
      String(auto)
    );
    await expect(page.locator('.compaction-marker.selected').count()).resolves.toBe(1);

    const manual = audit.compactions.findIndex((event) => event.layer === 'manual');
    await page.locator(`.compaction-row[data-index="${manual}"]`).click();
    const text = await detail.textContent();
    expect(text).toContain(audit.compactions[manual]!.focus!);
    await expect(detail.locator('pre.summary-text').textContent()).resolves.toBe(
      audit.compactions[manual]!.summary
    );
    await expect(page.locator('.compaction-marker.selected').getAttribute('data-index')).resolves.toBe(
      String(manual)
    );

    // A fallback says why there is no summary.
    const fallback = audit.compactions.findIndex((event) => event.layer === 'fallback');
    await page.locator(`.compaction-row[data-index="${fallback}"]`).click();
    await expect(detail.textContent()).resolves.toContain('No summary: the summary call failed');
  });

  it('opens a compaction’s details from a link to #compaction-N (counted from 1)', async () => {
    const file = join(work, 'fixture.html');
    const manual = audit.compactions.findIndex((event) => event.layer === 'manual');
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await page.goto(`${pathToFileURL(file).href}#compaction-${manual + 1}`, { waitUntil: 'load' });
      const detail = page.locator('#compaction-detail');
      await expect(detail.locator('h2').textContent()).resolves.toContain(`Compaction ${manual + 1} of 12`);
      await expect(detail.locator('pre.summary-text').textContent()).resolves.toBe(
        audit.compactions[manual]!.summary
      );
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('lists the tool results a micro clear replaced, each a link to its call in the timeline', async () => {
    const { page } = watched;
    const micro = audit.compactions.findIndex((event) => event.layer === 'micro');
    const ids = audit.compactions[micro]!.tool_use_ids!;
    await page.locator(`.compaction-row[data-index="${micro}"]`).click();
    const detail = page.locator('#compaction-detail');
    await expect(detail.locator('h3').allTextContents()).resolves.toContain(
      `Cleared tool results (${ids.length})`
    );
    await expect(detail.locator('.ids button').allTextContents()).resolves.toEqual([...ids]);

    const call = page.locator(`details.call[data-call-id="${ids[0]}"]`);
    await expect(call.getAttribute('open')).resolves.toBeNull();
    await expect(call.locator('.call-body').innerHTML()).resolves.toBe('');
    await detail.locator('.ids button').first().click();
    await expect(call.getAttribute('open')).resolves.toBe('');
    const cleared = audit.timeline.flatMap((turn) => turn.toolCalls).find((each) => each.id === ids[0])!;
    await expect(call.locator('pre.output').textContent()).resolves.toBe(cleared.output);
    expect(await call.isVisible()).toBe(true);
  });

  it('fills a tool call’s input and output only when it is opened, and marks errors', async () => {
    const { page } = watched;
    const failing = page.locator('#turn-28 details.call').first();
    await expect(failing.getAttribute('class')).resolves.toBe('call error');
    await expect(page.locator('#turn-28').getAttribute('class')).resolves.toBe('turn has-error');
    await expect(failing.locator('.call-body').innerHTML()).resolves.toBe('');
    await failing.locator('summary').click();
    await expect(failing.locator('pre.input').textContent()).resolves.toBe('npm run typecheck');
    await expect(failing.locator('h4').allTextContents()).resolves.toEqual(['Input', 'Output (error)']);
    await expect(failing.locator('pre.output').textContent()).resolves.toContain('error TS2345');
    await failing.locator('summary').click();
    await expect(failing.getAttribute('open')).resolves.toBeNull();
  });

  it('filters the timeline by a search over text, tool calls and outputs, and counts the matches', async () => {
    const { page } = watched;

    // A command the agent ran: the bench script, in four turns' calls.
    const bench = turnsMatching(audit, 'bench-reconcile');
    expect(bench).toEqual([8, 9, 16, 38]);
    await search(page, 'Bench-Reconcile', `${bench.length} of 40 turns match`);
    await expect(visibleTurns(page)).resolves.toEqual(bench);
    await expect(page.locator('#turn-1').isVisible()).resolves.toBe(false);
    await expect(page.locator('.compaction-divider:not(.hidden)').count()).resolves.toBe(0);
    await expect(page.locator('#turn-9 details.call.match').count()).resolves.toBe(2);

    // A grep pattern in a tool input.
    const grep = turnsMatching(audit, 'TODO.*(412');
    expect(grep).toEqual([34]);
    await search(page, 'todo.*(412', '1 of 40 turns match');
    await expect(visibleTurns(page)).resolves.toEqual(grep);

    // Text that is only in an output, never shown until the call is opened.
    const typeError = turnsMatching(audit, 'is not assignable to parameter');
    expect(typeError).toEqual([28]);
    await search(page, 'is not assignable to parameter', '1 of 40 turns match');
    await expect(visibleTurns(page)).resolves.toEqual(typeError);

    await search(page, 'no such text anywhere in this run', 'no turn matches');
    await expect(visibleTurns(page)).resolves.toEqual([]);

    await page.locator('#search').press('Escape');
    await expect(page.locator('#search-count').textContent()).resolves.toBe('');
    await expect(visibleTurns(page)).resolves.toHaveLength(40);
    await expect(page.locator('.compaction-divider:not(.hidden)').count()).resolves.toBe(12);
  });

  it('made no request but for the file itself, and logged no error', async () => {
    const { page, problems, requests } = watched;
    // Hover and click the chart too: the readout and the jump to a turn.
    await page.locator('#plot-hit').hover();
    await expect(page.locator('#chart-hover').getAttribute('visibility')).resolves.toBe('visible');
    await expect(page.locator('#chart-hover text').textContent()).resolves.toMatch(
      /^turn \d+: [\d,]+ tokens$/
    );
    // A click on the plot opens that turn in the timeline. The page takes the flash off again after
    // 1.6 s, so record every element that gets it rather than look once (a slow runner looks late).
    await page.evaluate(`window.flashed = [];
      new MutationObserver((changes) => {
        for (const change of changes) if (change.target.classList.contains('flash')) window.flashed.push(change.target.id);
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'] });`);
    await page.locator('#plot-hit').click();
    const hovered = Number(/^turn (\d+)/.exec((await page.locator('#chart-hover text').textContent())!)![1]);
    await expect(page.evaluate('window.flashed')).resolves.toContain(`turn-${hovered}`);
    await expect(page.locator(`#turn-${hovered}`).isVisible()).resolves.toBe(true);
    expect(problems).toEqual([]);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatch(/^file:\/\/.*fixture\.html$/);
  });

  it('saves a screenshot of the report with an auto compaction selected', async () => {
    const { page, problems } = watched;
    await page.evaluate('window.scrollTo(0, 0)');
    await page.mouse.move(0, 0);
    const auto = audit.compactions.findIndex((event) => event.layer === 'auto');
    await page.locator(`#context-chart .compaction-marker[data-index="${auto}"]`).click();
    await page.evaluate('document.querySelector(".table-wrap").scrollTop = 0');
    const png = await page.screenshot({ type: 'png' });
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, 900]);
    // docs/audit-report.png comes from a real demo run (see the README), not from this fixture.
    writeFileSync(join(work, 'fixture.png'), png);
    expect(problems).toEqual([]);
  });
});

describe('an anchored summary update in Chromium', () => {
  it('is shown as the update it is, with where the summary it adds to is', async () => {
    const base = auditFixture();
    const auto = base.compactions.findIndex((event) => event.layer === 'auto');
    const audit: RunAudit = {
      ...base,
      compactions: base.compactions.map((event, index) =>
        index === auto
          ? {
              ...event,
              reason: `${event.reason}; summary updated (only what is new since the kept summary, written whole at turn 3)`,
              summary: '### Decisions\n- Decision D2: split the parser.'
            }
          : event
      )
    };
    const { page, problems } = await open(audit, 'update');
    try {
      await page.locator(`.compaction-row[data-index="${auto}"]`).click();
      await expect(page.locator('#compaction-detail h3').first().textContent()).resolves.toBe(
        'Update the model wrote'
      );
      await expect(page.locator('#compaction-detail p.muted').last().textContent()).resolves.toContain(
        'the summary it adds to stays before it in the history'
      );
      await expect(page.locator('#compaction-detail pre.summary-text').textContent()).resolves.toContain(
        'Decision D2'
      );
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('a hostile transcript in Chromium', () => {
  it('shows tool output with script and markup in it as text, and runs none of it', async () => {
    const payload =
      '</script><script>window.__pwned = 1; alert(1)</script><img src=x onerror="window.__pwned = 2">';
    const base = auditFixture();
    const [first, ...rest] = base.timeline;
    const audit: RunAudit = {
      ...base,
      task: `Review ${payload}`,
      timeline: [
        {
          ...first!,
          text: `Reading ${payload}`,
          toolCalls: [{ ...first!.toolCalls[0]!, output: `<html>${payload}</html>`, isError: true }]
        },
        ...rest
      ],
      compactions: base.compactions.map((event) =>
        event.summary ? { ...event, summary: `${event.summary}\n${payload}`, focus: payload } : event
      )
    };
    const { page, problems, requests } = await open(audit, 'hostile');
    try {
      await page.locator('#turn-1 details.call summary').click();
      await expect(page.locator('#turn-1 pre.output').textContent()).resolves.toBe(`<html>${payload}</html>`);
      await expect(page.locator('#turn-1 .text').textContent()).resolves.toBe(`Reading ${payload}`);
      const auto = audit.compactions.findIndex((event) => event.layer === 'auto');
      await page.locator(`.compaction-row[data-index="${auto}"]`).click();
      await expect(page.locator('#compaction-detail pre.summary-text').textContent()).resolves.toContain(
        payload
      );
      await expect(page.evaluate('window.__pwned')).resolves.toBeUndefined();
      await expect(page.locator('img').count()).resolves.toBe(0);
      await expect(page.locator('script').count()).resolves.toBe(2);
      expect(problems).toEqual([]);
      expect(requests).toHaveLength(1);
    } finally {
      await page.close();
    }
  });
});

describe('a 1,000-turn report in Chromium', () => {
  it('opens with every turn, marker and compaction, and searches all of them', async () => {
    const audit = largeAuditFixture(1_000);
    const { page, problems } = await open(audit, 'long');
    try {
      await expect(page.locator('#timeline .turn').count()).resolves.toBe(1_000);
      await expect(page.locator('#context-chart .compaction-marker').count()).resolves.toBe(300);
      await page.locator('.compaction-row[data-index="299"]').click();
      await expect(page.locator('#compaction-detail h2').textContent()).resolves.toContain(
        'Compaction 300 of 300'
      );
      const expected = turnsMatching(audit, 'TS2345');
      expect(expected).toHaveLength(25);
      await search(page, 'TS2345', '25 of 1000 turns match');
      await expect(visibleTurns(page)).resolves.toEqual(expected);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
