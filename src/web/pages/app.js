// The dashboard's pages by the address's #fragment: #/ (Automations), #/automation/ID,
// #/automation/ID/runs, #/run/ID, #/approvals, #/settings.
import { call } from '/api.js';
import { approvalsPage } from '/approvals.js';
import { automationPage } from '/automation.js';
import { automationsPage } from '/automations.js';
import { say, describeError } from '/notice.js';
import { runPage } from '/run.js';
import { settingsPage } from '/settings.js';

const routes = [
  [/^\/$/, (page) => automationsPage(page), 'Automations'],
  [/^\/automation\/(\d+)$/, (page, id) => automationPage(page, Number(id), 'summary'), 'Automation'],
  [/^\/automation\/(\d+)\/runs$/, (page, id) => automationPage(page, Number(id), 'runs'), 'Run history'],
  [/^\/run\/(\d+)$/, (page, id) => runPage(page, Number(id)), 'Run'],
  [/^\/approvals$/, (page) => approvalsPage(page), 'Approvals'],
  [/^\/settings$/, (page) => settingsPage(page), 'Settings'],
];

function markCurrent(route) {
  for (const a of document.querySelectorAll('nav[aria-label="Pages"] a')) {
    const here = a.getAttribute('href') === `#${route}` || (a.getAttribute('href') === '#/' && /^\/(automation|run)\//.test(route));
    if (here) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
}

export async function show() {
  const page = document.getElementById('page');
  const route = location.hash.replace(/^#/, '') || '/';
  markCurrent(route);
  const found = routes.find(([pattern]) => pattern.test(route));
  try {
    if (!found) {
      page.replaceChildren(Object.assign(document.createElement('p'), { textContent: `No page ${route}.` }));
      return;
    }
    const [pattern, draw, title] = found;
    document.title = `companyOS — ${title}`;
    await draw(page, ...route.match(pattern).slice(1));
  } catch (error) {
    say(describeError(error));
  }
}

document.getElementById('refresh').addEventListener('click', () => show());
document.getElementById('stop-all').addEventListener('click', async () => {
  try {
    const stopped = await call('stop_all');
    say(`Stopped: ${stopped.disabled} automation(s) disabled, ${stopped.stopped.length} run(s) stopped.`);
  } catch (error) {
    say(describeError(error));
  }
  await show();
});
window.addEventListener('hashchange', () => {
  say('');
  show();
});
show();
