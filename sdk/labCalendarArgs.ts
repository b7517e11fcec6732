/**
 * A lab's class hours and the end of its term, as a program declares them. The planner's own type
 * (provider/plan/labCalendar.ts) is the same: sdk/labCalendar.ts fails to compile when they differ. Declared here so
 * that the package's published declarations reach no file of provider/.
 */
export interface LabCalendarSession {
  /** Weekdays, lowercase English names: monday … sunday. */
  days: string[];
  /** "HH:MM" local time of the time zone. */
  start: string;
  /** "HH:MM" local time, after start, on the same day (24:00 = midnight at the day's end). */
  stop: string;
}

export interface LabCalendar {
  /** IANA time zone of the sessions and dates (default UTC). */
  timeZone?: string;
  sessions?: LabCalendarSession[];
  /** First day of sessions (a date, or a date and time with an offset); default: from creation. */
  starts?: string;
  /** End of the term: keys expire, VMs power off. A date means the end of that day. */
  ends?: string;
}
