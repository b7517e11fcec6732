/**
 * The emulator's own hooks under `/_emulator`, administrators only (the scope's authentication and
 * admin check apply to these routes alone): the request counter, the fault switch, chaos controls and
 * the random seed, the request recorder, named snapshots, the manual clock and drive content markers. See README.md.
 */
import type { FastifyInstance } from "fastify";
import type { ChaosControls } from "../../admin/chaos";
import type { FaultInjector } from "../../admin/faults";
import type { SeededRandom } from "../../admin/random";
import type { RequestRecorder } from "../../admin/recorder";
import type { RequestCounter } from "../../admin/requestCounter";
import type { SessionStore } from "../../services/identity/sessions";
import { ManualClock, type TransitionClock } from "../../engine/clock";
import type { EmulatorContext } from "../../engine/context";
import { hasRole } from "../../services/identity/access";
import { ApiError, validationError } from "../../model/errors";
import type { SnapshotInfo } from "../../persistence/snapshots";
import { sendJson } from "../reply";
import { authenticationPlugin, requireCaller } from "./authentication";
import { COMPUTE } from "../../model/names/compute";

/** Saving and loading named snapshots of the running emulator (the entry point keeps its own access across a load). */
export interface SnapshotControls {
  list(): SnapshotInfo[];
  save(name: string): SnapshotInfo;
  load(name: string): SnapshotInfo;
}

export interface AdminControls {
  ctx: EmulatorContext;
  sessions: SessionStore;
  counter: RequestCounter;
  faults: FaultInjector;
  chaos: ChaosControls;
  random: SeededRandom;
  recorder: RequestRecorder;
  snapshots: SnapshotControls;
  clock: TransitionClock;
}

type Body = Record<string, unknown> | undefined;

function stringField(body: Body, name: string): string {
  const value = body?.[name];
  if (typeof value !== "string" || value === "") throw validationError(name, "is required (a string)");
  return value;
}

function manual(clock: TransitionClock): ManualClock {
  if (clock instanceof ManualClock) return clock;
  throw new ApiError(409, "the clock runs in real time: start the emulator with clock: 'manual' (--clock manual) to advance it");
}

export async function adminPlugin(app: FastifyInstance, controls: AdminControls): Promise<void> {
  const { counter, faults, chaos, random, recorder, snapshots, clock } = controls;
  await app.register(authenticationPlugin, controls);
  app.addHook("onRequest", async (request) => {
    if (!hasRole(requireCaller(request), "admin")) throw new ApiError(403, "the emulator hooks need administrator credentials");
  });

  app.get("/requests", async (request, reply) => sendJson(request, reply, 200, counter.snapshot()));
  app.delete("/requests", async (request, reply) => {
    counter.reset();
    return sendJson(request, reply, 200, { total: 0 });
  });

  app.post("/faults", async (request, reply) => sendJson(request, reply, 201, { id: faults.add(request.body).id }));
  app.get("/faults", async (request, reply) => sendJson(request, reply, 200, faults.list()));
  app.delete("/faults", async (request, reply) => {
    faults.clear();
    return sendJson(request, reply, 200, {});
  });

  app.post("/chaos", async (request, reply) => sendJson(request, reply, 201, chaos.add(request.body)));
  app.get("/chaos", async (request, reply) => sendJson(request, reply, 200, { seed: random.seed, rules: chaos.list() }));
  app.delete("/chaos", async (request, reply) => {
    chaos.clear();
    return sendJson(request, reply, 200, {});
  });
  app.delete("/chaos/:id", async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!chaos.clear(Number(id))) throw new ApiError(404, `no chaos rule ${id} (list them with GET /_emulator/chaos)`);
    return sendJson(request, reply, 200, {});
  });
  app.put("/seed", async (request, reply) => {
    const seed = (request.body as Body)?.seed;
    if (typeof seed !== "number" || !Number.isSafeInteger(seed)) throw validationError("seed", "must be an integer");
    random.reseed(seed);
    return sendJson(request, reply, 200, { seed: random.seed });
  });

  app.get("/recorder", async (request, reply) => sendJson(request, reply, 200, recorder.status()));
  app.put("/recorder", async (request, reply) => {
    recorder.start(stringField(request.body as Body, "file"));
    return sendJson(request, reply, 200, recorder.status());
  });
  app.delete("/recorder", async (request, reply) => {
    recorder.stop();
    return sendJson(request, reply, 200, recorder.status());
  });

  app.get("/snapshots", async (request, reply) => sendJson(request, reply, 200, snapshots.list()));
  app.post("/snapshots", async (request, reply) => {
    return sendJson(request, reply, 201, snapshots.save(stringField(request.body as Body, "name")));
  });
  app.post("/snapshots/:name/load", async (request, reply) => {
    const { name } = request.params as { name: string };
    return sendJson(request, reply, 200, snapshots.load(name));
  });

  // A drive's content marker (hardware.ts `content`): a test writes it as a guest would and reads it after a restore.
  const driveOf = (request: { params: unknown }) => {
    const { key } = request.params as { key: string };
    const drive = controls.ctx.get(COMPUTE.machine_drives, key);
    if (!drive) throw new ApiError(404, `drive '${key}' not found`);
    return drive;
  };
  app.get("/drives/:key/content", async (request, reply) => sendJson(request, reply, 200, { content: driveOf(request).content ?? "" }));
  app.put("/drives/:key/content", async (request, reply) => {
    const content = (request.body as Body)?.content;
    if (typeof content !== "string") throw validationError("content", "is required (a string)");
    controls.ctx.update(COMPUTE.machine_drives, driveOf(request).$key, { content });
    return sendJson(request, reply, 200, { content });
  });

  app.get("/clock", async (request, reply) => {
    const status = clock instanceof ManualClock ? { elapsedMs: clock.elapsedMs, dueInMs: clock.dueIn() } : {};
    return sendJson(request, reply, 200, { mode: clock.mode, pending: clock.pending(), ...status });
  });
  app.post("/clock/advance", async (request, reply) => {
    const ms = (request.body as Body)?.ms;
    if (ms !== undefined && (typeof ms !== "number" || !Number.isInteger(ms) || ms < 0)) {
      throw validationError("ms", "must be a non-negative integer");
    }
    const ticking = manual(clock);
    const ran = ticking.advance(ms);
    return sendJson(request, reply, 200, { ran, pending: ticking.pending(), elapsedMs: ticking.elapsedMs });
  });
}
