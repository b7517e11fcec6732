import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allFeatures } from "./index";
import { contextWith } from "./testSupport";
import { volumeKey } from "./volume-browser/tables";

describe("allFeatures", () => {
  it("registers the volume browser and automation tables beside the built-in tables", () => {
    const dir = mkdtempSync(join(tmpdir(), "features-"));
    const ctx = contextWith(allFeatures({ volumes: { isos: dir } }));
    try {
      for (const table of ["volumes", "vm_services", "volume_browser", "webhook_urls", "webhooks", "webhook_url_actions", "tasks", "task_actions", "task_events", "task_schedules", "task_schedule_triggers"]) {
        expect(ctx.tables.has(table)).toBe(true);
      }
      expect(ctx.get("volumes", volumeKey("isos"))?.name).toBe("isos");
    } finally {
      ctx.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("works without volumes", () => {
    const ctx = contextWith(allFeatures({}));
    expect(ctx.all("volumes")).toEqual([]);
    ctx.close();
  });
});
