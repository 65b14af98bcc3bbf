// Drives toolsearch's status page in headless Chromium: it loads, shows a
// server's state, runs a search in the page, and saves a screenshot.
// Usage: node statuspage.cjs URL SERVER STATE QUERY EXPECT SCREENSHOT [PROBLEM STDERR]
// The activity table must show a call_tool that went to SERVER; the
// problems table a row with PROBLEM (a skill's file:line and message), and
// the sources table a failed server's stderr line STDERR.
// Needs playwright-core (from .ci/node_modules, via NODE_PATH) and Chromium.
const { chromium } = require("playwright-core");

const [url, server, state, query, expect, screenshot, problem, stderrLine] = process.argv.slice(2);

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const errors = [];
    page.on("pageerror", (err) => errors.push(err.message));
    await page.goto(url);
    await page.waitForSelector("body[data-loaded=true]", { timeout: 15000 });
    const badge = page.locator(`#sources tr[data-source="${server}"] .badge`);
    await badge.filter({ hasText: state }).waitFor({ timeout: 20000 });
    await page.locator("#activity tbody tr", { hasText: "call_tool" }).filter({ hasText: server }).first().waitFor({ timeout: 15000 });
    if (problem) {
      await page.locator("#problems tbody tr", { hasText: problem }).first().waitFor({ timeout: 15000 });
      const count = await page.textContent('#sources tr[data-source="skills"] td.problems');
      if (!(Number(count) > 0)) throw new Error(`the sources table counts ${count} skill problems`);
    }
    if (stderrLine) {
      await page.locator("#sources pre.stderr", { hasText: stderrLine }).first().waitFor({ timeout: 30000 });
    }
    await page.waitForSelector("#chart svg", { timeout: 60000 });
    await page.fill("#q", query);
    await page.click("#search-button");
    await page.waitForSelector("#search-result[data-done=true]", { timeout: 15000 });
    const text = await page.textContent("#search-result");
    if (!text.includes(expect)) throw new Error(`search result lacks ${expect}:\n${text}`);
    await page.screenshot({ path: screenshot, fullPage: true });
    if (errors.length) throw new Error("page errors: " + errors.join("; "));
    console.log("ok: state", state, "activity, token chart and search result seen; screenshot", screenshot);
  } finally {
    await browser.close();
  }
})().catch((err) => { console.error(err.stack || String(err)); process.exit(1); });
