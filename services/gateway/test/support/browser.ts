import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, headless (CI installs it when missing). */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });

/** Where test runs keep screenshots: test-output/gateway at the repository root (git-ignored). */
export async function outputPath(file: string): Promise<string> {
  const dir = path.resolve(__dirname, '..', '..', '..', '..', 'test-output', 'gateway');
  await mkdir(dir, { recursive: true });
  return path.join(dir, file);
}
