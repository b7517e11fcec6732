// No test leaves a PostgreSQL server behind, even one whose set-up timed out after starting it (as
// env-cli.test.ts's did under jest's default 5 s on a loaded machine): the process that started a
// cluster stops it when it exits.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { startPostgres } from "./postgres";

const root = path.join(__dirname, "..", "..");

/** Whether something accepts connections on 127.0.0.1:port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

describe("a PostgreSQL server started by a test", () => {
  test("is stopped when the suite's set-up times out after starting it", async () => {
    // How long a start takes here, so the fixture's set-up times out after it, not before.
    const started = Date.now();
    await (await startPostgres()).stop();
    const startMs = Date.now() - started;

    const urlFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pg-cleanup-")), "url");
    const run = spawnSync(
      process.execPath,
      [
        "--experimental-vm-modules",
        "node_modules/jest/bin/jest.js",
        "--selectProjects",
        "e2e",
        "--testMatch",
        "**/fixtures/setupTimeout/*.fixture.ts",
        "-i",
      ],
      { cwd: root, env: { ...process.env, VPLATFORM_PG_URL_FILE: urlFile, VPLATFORM_PG_START_MS: String(startMs) }, encoding: "utf8" },
    );
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/Exceeded timeout/);
    const port = Number(new URL(fs.readFileSync(urlFile, "utf8")).port);
    // Stopped within seconds of the suite's process ending (the watchdog looks every second).
    const deadline = Date.now() + 15_000;
    while ((await listening(port)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await listening(port)).toBe(false);
  }, 120_000);
});
