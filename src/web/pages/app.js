// The dashboard's pages, drawn from the daemon's answers with DOM calls only: no text from
// the daemon (names an automation's author chose, results an app gave) is ever parsed as HTML.
import { call } from '/api.js';
import { automationsPage } from '/automations.js';

const notice = document.getElementById('notice');

export function say(text) {
  notice.textContent = text;
}

export function describeError(error) {
  if (error && typeof error === 'object' && 'code' in error) {
    return `${error.code}: ${error.message}${error.suggestion ? ` — ${error.suggestion}` : ''}`;
  }
  return String(error && error.message ? error.message : error);
}

async function show() {
  const page = document.getElementById('page');
  const route = location.hash.replace(/^#/, '') || '/';
  try {
    if (route === '/') {
      await automationsPage(page);
    } else {
      page.replaceChildren(Object.assign(document.createElement('p'), {
        textContent: `No page ${route} here yet: this dashboard shows the Automations list.`,
      }));
    }
  } catch (error) {
    say(describeError(error));
  }
}

document.getElementById('refresh').addEventListener('click', () => show());
document.getElementById('stop-all').addEventListener('click', async () => {
  try {
    const stopped = await call('stop_all');
    say(`Stopped: ${stopped.disabled} automation(s) disabled, ${stopped.stopped.length} run(s) stopped.`);
    await show();
  } catch (error) {
    say(describeError(error));
  }
});
window.addEventListener('hashchange', show);
show();
