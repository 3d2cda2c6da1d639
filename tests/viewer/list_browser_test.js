// Walks from the landing page to an incident the way a person does, in headless Chromium (as
// browser_test.js): the landing page links the newest incidents, /incidents answers the browser's
// own Accept header with the HTML list, whose row for the incident has its reason, value and replay
// command line, and whose view link opens the viewer page, drawn. No console errors, failed
// requests or dialogs on the way. Saves a screenshot of the list. Usage (tests/e2e/viewer.sh):
//   node list_browser_test.js BASE_URL INCIDENT_ID SCREENSHOT.png
// Exits 1 listing every failed check.
'use strict';
const { chromium } = require('playwright-core');

async function main() {
  const [base, id, screenshot] = process.argv.slice(2);
  if (!base || !id || !screenshot) throw new Error('usage: list_browser_test.js BASE_URL INCIDENT_ID SCREENSHOT');
  const failures = [];
  const check = (ok, what) => {
    if (ok) console.log('ok: ' + what);
    else failures.push(what);
  };
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium' });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const problems = [];
    page.on('console', (msg) => { if (msg.type() === 'error') problems.push('console error: ' + msg.text()); });
    page.on('pageerror', (error) => problems.push('page error: ' + error.message));
    page.on('requestfailed', (request) => problems.push('request failed: ' + request.url() + ' ' + request.failure().errorText));
    page.on('response', (response) => { if (response.status() >= 400) problems.push('HTTP ' + response.status() + ' for ' + response.url()); });
    page.on('dialog', async (dialog) => { problems.push('a dialog opened (script injection?): ' + dialog.message()); await dialog.dismiss(); });

    const view = '/incidents/' + id + '/view';
    await page.goto(base, { waitUntil: 'load' });
    const landing = await page.$$eval('li a', (links) => links.map((a) => a.getAttribute('href')));
    check(landing.includes(view), 'the landing page links the incident\'s viewer page: ' + JSON.stringify(landing));

    // Follow the landing page's link to the whole list: Chromium's own Accept header asks for it.
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('a[href="/incidents"]')]);
    const type = await page.evaluate(() => document.contentType);
    check(type === 'text/html', '/incidents is a page for the browser (' + type + ')');
    const row = await page.$$eval('tr', (trs, wanted) => {
      const tr = trs.find((t) => t.id === wanted);
      return tr ? [...tr.cells].map((td) => td.textContent) : null;
    }, id);
    check(row != null, 'the list has a row for ' + id + ': ' + JSON.stringify(row));
    if (row != null) {
      check(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(row[0]), 'it fired at an ISO UTC time: ' + row[0]);
      check(row[3] !== '' && row[3] !== 'nan', 'its value is readable: ' + row[3]);
      check(row[6].includes('flightrec replay ' + base + 'incidents/' + id), 'its replay command line: ' + row[6]);
    }
    await page.screenshot({ path: screenshot, fullPage: true });
    console.log('screenshot: ' + screenshot);

    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }),
      page.click('tr[id="' + id + '"] a[href="' + view + '"]')]);
    await page.waitForFunction(() => window.flightrecViewer && window.flightrecViewer.ready, null, { timeout: 30000 });
    check(page.url().endsWith(view), 'its view link opens the viewer page, drawn: ' + page.url());

    check(problems.length === 0, 'no console errors, failed requests or dialogs' + (problems.length ? ': ' + problems.join('; ') : ''));
  } finally {
    await browser.close();
  }
  if (failures.length > 0) {
    for (const failure of failures) console.error('FAIL: ' + failure);
    process.exit(1);
  }
  console.log('all browser checks passed');
}

main().catch((error) => {
  console.error('FAIL: ' + (error.stack || error));
  process.exit(1);
});
