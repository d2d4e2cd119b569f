// One run: its facts, then each step's phase, type, status, delivery, reason and duration,
// and its result formatted and raw (copyable). Approve, deny, stop and undo where they apply.
import { call } from '/api.js';
import { formatted } from '/format.js';
import { say, describeError } from '/notice.js';
import { button, chip, duration, element, facts, link, when } from '/dom.js';

const shownRaw = new Set();   // steps whose result is shown raw, kept across redraws

function result(runId, step) {
  if (!step.output) return element('p', { className: 'muted', textContent: 'no output' });
  const key = `${runId}:${step.seq}`;
  const raw = shownRaw.has(key);
  const body = element('div', { className: 'result' });
  const draw = () => {
    const isRaw = shownRaw.has(key);
    body.replaceChildren(...(isRaw
      ? [element('pre', { className: 'raw', textContent: step.output })]
      : formatted(step.output)));
    toggle.textContent = isRaw ? 'Show formatted' : 'Show raw';
    toggle.setAttribute('aria-pressed', String(isRaw));
  };
  const toggle = button(raw ? 'Show formatted' : 'Show raw', () => {
    if (shownRaw.has(key)) shownRaw.delete(key); else shownRaw.add(key);
    draw();
  });
  const copy = button('Copy raw', async () => {
    try {
      await navigator.clipboard.writeText(step.output);
      say(`Step ${step.seq}'s result copied.`);
    } catch (error) {
      say(`Could not copy: ${describeError(error)}`);
    }
  });
  draw();
  return element('div', {}, [
    element('div', { className: 'row' }, [toggle, copy]),
    step.output_truncated ? element('p', { className: 'muted', textContent: 'The output was longer; this is its start.' }) : null,
    body,
  ]);
}

export async function runPage(page, id) {
  const run = await call('run.show', { id });
  const redraw = () => runPage(page, id).catch((error) => say(describeError(error)));
  const act = (method, params, done) => button(done.label, async () => {
    try {
      await call(method, params);
      say(done.said);
    } catch (error) {
      say(describeError(error));
    }
    redraw();
  }, done.danger ? { className: 'danger' } : {});
  const actions = [];
  if (run.status === 'waiting') {
    actions.push(act('run.approve', { id }, { label: 'Approve', said: `Run ${id} approved.` }));
    actions.push(act('run.deny', { id }, { label: 'Deny', said: `Run ${id} denied.`, danger: true }));
  }
  if (run.status === 'running' || run.status === 'waiting') {
    actions.push(act('automation.stop', { id: run.automation_id }, { label: 'Stop run', said: `Run ${id} stopped.`, danger: true }));
  }
  if (['succeeded', 'failed', 'stopped'].includes(run.status)) {
    actions.push(act('run.undo', { id }, { label: 'Undo run', said: `Run ${id} undone.` }));
  }
  const steps = run.steps || [];
  page.replaceChildren(...[
    element('p', {}, [link(`#/automation/${run.automation_id}/runs`, '← Run history')]),
    element('h2', {}, [`Run ${run.id} `, chip(run.status)]),
    actions.length ? element('div', { className: 'row' }, actions) : null,
    facts([
      ['Automation', link(`#/automation/${run.automation_id}`, `Automation ${run.automation_id}`)],
      ['Level', String(run.level)],
      ['Started', `${when(run.started_at)} by ${run.started_by}${run.supervised ? ' (supervised)' : ''}`],
      ['Duration', duration(run.started_at, run.finished_at)],
      ['Reason', run.reason ?? '—'],
      ['Waiting for', run.waiting_description ?? '—'],
      ['Checks', `${run.checks?.passed ?? 0} passed, ${run.checks?.failed ?? 0} failed`],
    ]),
    element('h3', { textContent: `Steps (${steps.length})` }),
    ...steps.map((step) => element('section', { className: 'step', 'aria-label': `Step ${step.seq}` }, [
      element('h4', {}, [`${step.seq}. ${step.phase} · ${step.type}${step.name ? ` · ${step.name}` : ''} `, chip(step.status)]),
      facts([
        ['Delivery', step.delivery ?? '—'],
        ['Reason', step.reason ?? '—'],
        ['Error', step.error_code ?? '—'],
        ['Duration', step.duration_ms === null || step.duration_ms === undefined ? '—' : `${step.duration_ms} ms`],
      ]),
      result(run.id, step),
    ])),
  ].filter(Boolean));
}
