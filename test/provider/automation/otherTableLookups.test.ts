// getTableRows on the tables a team looks up without a resource of their own — certificates, licenses and
// logs — against the emulator over HTTPS, through the declared look-up both doors (SDK and plugin) run:
// chosen fields, a filter, a sort and a limit each shape the one GET it sends; no changing request.
import { LOOKUP_FUNCTIONS, runLookup } from "../../../provider/resources/lookupFunctions";
import { countOf, type Site, startSite, STARTUP_MS } from "./site";

let site: Site;
let vm: string;
beforeAll(async () => {
  site = await startSite();
  // A VM powered on and off twice writes four lines of its own to the system log.
  vm = (await site.call("POST", "/api/v4/vms", { name: "logged" })).body.$key;
  const machine = (await site.call("GET", `/api/v4/vms/${vm}?fields=machine`)).body.machine;
  for (let i = 0; i < 2; i++) {
    for (const [action, status] of [
      ["poweron", "running"],
      ["kill", "stopped"],
    ]) {
      await site.call("POST", "/api/v4/vm_actions", { vm, action });
      while ((await site.call("GET", `/api/v4/machine_status/${machine}?fields=status`)).body.status !== status) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }
}, STARTUP_MS);
afterAll(() => site.close());

const getTableRows = LOOKUP_FUNCTIONS.find((f) => f.name === "getTableRows")!;
const rows = async (args: object) => (await runLookup(getTableRows, site.api, args)).rows as Record<string, unknown>[];

describe("certificates: the site's certificate with the fields asked for", () => {
  test("domain, type and validity of the seeded self-signed certificate", async () => {
    expect(await rows({ table: "certificates", fields: ["domain", "type", "valid"] })).toEqual([
      { domain: "vplatform.local", type: "self_signed", valid: true },
    ]);
  });
  test("the private key is never answered, even when named", async () => {
    const answered = JSON.stringify(await rows({ table: "certificates", fields: ["domain", "private"] }));
    expect(answered).toContain("vplatform.local");
    expect(answered).not.toContain("PRIVATE KEY");
  });
  test("a filter that matches no certificate answers no rows", async () => {
    expect(await rows({ table: "certificates", filter: "type eq 'letsencrypt'" })).toEqual([]);
  });
});

describe("licenses: the license and when it ends", () => {
  test("name and validity, filtered by name", async () => {
    const [license] = await rows({ table: "licenses", fields: ["name", "valid_until"], filter: "name eq 'Emulator license'" });
    expect(license).toEqual({ name: "Emulator license", valid_until: expect.any(Number) });
    expect(Number(license.valid_until)).toBeGreaterThan(Date.now() / 1000);
  });
});

describe("logs: filter, sort and limit shape the rows", () => {
  const ofVm = () => `object_key eq '${vm}'`;

  test("a filter keeps the VM's own lines, oldest first when sorted by +timestamp", async () => {
    const lines = await rows({ table: "logs", fields: ["text"], filter: ofVm(), sort: "+timestamp" });
    expect(lines.map((l) => l.text)).toEqual([
      "VM 'logged' powered on",
      "VM 'logged' powered off",
      "VM 'logged' powered on",
      "VM 'logged' powered off",
    ]);
  });
  test("-timestamp with limit 1 answers the newest line only", async () => {
    expect(await rows({ table: "logs", fields: ["text"], filter: ofVm(), sort: "-timestamp", limit: 1 })).toEqual([
      { text: "VM 'logged' powered off" },
    ]);
  });
  test("the filter combines conditions (the system line is not the VM's)", async () => {
    const lines = await rows({ table: "logs", fields: ["object_type", "text"], filter: "object_type eq 'system' and level eq 'message'" });
    expect(lines).toEqual([{ object_type: "system", text: "system started" }]);
  });
  test("an unknown field is refused, naming it", async () => {
    await expect(rows({ table: "logs", fields: ["colour"] })).rejects.toThrow("colour");
  });
  test("reading sends one GET of logs and nothing else", async () => {
    await site.resetRequests();
    await rows({ table: "logs", filter: ofVm(), limit: 2 });
    const counted = await site.requests();
    expect(countOf(counted, "GET", "logs")).toBe(1);
    expect(counted.entries.filter((e: { method: string }) => e.method !== "GET")).toEqual([]);
  });
});
