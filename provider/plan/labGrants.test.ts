import { COPY_USER_ROLE, copyGrants, labAccessProblems, VNET_RIGHTS, vmRights } from "./labGrants";

describe("a copy's user gets exactly the grants of its copy", () => {
  test("one grant per VM of the copy (list, read, modify) and one on its vnet (list, read), named after the copy", () => {
    expect(copyGrants("course-01", ["web", "db"], undefined)).toEqual([
      {
        name: "course-01-access-vm-web",
        on: { vm: "web" },
        rights: { list: true, read: true, create: false, modify: true, delete: false },
      },
      { name: "course-01-access-vm-db", on: { vm: "db" }, rights: { list: true, read: true, create: false, modify: true, delete: false } },
      {
        name: "course-01-access-vnet",
        on: { vnet: true },
        rights: { list: true, read: true, create: false, modify: false, delete: false },
      },
    ]);
  });
  test("hardware read-only by default: no create on the VMs; `change` adds create (their drives, NICs, snapshots)", () => {
    expect(vmRights({}).create).toBe(false);
    expect(vmRights({ hardware: "read" }).create).toBe(false);
    expect(vmRights({ hardware: "change" })).toEqual({ list: true, read: true, create: true, modify: true, delete: false });
  });
  test("no grant deletes anything, and the vnet is never changed", () => {
    for (const g of copyGrants("c", ["a"], { hardware: "change" })) expect(g.rights.delete).toBe(false);
    expect(VNET_RIGHTS).toMatchObject({ create: false, modify: false, delete: false });
  });
  test("two copies share no grant name", () => {
    const names = ["c-01", "c-02"].flatMap((c) => copyGrants(c, ["vnet", "web"], undefined).map((g) => g.name));
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("a role that reaches beyond the copy is refused unless the file says it is meant", () => {
  test("no user, no role, or role none: fine", () => {
    expect(labAccessProblems(undefined, undefined)).toEqual([]);
    expect(labAccessProblems({}, undefined)).toEqual([]);
    expect(labAccessProblems({ role: COPY_USER_ROLE }, { hardware: "change" })).toEqual([]);
  });
  test.each(["admin", "vmoperator", "readonly"])("role %s: refused naming user.role and what it reaches", (role) => {
    const [problem, ...rest] = labAccessProblems({ role }, undefined);
    expect(rest).toEqual([]);
    expect(problem.field).toBe("user.role");
    expect(problem.message).toMatch(new RegExp(`role '${role}' reaches beyond the copy: .+beyondCopy: true`));
  });
  test("role with beyondCopy: true is meant: accepted", () => {
    expect(labAccessProblems({ role: "vmoperator", beyondCopy: true }, undefined)).toEqual([]);
  });
  test("beyondCopy without a role beyond the copy says nothing true: refused", () => {
    expect(labAccessProblems({ beyondCopy: true }, undefined).map((p) => p.field)).toEqual(["user.beyondCopy"]);
  });
  test("an unknown hardware access is refused naming access.hardware", () => {
    expect(labAccessProblems(undefined, { hardware: "all" as never }).map((p) => p.field)).toEqual(["access.hardware"]);
  });
});
