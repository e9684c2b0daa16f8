import { chromium } from 'playwright-core';
const [,, page_url, ws] = process.argv;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] });
const ctx = await browser.newContext();   // fresh profile (playwright makes a new user-data-dir)
const page = await ctx.newPage();
page.on('console', (m) => console.log('[page]', m.text()));
const u = (phase) => `${page_url}?ws=${encodeURIComponent(ws)}&phase=${phase}`;
await page.goto(u(1));
await page.waitForFunction(() => window.__done === true, null, { timeout: 30000 });
await page.waitForTimeout(1000);               // a few ack ticks (every 200 ms)
console.log('--- reload (phase 2: restore from localStorage, like example handleRestore) ---');
await page.goto(u(2));                       // page reload: the old socket closes, a new one opens
await page.waitForFunction(() => window.__done === true, null, { timeout: 30000 }).catch(e => console.log('phase2 not done:', e.message));
await page.waitForTimeout(1500);
await browser.close();
