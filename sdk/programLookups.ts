import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import type { Session } from "../provider/reconcile/session";
import { LOOKUP_FUNCTIONS, type LookupName, runLookup } from "../provider/resources/lookupFunctions";
import { dynamicSessions } from "../provider/resources/framework/sessionRegistry";
import type { LookupOptions } from "./lookupOptions";
import { ProgramError } from "./programError";
import type { SiteSettings } from "./provider";
import type { Computed, DeepInput } from "./types";

/**
 * Look-ups run in the program process (not the provider process), so they use a session of their own, kept in the
 * registry by configuration: of the program's stack config (raw values: no secret warnings, nothing captured; the
 * usual env fallbacks), or of the site given as `provider`. A program run again with other settings in one process
 * gets a session of its own.
 */
function programSession(site?: SiteSettings): Session {
  // One user per site's whole settings (two keys on one endpoint are two sites); hashed, so no secret is in a name.
  const user = site
    ? `program look-ups on site ${createHash("sha256").update(JSON.stringify(site)).digest("hex").slice(0, 16)}`
    : "program look-ups";
  dynamicSessions.configure(user, site ? (key) => site[key] : (key) => pulumi.runtime.getConfig(key));
  return dynamicSessions.sessionOf(user);
}

/**
 * The look-up `fn` (provider/resources/lookupFunctions declares each, its arguments and its result), typed as
 * generated from that declaration: the arguments are checked before any request, each problem named by its argument.
 */
export function lookup<A, R>(fn: LookupName): (args: A) => Promise<Computed<R>> {
  return (args) => lookupOn<A, R>(fn, undefined, args);
}

/** The look-up `fn` on the site `settings` (a Provider's), or on the stack config's without. */
function lookupOn<A, R>(fn: LookupName, settings: SiteSettings | undefined, args: A): Promise<Computed<R>> {
  const declared = LOOKUP_FUNCTIONS.find((f) => f.name === fn)!;
  // Its message names the function and the argument: the program fails with it alone.
  return runLookup(declared, programSession(settings), args).catch((err: unknown) => {
    throw new ProgramError(err instanceof Error ? err.message : String(err));
  }) as Promise<Computed<R>>;
}

/**
 * The look-up `fn` taking outputs of other resources: it runs once they are known, on the site of
 * `opts.provider` when given (once its settings are known too: they may be outputs of the same program).
 */
export const outputOf =
  <A, R>(fn: LookupName) =>
  (args: DeepInput<A>, opts?: LookupOptions): pulumi.Output<Computed<R>> => {
    // The site's secret settings (its API key) only reach the platform: the answer is secret only when the arguments are.
    const site = opts?.provider ? pulumi.unsecret(opts.provider.settings) : undefined;
    return pulumi.all([pulumi.output(args), site]).apply(([a, settings]) => lookupOn<A, R>(fn, settings, a as A)) as pulumi.Output<
      Computed<R>
    >;
  };
