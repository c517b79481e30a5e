/**
 * Preloaded into a server process by `npm run load` when LOAD_TIMELINE is set (NODE_OPTIONS=--import):
 * once a second it appends to LOAD_PROBE_FILE the main thread's event-loop delay and utilisation,
 * the GC pauses and the process's CPU, so a latency tail can be laid against what the server was doing.
 * Plain JS because NODE_OPTIONS imports run before tsx is loaded.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance, PerformanceObserver, constants } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const file = process.env.LOAD_PROBE_FILE;
if (file && isMainThread) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let gc = { minor: 0, major: 0, max: 0, n: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = /** @type {{ kind?: number }} */ (e.detail ?? {}).kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.major += e.duration;
      else gc.minor += e.duration;
      gc.max = Math.max(gc.max, e.duration);
      gc.n++;
    }
  }).observe({ entryTypes: ['gc'] });
  let cpu = process.cpuUsage();
  let elu = performance.eventLoopUtilization();
  setInterval(() => {
    const c = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    const u = performance.eventLoopUtilization(elu);
    elu = performance.eventLoopUtilization();
    const line = {
      t: Date.now(),
      delayMax: delay.max / 1e6,
      delayP99: delay.percentile(99) / 1e6,
      elu: u.utilization,
      cpuMs: (c.user + c.system) / 1000,
      gcMinorMs: gc.minor,
      gcMajorMs: gc.major,
      gcMaxMs: gc.max,
      heapMb: process.memoryUsage().heapUsed / 2 ** 20,
    };
    appendFileSync(file, JSON.stringify(line) + '\n');
    delay.reset();
    gc = { minor: 0, major: 0, max: 0, n: 0 };
  }, 1000).unref();
}
