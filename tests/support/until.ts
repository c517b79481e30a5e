/**
 * Polls until `probe` returns something truthy and resolves with it; a wait for a state, not a
 * timing assertion. The probe may be async (a database row, an HTTP status).
 */
export async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, ms = 20_000, everyMs = 20): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
