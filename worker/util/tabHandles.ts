/**
 * What tabs hold in the worker (feeds, pages, watchers, subscriptions), by numeric handle. Every
 * service keeps its handles here, so closing one and dropping everything of a tab that went away
 * is written once.
 */
interface Held<T> {
  tabId: string;
  value: T;
  close: () => void;
}

export class TabHandles<T> {
  private readonly items = new Map<number, Held<T>>();
  private next = 1;

  /** Keeps value for the tab; `close` runs once, when the handle or the tab is closed. */
  add(tabId: string, value: T, close: () => void = () => undefined): number {
    const handle = this.next++;
    this.items.set(handle, { tabId, value, close });
    return handle;
  }

  get(handle: number): T | undefined {
    return this.items.get(handle)?.value;
  }

  has(handle: number): boolean {
    return this.items.has(handle);
  }

  *values(): IterableIterator<T> {
    for (const held of this.items.values()) yield held.value;
  }

  close(handle: number): void {
    const held = this.items.get(handle);
    if (!held) return;
    this.items.delete(handle);
    held.close();
  }

  closeTab(tabId: string): void {
    for (const [handle, held] of [...this.items]) if (held.tabId === tabId) this.close(handle);
  }

  dispose(): void {
    for (const handle of [...this.items.keys()]) this.close(handle);
  }

  get size(): number {
    return this.items.size;
  }
}
