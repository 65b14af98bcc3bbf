// Plays a page on another localhost port that frames the status page
// under a decoy and waits for the user's click: if the status page shows
// inside the frame, it clicks (a real mouse click, at the top page's
// coordinates) where the held tool's Approve button is.
// Usage: node frame.cjs ATTACKER_URL TOOL SCREENSHOT
// Prints one JSON line: {"framed", "frameURL", "clicked", "refusals"}.
// Needs playwright-core (from .ci/node_modules, via NODE_PATH) and Chromium.
const { chromium } = require("playwright-core");

const [url, tool, screenshot] = process.argv.slice(2);

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const refusals = [];
    page.on("console", (msg) => { if (/frame/i.test(msg.text())) refusals.push(msg.text()); });
    await page.goto(url);
    const frame = await (await page.waitForSelector("iframe#victim")).contentFrame();
    await frame.waitForLoadState("load", { timeout: 15000 }).catch(() => {});
    // A refused frame holds Chromium's error page, not the status page.
    let framed = false, clicked = false;
    if (!frame.url().startsWith("chrome-error:")) {
      framed = await frame.waitForSelector("body[data-loaded=true]", { timeout: 15000 }).then(() => true, () => false);
    }
    if (framed) {
      const button = await frame.waitForSelector(`#pending [data-approve="${tool}"]`, { timeout: 20000 }).catch(() => null);
      const box = button && await button.boundingBox();
      if (box) {
        await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
        clicked = true;
        await page.waitForTimeout(2000); // the approval's request
      }
    }
    await page.screenshot({ path: screenshot, fullPage: true });
    console.log(JSON.stringify({ framed, frameURL: frame.url(), clicked, refusals }));
  } finally {
    await browser.close();
  }
})().catch((err) => { console.error(err.stack || String(err)); process.exit(1); });
