import type { z } from "zod";
import type { OutputDecls } from "../../schemas/outputs";
import { type DynamicDoor, type ResourceBehaviour, type ResourceOperations, defineProvider } from "./defineProvider";
import type { Row } from "../../reconcile/platform";

/** What schema.json, the docs, the SDK types and the environment loader need of a resource. */
export interface ResourceSchema {
  token: string;
  table: string;
  description: string;
  inputs: z.ZodObject;
  /** Computed outputs besides the echoed inputs and `id`. */
  outputs: OutputDecls;
}

/**
 * What the SDK's class of a resource does besides sending its inputs (sdk/declaredResource.ts does it, in the
 * program's process; scripts/gen-sdk-types.ts types the generated class by it).
 */
export interface SdkBehaviour {
  /**
   * Where the SDK refuses a `name` given twice, before anything is sent: across the program (the platform keeps
   * the names of VMs, vnets, users, ... unique), or on one VM for hardware of one kind (the provider finds a named
   * row of a machine by its name).
   */
  refuseDuplicateNames?: "inProgram" | "onMachine";
  /**
   * Hardware: `machine` takes a VM's (branded) machineKey; given that output, it copies the VM's key and
   * power-cycle policy into its inputs and is deleted with the VM.
   */
  onMachine?: boolean;
  /** Its `machineKey` output is what hardware attaches to: the SDK remembers whose it is (for `onMachine`). */
  ownsMachine?: boolean;
  /** False for a resource that makes no row (VmPower): no create marker to find it by. */
  createMarker?: boolean;
}

/** A declared resource: everything the doors, the SDK, schema.json and the docs derive from. */
export interface Resource extends ResourceSchema {
  sdk: SdkBehaviour;
  /** `vplatform/dynamic/<dynamicFile>`: the module each dynamic resource's `__provider` requires (kept for existing state). */
  dynamicFile: string;
  operations: ResourceOperations;
  /** The dynamic door's provider object: what the dynamic entry module exports. */
  dynamic: DynamicDoor;
}

export interface ResourceDeclaration<I extends Row, O extends Row> extends ResourceBehaviour<I, O> {
  /** The resource's type name (`vplatform:index:<token>`): written here only; the list is keyed by it (provider/resources/index.ts). */
  token: string;
  /** The platform table its rows live in. */
  table: string;
  /** For schema.json and the docs. */
  description: string;
  sdk?: SdkBehaviour;
}

/** One resource, declared once: token, table, inputs, outputs, diff rules and behaviour. */
export function defineResource<I extends Row, O extends Row>(declaration: ResourceDeclaration<I, O>): Resource {
  const dynamic = defineProvider(declaration);
  return {
    token: declaration.token,
    table: declaration.table,
    description: declaration.description,
    inputs: declaration.schema as z.ZodObject,
    outputs: declaration.outputs ?? {},
    sdk: declaration.sdk ?? {},
    dynamicFile: declaration.token[0].toLowerCase() + declaration.token.slice(1),
    operations: dynamic.operations,
    dynamic,
  };
}
