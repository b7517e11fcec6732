import { isTimingField } from "./timingFields";

describe("a field is timing when its name says when something happened or how long it took", () => {
  test.each([
    "created",
    "modified",
    "started",
    "finished",
    "added",
    "issued",
    "timestamp",
    "local_time",
    "lastlogin_stamp",
    "debug_ts",
    "state_timestamp",
    "started_at",
    "last_update",
    "last_run",
    "last_attempt",
    "last_refreshed",
    "last_login",
    "uptime",
    "elapsed",
    "ms",
    "last_walk_time_ms",
    "last_fullwalk_time_ms",
  ])("%s is timing", (name) => expect(isTimingField(name)).toBe(true));

  test.each([
    "$key",
    "name",
    "status",
    "status_info",
    "last_state",
    "expires",
    "start_date",
    "end_time_of_day",
    "timeout",
    "power_cycle_timeout",
    "monitor_interval_ms",
    "attempts",
    "response_code",
    "creator",
    "stamped_by",
  ])("%s is not: a setting the client sent or a value of the platform", (name) => expect(isTimingField(name)).toBe(false));
});
