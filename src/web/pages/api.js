// The dashboard's one way to the daemon: POST /api/<method> with the method's params, the
// session's CSRF token in a header. Answers are the socket protocol's envelopes.
let csrf = null;

async function session() {
  const answer = await fetch('/api/session', { credentials: 'same-origin' });
  if (answer.status === 401) throw new Error('not logged in: open the link `companyos dashboard` prints');
  if (!answer.ok) throw new Error(`the dashboard answered ${answer.status}`);
  csrf = (await answer.json()).csrf;
}

// The method's data, or throws the daemon's error ({code, message, suggestion, details}).
export async function call(method, params = {}) {
  if (csrf === null) await session();
  const answer = await fetch(`/api/${method}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
    body: JSON.stringify(params),
  });
  if (answer.status === 401 || answer.status === 403) {
    throw new Error(`${answer.status}: ${(await answer.text()).trim()}`);
  }
  const envelope = await answer.json();
  if (!envelope.ok) throw envelope.error;
  return envelope.data;
}
