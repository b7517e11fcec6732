import { createHash, randomBytes } from "node:crypto";
import { type Row, str } from "./platform";
import { quoteLiteral } from "../client/query-string";
import { fieldMeta, type Shape } from "../schemas/common";
import { MARKER_INPUT } from "../schemas/hiddenInputs";

/**
 * A create marks the row it makes so that it can find it again without
 * trusting the answer (lost, late, reset after sending). The marker is a tag
 * stored in a field the platform keeps: the row's `description` (VMs, clones,
 * snapshots, vnets, drives, NICs), or for a device, which has no description,
 * its `name` when the program declares none.
 *
 * The SDK derives the marker from the resource's identity (project, stack,
 * type, logical name) and passes it as the hidden input `__marker`; the plugin
 * derives it from the URN when a program passes none. Either way it is the
 * same in every run: a later `up` finds a row an interrupted run made.
 * Without one (a direct call), a random marker still recovers within the run.
 */

/** The marker of a resource identity (stable across runs, different for every resource of a stack). */
export const stableMarker = (identity: string): string => createHash("sha256").update(identity).digest("hex").slice(0, 16);

const TAG = /\s*\[vplatform:([0-9a-z-]{6,64})\]\s*$/;

export function markerOf(inputs: Row): string {
  const given = inputs[MARKER_INPUT];
  return typeof given === "string" && /^[0-9a-z-]{6,64}$/.test(given) ? given : randomBytes(8).toString("hex");
}

export const markerTag = (marker: string): string => `[vplatform:${marker}]`;

/**
 * The inputs a create runs with: their marker refined by the values of the inputs whose change replaces the
 * resource (`onChange: "replace"`). A replacement shares its predecessor's identity, and one created before the
 * predecessor is deleted must never find and take over that still-live row (an API key's rotation would revoke
 * the old key before the new one exists); a create interrupted and run again has the same values, so it still
 * finds the row it made. The recorded `__marker` stays the identity's (the doors put it back in the outputs).
 */
export function withGenerationMarker(inputs: Row, shape: Shape): Row {
  const identity = inputs[MARKER_INPUT];
  if (typeof identity !== "string") return inputs;
  const replacing = Object.keys(shape)
    .filter((field) => fieldMeta(shape[field])?.onChange === "replace" && inputs[field] !== undefined)
    .sort();
  if (replacing.length === 0) return inputs;
  const generation = JSON.stringify(replacing.map((field) => [field, inputs[field]]));
  return { ...inputs, [MARKER_INPUT]: stableMarker(`${identity}\n${generation}`) };
}

/** The description to store: the declared one with the tag appended. */
export function taggedDescription(description: unknown, marker: string): string {
  const text = untagged(description);
  return text ? `${text} ${markerTag(marker)}` : markerTag(marker);
}

/** The description as declared: the tag removed (reads and adoption compare this). */
export function untagged(description: unknown): string {
  return str(description).replace(TAG, "");
}

/** A row with its description's tag removed, for comparing with the declaration. */
export function withoutTag<R extends Row>(row: R): R {
  return typeof row.description === "string" ? { ...row, description: untagged(row.description) } : row;
}

export const hasTag = (row: Row, marker: string): boolean => str(row.description).includes(markerTag(marker));

/** Whether a create of this provider (any program's) made the row: its description carries a marker tag. */
export const hasAnyTag = (row: Row): boolean => TAG.test(str(row.description));

/** The filter term finding rows tagged with `marker`. */
export const taggedFilter = (marker: string): string => `description ct ${quoteLiteral(markerTag(marker))}`;

/** The filter term finding every row a create of this provider marked (any stack's). */
export const ANY_MARKER_FILTER = `description ct ${quoteLiteral("[vplatform:")}`;
