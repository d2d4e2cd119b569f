// Automations: name search, Enabled/Disabled filter, last run status, level, next run, ten
// per page. Rows stack their labelled fields on a phone-width screen.
import { call } from '/api.js';

const PAGE_SIZE = 10;
const view = { search: '', filter: 'all', page: 1 };

function element(tag, properties = {}, children = []) {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}

function nextRun(seconds) {
  if (seconds === null || seconds === undefined) return 'not planned';
  return new Date(seconds * 1000).toLocaleString();
}

function row(automation) {
  const cell = (label, content) => {
    const td = element('td', {}, [content]);
    td.dataset.label = label;
    return td;
  };
  const status = automation.last_run_status ?? 'never run';
  return element('tr', {}, [
    cell('Name', automation.name),
    cell('Enabled', automation.enabled ? 'Enabled' : 'Disabled'),
    cell('Last run', element('span', { className: `chip chip-${status.replace(/\W/g, '-')}`, textContent: status })),
    cell('Level', String(automation.level)),
    cell('Next run', nextRun(automation.nextRunAt)),
  ]);
}

export async function automationsPage(page) {
  const data = await call('automation.list');
  const all = data.automations;
  const search = element('input', { type: 'search', id: 'search', value: view.search, placeholder: 'Name' });
  const filter = element('select', { id: 'filter' }, [
    element('option', { value: 'all', textContent: 'All' }),
    element('option', { value: 'enabled', textContent: 'Enabled' }),
    element('option', { value: 'disabled', textContent: 'Disabled' }),
  ]);
  filter.value = view.filter;
  const body = element('tbody');
  const pager = element('nav', { className: 'pager', ariaLabel: 'Pages of automations' });

  const draw = () => {
    const words = view.search.trim().toLowerCase();
    const shown = all.filter((a) => (!words || a.name.toLowerCase().includes(words)) &&
      (view.filter === 'all' || (view.filter === 'enabled') === a.enabled));
    const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
    view.page = Math.min(view.page, pages);
    body.replaceChildren(...shown.slice((view.page - 1) * PAGE_SIZE, view.page * PAGE_SIZE).map(row));
    if (shown.length === 0) {
      body.replaceChildren(element('tr', {}, [element('td', { colSpan: 5, textContent: 'No automation matches.' })]));
    }
    const previous = element('button', { type: 'button', textContent: 'Previous', disabled: view.page === 1 });
    const next = element('button', { type: 'button', textContent: 'Next', disabled: view.page === pages });
    previous.addEventListener('click', () => { view.page -= 1; draw(); });
    next.addEventListener('click', () => { view.page += 1; draw(); });
    pager.replaceChildren(previous, element('span', { textContent: `Page ${view.page} of ${pages} (${shown.length})` }), next);
  };
  search.addEventListener('input', () => { view.search = search.value; view.page = 1; draw(); });
  filter.addEventListener('change', () => { view.filter = filter.value; view.page = 1; draw(); });

  page.replaceChildren(
    element('h2', { textContent: 'Automations' }),
    element('p', { textContent: data.automations_enabled === false
      ? 'Automations are switched off (Stop all): none runs until the setting is on again.' : '' }),
    element('div', { className: 'filters' }, [
      element('label', { htmlFor: 'search', textContent: 'Search by name' }), search,
      element('label', { htmlFor: 'filter', textContent: 'Show' }), filter,
    ]),
    element('table', { className: 'rows' }, [
      element('thead', {}, [element('tr', {}, ['Name', 'Enabled', 'Last run', 'Level', 'Next run']
        .map((title) => element('th', { scope: 'col', textContent: title })))]),
      body,
    ]),
    pager,
  );
  draw();
}
