// One automation: a Summary tab (level and what it means, schedule, retries, history,
// every step in its phase, the promotion gate's eight conditions, the level buttons) with
// the editor at its top, and a Run history tab (newest first, a status filter, ten a page).
import { call } from '/api.js';
import { say, describeError } from '/notice.js';
import { button, chip, duration, element, facts, link, pager, table, when, whenIn } from '/dom.js';

const PAGE_SIZE = 10;          // runs shown a page
const API_PAGE_SIZE = 20;      // runs automation.runs answers a page
const STATUSES = ['running', 'waiting', 'succeeded', 'failed', 'blocked', 'skipped', 'stopped', 'reverted'];

// The editor outlives a Refresh: what the person typed stays until Save or Cancel.
let editor = null;   // { id, name, text, problems, focus }
const history = { id: null, status: '', page: 1 };

function stepLine(step) {
  const { type, ...rest } = step;
  if (type === 'command') {
    return `command: ${rest.executable} ${(rest.argv || []).join(' ')} (in ${rest.cwd ?? '—'})`;
  }
  const target = ['app', 'role', 'name', 'path', 'url', 'key', 'keys', 'seconds', 'prompt']
    .filter((k) => rest[k] !== undefined).map((k) => `${k} ${JSON.stringify(rest[k])}`).join(', ');
  return `${type}${target ? `: ${target}` : ''}`;
}

function steps(definition) {
  const phases = [['Preconditions', 'preconditions'], ['Actions', 'actions'], ['Post-actions', 'postActions']];
  return element('div', { className: 'steps' }, phases.map(([title, key]) => {
    const list = definition[key] || [];
    return element('section', {}, [
      element('h4', { textContent: `${title} (${list.length})` }),
      list.length === 0
        ? element('p', { textContent: 'none' })
        : element('ol', {}, list.map((step) => element('li', { textContent: stepLine(step) }))),
    ]);
  }));
}

function gate(answer) {
  return element('section', { className: 'gate', 'aria-label': 'Promotion gate' }, [
    element('h3', { textContent: `Promotion gate: ${answer.passed ? 'met' : 'not met'}` }),
    element('ul', {}, answer.conditions.map((c) => element('li', { className: c.pass ? 'pass' : 'fail' }, [
      element('span', { className: 'mark', textContent: c.pass ? 'pass' : 'fail' }), ` ${c.text}`,
    ]))),
  ]);
}

function problemList(problems) {
  return element('ul', { className: 'problems', role: 'alert' }, problems.map((p) =>
    element('li', {}, [element('code', { textContent: p.path || '(definition)' }), `: ${p.message}`])));
}

function editorForm(automation, redraw) {
  const nameField = element('input', { id: 'edit-name', value: editor.name, required: true });
  const textField = element('textarea', { id: 'edit-definition', value: editor.text, rows: 18, spellcheck: false });
  nameField.addEventListener('input', () => { editor.name = nameField.value; });
  textField.addEventListener('input', () => { editor.text = textField.value; });
  const nameProblems = (editor.problems || []).filter((p) => p.path === 'name');
  const otherProblems = (editor.problems || []).filter((p) => p.path !== 'name');
  const save = async () => {
    let definition;
    try {
      definition = JSON.parse(editor.text);
    } catch (error) {
      editor.problems = [{ path: '', message: `not JSON: ${error.message}` }];
      return redraw();
    }
    if (definition === null || typeof definition !== 'object' || Array.isArray(definition)) {
      editor.problems = [{ path: '', message: 'the definition must be a JSON object' }];
      return redraw();
    }
    definition.name = editor.name;
    try {
      await call('automation.update', { id: automation.id, definition });
      editor = null;
      say('Saved.');
    } catch (error) {
      editor.problems = error.details?.problems || [{ path: '', message: describeError(error) }];
    }
    return redraw();
  };
  const form = element('form', { className: 'editor', 'aria-label': 'Edit automation' }, [
    element('h3', { textContent: 'Edit automation' }),
    element('label', { htmlFor: 'edit-name', textContent: 'Name' }),
    nameField,
    nameProblems.length ? problemList(nameProblems) : null,
    element('label', { htmlFor: 'edit-definition', textContent: 'Definition (JSON; its name is the field above)' }),
    textField,
    otherProblems.length ? problemList(otherProblems) : null,
    element('div', { className: 'row' }, [
      element('button', { type: 'submit', textContent: 'Save' }),
      button('Cancel', () => { editor = null; redraw(); }),
    ]),
  ]);
  form.addEventListener('submit', (event) => { event.preventDefault(); save(); });
  if (nameProblems.length) nameField.setAttribute('aria-invalid', 'true');
  return { form, nameField };
}

async function summary(panel, automation, redraw) {
  const definition = automation.definition || {};
  const answer = await call('automation.gate', { id: automation.id });
  const act = (method, done) => async () => {
    try {
      const result = await call(method, { id: automation.id });
      say(done(result));
    } catch (error) {
      say(describeError(error));
    }
    redraw();
  };
  let focus = null;
  let top = null;
  if (editor && editor.id === automation.id) {
    const built = editorForm(automation, redraw);
    top = built.form;
    if (editor.focus) focus = built.nameField;
    editor.focus = false;
  }
  panel.replaceChildren(...[
    top,
    element('div', { className: 'row' }, [
      button('Edit automation', () => {
        const { name, ...rest } = definition;
        editor = { id: automation.id, name: name ?? automation.name, text: JSON.stringify(rest, null, 2), problems: [], focus: true };
        redraw();
      }),
      button('Start a run', act('automation.start', (run) => `Run ${run.id} started: ${run.status}.`)),
      automation.enabled
        ? button('Disable', act('automation.disable', () => 'Disabled.'))
        : button('Enable', act('automation.enable', () => 'Enabled.')),
      button('Raise level', act('automation.raise', (a) => `Level ${a.level}.`)),
      button('Lower level', act('automation.lower', (a) => `Level ${a.level}.`)),
      button('Promote to level 4', act('automation.promote', (a) => `Level ${a.level}.`)),
    ]),
    facts([
      ['Level', `${automation.level} (${automation.level_name}): ${automation.level_meaning}`],
      ['Enabled', automation.enabled ? 'yes' : 'no'],
      ['Schedule', definition.schedule ? `${definition.schedule} in ${definition.timezone || 'the local zone'}` : 'none (started by a person)'],
      ['Next run', whenIn(automation.nextRunAt, definition.timezone)],
      ['Retries', `${definition.maxRetries ?? 0}, ${definition.retryIntervalSeconds ?? 0} s apart`],
      ['History kept', `${automation.history_limit} runs`],
      ['Revision', String(automation.revision)],
      ['Last run', automation.last_run ? link(`#/run/${automation.last_run.id}`, `${automation.last_run.status}, ${when(automation.last_run.started_at)}`) : 'never'],
    ]),
    element('h3', { textContent: 'Steps' }),
    steps(definition),
    gate(answer),
  ].filter(Boolean));
  if (focus) {
    top.scrollIntoView({ block: 'start' });
    focus.focus();
  }
}

async function runHistory(panel, automation) {
  if (history.id !== automation.id) Object.assign(history, { id: automation.id, status: '', page: 1 });
  const apiPage = Math.ceil((history.page * PAGE_SIZE) / API_PAGE_SIZE);
  const params = { id: automation.id, page: apiPage };
  if (history.status) params.status = history.status;
  const data = await call('automation.runs', params);
  const pages = Math.max(1, Math.ceil(data.total / PAGE_SIZE));
  const offset = ((history.page - 1) * PAGE_SIZE) % API_PAGE_SIZE;
  const runs = data.runs.slice(offset, offset + PAGE_SIZE);
  const filter = element('select', { id: 'run-status' }, [
    element('option', { value: '', textContent: 'Every status' }),
    ...STATUSES.map((s) => element('option', { value: s, textContent: s })),
  ]);
  filter.value = history.status;
  const redraw = () => runHistory(panel, automation).catch((error) => say(describeError(error)));
  filter.addEventListener('change', () => { history.status = filter.value; history.page = 1; redraw(); });
  panel.replaceChildren(
    element('div', { className: 'filters' }, [element('label', { htmlFor: 'run-status', textContent: 'Status' }), filter]),
    runs.length === 0
      ? element('p', { textContent: 'No run.' })
      : table(['Run', 'Started', 'Duration', 'Status', 'Started by'], runs.map((r) => [
        link(`#/run/${r.id}`, `Run ${r.id}`), when(r.started_at), duration(r.started_at, r.finished_at), chip(r.status), r.started_by,
      ])),
    pager(history.page, pages, data.total, (p) => { history.page = p; redraw(); }, 'Pages of runs'),
  );
}

export async function automationPage(page, id, tab) {
  const automation = await call('automation.get', { id });
  const panel = element('div', { id: 'panel' });
  // Two views of one automation, each its own address: links, the current one marked.
  const tabs = element('nav', { className: 'tabs', 'aria-label': 'Automation' }, [
    ['summary', 'Summary', `#/automation/${id}`], ['runs', 'Run history', `#/automation/${id}/runs`],
  ].map(([key, title, href]) => element('a', key === tab ? { href, textContent: title, 'aria-current': 'page' } : { href, textContent: title })));
  page.replaceChildren(
    element('p', {}, [link('#/', '← Automations')]),
    element('h2', { textContent: automation.name }),
    tabs,
    panel,
  );
  const redraw = () => automationPage(page, id, tab).catch((error) => say(describeError(error)));
  if (tab === 'runs') await runHistory(panel, automation);
  else await summary(panel, automation, redraw);
}
