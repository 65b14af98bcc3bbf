// Drives the status page's approvals in headless Chromium: the held tool,
// which the scanner flagged, is listed with its findings and its diff; its
// button does not approve it but shows them again, and only the second
// step (a box ticked and the name typed) approves it.
// Usage: node approve.cjs URL TOOL EXPECT SCREENSHOT
// EXPECT is text the diff must show. Needs playwright-core (from
// .ci/node_modules, via NODE_PATH) and Chromium.
const { chromium } = require("playwright-core");

const [url, tool, expect, screenshot] = process.argv.slice(2);

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
    const item = page.locator(`#pending [data-pending="${tool}"]`);
    await item.waitFor({ timeout: 20000 });
    await item.locator("summary").click();
    const diff = await item.locator("pre").textContent();
    if (!diff.includes(expect)) throw new Error(`the diff lacks ${expect}:\n${diff}`);
    await page.screenshot({ path: screenshot, fullPage: true });
    await item.locator(`button[data-approve="${tool}"]`).click();
    const panel = item.locator(`[data-confirming="${tool}"]`);
    await panel.waitFor({ timeout: 15000 });
    if (!(await panel.locator("pre").textContent()).includes(expect)) throw new Error("the confirmation does not show the diff");
    if (!(await panel.locator("li").count())) throw new Error("the confirmation does not show the findings");
    const confirm = panel.locator(`button[data-confirm="${tool}"]`);
    if (await confirm.isEnabled()) throw new Error("the flagged definition can be approved without ticking and typing");
    await panel.locator(`[data-confirm-tick="${tool}"]`).check();
    await panel.locator(`[data-confirm-name="${tool}"]`).fill(tool.slice(0, -1));
    if (await confirm.isEnabled()) throw new Error("a name typed wrong enables the approval");
    await panel.locator(`[data-confirm-name="${tool}"]`).fill(tool);
    await page.screenshot({ path: screenshot.replace(/\.png$/, "-confirm.png"), fullPage: true });
    await confirm.click();
    // The page refreshes as soon as the server has the approval, which may
    // be before the button turns into a badge: what counts is that the tool
    // leaves the list, with no error shown on the way.
    const failure = item.locator(".err");
    await Promise.race([
      page.locator(`#pending [data-pending="${tool}"]`).waitFor({ state: "detached", timeout: 15000 }),
      failure.waitFor({ timeout: 15000 }).then(async () => { throw new Error("approval failed: " + await failure.textContent()); }),
    ]);
    if (errors.length) throw new Error("page errors: " + errors.join("; "));
    console.log("ok: pending", tool, "shown with its diff and approved from the page in two steps; screenshots", screenshot);
  } finally {
    await browser.close();
  }
})().catch((err) => { console.error(err.stack || String(err)); process.exit(1); });
