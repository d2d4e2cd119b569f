// The daemon's settings, each changed on its own with the daemon's validation; a refused
// value shows the daemon's message beside its field and changes nothing.
import { call } from '/api.js';
import { say, describeError } from '/notice.js';
import { button, element } from '/dom.js';

function field(setting) {
  const id = `setting-${setting.key}`;
  if (typeof setting.default === 'boolean') {
    return element('input', { id, type: 'checkbox', checked: setting.value === true });
  }
  if (typeof setting.default === 'number') {
    return element('input', { id, type: 'number', value: String(setting.value), step: '1' });
  }
  return element('input', { id, type: 'text', value: String(setting.value ?? '') });
}

function valueOf(input, setting) {
  if (typeof setting.default === 'boolean') return input.checked;
  if (typeof setting.default === 'number') return input.value.trim() === '' ? input.value : Number(input.value);
  return input.value;
}

export async function settingsPage(page) {
  const { settings } = await call('settings.get');
  const rows = settings.map((setting) => {
    const input = field(setting);
    const problem = element('p', { className: 'problem', role: 'alert', id: `setting-${setting.key}-problem` });
    input.setAttribute('aria-describedby', `setting-${setting.key}-help setting-${setting.key}-problem`);
    const save = button('Save', async () => {
      try {
        const stored = await call('settings.set', { key: setting.key, value: valueOf(input, setting) });
        problem.textContent = '';
        input.removeAttribute('aria-invalid');
        say(`${setting.key} is now ${JSON.stringify(stored.value)}.`);
      } catch (error) {
        problem.textContent = describeError(error);
        input.setAttribute('aria-invalid', 'true');
      }
    }, { 'aria-label': `Save ${setting.key}` });
    return element('div', { className: 'setting' }, [
      element('label', { htmlFor: input.id, textContent: setting.key }),
      element('div', { className: 'row' }, [input, save]),
      element('p', { className: 'muted', id: `setting-${setting.key}-help`, textContent: `${setting.help} (${setting.allowed}; default ${JSON.stringify(setting.default)})` }),
      problem,
    ]);
  });
  page.replaceChildren(element('h2', { textContent: 'Settings' }), ...rows);
}
