/**
 * Calls `emit` with the latest value at most once per `ms`: the first change goes out at once,
 * later ones within the window are coalesced into one trailing call.
 */
export class Throttle<T> {
  private last = -Infinity;
  private timer?: ReturnType<typeof setTimeout>;
  private latest?: { value: T };

  constructor(
    private readonly ms: number,
    private readonly emit: (value: T) => void,
  ) {}

  push(value: T): void {
    this.latest = { value };
    if (this.timer !== undefined) return;
    const wait = this.last + this.ms - Date.now();
    if (wait <= 0) this.fire();
    else this.timer = setTimeout(() => this.fire(), wait);
  }

  /** Sends this value now, whatever the window: a first paint must not wait behind an empty loading state. */
  pushNow(value: T): void {
    this.cancel();
    this.latest = { value };
    this.fire();
  }

  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.latest = undefined;
  }

  private fire(): void {
    this.timer = undefined;
    const latest = this.latest;
    this.latest = undefined;
    if (!latest) return;
    this.last = Date.now();
    this.emit(latest.value);
  }
}
