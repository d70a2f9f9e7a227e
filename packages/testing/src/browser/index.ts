import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Debian's Chromium, headless (CI installs it when missing). Background networking is off: this
 * machine has no internet, and Chromium's own calls home would only fail and slow it down.
 */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/** Where browser tests keep screenshots: test-output/<area>/ at the repository root (git-ignored, kept by CI). */
export async function screenshotPath(area: string, file: string): Promise<string> {
  const dir = path.join(ROOT, 'test-output', area);
  await mkdir(dir, { recursive: true });
  return path.join(dir, file);
}

/** True when the page is wider than its viewport (a phone user would scroll sideways). */
export const scrollsSideways = (page: Page): Promise<boolean> =>
  // A string: this package is compiled without the DOM library, the page runs it with one.
  page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');
