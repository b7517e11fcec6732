/** A service's table names as constants: `tableNames("vms", "machines").vms` is "vms", and a misspelt name does not compile. */
export function tableNames<const Names extends readonly string[]>(...names: Names): { readonly [Name in Names[number]]: Name } {
  return Object.fromEntries(names.map((name) => [name, name])) as { readonly [Name in Names[number]]: Name };
}
