import * as pulumi from "@pulumi/pulumi";
import type { Session } from "../provider/reconcile/session";
import { LOOKUP_FUNCTIONS, type LookupName, runLookup } from "../provider/resources/lookupFunctions";
import { dynamicSessions } from "../provider/resources/framework/sessionRegistry";
import type { Computed, DeepInput } from "./types";

/** The look-ups' user of the session registry: a program process serves no resource type of its own. */
const PROGRAM_LOOKUPS = "program look-ups";

/**
 * Look-ups run in the program process (not the provider process), so they use the session of the program's
 * stack config (raw values: no secret warnings, nothing captured; the usual env fallbacks), kept in the
 * registry by configuration: a program run again with other settings in one process gets a session of its own.
 */
function programSession(): Session {
  dynamicSessions.configure(PROGRAM_LOOKUPS, (key) => pulumi.runtime.getConfig(key));
  return dynamicSessions.sessionOf(PROGRAM_LOOKUPS);
}

/**
 * The look-up `fn` (provider/resources/lookupFunctions declares each, its arguments and its result), typed as
 * generated from that declaration: the arguments are checked before any request, each problem named by its argument.
 */
export function lookup<A, R>(fn: LookupName): (args: A) => Promise<Computed<R>> {
  const declared = LOOKUP_FUNCTIONS.find((f) => f.name === fn)!;
  return async (args) => (await runLookup(declared, programSession(), args)) as Computed<R>;
}

/** The same look-up taking outputs of other resources: it runs once they are known. */
export const outputOf =
  <A, R>(run: (a: A) => Promise<R>) =>
  (args: DeepInput<A>): pulumi.Output<R> =>
    pulumi.output(args).apply((a) => run(a as A)) as pulumi.Output<R>;
