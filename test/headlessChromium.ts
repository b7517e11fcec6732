/**
 * Debian's Chromium (`/usr/bin/chromium`, installed by the set-up) driven by playwright-core, headless, on a
 * fresh profile that `close()` removes. The flags keep it off the network this machine does not have: without
 * them Chromium keeps opening connections that are refused.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, type BrowserContextOptions, chromium } from "playwright-core";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface HeadlessChromium {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchHeadlessChromium(options: BrowserContextOptions = {}): Promise<HeadlessChromium> {
  const profile = mkdtempSync(join(tmpdir(), "chromium-profile-"));
  const context = await chromium.launchPersistentContext(profile, {
    ...options,
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: FLAGS,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
