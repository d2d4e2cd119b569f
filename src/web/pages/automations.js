// Automations: name search, Enabled/Disabled filter, last run status, level, next run, ten
// per page. Rows stack their labelled fields on a phone-width screen.
import { call } from '/api.js';
import { chip, element, link, pager, table, whenIn } from '/dom.js';

const PAGE_SIZE = 10;
const view = { search: '', filter: 'all', page: 1 };

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
  const results = element('div');

  const draw = () => {
    const words = view.search.trim().toLowerCase();
    const shown = all.filter((a) => (!words || a.name.toLowerCase().includes(words)) &&
      (view.filter === 'all' || (view.filter === 'enabled') === a.enabled));
    const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
    view.page = Math.min(Math.max(1, view.page), pages);
    const rows = shown.slice((view.page - 1) * PAGE_SIZE, view.page * PAGE_SIZE).map((a) => [
      link(`#/automation/${a.id}`, a.name),
      a.enabled ? 'Enabled' : 'Disabled',
      chip(a.last_run_status),
      String(a.level),
      whenIn(a.nextRunAt, a.timezone),
    ]);
    results.replaceChildren(
      shown.length === 0
        ? element('p', { textContent: all.length === 0 ? 'No automation yet: `companyos automation create FILE` adds one.' : 'No automation matches.' })
        : table(['Name', 'Enabled', 'Last run', 'Level', 'Next run'], rows),
      pager(view.page, pages, shown.length, (p) => { view.page = p; draw(); }, 'Pages of automations'),
    );
  };
  search.addEventListener('input', () => { view.search = search.value; view.page = 1; draw(); });
  filter.addEventListener('change', () => { view.filter = filter.value; view.page = 1; draw(); });

  page.replaceChildren(...[
    element('h2', { textContent: 'Automations' }),
    data.automations_enabled === false
      ? element('p', { className: 'warning', textContent: 'Automations are switched off (Stop all): none runs until the setting automations_enabled is on again.' })
      : null,
    element('div', { className: 'filters' }, [
      element('label', { htmlFor: 'search', textContent: 'Search by name' }), search,
      element('label', { htmlFor: 'filter', textContent: 'Show' }), filter,
    ]),
    results,
  ].filter(Boolean));
  draw();
}
