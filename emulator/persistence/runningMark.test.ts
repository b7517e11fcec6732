import { heldMessage, holderOf } from "./runningMark";

describe("the running mark names the emulator holding a data directory while its process lives", () => {
  const alive = (pid: number) => pid === 4242;

  test("a mark of a live process is its holder", () => {
    expect(holderOf({ pid: 4242, url: "https://127.0.0.1:8443" }, alive)).toEqual({ pid: 4242, url: "https://127.0.0.1:8443" });
  });

  test("a mark of a process that is gone (killed) is stale: nobody holds the directory", () => {
    expect(holderOf({ pid: 999, url: "https://127.0.0.1:8443" }, alive)).toBeUndefined();
  });

  test("no mark, or one that is not a mark, names nobody", () => {
    for (const mark of [undefined, null, {}, { pid: "4242" }, { pid: 42.5 }, []]) expect(holderOf(mark, () => true)).toBeUndefined();
  });
});

describe("the refusal says which process holds the directory and what to do", () => {
  test("it names the pid and URL, how to stop it, and the way through the running emulator", () => {
    const message = heldMessage("./state", { pid: 4242, url: "https://127.0.0.1:8443" }, "load snapshot 'base' into it", "POST …/load");
    expect(message).toBe(
      "./state is in use by the emulator running with pid 4242 (https://127.0.0.1:8443); cannot load snapshot 'base' into it: " +
        "it holds the state in memory and would overwrite the change. Stop it first (kill 4242) and run this again, or POST …/load. " +
        "(If pid 4242 is no emulator any more, delete state/running.json.)",
    );
  });
});
