/**
 * Fields that say when something happened or how long it took: a replay runs at another time on another
 * emulator, so these differ by nature and are no difference of behaviour. Decided by name alone, at any
 * depth of an answer (a `fields` alias such as `machine#status#started as started` keeps the name).
 * Settings that hold a time (a schedule's `start_date`, a key's `expires`, `timeout`, `monitor_interval_ms`)
 * are what the client sent, so they still count.
 */
const TIMING_FIELD = new RegExp(
  [
    // when a row or an event came to be
    "^(created|modified|started|finished|added|issued|timestamp|local_time)$",
    // lastlogin_stamp, debug_ts, state_timestamp, started_at
    "(stamp|_ts|_at)$",
    // when something last happened (not last_state: a state)
    "^last_(update|run|attempt|refreshed|login)$",
    // how long something took
    "^(uptime|elapsed|duration|ms)$|_(time_ms|elapsed|duration)$",
  ].join("|"),
);

export const isTimingField = (name: string): boolean => TIMING_FIELD.test(name);
