/** A stack's `labs` output in the class-lab contract's shape (docs: /work/prompts/labcontract.md): what `up` leaves. */
export function labsOutput(copies = 3, opts: { secrets?: "clear" | "masked" } = {}): Record<string, unknown> {
  const pad = (n: number) => String(n).padStart(String(copies).length, "0");
  return {
    course: {
      copies: Object.fromEntries(
        Array.from({ length: copies }, (_, i) => {
          const n = i + 1;
          const name = `course-${pad(n)}`;
          const vm = (t: string, k: number) => ({
            id: 100 + 10 * n + k,
            machineKey: String(200 + 10 * n + k),
            name: `${name}-${t}`,
            powerState: "running",
            snapshot: String(300 + 10 * n + k),
          });
          return [
            pad(n),
            {
              number: n,
              name,
              vnet: { id: String(n), name, network: `10.100.${n - 1}.0/24` },
              user: { id: String(10 + n), name },
              apiKey: { id: String(20 + n), secret: opts.secrets === "masked" ? "[secret]" : `vpk_${n}_s3cret` },
              vms: { web: vm("web", 1), db: vm("db", 2) },
            },
          ];
        }),
      ),
    },
  };
}
