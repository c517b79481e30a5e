import { chromium } from '@playwright/test';
const [url, out, w = '1280', h = '900', theme = ''] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const page = await browser.newPage({ viewport: { width: Number(w), height: Number(h) }, locale: 'hu-HU' });
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
if (theme) await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
await page.goto(url);
await page.waitForTimeout(4000);
if (process.env.SCROLL) { await page.evaluate((y) => window.scrollTo(0, Number(y)), process.env.SCROLL); await page.waitForTimeout(800); }
await page.screenshot({ path: out, fullPage: process.env.FULL === "1" });
console.log(errors.join('\n'));
await browser.close();
