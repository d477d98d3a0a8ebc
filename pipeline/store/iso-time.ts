// A time as Date.prototype.toISOString() writes it, from the date's UTC fields. V8's toISOString
// first looks up the local time zone (ICU reads /etc/localtime and its zone data, about 0.15 ms on
// first use), which a state command's timestamps never show: the event's `ts`, the lock's
// `acquired_at` (docs/performance.md, "State commands' start-up").

/** `date.toISOString()`, without the time zone lookup for the years 0-9999 (the rest: toISOString). */
export function isoTime(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return date.toISOString(); // ±YYYYYY years, and throws for an invalid date
  return (
    `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}` +
    `T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}` +
    `.${pad(date.getUTCMilliseconds(), 3)}Z`
  );
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
