// The dashboard's pages by the address's #fragment: #/ (Automations), #/automation/ID,
// #/automation/ID/runs, #/run/ID, #/approvals, #/settings; Refresh, Stop all and live updates.
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

// Where the person was typing, so a redraw puts the caret back.
function focusNow() {
  const active = document.activeElement;
  if (!active || !active.id) return null;
  const caret = typeof active.selectionStart === 'number'
    ? [active.selectionStart, active.selectionEnd] : null;
  return { id: active.id, caret, scroll: window.scrollY };
}

function focusAgain(was) {
  if (!was) return;
  const again = document.getElementById(was.id);
  if (!again) return;
  again.focus({ preventScroll: true });
  if (was.caret && typeof again.setSelectionRange === 'function') again.setSelectionRange(...was.caret);
  window.scrollTo(0, was.scroll);
}

export async function show() {
  const page = document.getElementById('page');
  const route = location.hash.replace(/^#/, '') || '/';
  markCurrent(route);
  const found = routes.find(([pattern]) => pattern.test(route));
  const was = focusNow();
  try {
    if (!found) {
      page.replaceChildren(Object.assign(document.createElement('p'), { textContent: `No page ${route}.` }));
      return;
    }
    const [pattern, draw, title] = found;
    document.title = `companyOS — ${title}`;
    await draw(page, ...route.match(pattern).slice(1));
    focusAgain(was);
  } catch (error) {
    say(describeError(error));
  }
}

// Live updates: the daemon says when the active runs change (a run starts, moves a step,
// waits, ends); the pages that show runs redraw. Settings never redraw on their own, so a
// value being typed is never lost.
function listen() {
  const events = new EventSource('/events');
  let first = true;
  events.addEventListener('runs', () => {
    if (first) {
      first = false;
      return;
    }
    const route = location.hash.replace(/^#/, '') || '/';
    if (route !== '/settings') show();
  });
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
listen();
