/**
 * A screenshot of a local page with Debian's headless Chromium (/usr/bin/chromium), driven by
 * playwright-core as __tests__/audit/browser.test.ts does: what the docs' screenshot scripts share.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/** Stops a script early, saying how to install the browser, before it does any work. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's package (apt-get update && apt-get install -y chromium).`
    );
  }
}

export interface ScreenshotRequest {
  /** The page's file:// URL, with a fragment if the page opens something by it. */
  readonly url: string;
  readonly output: string;
  readonly viewport: { readonly width: number; readonly height: number };
  /** A selector the page must show before the picture is taken. */
  readonly waitFor: string;
  /** A folder for the browser's throwaway profile. */
  readonly workDir: string;
  readonly fullPage?: boolean;
}

export async function screenshotPage(request: ScreenshotRequest): Promise<void> {
  const browser = await chromium.launchPersistentContext(path.join(request.workDir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking'
    ],
    viewport: request.viewport,
    deviceScaleFactor: 1
  });
  try {
    const tab = await browser.newPage();
    await tab.goto(request.url);
    await tab.waitForSelector(request.waitFor);
    await tab.screenshot({ path: request.output, fullPage: request.fullPage ?? false });
  } finally {
    await browser.close();
  }
}
