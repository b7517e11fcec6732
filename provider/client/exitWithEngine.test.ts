import * as net from "node:net";
import { exitWithEngine } from "./exitWithEngine";

const launcherArgv = (port: number) => ["node", "/x/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js", `127.0.0.1:${port}`];

describe("the provider process exits when its engine goes away", () => {
  test("while the engine answers it stays; once the engine is gone it exits", async () => {
    const engine = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => engine.listen(0, "127.0.0.1", r));
    const port = (engine.address() as net.AddressInfo).port;
    const exits: number[] = [];
    const watch = exitWithEngine(launcherArgv(port), { everyMs: 20, exit: (code) => exits.push(code) })!;
    await new Promise((r) => setTimeout(r, 150));
    expect(exits).toEqual([]);
    await new Promise<void>((r) => engine.close(() => r()));
    for (let i = 0; i < 100 && exits.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    watch.stop();
    expect(exits).toEqual([1]);
  });

  test("the plugin door's process (dist/plugin/main.js <engine address>) watches its engine too", async () => {
    const engine = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => engine.listen(0, "127.0.0.1", r));
    const port = (engine.address() as net.AddressInfo).port;
    const exits: number[] = [];
    const watch = exitWithEngine(["node", "/x/dist/plugin/main.js", `127.0.0.1:${port}`], {
      everyMs: 20,
      exit: (c) => exits.push(c),
    });
    expect(watch).toBeDefined();
    await new Promise<void>((r) => engine.close(() => r()));
    for (let i = 0; i < 100 && exits.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    watch?.stop();
    expect(exits).toEqual([1]);
  });

  test("in-process use (no launcher, no engine address) watches nothing", () => {
    expect(exitWithEngine(["node", "/x/jest.js", "--runInBand"])).toBeUndefined();
  });
});
