import { liveMembers, parseMember, planMembers } from "./groupMembers";

const row = (key: string, member: string) => ({ key, member });

describe("a membership row names a user or a group", () => {
  test.each([
    ["users/5", { table: "users", key: "5" }],
    ["/v4/groups/12", { table: "groups", key: "12" }],
    ["vms/5", undefined],
    ["users/x", undefined],
    [5, undefined],
  ])("%p", (value, member) => expect(parseMember(value)).toEqual(member));
});

describe("the plan makes each declared list exactly its members", () => {
  const rows = [row("1", "users/5"), row("2", "/v4/users/7"), row("3", "groups/2"), row("4", "users/5")];
  test("members read back per list, sorted, each once", () => {
    expect(liveMembers(rows)).toEqual({ users: ["5", "7"], memberGroups: ["2"] });
  });
  test("missing members are added, undeclared ones and a second row of one member removed", () => {
    expect(planMembers(rows, { users: ["5", "9"] })).toEqual({ add: [{ table: "users", key: "9" }], remove: ["2", "4"] });
  });
  test("a list left out is not managed", () => {
    expect(planMembers(rows, { memberGroups: [] })).toEqual({ add: [], remove: ["3"] });
    expect(planMembers(rows, {})).toEqual({ add: [], remove: [] });
  });
  test("the declared members, held: nothing to do", () => {
    expect(planMembers([row("1", "users/5"), row("3", "groups/2")], { users: ["5"], memberGroups: ["2"] })).toEqual({
      add: [],
      remove: [],
    });
  });
});
