import * as v8 from "node:v8";

let applied = false;

/**
 * The provider process serves hundreds of concurrent operations whose garbage
 * dies young; V8 then grows its young generation (up to three times 32 MiB on
 * a large machine), which made most of the process's peak memory at 200 VMs
 * (about 390 MiB, of which little was live). Kept at its initial size, the
 * peak stays near the live data, for about the same CPU (`npm run bench`
 * prints the provider's peak).
 */
export function keepYoungGenerationSmall(): void {
  if (applied) return;
  applied = true;
  v8.setFlagsFromString("--semi-space-growth-factor=1");
}
