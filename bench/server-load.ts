/**
 * The latency half of `npm run bench:server`: many websocket clients against a real server
 * process on 127.0.0.1, each speaking the web client's protocol (zlib handshake, REQ, wait for
 * EOSE), for a bounded time per command. The client is kept light (binary EVENTS frames are not
 * inflated) because it shares the machine's cores with the server it measures.
 */
import WebSocket from 'ws';

export interface LoadOptions {
  clients: number;
  /** Measured time per command (after the warm-up). */
  seconds: number;
  warmupSeconds: number;
  /** Mean pause between one client's requests: the offered load is about clients / thinkMs per ms. */
  thinkMs: number;
  /** Length of the closed-loop (no pause) run that finds the most requests per second. */
  saturationSeconds: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  perSecond: number;
  maxPerSecond: number;
}

type Kwargs = Record<string, unknown>;

/** Longer than any reply takes even on a saturated server; past it the request is counted as an error. */
const REQUEST_TIMEOUT_MS = 30_000;

/** One light cache-protocol client (zlib handshake; binary replies are not inflated). */
export class Client {
  private waiting = new Map<string, (error: boolean) => void>();
  private notices = new Set<string>();
  private seq = 0;
  private closedHere = false;

  private constructor(private readonly ws: WebSocket) {
    ws.on('close', (code) => {
      // Only the server ends a client's socket before LoadGenerator.close(): worth a line in the log.
      if (!this.closedHere) console.error(`[bench] the server closed a client socket (code ${code}, ${new Date().toISOString().slice(11, 19)})`);
      for (const done of this.waiting.values()) done(true);
      this.waiting.clear();
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = data.toString();
      // Only EOSE and NOTICE matter here; a cheap prefix test keeps the client's CPU share small.
      if (text.startsWith('["NOTICE"')) {
        const msg = JSON.parse(text) as unknown[];
        this.notices.add(String(msg[1]));
      } else if (text.startsWith('["EOSE"')) {
        const sub = String((JSON.parse(text) as unknown[])[1]);
        // CLOSE after EOSE, as the web client does: the server keeps at most 200 open subscriptions per socket
        // and closes a socket that goes past them (code 1008), which ended every client after 200 requests.
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(['CLOSE', sub]));
        const done = this.waiting.get(sub);
        if (done) {
          this.waiting.delete(sub);
          done(this.notices.delete(sub));
        }
      }
    });
  }

  static async open(url: string): Promise<Client> {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const c = new Client(ws);
    await c.request('set_primal_protocol', { compression: 'zlib' });
    return c;
  }

  /**
   * Resolves with whether the reply carried a NOTICE (an error). A reply that never ends (its socket closed,
   * or no EOSE within REQUEST_TIMEOUT_MS) counts as an error too, so one lost request cannot hang the bench.
   */
  request(command: string, kwargs: Kwargs): Promise<boolean> {
    const sub = `b${++this.seq}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(sub);
        resolve(true);
      }, REQUEST_TIMEOUT_MS);
      this.waiting.set(sub, (error) => {
        clearTimeout(timer);
        resolve(error);
      });
      if (this.ws.readyState !== WebSocket.OPEN) {
        clearTimeout(timer);
        this.waiting.delete(sub);
        resolve(true);
        return;
      }
      this.ws.send(JSON.stringify(['REQ', sub, { cache: [command, kwargs] }]));
    });
  }

  close(): void {
    this.closedHere = true;
    this.ws.terminate();
  }
}

export class LoadGenerator {
  private constructor(private readonly clients: Client[]) {}

  static async connect(url: string, count: number): Promise<LoadGenerator> {
    const clients: Client[] = [];
    // A few at a time, so the server's accept queue is never the thing being measured.
    for (let i = 0; i < count; i += 10) clients.push(...(await Promise.all(Array.from({ length: Math.min(10, count - i) }, () => Client.open(url)))));
    return new LoadGenerator(clients);
  }

  /** Every client loops until `until`, pausing a random 0–2×thinkMs between requests. */
  private async drive(command: string, next: () => Kwargs, until: number, thinkMs: number, record: (ms: number, error: boolean) => void) {
    await Promise.all(
      this.clients.map(async (c, i) => {
        // Spread the first requests over one pause, as real clients do not start in lockstep.
        if (thinkMs > 0) await sleep(((i + 0.5) / this.clients.length) * thinkMs);
        while (Date.now() < until) {
          const t0 = performance.now();
          const error = await c.request(command, next());
          record(performance.now() - t0, error);
          if (thinkMs > 0) await sleep(Math.random() * 2 * thinkMs);
        }
      }),
    );
  }

  async measure(command: string, next: () => Kwargs, opts: LoadOptions): Promise<LoadResult> {
    await this.drive(command, next, Date.now() + opts.warmupSeconds * 1000, opts.thinkMs, () => undefined);
    const latencies: number[] = [];
    let errors = 0;
    const started = Date.now();
    await this.drive(command, next, started + opts.seconds * 1000, opts.thinkMs, (ms, error) => {
      latencies.push(ms);
      if (error) errors++;
    });
    const perSecond = (latencies.length * 1000) / (Date.now() - started);
    let saturated = 0;
    const satStart = Date.now();
    await this.drive(command, next, satStart + opts.saturationSeconds * 1000, 0, () => saturated++);
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
    return {
      requests: latencies.length,
      errors,
      p50: pct(50),
      p99: pct(99),
      perSecond,
      maxPerSecond: (saturated * 1000) / (Date.now() - satStart),
    };
  }

  close(): void {
    for (const c of this.clients) c.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
