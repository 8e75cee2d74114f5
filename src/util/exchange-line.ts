/** A request in words, as answers, timelines and crash reports show it: `POST api.example.com/auth → 401, 120 ms`. */
export function exchangeLine(e: {
  method: string;
  url: string;
  status: number | null;
  failure: string | null;
  duration_ms: number | null;
}): string {
  let where = e.url;
  try {
    const u = new URL(e.url);
    where = `${u.host}${u.pathname}`;
  } catch {
    // Shown as recorded.
  }
  const outcome = e.status !== null ? String(e.status) : (e.failure ?? 'no answer yet');
  return `${e.method} ${where} → ${outcome}${e.duration_ms !== null ? `, ${Math.round(e.duration_ms)} ms` : ''}`;
}
