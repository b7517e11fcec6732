// The rules that need the platform, as check() runs them at preview: each refuses naming the
// field, and sends no mutating request (the volume listing's job is the spec's only way to read
// a volume: a POST to volume_browser, which changes nothing).
import { volumeWith, type TestVolume } from "../../../emulator/services/volume-browser/testVolume";
import { eventChoiceCheck, mediaPathCheck } from "../../../provider/reconcile/automation/checks";
import { Session } from "../../../provider/reconcile/session";
import { countOf, type Site, startSite, STARTUP_MS } from "./site";

let site: Site;
let volume: TestVolume;
beforeAll(async () => {
  volume = volumeWith({ "images/ubuntu.iso": 100 });
  site = await startSite({ volumes: { nas: volume.dir } });
}, STARTUP_MS);
afterAll(async () => {
  await site.close();
  volume.remove();
});

/** Runs `check` and answers its problems and the requests it sent other than GETs. */
async function preview<T>(check: () => Promise<T>): Promise<{ problems: T; sent: string[] }> {
  await site.resetRequests();
  const problems = await check();
  const { entries } = await site.requests();
  return { problems, sent: entries.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.table}`) };
}

describe("an event trigger's choice must be in the platform's catalog", () => {
  test.each([
    [{ type: "vms", event: "poweroff" }, []],
    [{ type: "vms", event: "exploded" }, ["event"]],
    [{ type: "alarms", event: "raised", object: "1" }, ["object"]],
    [{ type: "vms", event: "poweroff", object: "1", tag: "2" }, ["tag"]],
    [{ type: "spaceships", event: "created" }, ["type"]],
  ])("%j → problems at %j, only reads", async (choice, fields) => {
    const { problems, sent } = await preview(() => eventChoiceCheck(site.api, choice));
    expect(problems.map((p) => p.path.join("."))).toEqual(fields);
    expect(sent).toEqual([]);
  });
});

describe("a media path must be a file on the volume", () => {
  test("images/ubuntu.iso passes; a missing path is refused naming it; only the listing job is posted", async () => {
    expect(await preview(() => mediaPathCheck(site.api, "nas", "images/ubuntu.iso"))).toEqual({
      problems: [],
      sent: ["POST volume_browser"],
    });
    const missing = await preview(() => mediaPathCheck(site.api, "nas", "images/missing.iso"));
    expect(missing.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^path 'images\/missing.iso' is not on the volume 'nas'/),
    ]);
    expect(missing.sent).toEqual(["POST volume_browser"]);
  });
});

describe("a session reads the event catalog once, however many triggers it checks", () => {
  test("three choices checked: one GET of task_event_types", async () => {
    const fresh = new Session(site.api);
    await site.resetRequests();
    for (const event of ["poweroff", "poweron", "exploded"]) await eventChoiceCheck(fresh, { type: "vms", event });
    expect(countOf(await site.requests(), "GET", "task_event_types")).toBe(1);
  });
});
