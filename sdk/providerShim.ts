import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { stableMarker } from "../provider/reconcile/createMarker";
import { shapeOf } from "../provider/schemas/common";
import { secretInputs, secretProperties } from "../provider/schemas/secretFields";
import type { OutputDecls } from "../provider/schemas/outputs";
import { MARKER_INPUT } from "../provider/schemas/hiddenInputs";

/**
 * The provider object Pulumi serializes into every resource's `__provider`
 * (inputs and outputs alike, and the engine rewrites the state file after
 * every step). From an installed package it is the resource's entry module
 * (`provider/dynamic/<file>`), which Pulumi records as a 70-byte
 * `require("vplatform/dynamic/<file>")`: the state of a 50-VM lab is a third of
 * what closures make it, and each of its checkpoints as much faster.
 * Elsewhere (a linked checkout, whose files are not under node_modules, would
 * be serialized by value) it is a closure shim of 2.2 KB.
 * Either way `__provider` is small, stable (code changes do not show as
 * diffs) and free of credentials; destroy and refresh run the installed code.
 */
export function dynamicProvider(file: string): pulumi.dynamic.ResourceProvider {
  const entry = require.resolve(`../provider/dynamic/${file}`);
  // Pulumi writes a module as a require() only when its path, relative to the program's working directory,
  // goes through node_modules: not so for a program inside the package (`main: node_modules/vplatform/dist/env/main.js`).
  // A segment of it, as Pulumi reads it: from a program's own directory the path starts with node_modules.
  return path.relative(process.cwd(), entry).split(/[\\/]/).includes("node_modules") ? require(entry) : closureShim(file);
}

/**
 * Each method loads the real implementation from the installed package at
 * call time. Only `file` (and `impl`) are captured by the closures.
 * `vplatform/provider/*` is an entry of the package's exports map (Node
 * refuses paths it does not list).
 */
function closureShim(file: string): pulumi.dynamic.ResourceProvider {
  // `vplatform/provider/<file>` is the resource's dynamic entry module (as `vplatform/dynamic/<file>`).
  const impl = (): pulumi.dynamic.ResourceProvider => require(`vplatform/provider/${file}`);
  return {
    configure: (req) => impl().configure!(req),
    check: (olds, news) => impl().check!(olds, news),
    diff: (id, olds, news) => impl().diff!(id, olds, news),
    create: (inputs) => impl().create(inputs),
    read: (id, props) => impl().read!(id, props),
    update: (id, olds, news) => impl().update!(id, olds, news),
    delete: (id, props) => impl().delete!(id, props),
  };
}

/**
 * The props of a resource: every output name present (undefined = computed) so
 * the SDK exposes it, and secret inputs wrapped so the state holds them encrypted.
 */
export function seed(schema: z.ZodType, args: Record<string, unknown>, computed: OutputDecls = {}): Record<string, unknown> {
  const names = [...Object.keys(shapeOf(schema)), ...Object.keys(computed)];
  const props: Record<string, unknown> = { ...Object.fromEntries(names.map((n) => [n, undefined])), ...args };
  for (const name of secretInputs(schema)) if (props[name] !== undefined) props[name] = pulumi.secret(props[name]);
  return props;
}

/**
 * The outputs echoing secret inputs, and the outputs declared secret, are secret in state (a dynamic provider
 * cannot return secrets itself).
 */
export function withSecretOutputs(
  schema: z.ZodType,
  outputs: OutputDecls,
  opts: pulumi.CustomResourceOptions = {},
): pulumi.CustomResourceOptions {
  const secrets = secretProperties(schema, outputs);
  return secrets.length ? { ...opts, additionalSecretOutputs: [...(opts.additionalSecretOutputs ?? []), ...secrets] } : opts;
}

/**
 * The hidden input `__marker`: the same for a resource in every run of its
 * stack (project, stack, type, logical name), so a create whose answer was
 * lost is found again by a later `up` (see provider/reconcile/createMarker.ts).
 */
export function withMarker(type: string, name: string, props: Record<string, unknown>): Record<string, unknown> {
  const identity = [pulumi.getProject(), pulumi.getStack(), type, name].join("\u0000");
  return { ...props, [MARKER_INPUT]: stableMarker(identity) };
}
