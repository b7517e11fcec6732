// Compile-time checks of the resource list, run by `npm run build` (tsc): each
// `@ts-expect-error` fails the build if the line compiles. Nothing here runs.
// (A declaration left out of the list is caught by declaredOnce.test.ts: its folder is not listed.)
import { RESOURCES, type ResourceRegistry, type ResourceToken } from "./index";

export function registryTypes(): unknown[] {
  const { Drive: _drive, ...withoutDrive } = RESOURCES;
  // @ts-expect-error the registry's type holds every listed resource
  const incomplete: ResourceRegistry = withoutDrive;
  // @ts-expect-error a token of no listed resource is refused
  const undeclared: ResourceToken = "Router";
  // @ts-expect-error the registry holds listed tokens only
  const extra: ResourceRegistry = { ...RESOURCES, Router: RESOURCES.Drive };
  return [incomplete, undeclared, extra];
}
