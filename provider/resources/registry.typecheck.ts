// Compile-time checks of the resource list, run by `npm run build` (tsc): each
// `@ts-expect-error` fails the build if the line compiles. Nothing here runs.
import type { Row } from "../reconcile/platform";
import { type ResourceDeclaration, defineResource } from "./defineResource";
import { RESOURCES, type ResourceRegistry } from "./index";

export function registryTypes(anyDeclaration: ResourceDeclaration<Row, Row>): unknown[] {
  const { Drive: _drive, ...withoutDrive } = RESOURCES;
  // @ts-expect-error a declared resource (Drive) left out of the list does not compile
  const incomplete: ResourceRegistry = withoutDrive;
  // @ts-expect-error a token no declaration added to ResourceTokens is refused
  const undeclared = defineResource({ ...anyDeclaration, token: "Router" });
  // @ts-expect-error the list holds declared tokens only
  const extra: ResourceRegistry = { ...RESOURCES, Router: RESOURCES.Drive };
  return [incomplete, undeclared, extra];
}
