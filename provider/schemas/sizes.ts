/**
 * Byte sizes as people read them. The plans (text and Markdown), the provider's warnings and the drive's
 * size rule spell them one way, so `20` bytes is never shown as a bare `20` that reads like 20 GiB.
 */
export const MIB = 2 ** 20;
export const GIB = 2 ** 30;

const DECIMAL = ["B", "KB", "MB", "GB", "TB"];
const BINARY = ["B", "KiB", "MiB", "GiB", "TiB"];
const scaled = (bytes: number, base: number, units: string[]): string => {
  const power = Math.min(units.length - 1, Math.max(0, Math.floor(Math.log(bytes) / Math.log(base))));
  return `${Number((bytes / base ** power).toFixed(2))} ${units[power]}`;
};

/** Short, in binary units: `20 GiB`, `512 MiB`, `18.63 GiB` (20 GB), `20 B`. */
export const bytesText = (bytes: number): string => scaled(bytes, 1024, BINARY);

/** The bytes with both units: `20000000000 (20 GB = 18.63 GiB)`, so a `20GB` meant as `20GiB` is noticed; `512 B` below 1000. */
export function withUnits(bytes: number): string {
  return bytes < 1000 ? `${bytes} B` : `${bytes} (${scaled(bytes, 1000, DECIMAL)} = ${bytesText(bytes)})`;
}
