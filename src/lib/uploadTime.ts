/**
 * The spec's upload time settings (the per-user record's `uploadTime`; defaults small, medium, large,
 * huge 250 ms and final 100 ms): how long one chunk of a file of each size class, and the closing
 * upload_complete step, are expected to take. They let the progress bar move while a chunk is on its
 * way instead of standing still and jumping, and every finished upload corrects them with what it measured.
 */
export type UploadSizeClass = 'small' | 'medium' | 'large' | 'huge';

const MB = 1024 * 1024;
const DEFAULT_CHUNK_MS = 250;
const DEFAULT_FINAL_MS = 100;
/** An estimate never drives the bar past this share of a step: only the server's answer completes it. */
const STEP_CAP = 0.9;
/** A learned time stays within sane bounds even after one stalled upload. */
const MIN_MS = 10;
const MAX_MS = 120_000;

export function sizeClass(bytes: number): UploadSizeClass {
  if (bytes < MB) return 'small';
  if (bytes < 10 * MB) return 'medium';
  if (bytes < 100 * MB) return 'large';
  return 'huge';
}

export interface UploadTiming {
  /** Expected milliseconds for one chunk. */
  chunkMs: number;
  /** Expected milliseconds for the closing step. */
  finalMs: number;
}

const valid = (v: unknown, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback;

/** The expected times for a file of this size, from the record (its defaults where a value is missing). */
export function timingFor(uploadTime: Record<string, number> | undefined, bytes: number): UploadTiming {
  return {
    chunkMs: valid(uploadTime?.[sizeClass(bytes)], DEFAULT_CHUNK_MS),
    finalMs: valid(uploadTime?.final, DEFAULT_FINAL_MS),
  };
}

const clamp = (ms: number) => Math.round(Math.min(MAX_MS, Math.max(MIN_MS, ms)));

/** The record after an upload of `bytes` measured these times: each value moves halfway to the measurement. */
export function learnUploadTime(
  uploadTime: Record<string, number> | undefined,
  bytes: number,
  measured: UploadTiming,
): Record<string, number> {
  const before = timingFor(uploadTime, bytes);
  return {
    ...uploadTime,
    [sizeClass(bytes)]: clamp((before.chunkMs + measured.chunkMs) / 2),
    final: clamp((before.finalMs + measured.finalMs) / 2),
  };
}

/**
 * Progress of an upload of `chunks` chunks and one closing step, as a share of the expected total time:
 * finished steps count whole, the step in flight counts its elapsed time up to 90% of its budget.
 * Never goes backwards.
 */
export class UploadProgressEstimate {
  private done = 0;
  private stepStart = 0;
  private shown = 0;
  private readonly started: number;
  private finalStarted = 0;
  private chunkTotalMs = 0;

  constructor(
    private readonly chunks: number,
    private readonly timing: UploadTiming,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = this.stepStart = now();
  }

  private get total(): number {
    return this.chunks * this.timing.chunkMs + this.timing.finalMs;
  }

  /** A chunk was answered by the server. */
  chunkDone(): void {
    const t = this.now();
    this.done = Math.min(this.chunks, this.done + 1);
    this.stepStart = t;
    if (this.done === this.chunks) {
      this.chunkTotalMs = t - this.started;
      this.finalStarted = t;
    }
  }

  fraction(): number {
    if (this.done >= this.chunks + 1) return 1;
    const inFinal = this.done === this.chunks;
    const budget = inFinal ? this.timing.finalMs : this.timing.chunkMs;
    const elapsed = Math.min(this.now() - this.stepStart, budget * STEP_CAP);
    const value = (this.done * this.timing.chunkMs + elapsed) / this.total;
    this.shown = Math.max(this.shown, Math.min(value, 0.99));
    return this.shown;
  }

  /** The closing step was answered: the upload is complete. Returns the measured times. */
  finish(): UploadTiming {
    const t = this.now();
    this.done = this.chunks + 1;
    const chunkTotal = this.chunkTotalMs || t - this.started;
    return {
      chunkMs: chunkTotal / Math.max(1, this.chunks),
      finalMs: this.finalStarted ? t - this.finalStarted : this.timing.finalMs,
    };
  }
}
