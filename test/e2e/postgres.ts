// A throwaway PostgreSQL server for the tests whose Pulumi state is shared: a
// cluster in a temporary directory, on a free port of 127.0.0.1, no system
// service. Debian's `postgresql` package provides the binaries (scripts/env.sh
// installs it). initdb refuses to run as root, so as root (CI) the cluster
// belongs to the `postgres` user the package creates. The server asks for a
// password, as a team's does: the URL holds it, and no output may show it.
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

export interface RunningPostgres {
  /** `postgres://pulumi:PASSWORD@127.0.0.1:PORT/state?sslmode=disable`: the engine's DIY backend URL. */
  url: string;
  /** The password in the URL (a new one per server): what no printed output may contain. */
  password: string;
  stop(): Promise<void>;
}

/** The directory of initdb and pg_ctl: Debian keeps them under /usr/lib/postgresql/<major>/bin. */
export function postgresBinDir(): string {
  const root = "/usr/lib/postgresql";
  const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((d) => fs.existsSync(path.join(root, d, "bin", "initdb"))) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest)
    throw new Error("PostgreSQL not found under /usr/lib/postgresql: run `source scripts/env.sh` (it installs Debian's postgresql)");
  return path.join(root, newest, "bin");
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL tool, as the `postgres` user when this process is root. */
function run(tool: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const [file, argv] = asPostgres(path.join(postgresBinDir(), tool), args);
  return new Promise((resolve, reject) => {
    execFile(file, argv, { cwd: os.tmpdir(), env }, (err, stdout, stderr) =>
      err ? reject(new Error(`${tool} ${args.join(" ")}: ${stderr || err.message}`)) : resolve(stdout),
    );
  });
}

/**
 * A watchdog that stops the cluster when this process is gone, however it ends: a suite whose set-up timed out
 * after starting it never reaches its afterAll, and jest's sandbox hides the process's own exit event.
 */
function stopWhenGone(dir: string, data: string) {
  const [file, argv] = asPostgres(path.join(postgresBinDir(), "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
  const stop = [file, ...argv].map((a) => `'${a}'`).join(" ");
  const watchdog = spawn("sh", ["-c", `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${stop}; rm -rf '${dir}'`], {
    detached: true,
    stdio: "ignore",
  });
  watchdog.unref();
  return watchdog;
}

/** A tool's command line, run as the `postgres` user when this process is root (initdb refuses root). */
const asPostgres = (bin: string, args: string[]): [string, string[]] =>
  process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];

export async function startPostgres(): Promise<RunningPostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vplatform-pg-"));
  if (process.getuid?.() === 0)
    fs.chownSync(dir, Number((await runId("postgres", "-u")).trim()), Number((await runId("postgres", "-g")).trim()));
  const data = path.join(dir, "data");
  const password = `pg-${randomBytes(9).toString("hex")}`;
  const passwordFile = path.join(dir, "password");
  fs.writeFileSync(passwordFile, password, { mode: 0o644 });
  await run("initdb", ["-D", data, "-U", "pulumi", `--pwfile=${passwordFile}`, "--auth=scram-sha-256", "--no-sync", "-E", "UTF8"]);
  fs.rmSync(passwordFile);
  // A free port can be taken between the probe and the start: try a few.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const settings = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c max_connections=100`;
    try {
      await run("pg_ctl", ["-D", data, "-l", path.join(dir, "server.log"), "-o", settings, "-w", "-t", "60", "start"]);
    } catch (err) {
      if (attempt < 3) continue;
      throw err;
    }
    const watchdog = stopWhenGone(dir, data);
    await run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "pulumi", "state"], { ...process.env, PGPASSWORD: password });
    return {
      url: `postgres://pulumi:${password}@127.0.0.1:${port}/state?sslmode=disable`,
      password,
      async stop() {
        await run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
        watchdog.kill();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
}

function runId(user: string, flag: "-u" | "-g"): Promise<string> {
  return new Promise((resolve, reject) => execFile("id", [flag, user], (err, stdout) => (err ? reject(err) : resolve(stdout))));
}
