// `companyos mcp` driven by the official MCP TypeScript SDK client, the way agents connect:
// the initialize handshake, tools/list, get_app_state (text + PNG) of the GTK3 fixture,
// set_value and click by element number judged from the fixture's effect file, a stale
// number refused, keypress refused with physical input off, a wait cancelled by the client.
// Usage: node sdk_check.mjs COMPANYOS APP EFFECT_FILE   (run by sdk_check.py)
import { readFileSync, existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [companyos, app, effectPath] = process.argv.slice(2);
let failures = 0;
function expect(condition, what) {
  console.log(`${condition ? 'ok  ' : 'FAIL'} sdk: ${what}`);
  if (!condition) failures += 1;
}
const textOf = (result) => result.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
function elementNumber(text, role, name) {
  const found = text.split('\n').map((l) => l.trim().match(/^e(\d+) (.*)$/))
    .filter((m) => m && m[2].startsWith(`${role} "${name}"`)).map((m) => Number(m[1]));
  return found.length === 1 ? found[0] : null;
}
async function waitForFile(path, expected, ms = 30000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (existsSync(path) && readFileSync(path, 'utf8') === expected) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

// The SDK passes a child only HOME, PATH and a few more; the test's private desktop keeps
// its daemon's socket under its own XDG_RUNTIME_DIR, so the socket is named.
const socket = `${process.env.XDG_RUNTIME_DIR}/companyos/control.sock`;
const transport = new StdioClientTransport({ command: companyos, args: ['mcp', '--socket', socket], stderr: 'inherit' });
const client = new Client({ name: 'companyos-sdk-check', version: '1.0.0' });
await client.connect(transport);
expect(client.getServerVersion()?.name === 'companyos', 'the SDK client connects (initialize handshake)');
expect((client.getInstructions() ?? '').includes('Numbers belong to the state'), 'the server gives instructions');

const { tools } = await client.listTools();
expect(tools.length === 13 && tools.every((t) => t.inputSchema.additionalProperties === false),
  `tools/list: ${tools.map((t) => t.name).join(', ')}`);

const state = await client.callTool({ name: 'get_app_state', arguments: { app } });
const image = state.content.find((b) => b.type === 'image');
expect(!state.isError && image?.mimeType === 'image/png' &&
  Buffer.from(image.data, 'base64').subarray(0, 4).toString('hex') === '89504e47',
`get_app_state returns the numbered state and a PNG (${state.isError ? textOf(state) : 'ok'})`);
if (state.isError) process.exit(1);
const firstState = state.structuredContent.state;
const entry = elementNumber(textOf(state), 'text', 'Text');
const value = 'typed by the SDK — ✓';
// full: true answers with the whole new state (by default only what changed).
const set = await client.callTool({ name: 'set_value', arguments: { app, element: entry, value, full: true } });
expect(textOf(set).startsWith('Done (set_value), and read back.') && set.structuredContent.verified === true &&
  set.structuredContent.changes_since === undefined,
  'set_value by element number is read back, with the whole new state');
const button = elementNumber(textOf(set), 'push button', 'Write effect');
const click = await client.callTool({ name: 'click', arguments: { app, element: button } });
expect(textOf(click).startsWith("The element's own action ran (click)") && !click.isError,
  'click by element number says the action ran, unconfirmed');
expect(await waitForFile(effectPath, value), 'the fixture wrote exactly the value set (its effect file)');

const stale = await client.callTool({ name: 'click', arguments: { app, element: button, state: firstState } });
expect(stale.isError === true && textOf(stale).includes('element numbers belong to the state they came from'),
  'a number from an older state is refused');

const keys = await client.callTool({ name: 'keypress', arguments: { app, keys: ['cmdorctrl', 's'] } });
expect(keys.isError === true && textOf(keys).startsWith('Nothing was done:'),
  'keypress is refused while physical input is off');

const abort = new AbortController();
let progressed = 0;
const started = Date.now();
const waiting = client.callTool({ name: 'wait', arguments: { seconds: 20 } }, undefined, {
  signal: abort.signal,
  onprogress: () => { progressed += 1; abort.abort('enough'); },
});
let cancelled = false;
try { await waiting; } catch { cancelled = true; }
expect(cancelled && progressed >= 1 && Date.now() - started < 10000, 'a wait reports progress and is cancelled by the client');
const after = await client.callTool({ name: 'list_apps', arguments: {} });
expect(!after.isError && after.structuredContent.apps.some((a) => a.name === app), 'the server goes on after a cancel');

await client.close();
console.log(failures ? `${failures} check(s) failed` : 'all checks passed');
process.exit(failures ? 1 : 0);
