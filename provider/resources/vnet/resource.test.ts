import { ApiError } from "../../client/errors";
import { markerTag } from "../../reconcile/createMarker";
import type { PlatformApi } from "../../reconcile/platform";
import { Session } from "../../reconcile/session";
import { diffVnet, vnet } from "./resource";
import { MARKER_INPUT } from "../../schemas/hiddenInputs";

describe("the preview says an MTU change restarts a network only when the network will be running", () => {
  const olds = { name: "lab", network: "10.0.0.0/24", mtu: 1500 };
  test.each([
    ["found running, power not declared", { status: "running" }, {}, true],
    ["found running, declared running", { status: "running", powerState: "running" }, { powerState: "running" }, true],
    [
      "found running, being declared stopped (it stops; the change applies at its next start)",
      { status: "running" },
      { powerState: "stopped" },
      false,
    ],
    ["found stopped", { status: "stopped" }, {}, false],
    ["found stopped, being declared running (the start applies it)", { status: "stopped" }, { powerState: "running" }, false],
    ["never read (a state of the previous release)", {}, {}, false],
  ])("%s", (_case, recorded, declared, warns) => {
    const warnings = diffVnet({ ...olds, ...recorded }, { ...olds, ...declared, mtu: 9000 }).warnings;
    expect(warnings).toEqual(warns ? ["vnet 'lab': mtu 1500 → 9000 RESTARTS the running network: its traffic stops meanwhile"] : []);
  });
});

describe("a new vnet is sent without a look first: its name is unique, so one an interrupted run made shows as the conflict", () => {
  /** A platform that records each request; `taken` is a vnet of the same name already there (its description, marker included). */
  function platform(taken?: { $key: string; description: string }) {
    const calls: string[] = [];
    const api = {
      async list(table: string) {
        calls.push(`LIST ${table}`);
        return taken ? [{ ...taken, name: "lab", network: "10.0.0.0/24" }] : [];
      },
      async get(table: string, key: string) {
        calls.push(`GET ${table}/${key}`);
        return { $key: key, live_running: false, live_status: "stopped" };
      },
      async create(table: string) {
        calls.push(`POST ${table}`);
        if (taken) throw new ApiError(409, "POST", `/v4/${table}`, "a vnet with that name exists");
        return { $key: "7" };
      },
    } as unknown as PlatformApi;
    return { session: new Session(api), calls };
  }
  const inputs = { name: "lab", network: "10.0.0.0/24", [MARKER_INPUT]: "m-0001" };

  test("a name free on the platform: one POST, nothing read", async () => {
    const { session, calls } = platform();
    expect((await vnet.operations.create(session, inputs)).id).toBe("7");
    expect(calls).toEqual(["POST vnets"]);
  });

  test("the vnet an interrupted run made (its marker) answers the POST with a conflict and is taken over", async () => {
    const { session, calls } = platform({ $key: "5", description: markerTag("m-0001") });
    expect((await vnet.operations.create(session, inputs)).id).toBe("5");
    expect(calls).toEqual(["POST vnets", "LIST vnets", "GET vnets/5"]); // its live power decides what is left to do
  });

  test("a vnet of that name not made by this resource fails the create with the platform's conflict", async () => {
    const { session } = platform({ $key: "5", description: "someone else's" });
    await expect(vnet.operations.create(session, inputs)).rejects.toThrow("a vnet with that name exists");
  });
});
