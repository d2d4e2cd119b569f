// The line under the bar that says what an action did, or why it was refused.
export function say(text) {
  document.getElementById('notice').textContent = text;
}

export function describeError(error) {
  if (error && typeof error === 'object' && 'code' in error) {
    return `${error.code}: ${error.message}${error.suggestion ? ` — ${error.suggestion}` : ''}`;
  }
  return String(error && error.message ? error.message : error);
}
