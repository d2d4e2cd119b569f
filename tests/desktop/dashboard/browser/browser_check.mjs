// The dashboard in Debian's Chromium, driven by playwright-core the way a person uses it,
// every effect judged from outside through the CLI: the list (25 automations and more:
// search, the Enabled/Disabled filter, pages of ten), one automation (Summary, gate), the
// editor (focused, a validation error at its path and nothing changed, then saved), a run
// started and followed live to its end without Refresh, a waiting run approved, a pi step's
// question answered (the answer typed kept through a live redraw), a run
// undone, a result holding HTML, a javascript: link and Markdown shown as text and safe
// links, Stop all; the same pages at 390 px wide without sideways scrolling; every control
// named — the whole walk at 1200 px and again, on fresh data, at 390 px. Screenshots of each
// page go to ARTIFACTS (not committed).
// Usage: node browser_check.mjs COMPANYOS_CLI ARTIFACTS WORK_DIR   (run by browser_check.py)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [cli, artifacts, work] = process.argv.slice(2);
const standinLog = process.env.PI_STANDIN_LOG;  // the stand-in pi's log (browser_check.py)
mkdirSync(artifacts, { recursive: true });
let failures = 0;
let pass = '';  // "1200 px", "390 px": which walk a line belongs to
function expect(condition, what) {
  console.log(`${condition ? 'ok  ' : 'FAIL'} browser${pass ? ` (${pass})` : ''}: ${what}`);
  if (!condition) failures += 1;
  return condition;
}
function companyos(...args) {
  return JSON.parse(execFileSync(cli, ['--json', ...args], { encoding: 'utf8' }));
}
function create(name, actions, level = 1) {
  const file = `${work}/${name.replace(/\W/g, '_')}.json`;
  writeFileSync(file, JSON.stringify({ name, actions }));
  const id = companyos('automation', 'create', file).data.id;
  for (let l = 1; l < level; l += 1) companyos('automation', 'raise', String(id));
  return id;
}
const quick = [{ type: 'command', executable: '/bin/true', cwd: '/' }];
const until = async (what, probe, ms = 15000) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  console.log(`(gave up waiting for ${what})`);
  return false;
};

const hostile = `${work}/result.md`;
writeFileSync(hostile, [
  '# Report', '',
  'A [safe link](https://example.org/page) and a [bad link](javascript:window.pwned=1) and <img src=x onerror="window.pwned=2"> and <script>window.pwned=3</script>.',
  '', '| name | count |', '|---|---|', '| apples | `3` |', '', '```json', '{"x":1}', '```',
].join('\n'));
// The data of one walk, after the last walk's is deleted: 25 routines (the last five
// disabled), a report whose output is hostile, a slow one to follow live, one that waits for
// approval.
async function setup(tag) {
  for (const old of companyos('automation', 'list').data.automations) companyos('automation', 'delete', String(old.id));
  for (let i = 1; i <= 25; i += 1) {
    const id = create(`Routine ${String(i).padStart(2, '0')}`, quick);
    if (i > 20) companyos('automation', 'disable', String(id));
  }
  // Its undo touches a marker file, so Undo run has an inverse to run (judged by the file).
  const marker = `${work}/undone-${tag}`;
  const report = create('Report', [{ type: 'command', executable: '/bin/cat', argv: [hostile], cwd: '/',
    undo: { executable: '/usr/bin/touch', argv: [marker], cwd: '/' } }], 3);
  const slow = create('Slow one', [{ type: 'command', executable: '/bin/sleep', argv: ['2'], cwd: '/' }, ...quick], 3);
  const approveMe = create('Approve me', quick, 2);
  const reportRun = companyos('automation', 'start', String(report)).data.id;
  await until('the report run', async () => companyos('run', 'show', String(reportRun)).data.status === 'succeeded');
  return { marker, report, slow, approveMe, reportRun };
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const loginUrl = () => companyos('dashboard').data.url;

async function named(page) {
  // Every control has a name a screen reader (and companyOS) can say.
  return page.evaluate(() => [...document.querySelectorAll('button, input, select, textarea, a')].filter((el) => {
    const name = el.getAttribute('aria-label') || (el.labels && el.labels.length ? el.labels[0].textContent : '') || el.textContent;
    return !name || !name.trim();
  }).map((el) => el.outerHTML));
}

async function walk(width, tag) {
  const { marker, slow, approveMe, reportRun } = await setup(tag);
  const shot = (name) => `${artifacts}/${name}${width === 1200 ? '' : `-${width}`}.png`;
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => expect(false, `no script error on the page (${error.message})`));
  await page.goto(loginUrl());
  await page.getByRole('heading', { name: 'Automations' }).waitFor();
  expect(new URL(page.url()).search === '', `the login link leaves the address bar (${page.url()})`);
  const rows = page.locator('table.rows tbody tr');
  expect(await rows.count() === 10, `ten automations a page (${await rows.count()})`);
  expect(await page.getByText('Page 1 of 3 (28)').isVisible(), 'the pager counts 28 automations in 3 pages');
  await page.screenshot({ path: shot('automations'), fullPage: true });
  expect((await named(page)).length === 0, `every control on the list is named (${await named(page)})`);

  await page.getByLabel('Search by name').fill('Routine 2');
  await until('the search', async () => await rows.count() === 6);
  expect(await rows.count() === 6, `searching "Routine 2" finds 20–25 (${await rows.count()})`);
  await page.getByLabel('Search by name').fill('');
  await page.getByLabel('Show').selectOption('disabled');
  const disabled = await rows.allInnerTexts();
  expect(disabled.length === 5 && disabled.every((t) => t.includes('Disabled')), `the Disabled filter shows the five (${disabled.length})`);
  await page.getByLabel('Show').selectOption('all');
  await page.getByRole('button', { name: 'Next' }).click();
  expect(await page.getByText('Page 2 of 3').isVisible(), 'Next shows page 2');

  // One automation: Summary with the gate; the editor.
  await page.getByLabel('Search by name').fill('Routine 03');
  await page.getByRole('link', { name: 'Routine 03' }).click();
  await page.getByRole('heading', { name: 'Promotion gate: not met' }).waitFor();
  expect(await page.locator('.gate li').count() === 8, 'the gate lists its eight conditions');
  expect(await page.getByText('1 (suggest): runs are dry runs').isVisible(), 'the level says what it means');
  await page.screenshot({ path: shot('automation'), fullPage: true });
  const id = Number(new URL(page.url()).hash.split('/')[2]);
  await page.getByRole('button', { name: 'Edit automation' }).click();
  await page.locator('#edit-name').waitFor();
  const focused = await page.evaluate(() => document.activeElement?.id);
  expect(focused === 'edit-name', `the editor opens with its name field focused (${focused})`);
  const definition = page.getByLabel('Definition (JSON; its name is the field above)');
  const text = JSON.parse(await definition.inputValue());
  await definition.fill(JSON.stringify({ ...text, bogus: 1 }, null, 2));
  await page.getByLabel('Name', { exact: true }).fill('Routine 03 renamed');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.locator('.problems').waitFor();
  const problems = await page.locator('.problems').innerText();
  expect(problems.includes('bogus') && problems.includes('unknown field'), `the daemon's error shows at its path (${problems})`);
  expect(companyos('automation', 'get', String(id)).data.name === 'Routine 03', 'nothing changed before a good Save');
  // Refresh draws the page anew: wait until the old editor has gone before reading the new.
  const before = await definition.elementHandle();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await before.waitForElementState('hidden');
  expect(await page.getByLabel('Name', { exact: true }).inputValue() === 'Routine 03 renamed', 'Refresh keeps the unsaved edit');
  await definition.fill(JSON.stringify(text, null, 2));
  await page.getByRole('button', { name: 'Save' }).click();
  await until('the save', async () => companyos('automation', 'get', String(id)).data.name === 'Routine 03 renamed');
  expect(companyos('automation', 'get', String(id)).data.name === 'Routine 03 renamed', 'Save stores the edit (read back by the CLI)');

  // A run followed live: started here, seen running and then succeeded without Refresh.
  await page.goto(`${new URL(page.url()).origin}/#/automation/${slow}`);
  await page.getByRole('button', { name: 'Start a run' }).click();
  await page.getByRole('link', { name: 'Run history' }).click();
  const first = page.locator('table.rows tbody tr').first();
  await until('the run row', async () => (await first.innerText()).includes('running'));
  expect((await first.innerText()).includes('running'), `the new run shows running (${await first.innerText()})`);
  const live = await until('the live update', async () => (await first.innerText()).includes('succeeded'), 20000);
  expect(live, `it turns succeeded by itself, from the daemon's events (${await first.innerText()})`);
  await page.screenshot({ path: shot('run-history'), fullPage: true });

  // The hostile result: shown as text, only the safe link a link, nothing ran.
  await page.goto(`${new URL(page.url()).origin}/#/run/${reportRun}`);
  await page.getByRole('heading', { name: 'Report' }).waitFor();
  const result = page.locator('.result');
  expect(await page.evaluate(() => window.pwned === undefined), 'nothing in the result ran');
  expect(await result.locator('script, img, iframe').count() === 0, 'no element came from the result\'s HTML');
  expect((await result.innerText()).includes('<script>window.pwned=3</script>'), 'its HTML shows as text');
  const links = await result.locator('a').evaluateAll((as) => as.map((a) => a.href));
  expect(links.length === 1 && links[0] === 'https://example.org/page', `only the https link is a link (${links})`);
  expect(await result.locator('table th').count() === 2 && await result.locator('pre code').innerText() === '{\n  "x": 1\n}',
    'the Markdown table and the fenced JSON are formatted');
  await page.screenshot({ path: shot('run'), fullPage: true });
  await page.getByRole('button', { name: 'Show raw' }).click();
  expect(await page.locator('pre.raw').innerText() === readFileSync(hostile, 'utf8'),
    'raw shows the output exactly');
  await page.getByRole('button', { name: 'Undo run' }).click();
  await until('the undo', async () => companyos('run', 'show', String(reportRun)).data.status === 'reverted');
  expect(companyos('run', 'show', String(reportRun)).data.status === 'reverted' && existsSync(marker),
    `Undo run runs the inverse and reverts it (the CLI says ${companyos('run', 'show', String(reportRun)).data.status}; ${await page.locator('#notice').innerText()})`);

  // A waiting run approved.
  const waiting = companyos('automation', 'start', String(approveMe)).data.id;
  await page.getByRole('link', { name: 'Approvals' }).click();
  await page.getByRole('button', { name: `Approve run ${waiting}` }).click();
  await until('the approval', async () => companyos('run', 'show', String(waiting)).data.status !== 'waiting');
  const approved = companyos('run', 'show', String(waiting)).data;
  expect(['running', 'succeeded'].includes(approved.status), `Approve lets the run go on (${approved.status})`);
  await page.screenshot({ path: shot('approvals'), fullPage: true });

  // A pi step's question answered on the page, what was typed kept through a live redraw;
  // what reached pi is read from the stand-in pi's own log.
  const answered = () => readFileSync(standinLog, 'utf8').split('\n').filter((line) => line.includes('extension_ui_response')
    && line.includes('"value": "main"')).length;
  const answeredBefore = existsSync(standinLog) ? answered() : 0;
  const asks = create(`Asks ${tag}`, [{ type: 'pi', prompt: 'ask input Which branch?', cwd: work, timeoutSeconds: 120 }], 3);
  const asking = companyos('automation', 'start', String(asks)).data.id;
  const field = page.getByLabel(`Answer to run ${asking}: Which branch?`, { exact: true });
  await field.waitFor({ timeout: 15000 });
  await field.fill('main');
  const next = companyos('automation', 'start', String(approveMe)).data.id;
  await page.getByRole('button', { name: `Approve run ${next}` }).waitFor({ timeout: 15000 });
  expect(await field.inputValue() === 'main', `an answer being typed survives a live redraw (${await field.inputValue()})`);
  await page.screenshot({ path: shot('question'), fullPage: true });
  expect((await named(page)).length === 0, `every control answering a question is named (${await named(page)})`);
  await page.getByRole('button', { name: `Send the answer to run ${asking}: Which branch?` }).click();
  await until('the answered run', async () => companyos('run', 'show', String(asking)).data.status === 'succeeded');
  const output = companyos('run', 'show', String(asking)).data.steps[0]?.output;
  expect(answered() === answeredBefore + 1 && output === 'answered: {"value": "main"}',
    `the answer typed on the page reached pi, and the run went on (${output})`);
  await page.getByRole('button', { name: `Deny run ${next}` }).click();
  await until('the denial', async () => companyos('run', 'show', String(next)).data.status === 'blocked');

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('max_level', { exact: true }).fill('9');
  await page.getByRole('button', { name: 'Save max_level' }).click();
  await page.getByText('must be from 1 to 4').waitFor();
  expect(companyos('settings', 'get', 'max_level').data.value === 3, "a refused setting shows the daemon's message and changes nothing");
  await page.screenshot({ path: shot('settings'), fullPage: true });

  // Stop all.
  await page.getByRole('button', { name: 'Stop all automations' }).click();
  await until('stop all', async () => companyos('automation', 'list').data.automations.every((a) => !a.enabled));
  expect(companyos('automation', 'list').data.automations.every((a) => !a.enabled), 'Stop all disables every automation (read by the CLI)');
  await context.close();
  return { slow, reportRun };
}

async function narrow(slow, reportRun) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(loginUrl());
  await page.getByRole('heading', { name: 'Automations' }).waitFor();
  const slowName = companyos('automation', 'get', String(slow)).data.name;
  // Each page is measured once its own heading shows: the last page's would satisfy a wait
  // for any heading, and its width is not this page's.
  for (const [name, hash, heading] of [['automations', '#/', 'Automations'], ['automation', `#/automation/${slow}`, slowName],
    ['run', `#/run/${reportRun}`, `Run ${reportRun}`], ['approvals', '#/approvals', 'Approvals'], ['settings', '#/settings', 'Settings']]) {
    await page.goto(`${new URL(page.url()).origin}/${hash}`);
    await page.locator('#page h2', { hasText: heading }).first().waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width <= 390, `${name} at 390 px has no sideways scrolling (${width})`);
  }
  await page.goto(`${new URL(page.url()).origin}/#/`);
  await page.getByRole('heading', { name: 'Automations' }).waitFor();
  const expected = '"Name","Enabled","Last run","Level","Next run"';
  let labelled = [];
  await until('the stacked rows', async () => {
    labelled = await page.locator('table.rows tbody tr').first().locator('td').evaluateAll((tds) =>
      tds.map((td) => `${getComputedStyle(td, '::before').content}`));
    return labelled.join() === expected;
  });
  expect(labelled.join() === expected, `rows stack their labelled fields (${labelled})`);
  await context.close();
}

try {
  pass = '1200 px';
  await walk(1200, 'wide');
  pass = '390 px';
  const data = await walk(390, 'narrow');
  await narrow(data.slow, data.reportRun);
} catch (error) {
  expect(false, `the walk ended early: ${error.stack}`);
} finally {
  await browser.close();
}
console.log(failures ? `${failures} check(s) failed` : 'all checks passed');
process.exit(failures ? 1 : 0);
