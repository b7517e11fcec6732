// Compile-time checks of the environment's decision table, run by `npm run build` (tsc): each `@ts-expect-error`
// fails the build if the line compiles. Nothing here runs.
import type { ResourceToken } from "../provider/resources";
import { ENVIRONMENT_KINDS, type EnvironmentKinds, type EnvironmentKindsOf } from "./environment-kinds";

export function environmentKindsTypes(): unknown[] {
  const { Drive: _drive, ...withoutDrive } = ENVIRONMENT_KINDS;
  // @ts-expect-error every resource of the registry has its entry: a new resource does not compile until it is decided
  const undecided: EnvironmentKindsOf<ResourceToken> = withoutDrive;
  // @ts-expect-error an entry is a list of its own, or why the file has none
  const neither: EnvironmentKindsOf<ResourceToken> = { ...ENVIRONMENT_KINDS, Drive: {} };
  // @ts-expect-error a file read with other kinds still has every real one (a test adds its resource beside them)
  const narrower: EnvironmentKinds = withoutDrive;
  // A test's resource beside the real ones: one entry, as a real resource's.
  const withGizmo: EnvironmentKinds = { ...ENVIRONMENT_KINDS, Gizmo: { list: "gizmos" } };
  return [undecided, neither, narrower, withGizmo];
}
