/** `vplatform:index:<token>` → the token (undefined for other packages or modules). */
export function resourceName(pkg: string, typeToken: string): string | undefined {
  const [p, mod, name] = typeToken.split(":");
  return p === pkg && mod === "index" ? name : undefined;
}

/** The type token of a URN: `urn:pulumi:stack::project::parent$vplatform:index:Vnet::name` → `vplatform:index:Vnet`. */
export function typeOfUrn(urn: string): string {
  const qualifiedType = urn.split("::")[2] ?? "";
  return qualifiedType.split("$").pop() ?? "";
}
