import { Session } from "./session";
import {
  forgetOwner,
  forgetVm,
  knownOwner,
  knownOwnerOfVm,
  knownVmRef,
  madeByThisProcess,
  rememberMadeHere,
  rememberVm,
  rememberVmRef,
} from "./machineOwners";
import { vmAction } from "./power";

/** A platform that is never asked anything: what is learned of it is only remembered. */
const platform = (): Session => {
  const never = async (): Promise<never> => {
    throw new Error("no request expected");
  };
  return new Session({ get: never, list: never, create: never, update: never, remove: never, action: never });
};
const stopped = { running: false, status: "stopped" };

describe("what the process knows of a machine is kept per platform", () => {
  test("a VM remembered on one platform is known there, by machine key and by VM key", () => {
    const site = platform();
    rememberVm(site, { vmKey: "7", machineKey: "12", name: "web" }, stopped, true);
    expect(knownOwner(site, "12")?.ref.name).toBe("web");
    expect(knownOwnerOfVm(site, "7")?.ref.machineKey).toBe("12");
  });

  test("another platform with the same machine key knows nothing of it (two sites number machines independently)", () => {
    const siteA = platform();
    const siteB = platform();
    rememberVm(siteA, { vmKey: "7", machineKey: "12", name: "web" }, stopped, true);
    rememberMadeHere(siteA, "12");
    expect(knownOwner(siteB, "12")).toBeUndefined();
    expect(knownOwnerOfVm(siteB, "7")).toBeUndefined();
    expect(madeByThisProcess(siteB, "12")).toBe(false);
    expect(madeByThisProcess(siteA, "12")).toBe(true);
  });

  test("a power action forgets the machine's status on its own platform only", () => {
    const siteA = platform();
    const siteB = platform();
    rememberVm(siteA, { vmKey: "7", machineKey: "12", name: "a" }, stopped, true);
    rememberVm(siteB, { vmKey: "7", machineKey: "12", name: "b" }, stopped, true);
    forgetOwner(siteA, "12");
    expect(knownOwner(siteA, "12")).toBeUndefined();
    expect(knownOwner(siteB, "12")?.ref.name).toBe("b");
  });
});

describe("a VM's keys and name are looked up once (a template cloned for a whole class, a VM snapshotted after its power-on)", () => {
  const web = { vmKey: "7", machineKey: "12", name: "web" };

  test("they outlive a power action, which forgets only the machine's status", async () => {
    const site = platform();
    rememberVm(site, web, stopped, true);
    await vmAction(site, web, "poweron", {}).catch(() => undefined); // the platform here answers nothing
    expect(knownOwner(site, "12")).toBeUndefined();
    expect(knownVmRef(site, "7")).toEqual(web);
  });

  test("a VM read for its keys alone is known by them, on its own platform only", () => {
    const siteA = platform();
    const siteB = platform();
    rememberVmRef(siteA, web);
    expect(knownVmRef(siteA, "7")).toEqual(web);
    expect(knownOwner(siteA, "12")).toBeUndefined(); // its power was not read
    expect(knownVmRef(siteB, "7")).toBeUndefined();
  });

  test("a change or deletion of the VM forgets them, and so does a restore (which may give it another machine)", async () => {
    const changed = platform();
    rememberVm(changed, web, stopped, true);
    forgetVm(changed, web);
    expect(knownVmRef(changed, "7")).toBeUndefined();
    expect(knownOwnerOfVm(changed, "7")).toBeUndefined();
    const restored = platform();
    rememberVmRef(restored, web);
    await vmAction(restored, web, "restore", { snapshot_id: "9" }).catch(() => undefined);
    expect(knownVmRef(restored, "7")).toBeUndefined();
  });
});
