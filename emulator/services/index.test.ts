import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allFeatures, settleFeaturesAfterLoad } from "./index";
import { contextWith } from "../requests/testSupport";
import { volumeKey } from "./volume-browser/tables";
import { AUTOMATION } from "../model/names/automation";
import { VOLUME_BROWSER } from "../model/names/volume-browser";

describe("allFeatures", () => {
  it("registers every table of the volume browser and automation beside the built-in tables", () => {
    const dir = mkdtempSync(join(tmpdir(), "features-"));
    const ctx = contextWith(allFeatures({ volumes: { isos: dir } }));
    try {
      for (const table of [...Object.values(VOLUME_BROWSER), ...Object.values(AUTOMATION)]) {
        expect([table, ctx.tables.has(table)]).toEqual([table, true]);
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

describe("settling after a restart", () => {
  it("marks deliveries and task runs that were in flight as errors and drops interrupted one-time tasks", () => {
    const ctx = contextWith(allFeatures({}));
    const hook = ctx.insert("webhook_urls", { name: "h", url: "http://127.0.0.1:9/" });
    const task = ctx.insert("tasks", { name: "t", owner: `webhook_urls/${hook.$key}`, status: "running", delete_after_run: false });
    const once = ctx.insert("tasks", { name: "o", owner: `webhook_urls/${hook.$key}`, status: "running", delete_after_run: true });
    const log = ctx.insert("webhooks", { webhook_url: hook.$key, status: "running" });
    const sent = ctx.insert("webhooks", { webhook_url: hook.$key, status: "sent" });
    settleFeaturesAfterLoad(ctx);
    expect([log.status, log.status_info, sent.status]).toEqual(["error", "interrupted by an emulator restart", "sent"]);
    expect(task.status).toBe("error");
    expect(ctx.get("tasks", once.$key)).toBeUndefined();
    ctx.close();
  });
});
