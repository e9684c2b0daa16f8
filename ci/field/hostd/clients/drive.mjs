// Drives the relay web app (aipper/relay web/ at 63f9a1c, served by
// ../front on the server's origin) in headless Chromium as a user would:
// log in (Connect), select the run, watch its output, answer a tool
// approval with "Approve (y)", send text, reload the page while the run
// streams and log in again, stop the run. When the connection is lost (a
// gate fault) it does what the app leaves to its user: presses Connect
// again. Prints what it saw; exits 1 when a step never happened.
//
//   node drive.mjs FRONT_URL USER PASSWORD
import { chromium } from 'playwright-core';

const [,, front, user, password] = process.argv;
const origin = front.replace(/\/$/, '');
const step = Number(process.env.HOSTD_STEP_MS || 20000);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] });
const page = await (await browser.newContext()).newPage();
const problems = [];
page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') console.log('[page]', m.type(), m.text()); });
// An uncaught error stops the Svelte app from updating: the run is over.
page.on('pageerror', (e) => { console.log('[page] uncaught:', e.message); problems.push('the web app crashed: ' + e.message); });
async function finish() {
  await browser.close();
  if (problems.length) {
    console.log('problems:', problems.join('; '));
    process.exit(1);
  }
}

const status = () => page.locator('div', { hasText: /^Status: / }).first().innerText().catch(() => '');
// latest is the event the app shows on top (events[0]), parsed.
const latest = async () => { try { return JSON.parse(await page.locator('pre').first().innerText()); } catch { return null; } };
const types = () => page.locator('section:has(h2:text("Events")) li strong').allInnerTexts();

async function connect() {
  await page.getByLabel('Server URL').fill(origin);
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByText('Status: connected').waitFor({ timeout: step });
  console.log('connected');
}

// until waits for cond, pressing Connect again whenever the app says it
// lost its connection (the web app has no reconnect of its own).
async function until(what, cond) {
  const end = Date.now() + step * 3;
  let reconnects = 0;
  while (Date.now() < end) {
    if (await cond()) { console.log('saw', what); return; }
    if (problems.length) { console.log('NEVER saw', what, '—', problems[0]); await finish(); }
    const s = await status();
    if (/disconnected|error/.test(s) && reconnects < 5) {
      reconnects++;
      console.log(`${s}: pressing Connect again (${reconnects})`);
      await connect().catch((e) => console.log('reconnect failed:', e.message));
      await selectRun();
    }
    await page.waitForTimeout(100);
  }
  problems.push('never saw ' + what);
  console.log('NEVER saw', what, '— latest:', JSON.stringify(await latest()));
}

let runId = '';
async function selectRun() {
  await page.getByRole('button', { name: 'Refresh' }).click();
  const rows = page.locator('section:has(h2:text("Runs")) li');
  await rows.first().waitFor({ timeout: step });
  // The newest run that has not exited (GET /runs lists newest first).
  const n = await rows.count();
  for (let i = 0; i < n; i++) {
    const text = await rows.nth(i).innerText();
    if (!/\bexited\b/.test(text)) {
      await rows.nth(i).getByRole('button', { name: 'Select' }).click();
      runId = (await rows.nth(i).locator('code').first().innerText()).trim();
      console.log('selected', runId, '—', text.replace(/\s+/g, ' '));
      return;
    }
  }
  problems.push('no live run to select');
}

const isLatest = (type, pred = () => true) => async () => {
  const e = await latest();
  return e && e.type === type && e.run_id === runId && pred(e.data || {});
};

async function send(text) {
  await page.getByLabel('Text').fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  console.log('sent', JSON.stringify(text));
}

await page.goto(front);
await connect();
await selectRun();
await until('the run waiting for input', isLatest('run.awaiting_input'));

// A tool that needs approval: the app's Approve (y) button answers it.
await send('/tool write_file {"path": "notes.txt"}');
await until('the approval prompt', isLatest('run.awaiting_input', (d) => d.reason === 'permission'));
await page.getByRole('button', { name: 'Approve (y)' }).click();
console.log('approved');
await until('the run waiting again', isLatest('run.awaiting_input', (d) => d.reason === 'prompt'));

await send('hello from the relay web app');
await until('the echo', async () => (await types()).includes('run.input') && await isLatest('run.awaiting_input')());

// Reload while the run streams, log in again, watch it finish.
await send('/slow 30');
await until('streaming output', isLatest('run.output', (d) => /chunk [3-9] of 30/.test(d.text || '')));
console.log('--- reload mid-run ---');
await page.reload();
await connect();
await selectRun();
await until('the end of the stream after the reload', isLatest('run.awaiting_input'));
const seen = await types();
console.log(`after the reload the app lists ${seen.length} events`);

await page.getByRole('button', { name: 'Stop' }).click();
console.log('stop');
// The scripted host starts its next run right after run.exited, so the
// exit is looked for in the app's event list, not on top of it.
await until('the run exited', async () => (await page.locator('section:has(h2:text("Events")) li').allInnerTexts())
  .some((t) => t.includes('run.exited') && t.includes('run=' + runId)));
console.log('RUN', runId);
await finish();
