import { CreatedRow, PlatformApi, Row, errorStatus, errorText } from "./platform";
import { Clock, realClock } from "./waitFor";

/** No HTTP answer (drop, timeout: no status, or 0 from the client) or a 5xx/408: the request may or may not have taken effect. */
export function isAmbiguousFailure(err: unknown): boolean {
  const status = errorStatus(err);
  return status === undefined || status === 0 || status >= 500 || status === 408;
}

/**
 * POSTs a row once. If the answer is lost, the row may exist anyway: look it
 * up (by the caller's identity: name, machine + name, ...) and use it rather
 * than POSTing again, so a retry never makes a duplicate.
 */
export async function insertRow(
  api: PlatformApi,
  table: string,
  body: Row,
  findLanded: () => Promise<Row | undefined>,
  clock: Clock = realClock,
): Promise<CreatedRow> {
  try {
    return await api.create(table, body);
  } catch (err) {
    if (!isAmbiguousFailure(err)) throw err;
    const landed = await findLanded();
    if (!landed) throw err;
    clock.log(`vplatform: creating ${table} row failed (${errorText(err)}) but the row exists (key ${String(landed.$key)}); using it`);
    return { $key: String(landed.$key), response: landed };
  }
}
