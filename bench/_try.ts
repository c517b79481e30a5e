import { benchEvents } from '/work/main/bench/server-data.ts';
import { measureIngest } from '/work/main/bench/server-ingest.ts';
const t = Date.now();
const ev = await benchEvents();
console.log('events', ev.length, (Date.now()-t)/1000);
console.log(await measureIngest(ev));
