/**
 * A NAS volume's host directory for tests: a fresh temporary directory with
 * the files given (relative path → contents, or a size in bytes), for
 * `EmulatorOptions.volumes` / `--volume name=dir`. Directories named with a
 * trailing slash are made empty.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface TestVolume {
  dir: string;
  remove(): void;
}

export function volumeWith(entries: Record<string, string | number>): TestVolume {
  const dir = mkdtempSync(join(tmpdir(), "volume-"));
  for (const [path, content] of Object.entries(entries)) {
    const target = join(dir, path);
    if (path.endsWith("/")) {
      mkdirSync(target, { recursive: true });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, typeof content === "number" ? Buffer.alloc(content) : content);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
