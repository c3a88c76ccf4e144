/**
 * The audit page's script, run in the reader's browser: the compaction detail panel, tool calls filled
 * in when opened, the search over the timeline, and the chart's readout. Type-checked with the DOM
 * library by this folder's tsconfig (the rest of src has no DOM types); `npm run build:audit-client`
 * strips the types into client-script.ts, which the page inlines and allows by hash. It must stay
 * self-contained: no import but of types, and everything it reads from the page is checked.
 */
import type { AuditPageData, PageCompaction, PageLayer } from '../client-data.js';

const HELP: Readonly<Record<PageLayer, string>> = {
  micro: 'Old tool results replaced by short placeholders; no model call.',
  auto: 'The history was summarized because the context passed the threshold.',
  manual: 'The model called compact; the history was summarized with its focus.',
  spill: 'A tool result too long for the context was saved to a file; the model got a preview.',
  fallback: 'The summary call failed, so the oldest turns were dropped instead.'
};

function byId<T extends Element>(id: string, kind: new () => T): T {
  const node = document.getElementById(id);
  if (!(node instanceof kind)) throw new Error(`The audit page has no #${id} of the expected kind.`);
  return node;
}

function all<T extends Element>(selector: string, kind: new () => T, root: ParentNode = document): T[] {
  return [...root.querySelectorAll(selector)].filter((node): node is T => node instanceof kind);
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string | number
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function button(label: string, className: string | undefined, onClick: () => void): HTMLButtonElement {
  const node = el('button', className, label);
  node.type = 'button';
  node.addEventListener('click', onClick);
  return node;
}

const n = (value: number): string => Math.round(value).toLocaleString('en-US');
const usd = (value: number): string => `$${value.toFixed(value >= 10 ? 2 : value >= 0.1 ? 3 : 4)}`;
const ms = (value: number): string =>
  value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
const indexOf = (node: Element): number => Number(node.getAttribute('data-index'));

function main(): void {
  const data = JSON.parse(byId('audit-data', HTMLScriptElement).textContent ?? 'null') as AuditPageData;
  const { compactions } = data;
  const detail = byId('compaction-detail', HTMLElement);
  const timeline = byId('timeline', HTMLElement);
  const search = byId('search', HTMLInputElement);
  const searchCount = byId('search-count', HTMLElement);
  const rows = all('.compaction-row', HTMLTableRowElement);
  const markers = all('.compaction-marker', SVGElement);
  const drops = all('.compaction-drop', SVGElement);
  const dividers = all('.compaction-divider', HTMLButtonElement);
  const turnEls = all('#timeline .turn', HTMLElement);

  let callsById: Map<string, HTMLDetailsElement> | undefined;
  function callElement(id: string): HTMLDetailsElement | undefined {
    if (!callsById) {
      callsById = new Map(
        all('#timeline details.call', HTMLDetailsElement).map((node) => [node.dataset.callId ?? '', node])
      );
    }
    return callsById.get(id);
  }

  function select(index: number): void {
    const event = compactions[index];
    if (!event) return;
    for (const row of rows) row.classList.toggle('selected', indexOf(row) === index);
    for (const marker of markers) marker.classList.toggle('selected', indexOf(marker) === index);
    for (const drop of drops) drop.classList.toggle('selected', indexOf(drop) === index);
    const row = rows.find((candidate) => indexOf(candidate) === index);
    const wrap = row?.closest('.table-wrap');
    if (row && wrap instanceof HTMLElement) scrollWithin(wrap, row);
    renderDetail(event, index);
  }

  function renderDetail(event: PageCompaction, index: number): void {
    const parts: HTMLElement[] = [];
    const head = el('h2', undefined, `Compaction ${index + 1} of ${compactions.length} `);
    head.appendChild(el('span', `badge layer-bg-${event.layer}`, event.layer));
    parts.push(head, el('p', 'muted', HELP[event.layer] ?? ''));
    const facts = el('dl');
    const fact = (label: string, value: string | number | null | undefined): void => {
      if (value === undefined || value === null || value === '') return;
      facts.append(el('dt', undefined, label), el('dd', undefined, value));
    };
    const saved = event.tokens_before - event.tokens_after;
    fact('Turn', event.turn);
    fact('Reason', event.reason);
    fact(
      event.layer === 'spill' ? 'Result tokens' : 'Tokens',
      `${n(event.tokens_before)} → ${n(event.tokens_after)}${saved > 0 ? ` (${n(saved)} fewer)` : ''}`
    );
    fact('Results cleared', n(event.results_cleared));
    if (event.summary_tokens > 0 || event.summary_cost_usd > 0) {
      fact('Summary', `${n(event.summary_tokens)} tokens, ${usd(event.summary_cost_usd)}`);
    }
    fact('Duration', event.duration_ms > 0 ? ms(event.duration_ms) : '');
    fact('Focus', event.focus);
    fact('Segment', event.segment_path);
    parts.push(facts);
    if (typeof event.summary === 'string') {
      // An anchored summary's update: the text it adds to is in the history, not in this event.
      const update = event.reason.includes('summary updated');
      parts.push(
        el('h3', undefined, update ? 'Update the model wrote' : 'Summary the model wrote'),
        ...(update
          ? [el('p', 'muted', 'Only what was new: the summary it adds to stays before it in the history.')]
          : []),
        el('pre', 'summary-text', event.summary)
      );
    } else if (event.layer === 'auto' || event.layer === 'manual' || event.layer === 'fallback') {
      parts.push(
        el('h3', undefined, 'Summary'),
        el(
          'p',
          'muted',
          event.layer === 'fallback'
            ? 'No summary: the summary call failed, and the oldest turns were dropped.'
            : 'The transcript holds no summary text for this compaction.'
        )
      );
    }
    const ids = event.tool_use_ids ?? [];
    if (ids.length > 0) {
      const what = event.layer === 'spill' ? 'Spilled tool result' : 'Cleared tool results';
      parts.push(el('h3', undefined, `${what} (${ids.length})`), clearedList(ids));
    }
    const nav = el('div', 'nav');
    const previous = button('← previous', undefined, () => select(index - 1));
    previous.disabled = index === 0;
    const next = button('next →', undefined, () => select(index + 1));
    next.disabled = index === compactions.length - 1;
    const jump = button('show in timeline', undefined, () => {
      const divider = dividers.find((candidate) => indexOf(candidate) === index);
      if (!divider) return;
      clearSearchIfHidden(divider);
      divider.scrollIntoView({ block: 'center' });
    });
    nav.append(previous, next, jump);
    parts.push(nav);
    detail.replaceChildren(...parts);
  }

  /** Each cleared id as a link to its call in the timeline, with the tool, its key input and turn. */
  function clearedList(ids: readonly string[]): HTMLUListElement {
    const list = el('ul', 'ids');
    for (const id of ids) {
      const item = el('li');
      const target = callElement(id);
      if (target) {
        item.appendChild(button(id, 'link', () => showCall(target)));
        const turnEl = target.closest('.turn');
        const tool = target.querySelector('summary .tool')?.textContent ?? '';
        const key = target.querySelector('summary .key')?.textContent ?? '';
        const turn = turnEl ? ` (turn ${turnEl.id.replace('turn-', '')})` : '';
        item.appendChild(el('span', 'muted', ` — ${tool} ${key}${turn}`));
      } else {
        item.appendChild(el('code', undefined, id));
      }
      list.appendChild(item);
    }
    return list;
  }

  /** Brings a row into view inside its scrolled container, without moving the page. */
  function scrollWithin(container: HTMLElement, node: HTMLElement): void {
    const box = container.getBoundingClientRect();
    const rect = node.getBoundingClientRect();
    const head = container.querySelector('thead');
    const top = box.top + (head ? head.getBoundingClientRect().height : 0);
    if (rect.top < top || rect.bottom > box.bottom) {
      container.scrollTop += rect.top - box.top - container.clientHeight / 2 + rect.height / 2;
    }
  }

  rows.forEach((row) => {
    row.addEventListener('click', () => select(indexOf(row)));
    row.addEventListener('keydown', (event) => {
      const next = row.nextElementSibling;
      const previous = row.previousElementSibling;
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        select(indexOf(row));
      } else if (event.key === 'ArrowDown' && next instanceof HTMLElement) {
        event.preventDefault();
        next.focus();
        select(indexOf(next));
      } else if (event.key === 'ArrowUp' && previous instanceof HTMLElement) {
        event.preventDefault();
        previous.focus();
        select(indexOf(previous));
      }
    });
  });
  for (const marker of markers) marker.addEventListener('click', () => select(indexOf(marker)));
  for (const divider of dividers) divider.addEventListener('click', () => select(indexOf(divider)));

  /** A tool call's input and output are put into the page only when it is opened. */
  function fillCall(details: HTMLDetailsElement): void {
    if (details.dataset.filled) return;
    const turnEl = details.closest('.turn');
    const body = details.querySelector('.call-body');
    if (!(turnEl instanceof HTMLElement) || !body) return;
    const call = data.turns[Number(turnEl.dataset.i)]?.calls[Number(details.dataset.c)];
    if (!call) return;
    details.dataset.filled = '1';
    body.append(el('h4', undefined, 'Input'), el('pre', 'input', call.input));
    if (call.output === null) {
      body.appendChild(el('p', 'muted', 'No result recorded: the transcript ends before it.'));
    } else {
      body.append(
        el('h4', undefined, call.error ? 'Output (error)' : 'Output'),
        el('pre', call.error ? 'output error-output' : 'output', call.output === '' ? '(empty)' : call.output)
      );
    }
  }
  timeline.addEventListener(
    'toggle',
    (event) => {
      const target = event.target;
      if (target instanceof HTMLDetailsElement && target.classList.contains('call') && target.open) {
        fillCall(target);
      }
    },
    true
  );

  function flash(node: HTMLElement): void {
    node.classList.add('flash');
    setTimeout(() => node.classList.remove('flash'), 1600);
  }
  function clearSearchIfHidden(node: HTMLElement): void {
    const turnEl = node.closest('.turn') ?? node;
    if (turnEl.classList.contains('hidden')) {
      search.value = '';
      applySearch();
    }
  }
  function showCall(details: HTMLDetailsElement): void {
    clearSearchIfHidden(details);
    details.open = true;
    fillCall(details);
    details.scrollIntoView({ block: 'center' });
    flash(details);
  }
  function showTurn(turn: number): void {
    const turnEl = document.getElementById(`turn-${turn}`);
    if (!turnEl) return;
    clearSearchIfHidden(turnEl);
    turnEl.scrollIntoView({ block: 'start' });
    flash(turnEl);
  }

  // Search: a turn matches when its text, a tool call (name or input) or an output holds the query.
  interface Haystack {
    readonly text: string;
    readonly calls: readonly string[];
  }
  let haystacks: Haystack[] | undefined;
  function buildHaystacks(): Haystack[] {
    return turnEls.map((turnEl) => {
      const calls = data.turns[Number(turnEl.dataset.i)]?.calls ?? [];
      return {
        text: (turnEl.querySelector('.text')?.textContent ?? '').toLowerCase(),
        calls: calls.map((call, i) => {
          const summary = turnEl.querySelector(`details.call[data-c="${i}"] summary`);
          return `${summary?.textContent ?? call.name}\n${call.input}\n${call.output ?? ''}`.toLowerCase();
        })
      };
    });
  }
  function applySearch(): void {
    const query = search.value.trim().toLowerCase();
    searchCount.setAttribute('data-query', query);
    if (query === '') {
      for (const turnEl of turnEls) {
        turnEl.classList.remove('hidden');
        for (const call of all('details.call.match', HTMLElement, turnEl)) call.classList.remove('match');
      }
      for (const divider of dividers) divider.classList.remove('hidden');
      searchCount.textContent = '';
      return;
    }
    haystacks ??= buildHaystacks();
    const hay = haystacks;
    let matches = 0;
    turnEls.forEach((turnEl, i) => {
      const turnHay = hay[i];
      let hit = turnHay !== undefined && turnHay.text.includes(query);
      for (const details of all('details.call', HTMLDetailsElement, turnEl)) {
        const callHit = turnHay?.calls[Number(details.dataset.c)]?.includes(query) ?? false;
        details.classList.toggle('match', callHit);
        if (callHit) hit = true;
      }
      turnEl.classList.toggle('hidden', !hit);
      if (hit) matches++;
    });
    for (const divider of dividers) divider.classList.add('hidden');
    searchCount.textContent =
      matches === 0
        ? 'no turn matches'
        : `${matches} of ${turnEls.length}${turnEls.length === 1 ? ' turn matches' : ' turns match'}`;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(applySearch, 120);
  });
  search.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      clearTimeout(timer);
      applySearch();
    }
    if (event.key === 'Escape') {
      search.value = '';
      applySearch();
    }
  });

  wireChartReadout(data, showTurn);

  // A link can open a turn (#turn-12) or a compaction's details (#compaction-3, counted from 1).
  const linked = /^#(turn|compaction)-(\d+)$/.exec(location.hash);
  if (linked?.[1] === 'turn') showTurn(Number(linked[2]));
  if (linked?.[1] === 'compaction') select(Number(linked[2]) - 1);
}

/** The context at the turn under the pointer, and a click that opens that turn. */
function wireChartReadout(data: AuditPageData, showTurn: (turn: number) => void): void {
  const chart = data.chart;
  const svg = document.getElementById('context-chart');
  const hit = document.getElementById('plot-hit');
  const hover = document.getElementById('chart-hover');
  if (!(svg instanceof SVGSVGElement) || !hit || !hover) return;
  const hoverLine = hover.querySelector('line');
  const hoverDot = hover.querySelector('circle');
  const hoverText = hover.querySelector('text');
  if (!hoverLine || !hoverDot || !hoverText) return;
  const span = chart.turnMax - chart.turnMin;
  const px = (turn: number): number =>
    chart.left + ((turn - chart.turnMin) / span) * (chart.right - chart.left);
  const py = (tokens: number): number =>
    chart.bottom - (Math.min(tokens, chart.yMax) / chart.yMax) * (chart.bottom - chart.top);

  function nearest(clientX: number): readonly [number, number] | undefined {
    const matrix = svg instanceof SVGSVGElement ? svg.getScreenCTM() : null;
    if (!matrix) return undefined;
    const local = new DOMPoint(clientX, 0).matrixTransform(matrix.inverse());
    const turn = chart.turnMin + ((local.x - chart.left) / (chart.right - chart.left)) * span;
    let best: readonly [number, number] | undefined;
    for (const point of chart.points) {
      if (!best || Math.abs(point[0] - turn) < Math.abs(best[0] - turn)) best = point;
    }
    return best;
  }

  hit.addEventListener('mousemove', (event) => {
    const point = nearest(event.clientX);
    if (!point) return;
    const x = px(point[0]);
    const onRight = x > (chart.left + chart.right) / 2;
    hoverLine.setAttribute('x1', String(x));
    hoverLine.setAttribute('x2', String(x));
    hoverDot.setAttribute('cx', String(x));
    hoverDot.setAttribute('cy', String(py(point[1])));
    hoverText.textContent = `turn ${point[0]}: ${n(point[1])} tokens`;
    hoverText.setAttribute('x', String(onRight ? x - 8 : x + 8));
    hoverText.setAttribute('y', String(chart.top + 12));
    hoverText.setAttribute('text-anchor', onRight ? 'end' : 'start');
    hover.setAttribute('visibility', 'visible');
  });
  hit.addEventListener('mouseleave', () => hover.setAttribute('visibility', 'hidden'));
  hit.addEventListener('click', (event) => {
    const point = nearest(event.clientX);
    if (point) showTurn(point[0]);
  });
}

main();
