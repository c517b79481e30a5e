import WebSocket from 'ws';
const [cmd, payload] = [process.argv[2], JSON.parse(process.argv[3] ?? '{}')];
const ws = new WebSocket('ws://127.0.0.1:5391/v1');
ws.on('open', () => ws.send(JSON.stringify(['REQ', 'x', { cache: [cmd, payload] }])));
ws.on('message', (d) => { const m = JSON.parse(String(d)); if (m[0]==='EOSE'||m[0]==='NOTICE'){ console.log(JSON.stringify(m)); ws.close(); } else console.log(JSON.stringify(m[2]).slice(0, Number(process.env.W ?? 400))); });
